/**
 * How automatic retries space out (CONTRACT: 5xx, 429, network errors and timeouts are retried).
 * They never stop while the page is open: the wait grows to `maxMs` and stays there.
 */
export const RETRY = {
  baseMs: 500,
  /** The longest wait between two tries of our own choosing. */
  maxMs: 30_000,
  /** A server's `Retry-After` is honoured up to this; a longer one is cut to it (we ask again then). */
  maxRetryAfterMs: 60_000,
} as const;

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential with "equal jitter"
 * (half fixed, half random), so many clients that failed together do not come back together,
 * growing to `RETRY.maxMs`. A server's `Retry-After` makes it longer, never shorter (a
 * `Retry-After: 0` from an overloaded server must not turn endless retries into a busy loop), and
 * counts up to `RETRY.maxRetryAfterMs`: past that we ask again then.
 */
export function retryDelay(attempt: number, retryAfterMs = 0, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY.maxMs, RETRY.baseMs * 2 ** Math.min(attempt - 1, 16));
  return Math.max(Math.min(retryAfterMs, RETRY.maxRetryAfterMs), ceiling / 2 + (random() * ceiling) / 2);
}
