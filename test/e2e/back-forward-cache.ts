import { test } from '@playwright/test';

/**
 * Tests whose browser keeps pages in its back/forward cache, as a visitor's does: Playwright turns
 * Chromium's off (`--disable-back-forward-cache`), so a page left and come back to would always be
 * loaded again there, and what a page frozen in the cache does to the other tabs would go untested.
 */
export const withBackForwardCache = test.extend({
  launchOptions: [async ({ launchOptions }, use) => use({ ...launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] }), { scope: 'worker' }],
});
