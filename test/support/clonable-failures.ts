/**
 * Loaded before every browser test file (web-test-runner.config.mjs, `testRunnerHtml`).
 *
 * @web/test-runner sends each test's result out of the page through `structuredClone`, a failed
 * assertion's `actual` and `expected` with it. An element there — `expect(part(chat, 'badge'))
 * .to.equal(null)` failing — cannot be cloned: the send threw, and the run waited for that file
 * until `testsFinishTimeout` (300 s), to say only that it "did not finish", with none of the file's
 * results in that engine (modernweb-dev/web#2967). A failed assertion's value that cannot be cloned
 * is given as chai writes it in its message: `expected <span part="badge">…</span> to equal null`.
 * test/bundle/summary.test.ts runs a failing fixture through it.
 */
import { chai } from '@open-wc/testing';

const clonable = (value: unknown) => {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
};

const { assert } = chai.Assertion.prototype;
chai.Assertion.prototype.assert = function (this: Chai.AssertionStatic, ...args: Parameters<typeof assert>) {
  try {
    return assert.apply(this, args);
  } catch (error) {
    const failure = error as { actual?: unknown; expected?: unknown };
    for (const key of ['actual', 'expected'] as const) if (!clonable(failure[key])) failure[key] = chai.util.inspect(failure[key]);
    throw error;
  }
};
