import type { ViewModule } from './contract.js';

// Read while the classic script runs: later, document.currentScript is another script or null. (An
// SVG <script> has no `src`: the document's URL then.)
const here = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;

/**
 * The classic script loads the ES view published next to it (see load-view.ts), from its own URL (a
 * CDN path too). Async, so that a URL nothing can lie next to (a `blob:` script) fails the load
 * like a missing file, instead of throwing at the caller.
 */
export const loadView = async (): Promise<ViewModule> => import(/* @vite-ignore */ new URL('agent-chat-view.js', here).href);
