// `npm test`'s closing lines: a browser engine it could not run is named, and counted as skipped,
// so a machine without Firefox or WebKit never reads as a clean "N passed, 0 failed"; each test
// that failed is named there, from what node:test, @web/test-runner and Playwright really print
// (CI shows only the end of a run's output: a browser test that failed once in CI could not be named).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { summary } from '../support/summary.mjs';
import { failedTests } from '../support/failures.mjs';
import { browserTests, quietRun } from '../support/browser-suite.mjs';
import { CHROMIUM } from '../support/browsers.mjs';
import CountReporter from '../e2e/count-reporter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const run = quietRun(root);

describe('npm test summary', () => {
  it('ends with "N passed, N failed" when every engine ran', () => {
    const out = summary(['node: 3 passed, 0 failed'], { passed: 3, failed: 0, skipped: 0 });
    assert.equal(out.split('\n').at(-1), '3 passed, 0 failed');
    assert.doesNotMatch(out, /skipped/);
  });

  it('names each engine or suite it skipped and counts it in the closing line', () => {
    const out = summary(['browsers: 10 passed, 0 failed'], { passed: 10, failed: 0, skipped: 0 }, [
      { name: 'browser tests in firefox', why: 'not installed' },
      { name: 'Redis rate-limit store', why: 'redis-server is not installed' },
    ]);
    const lines = out.split('\n');
    assert.equal(lines.at(-1), '10 passed, 0 failed, 2 skipped');
    assert.ok(lines.includes('skipped: browser tests in firefox (not installed); Redis rate-limit store (redis-server is not installed)'), out);
  });

  it('names each test that failed, above the closing line', () => {
    const out = summary(['browsers: 9 passed, 1 failed'], { passed: 9, failed: 1, skipped: 0 }, [], ['Firefox test/a.test.ts › b: c']);
    const lines = out.split('\n');
    assert.equal(lines.at(-1), '9 passed, 1 failed');
    assert.deepEqual(lines.slice(lines.indexOf('failed:'), lines.indexOf('failed:') + 2), ['failed:', '  Firefox test/a.test.ts › b: c'], out);
  });
});

describe('the tests a suite says failed', () => {
  it("node:test's spec reporter: the failed test by name and place, not its suite or the one that passed", async () => {
    const { code, output } = await run('node', ['--test', '--test-reporter=spec', 'test/bundle/fixtures/failing/fails.test.mjs']);
    assert.equal(code, 1, output);
    assert.deepEqual(failedTests(output), ['a test that fails (test/bundle/fixtures/failing/fails.test.mjs:6:3)'], output);
  });

  it('@web/test-runner in a real browser: the engine, the file, the suite, the test and the first line of its error', { skip: !CHROMIUM && 'Chromium is not installed' }, async () => {
    const runs = await browserTests(run, ['chromium'], { root, files: ['test/bundle/fixtures/failing/fails.test.js'] });
    assert.equal(runs.length, 1, JSON.stringify(runs));
    assert.deepEqual(runs[0].counts, { passed: 1, failed: 1, skipped: 0 });
    assert.notEqual(runs[0].code, 0);
    assert.equal(runs[0].failed.length, 1, JSON.stringify(runs));
    assert.match(runs[0].failed[0], /^Chromium test\/bundle\/fixtures\/failing\/fails\.test\.js › a suite › a test that fails: one is two: expected 1 to equal 2$/);
  });

  it('@web/test-runner: a failure whose value is an element is told with the element as text, and the file goes on (it was a run that never finished)', { skip: !CHROMIUM && 'Chromium is not installed' }, async () => {
    // 60 s, not the suite's 300: a run that does not finish fails this test sooner.
    const runs = await browserTests(quietRun(root, { WTR_FINISH_TIMEOUT: '60000' }), ['chromium'], { root, files: ['test/bundle/fixtures/failing/fails-with-element.test.js'] });
    assert.equal(runs.length, 1, JSON.stringify(runs));
    assert.deepEqual(runs[0].counts, { passed: 1, failed: 1, skipped: 0 }, JSON.stringify(runs));
    assert.match(runs[0].failed[0], /› a test whose failure holds an element: no badge: expected <span part="badge">1<\/span> to equal null$/);
  });

  it("Playwright's closing lines: a test that failed in the end, not one that passed when retried", () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      const reporter = new CountReporter();
      const test = (id: string, title: string, outcome: string) =>
        ({ id, title, outcome: () => outcome, annotations: [], location: { file: `${root}test/e2e/x.spec.ts`, line: 7, column: 3 } }) as never;
      reporter.onTestEnd(test('1', 'fails', 'unexpected'), { error: { message: '\x1b[31mError: expect(received)\x1b[39m\nmore' } } as never);
      reporter.onTestEnd(test('2', 'flaky', 'unexpected'), { error: { message: 'once' } } as never);
      reporter.onTestEnd(test('2', 'flaky', 'flaky'), {} as never);
      reporter.onEnd();
    } finally {
      console.log = log;
    }
    const output = lines.join('\n');
    assert.deepEqual(failedTests(output), ['x.spec.ts:7 › fails: Error: expect(received)'], output);
    assert.match(output, /^playwright: 1 passed, 1 failed, 0 skipped$/m);
  });
});
