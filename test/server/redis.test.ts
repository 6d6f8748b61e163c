// Scale-out with a real shared store: two proxy instances on one redis-server (started here on a
// loopback port) enforce one limit together; an outage is reported once and fails open or closed.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { createProxy, RateLimitUnavailableError, redisRateLimitStore, type RedisEvalClient, type RedisRateLimitStoreOptions } from '../../src/server/proxy/index.js';
import { redisMissing, startCli, stopClis, useRedisAndUpstream } from './support/redis.js';
import { activeTimers } from './support/servers.js';

const body = (sender: string) => JSON.stringify({ message: { text: 'hi' }, sender: { id: sender } });
const post = (url: string, sender: string) =>
  fetch(`${url}/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body(sender) });

describe('Redis rate-limit store', { skip: redisMissing }, () => {
  const fixture = useRedisAndUpstream();

  async function proxyOnRedis(options: RedisRateLimitStoreOptions = {}, rateLimitPerMinute = 60) {
    const client = await fixture.client();
    return fixture.serve(createProxy({
      upstreamUrl: fixture.upstream.url, handle: 'h', token: 'fake-token-not-a-secret', allowedOrigins: '*', rateLimitPerMinute,
      rateLimitStore: redisRateLimitStore(client, { prefix: `test:${Math.random()}:`, ...options }), log: () => undefined,
    }));
  }

  it('two instances sharing one Redis enforce one limit: the 61st request in a minute gets 429 with Retry-After', async () => {
    const a = await proxyOnRedis({ prefix: 'shared:' });
    const b = await proxyOnRedis({ prefix: 'shared:' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 61; i++) {
      last = await post((i % 2 ? b : a).url, 'roaming-visitor');
      statuses.push(last.status);
    }
    assert.deepEqual(statuses.slice(0, 60), Array(60).fill(200), 'sixty across both instances');
    assert.equal(statuses[60], 429, 'the 61st, on either instance');
    const retryAfter = Number(last!.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });

  it('a Redis outage is reported once and fails open by default; the limit is back with Redis', async () => {
    const reports: string[] = [];
    const proxy = await proxyOnRedis({ report: (m) => reports.push(m) }, 1);
    assert.equal((await post(proxy.url, 'v1')).status, 200);
    assert.equal((await post(proxy.url, 'v1')).status, 429, 'the limit holds while Redis is up');
    await fixture.redis.stop();
    try {
      assert.equal((await post(proxy.url, 'v2')).status, 200, 'open: requests go on');
      assert.equal((await post(proxy.url, 'v2')).status, 200, 'without the shared limit');
      assert.equal(reports.length, 1, `reported once: ${JSON.stringify(reports)}`);
      assert.match(reports[0], /rate-limit store \(Redis\) is unavailable .*letting requests through/);
    } finally {
      await fixture.redis.start();
    }
  });

  it('fails closed when configured: 503 with Retry-After while Redis is down', async () => {
    const reports: string[] = [];
    const proxy = await proxyOnRedis({ onOutage: 'closed', report: (m) => reports.push(m) });
    assert.equal((await post(proxy.url, 'v3')).status, 200);
    await fixture.redis.stop();
    try {
      const refused = await post(proxy.url, 'v3');
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.deepEqual(await refused.json(), { status: 'error', error: 'Rate limiting is unavailable, so requests are refused for now; try again shortly' });
      assert.match(reports[0], /refusing requests \(503\)/);
    } finally {
      await fixture.redis.start();
    }
  });

  it('the CLI shares limits through REDIS_URL', async () => {
    const children: ChildProcess[] = [];
    const env = { AGENT_API_URL: fixture.upstream.url, AGENT_HANDLE: 'h', AGENT_API_TOKEN: 'fake-token-not-a-secret', ALLOWED_ORIGINS: '*', RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: fixture.redis.url };
    try {
      const [one, two] = [await startCli(env, children), await startCli(env, children)];
      const sender = `cli-${Math.random()}`;
      const statuses = [(await post(one, sender)).status, (await post(two, sender)).status, (await post(one, sender)).status];
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await stopClis(children);
    }
  });
});

// With a client of its own (no redis-server needed): what the store makes of each answer, and of none.
describe('Redis rate-limit store, its client scripted', () => {
  const answering = (reply: unknown): RedisEvalClient => ({ eval: async () => reply });
  const hung: RedisEvalClient = { eval: () => new Promise(() => undefined) };

  it("a window ends when Redis says its key expires; a key with no time left is a new window's", async () => {
    const before = Date.now();
    const { count, resetAt } = await redisRateLimitStore(answering([3, 30_000])).hit('k', 60_000);
    assert.equal(count, 3);
    assert.ok(resetAt >= before + 30_000 && resetAt <= Date.now() + 30_000, `${resetAt - before} ms from now`);
    for (const ttl of [0, -1]) {
      const start = Date.now();
      const fresh = await redisRateLimitStore(answering([1, ttl])).hit('k', 60_000);
      assert.ok(fresh.resetAt >= start + 60_000 && fresh.resetAt <= Date.now() + 60_000, `ttl ${ttl}: ${fresh.resetAt - start} ms from now`);
    }
  });

  it('a Redis that does not answer (hung, not down) holds no request past timeoutMs: open lets it through, closed refuses it; said once', { timeout: 10_000 }, async () => {
    const reports: string[] = [];
    const open = redisRateLimitStore(hung, { timeoutMs: 50, report: (message) => reports.push(message) });
    assert.equal((await open.hit('k', 60_000)).count, 0, 'let through');
    assert.equal((await open.hit('k', 60_000)).count, 0);
    assert.equal(reports.length, 1, 'said once per outage');
    assert.match(reports[0], /no answer within 50 ms/);
    const closed = redisRateLimitStore(hung, { timeoutMs: 50, onOutage: 'closed', report: () => undefined });
    await assert.rejects(closed.hit('k', 60_000), RateLimitUnavailableError);
  });

  it('leaves no timer running once Redis has answered', async () => {
    const store = redisRateLimitStore(answering([1, 60_000]), { timeoutMs: 30_000 });
    const before = activeTimers();
    for (let i = 0; i < 3; i++) await store.hit('k', 60_000);
    assert.ok(activeTimers() <= before, `${activeTimers() - before} timers more than before`);
  });
});
