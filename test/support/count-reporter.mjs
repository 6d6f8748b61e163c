// Prints one plain closing line, e.g. "wtr: 12 passed, 0 failed, 1 skipped", counted over every
// browser. Written at process exit so it comes after wtr's dynamic progress output.
//
// With WTR_CRASHED=<file>, a test file cut short because its browser died (not because of a test)
// is not counted: it is written to that file as [{ engine, file }] for `npm test` to run again in a
// new browser, and the line ends ", N cut short". Without it, such a file counts as failed.
import { writeFileSync, writeSync } from 'node:fs';
import { BROWSER_DISCONNECTED } from './browsers.mjs';

export function countReporter() {
  const walk = (suite, acc) => {
    if (!suite) return acc;
    for (const t of suite.tests) {
      if (t.skipped) acc.skipped++;
      else if (t.passed) acc.passed++;
      else acc.failed++;
    }
    for (const s of suite.suites) walk(s, acc);
    return acc;
  };
  return {
    stop({ sessions }) {
      const acc = { passed: 0, failed: 0, skipped: 0 };
      const cutShort = [];
      for (const s of sessions) {
        if (process.env.WTR_CRASHED && s.errors?.some((e) => e.message === BROWSER_DISCONNECTED)) {
          cutShort.push({ engine: s.browser.name.toLowerCase(), file: s.testFile });
          continue;
        }
        walk(s.testResults, acc);
        // a file that failed to load, or whose browser did not start, has errors but maybe no tests
        if (!s.passed && (s.errors?.length ?? 0) > 0) acc.failed += s.errors.length;
      }
      if (process.env.WTR_CRASHED) writeFileSync(process.env.WTR_CRASHED, JSON.stringify(cutShort));
      const line = `wtr: ${acc.passed} passed, ${acc.failed} failed, ${acc.skipped} skipped${cutShort.length ? `, ${cutShort.length} cut short` : ''}`;
      process.once('exit', () => writeSync(1, `\n${line}\n`));
    },
  };
}
