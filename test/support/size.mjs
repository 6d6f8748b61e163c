// `npm run size`: the minified + gzipped size of what a script tag loads, against the budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 45_000;

export function bundleSizes(file = new URL('../../dist/agent-chat.js', import.meta.url)) {
  const source = readFileSync(file);
  return { min: source.length, gzip: gzipSync(source, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { min, gzip } = bundleSizes();
  const bytes = (n) => `${n.toLocaleString('en')} bytes`;
  console.log(`dist/agent-chat.js: ${bytes(min)} min, ${bytes(gzip)} min+gzip (zlib level 9); budget ${bytes(BUDGET_BYTES)}, ${bytes(BUDGET_BYTES - gzip)} left`);
  process.exitCode = gzip > BUDGET_BYTES ? 1 : 0;
}
