/**
 * One tab of each engine, for the suites that drive Chromium, Firefox and WebKit alike from Node
 * (back-forward.test.ts, cdn-integrity.test.ts, nonce-csp.test.ts, cross-origin-proxy.test.ts):
 * Chromium through Playwright (its back/forward cache switched back on: Playwright turns it off),
 * Firefox through puppeteer-core, WebKitGTK's MiniBrowser through WebKitWebDriver.
 */
import { chromium } from 'playwright';
import puppeteer from 'puppeteer-core';
import { CHROMIUM, CHROMIUM_ARGS, FIREFOX, MINIBROWSER, WEBKIT_DRIVER, XVFB } from '../support/browsers.mjs';
import { startMiniBrowser } from './minibrowser.js';

/** One tab of an engine: runs a function in its page (one JSON argument), goes to a URL. */
export interface Tab {
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  goto(url: string): Promise<void>;
  quit(): Promise<void>;
}

async function chromiumTab(): Promise<Tab> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-back-forward-cache'] });
  const tab = await browser.newPage();
  return {
    evaluate: (fn, arg) => tab.evaluate(fn as never, arg),
    goto: async (url) => void (await tab.goto(url)),
    quit: () => browser.close(),
  };
}

async function firefoxTab(): Promise<Tab> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const tab = await browser.newPage();
  return {
    evaluate: (fn, arg) => tab.evaluate(fn as never, arg) as never,
    goto: async (url) => void (await tab.goto(url)),
    quit: () => browser.close(),
  };
}

async function webkitTab(): Promise<Tab> {
  const { browser, quit } = await startMiniBrowser();
  return {
    evaluate: (fn, arg) => browser.execute(fn as never, arg) as never,
    goto: (url) => browser.url(url) as Promise<void>,
    quit,
  };
}

/** Each engine: how to open a tab, and why it cannot run here (not installed), if it cannot. */
export const ENGINE_TABS = {
  chromium: { start: chromiumTab, missing: CHROMIUM ? undefined : 'not installed (Debian: apt-get install chromium)' },
  firefox: { start: firefoxTab, missing: FIREFOX ? undefined : 'not installed (Debian: apt-get install firefox-esr)' },
  webkit: { start: webkitTab, missing: WEBKIT_DRIVER && MINIBROWSER && XVFB ? undefined : 'not installed (Debian: apt-get install webkit2gtk-driver xvfb)' },
};
