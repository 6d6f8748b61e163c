/**
 * The in-memory rate-limit store (src/server/proxy/rate-limit.ts), with its clock injected: fixed
 * windows per key, a new one once the last has ended, and expired windows swept once the map grows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimitStore, retryAfterSeconds } from '../../src/server/proxy/rate-limit.js';

describe('MemoryRateLimitStore', () => {
  it('counts a key\'s requests in a window of its own; at the window\'s end a new one begins', async () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    assert.deepEqual(await store.hit('a', 60_000), { count: 1, resetAt: 61_000 });
    assert.deepEqual(await store.hit('a', 60_000), { count: 2, resetAt: 61_000 });
    assert.deepEqual(await store.hit('b', 60_000), { count: 1, resetAt: 61_000 }, 'another key, its own count');
    now = 60_999;
    assert.deepEqual(await store.hit('a', 60_000), { count: 3, resetAt: 61_000 }, 'a millisecond before its end: the same window');
    now = 61_000;
    assert.deepEqual(await store.hit('a', 60_000), { count: 1, resetAt: 121_000 }, 'at its end: a new window');
  });

  it('once it holds `sweepAbove` windows, a new window first sweeps those that have ended (and only those)', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ now: () => now, sweepAbove: 3 });
    await store.hit('old-1', 1_000);
    await store.hit('old-2', 1_000);
    await store.hit('live', 5_000);
    now = 1_000; // old-1 and old-2 have just ended
    assert.equal(store.size, 3, 'three windows held, none swept yet');
    await store.hit('new', 1_000);
    // A window swept is a new one at the next hit: count 1. A window kept counts on.
    assert.equal((await store.hit('live', 5_000)).count, 2, 'a window still running is kept');
    assert.equal(store.size, 2, 'the two ended windows swept as "new" began: "live" and "new" held');
  });
});

describe('retryAfterSeconds', () => {
  it("is the seconds until the window ends, rounded up, and at least 1 (a window that has just ended: the next second)", () => {
    assert.equal(retryAfterSeconds({ count: 61, resetAt: 31_000 }, 1_000), 30);
    assert.equal(retryAfterSeconds({ count: 61, resetAt: 31_001 }, 1_000), 31);
    assert.equal(retryAfterSeconds({ count: 61, resetAt: 1_000 }, 1_000), 1);
  });
});
