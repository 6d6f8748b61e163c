import { expect } from '@open-wc/testing';
import { RETRY, retryDelay } from '../../src/conversation/backoff.js';

describe('retryDelay', () => {
  // [attempt, Retry-After ms, random(), expected ms]
  const table: [number, number | undefined, number, number][] = [
    // Exponential ceilings with "equal jitter": half fixed, half random.
    [1, undefined, 0, 250], [1, undefined, 1, 500],
    [2, undefined, 0, 500], [2, undefined, 1, 1000],
    [3, undefined, 0.5, 1500],
    [6, undefined, 0, 8000], [6, undefined, 1, 16_000],
    // Capped at RETRY.maxMs from the 7th retry on, and for ever after (no overflow at 1,000).
    [7, undefined, 0, 15_000], [7, undefined, 1, 30_000],
    [50, undefined, 1, 30_000], [1000, undefined, 0, 15_000], [1000, undefined, 1, 30_000],
    // Retry-After makes the wait longer, never shorter than the backoff...
    [1, 5000, 1, 5000], [1, 0, 0, 250], [6, 1000, 0, 8000],
    // ...and counts up to RETRY.maxRetryAfterMs: above it the client asks again then.
    [1, 60_000, 0, 60_000], [1, 3_600_000, 0, 60_000], [9, 3_600_000, 1, 60_000],
  ];
  for (const [attempt, retryAfter, random, expected] of table) {
    it(`attempt ${attempt}, Retry-After ${retryAfter ?? '—'}, random ${random} → ${expected} ms`, () => {
      expect(retryDelay(attempt, retryAfter, () => random)).to.equal(expected);
    });
  }

  it('stays within [ceiling/2, ceiling] for any randomness', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (attempt - 1));
      for (const random of [0, 0.001, 0.25, 0.5, 0.999]) {
        expect(retryDelay(attempt, undefined, () => random)).to.be.within(ceiling / 2, ceiling);
      }
    }
  });

  it('never waits longer than RETRY.maxRetryAfterMs, so retries never stop for long', () => {
    expect(RETRY.maxMs).to.be.at.most(30_000);
    for (const retryAfter of [undefined, 0, 45_000, 120_000, Number.MAX_SAFE_INTEGER]) {
      expect(retryDelay(1000, retryAfter, () => 1)).to.be.at.most(RETRY.maxRetryAfterMs);
    }
  });
});
