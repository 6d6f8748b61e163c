// Prints one plain closing line, e.g. "wtr: 12 passed, 0 failed, 1 skipped", counted over every
// browser, after a line per failed test ("wtr failed: Firefox test/x.test.ts › suite › test: error"),
// which `npm test` names in its summary. Written at process exit so it comes after wtr's dynamic
// progress output.
//
// With WTR_CRASHED=<file>, a test file cut short because its browser died (not because of a test)
// is not counted: it is written to that file as [{ engine, file }] for `npm test` to run again in a
// new browser, and the line ends ", N cut short". Without it, such a file counts as failed.
import { writeFileSync, writeSync } from 'node:fs';
import { relative } from 'node:path';
import { BROWSER_DISCONNECTED } from './browsers.mjs';

export function countReporter() {
  const firstLine = (error) => String(error?.message ?? error ?? '').split('\n')[0].slice(0, 200);
  const walk = (suite, acc, where, path = []) => {
    if (!suite) return acc;
    const inside = suite.name ? [...path, suite.name] : path;
    for (const t of suite.tests) {
      if (t.skipped) acc.skipped++;
      else if (t.passed) acc.passed++;
      else {
        acc.failed++;
        acc.names.push(`${where} › ${[...inside, t.name].join(' › ')}: ${firstLine(t.error)}`);
      }
    }
    for (const s of suite.suites) walk(s, acc, where, inside);
    return acc;
  };
  return {
    stop({ sessions }) {
      const acc = { passed: 0, failed: 0, skipped: 0, names: [] };
      const cutShort = [];
      for (const s of sessions) {
        if (process.env.WTR_CRASHED && s.errors?.some((e) => e.message === BROWSER_DISCONNECTED)) {
          cutShort.push({ engine: s.browser.name.toLowerCase(), file: s.testFile });
          continue;
        }
        const where = `${s.browser.name} ${relative(process.cwd(), s.testFile)}`;
        walk(s.testResults, acc, where);
        // a file that failed to load, or whose browser did not start, has errors but maybe no tests
        if (!s.passed && (s.errors?.length ?? 0) > 0) {
          acc.failed += s.errors.length;
          for (const e of s.errors) acc.names.push(`${where}: ${firstLine(e)}`);
        }
      }
      if (process.env.WTR_CRASHED) writeFileSync(process.env.WTR_CRASHED, JSON.stringify(cutShort));
      const line = `wtr: ${acc.passed} passed, ${acc.failed} failed, ${acc.skipped} skipped${cutShort.length ? `, ${cutShort.length} cut short` : ''}`;
      const failed = acc.names.map((name) => `wtr failed: ${name}\n`).join('');
      process.once('exit', () => writeSync(1, `\n${failed}${line}\n`));
    },
  };
}
