import type { ViewModule } from './contract.js';

/**
 * Loads the rest of the widget. Literal specifiers, so a bundler (and Rollup building dist/) splits
 * them into chunks and a CDN resolves them next to the module. The engine is asked for at the same
 * time as the view, not once the view has arrived and named it: one round trip instead of two
 * before the greeting can go out. The classic-script build swaps this file for load-view.iife.ts
 * (see vite.config.ts). Either failing (offline) fails the load, once.
 */
export const loadView = (): Promise<ViewModule> =>
  Promise.all([import('../view/index.js'), import('../engine/index.js')]).then(([view]) => view);
