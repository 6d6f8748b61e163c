// `npm run size`: what each piece of the widget costs a visitor, minified + gzipped (zlib level 9),
// against its budget. The bundle test enforces the same budgets.
//
// - shell: dist/agent-chat.js (and the classic script, dist/agent-chat.iife.js), loaded by every
//   page view of a site;
// - first open: the shell plus everything it takes to open, greet and show a text and a buttons
//   reply: the view (dist/agent-chat-view.js) and what it imports statically (the engine,
//   dist/agent-chat-engine.js);
// - all: every file a browser may load (the lazy feature chunks too; the classic script counted once,
//   as the ES shell stands for it).
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const BUDGETS = { shell: 4_096, firstOpen: 51_400, all: 57_000 };

/**
 * Where the first-open budget is going (issue 10): 1.2× what Lit, marked and DOMPurify weigh bundled
 * alone. The libraries take ~31 KB of the path, so our own code there has to shrink from ~16 KB to
 * ~10 KB; until it does, the enforced budget is the measured size plus a little, so it cannot grow
 * (raised from 46,800 to 47,100 for the windowed log, which met the time goals at 1,000 messages,
 * and to 47,600 for readable tables, code and quotes, linked altText addresses and the Undo of a
 * new conversation: issue 11), to 47,700 for the log drawing a waiting message as it is now, and to
 * 47,800 for colours derived from those a site sets, readable in both schemes (issue 11; +165 B),
 * and to 51,000 for the rest of issue 11 that a first open draws (message times and day separators,
 * answered choices, the header's picture, subtitle and download button, copy buttons on code,
 * feedback thumbs, open/close animation and button states: +3.1 KB; the teaser and reply preview,
 * the transcript file, and the strings of other languages load as chunks of their own), and to
 * 51,100 when the view's launcher side became a module of its own (STYLE: split past ~400 lines; +107 B),
 * and to 51,300 for the shade at the edge of code and tables that scroll sideways (issue 11's "visible
 * affordance", which overlay scrollbars do not give; +155 B), and to 51,400 for the engine asked for
 * with the view (one round trip less; +12 B) and the date formats made when needed, the first one
 * while the greeting is on its way (the page's first costs ~20 ms; +53 B).
 *
 * `all` was 52,000 in issue 10 ("room for the features that are coming"); issue 11's features took
 * it to 56,636, and the scroll shades and first-open timing to 56,842 (the split's chunks each compress on their own, and a lazy chunk costs more in all
 * than it saves in the first open). Until the widget's own code shrinks, the enforced figure is the
 * measured one plus a little: see README "Not yet".
 */
export const TARGETS = { firstOpen: 41_245, all: 52_000 };

const distDir = new URL('../../dist/', import.meta.url);

export const gzipBytes = (file) => gzipSync(readFileSync(new URL(file, distDir)), { level: 9 }).length;

/** The files `file` imports statically (`import … from "./x.js"`, `import "./x.js"`), relative to dist/. */
export function staticImports(file) {
  const code = readFileSync(new URL(file, distDir), 'utf8');
  const base = new URL(file, 'file:///');
  const found = [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => new URL(m[1], base).pathname.slice(1));
  return [...new Set(found)];
}

/** `file` and everything it imports statically, transitively. */
export function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of staticImports(file)) staticClosure(next, seen);
  return seen;
}

/** Every browser file: the ES files at the top of dist/ and in dist/chunks/ (not the Node ones, *.node.js and chunks/node-*). */
export function browserFiles() {
  const top = readdirSync(distDir).filter((f) => f.endsWith('.js') && !f.endsWith('.node.js') && !f.endsWith('.iife.js'));
  const chunks = readdirSync(new URL('chunks/', distDir)).filter((f) => f.endsWith('.js') && !f.startsWith('node-')).map((f) => `chunks/${f}`);
  return [...top, ...chunks];
}

export function sizes() {
  const sum = (files) => [...files].reduce((n, f) => n + gzipBytes(f), 0);
  const firstOpenFiles = new Set([...staticClosure('agent-chat.js'), ...staticClosure('agent-chat-view.js')]);
  const all = browserFiles();
  return {
    shell: Math.max(gzipBytes('agent-chat.js'), gzipBytes('agent-chat.iife.js')),
    firstOpen: sum(firstOpenFiles),
    all: sum(all),
    files: Object.fromEntries([...all, 'agent-chat.iife.js'].map((f) => [f, gzipBytes(f)])),
    firstOpenFiles: [...firstOpenFiles],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const measured = sizes();
  const bytes = (n) => `${n.toLocaleString('en')} B`;
  for (const [file, size] of Object.entries(measured.files)) {
    console.log(`  ${file.padEnd(34)} ${bytes(size).padStart(9)}${measured.firstOpenFiles.includes(file) ? '  (first open)' : ''}`);
  }
  let over = false;
  for (const [name, budget] of Object.entries(BUDGETS)) {
    const size = measured[name];
    over ||= size > budget;
    const target = TARGETS[name] ? `; target ${bytes(TARGETS[name])}: ${size > TARGETS[name] ? `${bytes(size - TARGETS[name])} to go` : 'met'}` : '';
    console.log(`${name.padEnd(10)} ${bytes(size).padStart(9)} of ${bytes(budget)}: ${size > budget ? `${bytes(size - budget)} OVER` : `${bytes(budget - size)} left`}${target}`);
  }
  process.exitCode = over ? 1 : 0;
}
