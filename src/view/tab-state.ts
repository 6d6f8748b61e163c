import { resolveProxyUrl } from '../conversation/proxy-url.js';

/**
 * What the visitor leaves a page of the site with, kept for their tab: a reload, or the site's next
 * page in the same tab, takes it up. In the tab's `sessionStorage`, under `agent-chat:{proxy URL}:{name}`
 * (the URL resolved, as for the conversation's keys), not in the conversation's `localStorage`: it
 * belongs to the tab, and another tab does not take it up.
 * - `draft`: the text they typed and did not send, given back to the composer;
 * - `open`: `1` while the panel is open (launcher mode, not covering the screen), `focus` if the
 *   visitor is in it too: the shell opens it again (src/shell/when-to-load.ts, `wasOpen`, reads the
 *   same key: a test ties the two), and with `focus` the view puts the focus in the input.
 * Storage that is refused keeps nothing, as before.
 */

/**
 * The value kept for the tab under `proxyUrl` and `name` (`''`: none; `undefined`: storage
 * refused); given `value`, keeps that instead (an empty one: nothing, the key removed) and returns
 * it, without reading storage again (a Send removes the draft: one storage call on that path).
 */
export function tabValue(proxyUrl: string, name: 'draft' | 'open', value?: string): string | undefined {
  try {
    const key = `agent-chat:${resolveProxyUrl(proxyUrl)}:${name}`;
    if (value == null) return sessionStorage.getItem(key) || '';
    value ? sessionStorage.setItem(key, value) : sessionStorage.removeItem(key);
    return value;
  } catch {
    return undefined; // (storage refused or full: it is the page's alone)
  }
}
