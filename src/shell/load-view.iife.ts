import type { ViewModule } from './contract.js';

// Read while the classic script runs: later, document.currentScript is another script or null. (An
// SVG <script> has no `src`: the document's URL then.)
const here = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;
const near = (file: string) => import(/* @vite-ignore */ new URL(file, here).href);

/**
 * The classic script loads the ES chunks published next to it, from its own URL (a CDN path too):
 * the engine at the same time as the view (see load-view.ts).
 */
export const loadView = async (): Promise<ViewModule> =>
  (await Promise.all([near('agent-chat-view.js'), near('agent-chat-engine.js')]))[0];
