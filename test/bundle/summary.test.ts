// `npm test`'s closing lines: a browser engine it could not run is named, and counted as skipped,
// so a machine without Firefox or WebKit never reads as a clean "N passed, 0 failed".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summary } from '../support/summary.mjs';

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
});
