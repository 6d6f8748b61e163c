// Prints one plain closing line, e.g. "wtr: 12 passed, 0 failed, 1 skipped", counted over every
// browser. Written at process exit so it comes after wtr's dynamic progress output.
import { writeSync } from 'node:fs';

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
      for (const s of sessions) {
        walk(s.testResults, acc);
        // a file that failed to load, or whose browser did not start, has errors but maybe no tests
        if (!s.passed && (s.errors?.length ?? 0) > 0) acc.failed += s.errors.length;
      }
      const line = `wtr: ${acc.passed} passed, ${acc.failed} failed, ${acc.skipped} skipped`;
      process.once('exit', () => writeSync(1, `\n${line}\n`));
    },
  };
}
