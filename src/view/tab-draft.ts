import { resolveProxyUrl } from '../conversation/proxy-url.js';

/**
 * The visitor's unsent text, kept for their tab: a reload, or the site's next page in the same tab,
 * gives it back to the composer. In the tab's `sessionStorage`, under `agent-chat:{proxy URL}:draft`
 * (the URL resolved, as for the conversation's keys), not in the conversation's `localStorage`: a
 * draft belongs to the tab it was typed in, and another tab's composer does not fill with it.
 * Storage that is refused keeps nothing, as before.
 */

/**
 * The draft kept for the tab under `proxyUrl` (`''`: none; `undefined`: storage refused); given
 * `draft`, keeps that instead (an empty one: nothing, the key removed) and returns it, without
 * reading storage again (a Send removes the key: one storage call on that path).
 */
export function tabDraft(proxyUrl: string, draft?: string): string | undefined {
  try {
    const key = `agent-chat:${resolveProxyUrl(proxyUrl)}:draft`;
    if (draft == null) return sessionStorage.getItem(key) || '';
    draft ? sessionStorage.setItem(key, draft) : sessionStorage.removeItem(key);
    return draft;
  } catch {
    return undefined; // (storage refused or full: the draft is the page's alone)
  }
}
