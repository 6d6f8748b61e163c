// Which built files a file of dist/ loads: what the size budgets add up (test/support/size.mjs) and
// what the CDN snippet's import map vouches for (scripts/sri.mjs). Every import between the files
// is relative (vite.config.ts), so following the specifiers finds them all.
import { readFileSync } from 'node:fs';

const distDir = new URL('../dist/', import.meta.url);

/** The relative specifiers in `file` that `pattern` captures, as paths relative to dist/. */
const specifiers = (file, pattern) => {
  const code = readFileSync(new URL(file, distDir), 'utf8');
  const base = new URL(file, 'file:///');
  return [...new Set([...code.matchAll(pattern)].map((m) => new URL(m[1], base).pathname.slice(1)))];
};

/** The files `file` imports statically (`import … from "./x.js"`, `import "./x.js"`), relative to dist/. */
export const staticImports = (file) => specifiers(file, /(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g);

/** The files `file` may import when it runs (`import("./x.js")`), relative to dist/. */
export const dynamicImports = (file) => specifiers(file, /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g);

/** `file` and every file it may load, statically or when it runs, transitively. */
export function reachable(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of [...staticImports(file), ...dynamicImports(file)]) reachable(next, seen);
  return seen;
}

/** `file` and everything it imports statically, transitively. */
export function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of staticImports(file)) staticClosure(next, seen);
  return seen;
}
