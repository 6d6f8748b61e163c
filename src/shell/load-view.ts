import type { ViewModule } from './contract.js';

/**
 * Loads the rest of the widget. A literal specifier, so a bundler (and Rollup building dist/) splits
 * it into its own chunk and a CDN resolves it next to the module. The classic-script build swaps
 * this file for load-view.iife.ts (see vite.config.ts).
 */
export const loadView = (): Promise<ViewModule> => import('../view/index.js');
