// Browser launchers for @web/test-runner that work offline on Debian 12 (Debian's chromium,
// firefox-esr over WebDriver BiDi, WebKitGTK's MiniBrowser through WebKitWebDriver) and fall back
// to Playwright's own browsers on a laptop (after `npx playwright install`).
// Select engines with WTR_BROWSERS=chromium,firefox,webkit (default: chromium).
// Override binaries with CHROMIUM_PATH / CHROME_PATH / FIREFOX_PATH / WEBKIT_MINIBROWSER_PATH.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromeLauncher } from '@web/test-runner';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import puppeteer from 'puppeteer-core';

const firstExisting = (...paths) => paths.find((p) => p && existsSync(p));
const onPath = (name) => firstExisting(...(process.env.PATH ?? '').split(':').map((d) => `${d}/${name}`));

export const CHROMIUM = firstExisting(process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium');
export const FIREFOX = firstExisting(process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox');
export const WEBKIT_DRIVER = onPath('WebKitWebDriver');
export const XVFB = onPath('Xvfb');
export const MINIBROWSER = firstExisting(
  process.env.WEBKIT_MINIBROWSER_PATH,
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
);

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// offline machine refuses; the rest keep a root CI run quiet.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function chromium() {
  return playwrightLauncher({
    product: 'chromium',
    launchOptions: CHROMIUM ? { executablePath: CHROMIUM, args: CHROMIUM_ARGS } : {},
  });
}

export function firefox() {
  if (!FIREFOX) return playwrightLauncher({ product: 'firefox' });
  // Playwright cannot drive stock Firefox; puppeteer-core speaks WebDriver BiDi to it, no geckodriver.
  return chromeLauncher({
    puppeteer,
    launchOptions: { browser: 'firefox', executablePath: FIREFOX, headless: true },
    createPage: async ({ context }) => withoutOrientationOverride(await context.newPage()),
  });
}

/**
 * The test runner sets each page's viewport, and puppeteer-core 24.43 sends the screen's orientation
 * with it (`emulation.setScreenOrientationOverride`), a command Firefox ESR 140 does not know: every
 * Firefox test failed there. The viewport itself is set by another command, which such a Firefox
 * carries out, and no test here depends on the orientation; so that one error is let through, and
 * any other still fails the page.
 */
export function withoutOrientationOverride(page) {
  const setViewport = page.setViewport.bind(page);
  page.setViewport = async (viewport) => {
    try {
      return await setViewport(viewport);
    } catch (error) {
      if (!/unknown command emulation\.setScreenOrientationOverride/.test(String(error?.message))) throw error;
      return undefined;
    }
  };
  return page;
}

export const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => resolve(port));
  });
  srv.on('error', reject);
});

/** Resolves once something accepts connections on `port` (retrying each refused connect). */
export function waitForPort(port, ms = 10000) {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.end(); resolve(); });
      socket.once('error', () => {
        if (Date.now() > deadline) reject(new Error(`WebKitWebDriver did not listen on ${port}`));
        else setTimeout(attempt, 25); // the driver is still starting: try the connection again
      });
    };
    attempt();
  });
}

// MiniBrowser has no headless mode: start a private Xvfb when there is no display.
export const startXvfb = () => new Promise((resolve, reject) => {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  xvfb.on('error', reject);
  xvfb.stdio[3].once('data', (d) => resolve({ display: `:${String(d).trim()}`, proc: xvfb }));
});

/** The text @web/test-runner gives a test file whose page lost its browser while the file ran. */
export const BROWSER_DISCONNECTED = 'Tests were interrupted because the browser disconnected.';

class WebKitGtkLauncher extends WebdriverLauncher {
  constructor() {
    super({
      hostname: '127.0.0.1', path: '/', port: 0, logLevel: 'error',
      capabilities: {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        'wdio:enforceWebDriverClassic': true, // WebKitWebDriver speaks classic WebDriver only
      },
    });
    this.children = [];
    this.env = { ...process.env };
  }

  async initialize(config, testFiles) {
    if (!this.env.DISPLAY) {
      const { display, proc } = await startXvfb();
      this.children.push(proc);
      this.env.DISPLAY = display;
    }
    process.once('exit', () => this.children.forEach((c) => c.kill()));
    await this.startDriver();
    await super.initialize(config, testFiles);
    this.name = 'WebKit';
  }

  /** Starts a WebKitWebDriver (it starts a MiniBrowser for each WebDriver session). */
  async startDriver() {
    const port = await freePort();
    this.driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: this.env, stdio: ['ignore', 'ignore', 'inherit'] });
    this.children.push(this.driverProcess);
    await waitForPort(port);
    this.options.port = port;
  }

  /**
   * Opens a test file's page. The package's session manager starts the navigation without waiting
   * for it, so when MiniBrowser had died (it crashes now and then under load) the refused navigation
   * was an unhandled rejection that ended the whole run, every engine's results unreported. Here
   * it is awaited, and a browser that is gone is replaced by a new one: the file that was running
   * when it died fails (BROWSER_DISCONNECTED), the files after it run.
   */
  async startSession(id, url) {
    try {
      await this.openPage(id, url);
    } catch (error) {
      console.error(`WebKit: the browser is gone (${String(error?.message ?? error).split('\n')[0]}); starting a new one`);
      await super.stop();
      this.driverProcess?.kill();
      await this.startDriver();
      await this.openPage(id, url);
    }
  }

  async openPage(id, url) {
    await this.ensureManagerInitialized();
    await this.driverManager.startSession(id, url);
  }

  /**
   * Closes a test file's page once its results are in. In a CI run (5 December) WebKitWebDriver
   * answered nothing as a page was taken to about:blank after a file whose tests had all passed
   * (UND_ERR_HEADERS_TIMEOUT), and that file was counted as failed: that is the driver's, not the
   * file's. So a page that cannot be closed is left with its driver, and a new driver (with a new
   * browser) is started for the files after it, as when the browser dies (startSession).
   */
  async stopSession(id) {
    try {
      return await super.stopSession(id);
    } catch (error) {
      console.error(`WebKit: its driver did not close a page (${String(error?.message ?? error).split('\n')[0]}); starting a new one`);
      // The driver first: one that answers nothing would hold stop()'s request to end its session.
      this.driverProcess?.kill('SIGKILL');
      await super.stop();
      // (stop() forgets the session only when the driver ended it.)
      this.driver = this.driverManager = undefined;
      await this.startDriver();
      return {};
    }
  }

  async stop() {
    await super.stop();
    this.children.reverse().forEach((c) => c.kill());
    this.children = [];
  }
}

export function webkit() {
  if (WEBKIT_DRIVER && MINIBROWSER && XVFB) return new WebKitGtkLauncher();
  return playwrightLauncher({ product: 'webkit' });
}

export function selectedBrowsers(list = process.env.WTR_BROWSERS ?? 'chromium') {
  const make = { chromium, firefox, webkit };
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((name) => {
    if (!make[name]) throw new Error(`WTR_BROWSERS: unknown engine "${name}" (use chromium, firefox, webkit)`);
    return make[name]();
  });
}
