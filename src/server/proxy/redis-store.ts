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

export function redisRateLimitStore(client: RedisEvalClient, options: RedisRateLimitStoreOptions = {}): RateLimitStore {
  const { prefix = 'agent-chat:rate:', onOutage = 'open', timeoutMs = 500, report = console.error } = options;
  let down = false;
  return {
    async hit(key: string, windowMs: number): Promise<RateLimitHit> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        });
        const reply = await Promise.race([client.eval(HIT, { keys: [`${prefix}${key}`], arguments: [String(windowMs)] }), timeout]);
        const [count, ttl] = reply as [number, number];
        if (down) report('agent-chat proxy: the rate-limit store (Redis) answers again; the shared limit applies');
        down = false;
        return { count: Number(count), resetAt: Date.now() + (Number(ttl) > 0 ? Number(ttl) : windowMs) };
      } catch (error) {
        if (!down) {
          const what = onOutage === 'open' ? 'letting requests through without the shared limit' : 'refusing requests (503)';
          report(`agent-chat proxy: the rate-limit store (Redis) is unavailable (${(error as Error).message}); ${what} until it is back`);
        }
        down = true;
        if (onOutage === 'closed') throw new RateLimitUnavailableError('rate limiting is unavailable');
        return { count: 0, resetAt: Date.now() + windowMs };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
