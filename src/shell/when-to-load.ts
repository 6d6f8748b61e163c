/**
 * When the shell loads the rest of the widget without being asked (a click, `show()`, a call, inline
 * mode and `load="eager"` load at once):
 * - `intent` (default): when the visitor points at or focuses the launcher, the moment before a click;
 * - `idle`: also once the page has loaded and the browser is idle, so the first open is instant;
 * - `eager`: at once.
 */
export type LoadPolicy = 'intent' | 'idle' | 'eager';

/** Runs `task` once the page has loaded and the main thread is idle (or after a while without idle callbacks). */
export function whenPageIdle(task: () => void) {
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 1));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

/**
 * Whether a conversation stored under `proxyUrl` has messages still to send (a reload or a closed
 * tab interrupted them): then the rest loads and sends them, once the page is idle. A text search,
 * so the shell needs no parser; storage that cannot be read has nothing to send.
 */
export function hasPendingMessages(proxyUrl: string): boolean {
  try {
    return localStorage.getItem(`agent-chat:${proxyUrl}:conversation`)?.includes('"status":"sending"') ?? false;
  } catch {
    return false;
  }
}
