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
  // (Where there are no idle callbacks, a timer: its delay, the options object, counts as 0.)
  const idle = () => (globalThis.requestIdleCallback || setTimeout)(task, { timeout: 5000 } as never);
  if (document.readyState == 'complete') idle();
  else addEventListener('load', idle); // (a page loads once: no need to let go of it)
}

/**
 * Whether the conversation stored under `proxyUrl` needs the rest of the widget once the page is
 * idle, although the launcher is closed:
 * - messages or held requests are still to be sent (a reload or a closed tab interrupted them: a
 *   visitor's message, a site's postback without a title, a greeting): the rest sends them. Found
 *   by a text search (`held` is never in the older messages' parts);
 * - replies came that the visitor has seen in no tab: after the time under `read`, which a tab
 *   showing the conversation writes (the engine's ConversationController.shareRead). The launcher's
 *   badge tells of them on every page of the site until then: the rest draws it. Parsed, as a time
 *   is compared (the newest reply is among the newest messages, which the stored conversation
 *   holds; the older ones are in parts of their own).
 * Nothing stored, or storage that cannot be read: neither.
 */
export function hasNews(proxyUrl: string): boolean {
  try {
    const stored = (key: string) => localStorage.getItem(`agent-chat:${proxyUrl}:${key}`)!;
    const conversation = stored('conversation');
    const read = JSON.parse(stored('read'))?.data || 0;
    return /"status":"sending"|"held":\[\{/.test(conversation) || JSON.parse(conversation).data.messages.some((m?: { kind: string; at: number }) => m?.kind == 'agent' && m.at > read);
  } catch {
    return false;
  }
}

/**
 * Whether the visitor left the tab's page before this one with the panel open (a link of the site,
 * or a reload of a page they came to by one; src/view/tab-state.ts keeps it in the tab's
 * `sessionStorage` under `agent-chat:{proxyUrl}:open`; a test ties the two): the shell opens it
 * again. Read as the element connects, so that the panel shows with the page rather than after it,
 * and only on a page the visitor came to from a page of the site (its referrer): a first read of
 * storage in a page takes ~1 ms (Chromium, test/bench/RUNS.md), which the page a visitor lands on
 * from elsewhere, where the panel cannot have been open, does not pay. Storage that cannot be read: no.
 * Truthy or not (the value kept, or false or null): the shell only tests it. (`origin` is the
 * window's, shorter than `location.origin`; a page that declares a global of that name only turns
 * the referrer test on or off, which costs a read or the reopening, never a wrong conversation.)
 */
export function wasOpen(proxyUrl: string): unknown {
  try {
    return document.referrer.startsWith(origin) && sessionStorage.getItem(`agent-chat:${proxyUrl}:open`);
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
