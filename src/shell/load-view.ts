import type { ViewModule } from './contract.js';

/**
 * Loads the rest of the widget: the view, with the engine in it (one file, one request). A literal
 * specifier, so a bundler (and Rollup building dist/) splits it into a chunk and a CDN resolves it
 * next to the module. The classic-script build swaps this file for load-view.iife.ts (see
 * vite.config.ts). Failing (offline) fails the load, once.
 */
export const loadView = (): Promise<ViewModule> => import('../view/index.js');
