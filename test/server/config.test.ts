/**
 * `readProxyEnv` (src/server/proxy/config.ts) in this process: each setting refused with the message
 * that names it (the table the CLI test runs through the built CLI, test/server/support/settings.ts),
 * and what valid settings come to: defaults, bounds, trimming, the forms each takes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, readProxyEnv } from '../../src/server/proxy/index.js';
import { BAD_SETTINGS, SETTINGS, TOKEN } from './support/settings.js';

const UPSTREAM = 'http://127.0.0.1:9';
const read = (change: Record<string, string | undefined>) => {
  const env: Record<string, string | undefined> = { ...SETTINGS(UPSTREAM), ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete env[key];
  return readProxyEnv(env);
};

/** `change` refused with a ConfigError whose message matches `message`. */
const refuses = (change: Record<string, string | undefined>, message: RegExp) =>
  assert.throws(() => read(change), (error: Error) => error instanceof ConfigError && message.test(error.message));

describe('readProxyEnv: what it refuses', () => {
  for (const [what, change, message] of BAD_SETTINGS) {
    it(`refuses ${what}, naming the setting`, () => {
      assert.throws(() => read(change), (error: Error) => {
        assert.ok(error instanceof ConfigError, `${error.name}: ${error.message}`);
        assert.match(`agent-chat-proxy: ${error.message}`, message);
        assert.ok(!error.message.includes(TOKEN) && !error.message.includes('s3cret-pass'), 'no secret in the message');
        return true;
      });
    });
  }

  const outOfRange: [string, string][] = [
    ['PORT', '65536'], ['PORT', '-1'], ['PORT', '80.5'], ['PORT', '1e3'], ['PORT', '80 443'],
    ['AGENT_TIMEOUT_MS', '99'], ['AGENT_TIMEOUT_MS', '600001'], ['RATE_LIMIT_PER_MINUTE', '1000001'], ['RATE_LIMIT_PER_MINUTE', '-5'],
  ];
  for (const [name, value] of outOfRange) {
    it(`refuses ${name}=${value}: a whole number within its bounds`, () => {
      refuses({ [name]: value }, new RegExp(`^${name} must be a whole number from \\d+ to \\d+, not "${value.replace('.', '\\.')}"$`));
    });
  }

  it('refuses each URL setting that is not http(s), and each origin that is not one', () => {
    refuses({ AGENT_API_URL: 'ftp://agents.example' }, /^AGENT_API_URL must use http or https, not ftp:$/);
    refuses({ AGENT_API_URL: 'https://agents.example/v1/api/events' }, /without \/api\/events/);
    refuses({ AGENT_API_URL: 'https://ada@agents.example' }, /must not hold a user name or password/);
    refuses({ ALLOWED_ORIGINS: 'https://shop.example,not an origin' }, /^ALLOWED_ORIGINS: "not an origin" is not an origin/);
    refuses({ ALLOWED_ORIGINS: 'file:///etc' }, /must be a bare origin/);
    refuses({ ALLOWED_ORIGINS: 'https://shop.example,*' }, /"\*" is not an origin/); // (* is for any origin alone)
    refuses({ REDIS_URL: 'redis://' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, not "redis:\/\/"$/);
    refuses({ REDIS_URL: 'http://cache.internal:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    refuses({ REDIS_URL: 'myredis://cache.internal:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    refuses({ AGENT_API_TOKEN: 'bearer abc' }, /without "Bearer "/);
    refuses({ AGENT_API_TOKEN: 'tok en' }, /one word of visible characters/);
    refuses({ AGENT_API_TOKEN: 'tokén' }, /one word of visible characters/);
    refuses({ AGENT_HANDLE: '   ' }, /^AGENT_HANDLE is not set/);
  });
});

describe('readProxyEnv: what valid settings come to', () => {
  it('the defaults, for what is not set', () => {
    assert.deepEqual(readProxyEnv({ AGENT_API_URL: 'https://agents.example', AGENT_HANDLE: 'h', AGENT_API_TOKEN: TOKEN, ALLOWED_ORIGINS: '*' }), {
      upstreamUrl: 'https://agents.example', handle: 'h', token: TOKEN, allowedOrigins: '*', port: 8787, host: '127.0.0.1',
      timeoutMs: 15_000, rateLimitPerMinute: 60, trustedProxies: undefined, debug: false,
    });
  });

  it('each value trimmed; the URL without its trailing slashes; origins each bare, listed', () => {
    const config = read({
      AGENT_API_URL: ' https://agents.example/base// ', AGENT_HANDLE: ' h ', ALLOWED_ORIGINS: ' https://shop.example , http://localhost:5173/ ',
      PORT: ' 8080 ', HOST: ' 0.0.0.0 ', AGENT_TIMEOUT_MS: '100', RATE_LIMIT_PER_MINUTE: '0', PROXY_DEBUG: ' 1 ',
    });
    assert.equal(read({ AGENT_API_URL: 'https://agents.example/api/eventsource' }).upstreamUrl, 'https://agents.example/api/eventsource', 'a base whose path only begins like the endpoint');
    assert.deepEqual(config, {
      upstreamUrl: 'https://agents.example/base', handle: 'h', token: TOKEN, allowedOrigins: ['https://shop.example', 'http://localhost:5173'],
      port: 8080, host: '0.0.0.0', timeoutMs: 100, rateLimitPerMinute: 0, trustedProxies: undefined, debug: true,
    });
  });

  it('the bounds of each number are taken', () => {
    assert.deepEqual([read({ PORT: '0' }).port, read({ PORT: '65535' }).port], [0, 65535]);
    assert.deepEqual([read({ AGENT_TIMEOUT_MS: '100' }).timeoutMs, read({ AGENT_TIMEOUT_MS: '600000' }).timeoutMs], [100, 600_000]);
    assert.deepEqual([read({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute, read({ RATE_LIMIT_PER_MINUTE: '1000000' }).rateLimitPerMinute], [0, 1_000_000]);
  });

  it('PROXY_DEBUG on as 1 or true, off as 0, false or nothing', () => {
    assert.deepEqual(['1', 'true', '0', 'false', '', undefined].map((value) => read({ PROXY_DEBUG: value }).debug), [true, true, false, false, false, false]);
  });

  it('trusted proxies as a list, empty entries dropped; Redis with what to do while it is down (open unless closed)', () => {
    assert.deepEqual(read({ TRUSTED_PROXIES: ' 10.0.0.0/8, ,loopback ' }).trustedProxies, ['10.0.0.0/8', 'loopback']);
    assert.deepEqual(read({ TRUSTED_PROXIES: ' ' }).trustedProxies, undefined);
    const redis = (change: Record<string, string>) => {
      const { redisUrl, rateLimitOnOutage } = read(change);
      return [redisUrl, rateLimitOnOutage];
    };
    assert.deepEqual(redis({ REDIS_URL: ' redis://cache.internal:6379 ' }), ['redis://cache.internal:6379', 'open']);
    assert.deepEqual(redis({ REDIS_URL: 'rediss://cache.internal', RATE_LIMIT_ON_OUTAGE: 'closed' }), ['rediss://cache.internal', 'closed']);
    assert.deepEqual(redis({ REDIS_URL: 'redis://cache.internal', RATE_LIMIT_ON_OUTAGE: ' open ' }), ['redis://cache.internal', 'open']);
    assert.deepEqual(redis({ REDIS_URL: 'redis://cache.internal', RATE_LIMIT_PER_MINUTE: '0' }), ['redis://cache.internal', 'open'], 'with the limit off, Redis keeps the answers only');
    assert.deepEqual(redis({ REDIS_URL: '  ' }), [undefined, undefined]);
  });
});
