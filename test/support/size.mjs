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
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(`dist/agent-chat.js: ${kb(min)} min, ${kb(gzip)} min+gzip (budget ${kb(BUDGET_BYTES)}, ${kb(BUDGET_BYTES - gzip)} left)`);
  process.exitCode = gzip > BUDGET_BYTES ? 1 : 0;
}
