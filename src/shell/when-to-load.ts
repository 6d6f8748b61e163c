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
  const idle = () => (globalThis.requestIdleCallback ? globalThis.requestIdleCallback(task, { timeout: 5000 }) : setTimeout(task, 1));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

/**
 * Whether a conversation stored under `proxyUrl` has messages or held requests still to send (a
 * reload or a closed tab interrupted them: a visitor's message, a site's postback without a title,
 * a greeting): then the rest loads and sends them, once the page is idle. A text search, so the
 * shell needs no parser (`held` is never in the older messages' parts); nothing stored (read as
 * "null") or storage that cannot be read has nothing to send.
 */
export function hasLeftToSend(proxyUrl: string): boolean {
  try {
    return /"status":"sending"|"held":\[\{/.test(localStorage.getItem(`agent-chat:${proxyUrl}:conversation`)!);
  } catch {
    return false;
  }
}

/**
 * Whether the teaser may still show to this visitor: storage does not say that its time is over
 * (`agent-chat:teaser-seen`, the nudge controller's TEASER_SEEN_KEY: seen, dismissed, or the
 * visitor opened the chat or has a conversation, on any page). Else no page loads the rest of the
 * widget for it. Storage that cannot be read: never (the teaser could show on every page). The
 * nudge controller reads the key itself (its `seen`): imported from here, this module became a
 * chunk of its own that the view loads (+180 bytes gzipped in all, measured); a test ties the two
 * (test/shell/when-to-load.test.ts).
 */
export function teaserDue(): boolean {
  try {
    return !localStorage.getItem('agent-chat:teaser-seen');
  } catch {
    return false;
  }
}
