/** How automatic retries space out (CONTRACT: 5xx, 429, network errors and timeouts are retried). */
export const RETRY = {
  /** Tries in all, the first included, before a message waits for the visitor's Retry. */
  attempts: 5,
  baseMs: 500,
  maxMs: 30_000,
  /** A server asking for longer than this is not waited for automatically. */
  maxRetryAfterMs: 60_000,
} as const;

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential with "equal jitter"
 * (half fixed, half random), so many clients that failed together do not come back together.
 * A `Retry-After` from the server wins when it is given.
 */
export function retryDelay(attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, RETRY.maxRetryAfterMs);
  const ceiling = Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** (attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}
