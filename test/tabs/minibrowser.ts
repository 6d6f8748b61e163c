import { spawn, type ChildProcess } from 'node:child_process';
import { remote } from 'webdriverio';
import { MINIBROWSER, WEBKIT_DRIVER, freePort, startXvfb, waitForPort } from '../support/browsers.mjs';

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver only), on a private Xvfb when
 * there is no display: the session, and `quit`, which ends it and stops what was started for it.
 */
export async function startMiniBrowser() {
  const children: ChildProcess[] = [];
  const env = { ...process.env };
  if (!env.DISPLAY) {
    const { display, proc } = await startXvfb();
    children.push(proc);
    env.DISPLAY = display;
  }
  const port = await freePort();
  children.push(spawn(WEBKIT_DRIVER!, [`--port=${port}`], { env, stdio: ['ignore', 'ignore', 'inherit'] }));
  await waitForPort(port);
  const browser = await remote({
    hostname: '127.0.0.1', port, path: '/', logLevel: 'error',
    // WebKitGTK's own capability, which WebdriverIO's types do not list; WebKitWebDriver speaks classic WebDriver only.
    capabilities: {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER!, args: ['--automation'] },
      'wdio:enforceWebDriverClassic': true,
    } as WebdriverIO.Capabilities,
  });
  return {
    browser,
    async quit() {
      await browser.deleteSession().catch(() => undefined);
      children.reverse().forEach((child) => child.kill());
    },
  };
}
