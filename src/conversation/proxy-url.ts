/**
 * The proxy URL resolved against the page, as written where it cannot be: what the conversation's
 * storage keys, the shell's early tags and the tab's draft are named by, so that pages writing one
 * URL differently (`/chat`, `https://site/chat`) share them. One function for the engine and the
 * view; the shell has a copy of its own (AgentChat's #resolvedProxyUrl): a module both import
 * would be bundled into the view's file, which the shell would then load at once.
 */
export function resolveProxyUrl(proxyUrl: string): string {
  try {
    return new URL(proxyUrl, document.baseURI).href;
  } catch {
    return proxyUrl;
  }
}
