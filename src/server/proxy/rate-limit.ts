/**
 * Fixed-window rate limiting behind a store interface: the in-memory store suits one proxy
 * instance; several instances share limits through a store over Redis or similar (`hit` maps to
 * INCR + PEXPIRE on the key).
 */

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the window ends (ms since epoch). */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
}

/** Windows live in a Map swept as it grows, so memory stays bounded under many clients. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitHit>();
  private readonly now: () => number;
  private readonly sweepAbove: number;

  constructor({ now = Date.now, sweepAbove = 10_000 }: { now?: () => number; sweepAbove?: number } = {}) {
    this.now = now;
    this.sweepAbove = sweepAbove;
  }

  /** Windows held: running, or ended and not yet swept. */
  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= this.sweepAbove) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { ...window };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/** Seconds for a `Retry-After` header, at least 1. */
export const retryAfterSeconds = (hit: RateLimitHit, now = Date.now()) => Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
