/**
 * A rate-limit store over Redis, so several proxy instances enforce one limit together. It takes a
 * connected node-redis client (the `redis` package, an optional peer): `createClient({ url,
 * disableOfflineQueue: true })`, so that commands fail at once while Redis is down instead of
 * queueing. When Redis cannot answer, the store fails open (requests go on, without the shared
 * limit) or closed (the proxy answers 503), as configured, and says so once per outage.
 */
import type { RateLimitHit, RateLimitStore } from './rate-limit.js';

/** The one node-redis command the store uses. */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export interface RedisRateLimitStoreOptions {
  /** Prepended to every key (default `agent-chat:rate:`). */
  prefix?: string;
  /** While Redis is unreachable: `open` lets requests through (default), `closed` refuses them. */
  onOutage?: 'open' | 'closed';
  /** How long to wait for Redis before treating it as down (default 500 ms). */
  timeoutMs?: number;
  /** Where the outage (and the recovery) is reported (default `console.error`). */
  report?: (message: string) => void;
}

/** Thrown by a store that fails closed: the proxy answers 503 with `Retry-After`. */
export class RateLimitUnavailableError extends Error {
  override name = 'RateLimitUnavailableError';
}

// One round trip, atomic: count the request, start the window on the first, say when it ends.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/**
 * Runs a store's Redis calls within `timeoutMs`; the first failure of an outage is reported
 * (`down(cause)`), and so is the first success after it (`back`), once each. A failure is thrown on.
 */
export function redisCalls(timeoutMs: number, report: (message: string) => void, say: { down: (cause: string) => string; back: string }) {
  let down = false;
  return async <T>(call: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const reply = await Promise.race([call(), timeout]);
      if (down) report(say.back);
      down = false;
      return reply;
    } catch (error) {
      if (!down) report(say.down((error as Error).message));
      down = true;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

export function redisRateLimitStore(client: RedisEvalClient, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  const { prefix = 'agent-chat:rate:', onOutage = 'open', timeoutMs = 500, report = console.error } = options;
  const what = onOutage === 'open' ? 'letting requests through without the shared limit' : 'refusing requests (503)';
  const call = redisCalls(timeoutMs, report, {
    down: (cause) => `agent-chat proxy: the rate-limit store (Redis) is unavailable (${cause}); ${what} until it is back`,
    back: 'agent-chat proxy: the rate-limit store (Redis) answers again; the shared limit applies',
  });
  return {
    async hit(key: string, windowMs: number): Promise<RateLimitHit> {
      try {
        const [count, ttl] = (await call(() => client.eval(HIT, { keys: [`${prefix}${key}`], arguments: [String(windowMs)] }))) as [number, number];
        return { count: Number(count), resetAt: Date.now() + (Number(ttl) > 0 ? Number(ttl) : windowMs) };
      } catch {
        if (onOutage === 'closed') throw new RateLimitUnavailableError('rate limiting is unavailable');
        return { count: 0, resetAt: Date.now() + windowMs };
      }
    },
  };
}
