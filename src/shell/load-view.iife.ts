import type { ViewModule } from './contract.js';

// Read while the classic script runs: later, document.currentScript is another script or null.
const here = document.currentScript instanceof HTMLScriptElement && document.currentScript.src || document.baseURI;

/** The classic script loads the ES chunks published next to it, from its own URL (a CDN path too). */
export const loadView = async (): Promise<ViewModule> => import(/* @vite-ignore */ new URL('agent-chat-view.js', here).href);
