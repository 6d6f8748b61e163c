/**
 * The two-tab scenarios of scenarios.ts in Firefox (puppeteer-core over WebDriver BiDi) and WebKit
 * (WebKitGTK's MiniBrowser through WebKitWebDriver, under a private Xvfb): two real tabs of one
 * browser, against a loopback server that serves the built widget (dist/) on a plain page and
 * answers like the agent service. Chromium runs them through Playwright (test/e2e/tabs.spec.ts).
 * Each scenario gets a server of its own, so a new origin: storage, channel and locks start empty.
 * Run after `npm run build`; an engine that is not installed is skipped, with the reason.
 */
import { createServer, type Server } from 'node:http';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser as Puppeteer } from 'puppeteer-core';
import { FIREFOX, MINIBROWSER, WEBKIT_DRIVER, XVFB } from '../support/browsers.mjs';
import { listFrom, numberFrom, oneOf } from '../support/env.mjs';
import { listen, serveDist } from './loopback.js';
import { startMiniBrowser } from './minibrowser.js';
import { anythingAcrossPagesAtRandom, anythingAtRandom, answer, changingPagesAtRandom, choosingAtRandom, greeted, latencies, seedsFrom, sendingAtRandom, taggingAcrossPagesAtRandom, taggingAtRandom, type AgentLog, type Tab } from './scenarios.js';

const PAGE = '<!doctype html><html lang="en"><meta charset="utf-8"><title>A page of the site</title><link rel="icon" href="data:,">'
  + '<script type="module" src="/dist/agent-chat.js"></script><agent-chat proxy-url="/chat" mode="inline"></agent-chat>';

/** A site on a port of its own: the page, the widget's files, and an agent that records each request as it arrives and answers after the scenario's delays (none unless `slow`). */
async function site(seed: number, slow: boolean, history?: number, choices?: boolean) {
  const agent: AgentLog = { posts: [], tagged: [], requestIds: [], history, choices };
  const latency = latencies(seed);
  const server: Server = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (request.method === 'POST' && url === '/chat') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const json = answer(JSON.parse(body), agent);
      const wait = slow ? latency() : 0;
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    } else if (url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    } else {
      await serveDist(url, response);
    }
  });
  return { ...(await listen(server)), agent };
}

/** A browser that opens tabs: `open` gives two greeted tabs of `url`, `closeTabs` closes them. */
interface Engine {
  open(url: string): Promise<Tab[]>;
  closeTabs(): Promise<void>;
  quit(): Promise<void>;
}

async function firefox(): Promise<Engine> {
  const browser: Puppeteer = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  let pages: Awaited<ReturnType<Puppeteer['newPage']>>[] = [];
  return {
    async open(url) {
      pages = [await browser.newPage(), await browser.newPage()];
      for (const page of pages) await page.goto(url);
      return pages.map((page) => ({ evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never }));
    },
    async closeTabs() {
      await Promise.all(pages.map((page) => page.close()));
    },
    quit: () => browser.close(),
  };
}

async function webkit(): Promise<Engine> {
  const { browser, quit } = await startMiniBrowser();
  const home = await browser.getWindowHandle();
  let windows: string[] = [];
  // WebDriver runs one command at a time in one window: each call switches to its tab first, in turn.
  let turn: Promise<unknown> = Promise.resolve();
  const inTab = <R>(handle: string, run: () => Promise<R>) => {
    const result = turn.then(async () => {
      await browser.switchToWindow(handle);
      return run();
    });
    turn = result.catch(() => undefined);
    return result;
  };
  return {
    async open(url) {
      windows = [];
      for (let i = 0; i < 2; i++) {
        const { handle } = await browser.createWindow('tab');
        windows.push(handle);
        await inTab(handle, () => browser.url(url));
      }
      return windows.map((handle) => ({ evaluate: (fn, arg) => inTab(handle, () => browser.execute(fn as never, arg) as never), detached: true }));
    },
    async closeTabs() {
      for (const handle of windows) await inTab(handle, () => browser.closeWindow());
      await browser.switchToWindow(home);
    },
    quit,
  };
}

/** `TAB_ENGINES=firefox` runs one engine (npm test passes the engines it found). */
const chosen = listFrom('TAB_ENGINES', ['firefox', 'webkit'], ['firefox', 'webkit']);
const missing = (name: string, installed: unknown, packages: string) =>
  !chosen.includes(name) ? 'not chosen (TAB_ENGINES)' : installed ? undefined : `not installed (Debian: apt-get install ${packages})`;
const ENGINES = {
  firefox: { start: firefox, missing: missing('firefox', FIREFOX, 'firefox-esr') },
  webkit: { start: webkit, missing: missing('webkit', WEBKIT_DRIVER && MINIBROWSER && XVFB, 'webkit2gtk-driver xvfb') },
};

/** `TAB_SEEDS=1-40` (or `7`) runs each scenario with other seeds, to look for more or replay one. */
const seeds = (defaults: number[]) => seedsFrom(process.env.TAB_SEEDS, defaults);

const SCENARIOS: { seed: number; slow: boolean; history?: number; choices?: boolean; name: string; run: typeof sendingAtRandom }[] = [
  ...seeds([1, 2, 3]).map((seed) => ({ seed, slow: true, name: `sending at random (seed ${seed}): every message kept once in both tabs and storage, posted once, answered`, run: sendingAtRandom })),
  // 303: a new conversation begun in tab A while its message was with the agent, another begun in
  // tab B, then A's Undo: A restored its own out-of-date copy, and sent the answered message again.
  ...seeds([4, 5, 303]).map((seed) => ({ seed, slow: true, name: `doing anything at random (seed ${seed}): both tabs alike, nothing posted twice, nothing left to send, no rating's tag lost`, run: anythingAtRandom })),
  ...seeds([18, 19]).map((seed) => ({ seed, slow: true, name: `doing anything at random on a single-page site that changes page (seed ${seed}): both tabs alike, nothing posted twice but as the same request, nothing left to send, no rating's tag lost`, run: anythingAcrossPagesAtRandom })),
  ...seeds([10, 11]).map((seed) => ({ seed, slow: true, choices: true, name: `picking choices at random (seed ${seed}): both tabs show each turn answered as the conversation says, each message posted once`, run: choosingAtRandom })),
  ...seeds([12, 13]).map((seed) => ({ seed, slow: true, name: `sending at random on a single-page site that changes page (seed ${seed}): every message kept once in both tabs and storage, answered once, posted again only as the same request`, run: changingPagesAtRandom })),
  ...seeds([6, 7]).map((seed) => ({ seed, slow: false, name: `tagging the session at random (seed ${seed}): every tag reaches the agent or still waits`, run: taggingAtRandom })),
  ...seeds([14, 15]).map((seed) => ({ seed, slow: false, name: `tagging the session at random on a single-page site that changes page (seed ${seed}): every tag reaches the agent or still waits`, run: taggingAcrossPagesAtRandom })),
  // Past 100 messages from the greeting on: storage keeps the older ones in parts of their own.
  ...seeds([8]).map((seed) => ({ seed, slow: true, history: 150, name: `a long conversation, sending at random (seed ${seed}): every message kept once in both tabs and storage, posted once, answered`, run: sendingAtRandom })),
  // 1201: a new conversation begun in tab B from an out-of-date copy, which tab A wrote over, then
  // B's Undo: what A wrote meanwhile was lost, and messages the agent had answered were sent again.
  ...seeds([9, 1201]).map((seed) => ({ seed, slow: true, history: 150, name: `a long conversation, doing anything at random (seed ${seed}): both tabs alike, nothing posted twice, nothing left to send, no rating's tag lost`, run: anythingAtRandom })),
];

describe('the knobs of the slower suites and the bench, read from the environment', () => {
  it('TAB_SEEDS and FAULT_SEEDS name seeds and ranges, joined by commas; unset, the suite\'s own; anything else is an error, not the defaults run again', () => {
    assert.deepEqual(seedsFrom('300-303,317, 9', [1]), [300, 301, 302, 303, 317, 9]);
    assert.deepEqual(seedsFrom('7', [1]), [7]);
    assert.deepEqual(seedsFrom(undefined, [1, 2]), [1, 2]);
    assert.deepEqual(seedsFrom('', [1, 2]), [1, 2]);
    assert.throws(() => seedsFrom('4;5', [1]), /not a list of seeds/);
    assert.throws(() => seedsFrom('300-', [1]), /not a list of seeds/);
  });

  it('a number (FAULT_STEPS, BENCH_SAMPLES, …), a list (TAB_ENGINES, BENCH_LEVELS, …) or a choice (BENCH_ONLY) that is not one is an error naming the variable', () => {
    const name = 'AGENT_CHAT_TEST_KNOB';
    const withValue = <T>(value: string | undefined, read: () => T) => {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
      try {
        return read();
      } finally {
        delete process.env[name];
      }
    };
    assert.equal(withValue(undefined, () => numberFrom(name, 16, { min: 1 })), 16);
    assert.equal(withValue(' 40 ', () => numberFrom(name, 16, { min: 1 })), 40);
    assert.throws(() => withValue('4O', () => numberFrom(name, 16, { min: 1 })), /AGENT_CHAT_TEST_KNOB: "4O" is not a whole number from 1/);
    assert.throws(() => withValue('0', () => numberFrom(name, 16, { min: 1 })), /not a whole number/);
    assert.throws(() => withValue('61', () => numberFrom(name, 10, { min: 1, max: 60 })), /from 1 to 60/);
    assert.deepEqual(withValue(undefined, () => listFrom(name, ['firefox', 'webkit'], ['firefox', 'webkit'])), ['firefox', 'webkit']);
    assert.deepEqual(withValue('', () => listFrom(name, ['firefox', 'webkit'], ['firefox', 'webkit'])), [], 'set and empty: none (npm test, where only Chromium is installed)');
    assert.deepEqual(withValue('webkit, firefox', () => listFrom(name, [], ['firefox', 'webkit'])), ['webkit', 'firefox']);
    assert.throws(() => withValue('firefox,webkt', () => listFrom(name, [], ['firefox', 'webkit'])), /AGENT_CHAT_TEST_KNOB: unknown "webkt"/);
    assert.equal(withValue(undefined, () => oneOf(name, ['conversation', 'startup'])), undefined);
    assert.equal(withValue('startup', () => oneOf(name, ['conversation', 'startup'])), 'startup');
    assert.throws(() => withValue('conversations', () => oneOf(name, ['conversation', 'startup'])), /"conversations" is not one of conversation, startup/);
  });
});

// A browser keeps an origin's storage, channels and locks while it runs; the system hands a port
// out again once it is free, and a scenario on a port used before began with another's conversation
// (seen as a timeout, or ratings of another run, in runs of 61 seeds).
describe('the scenarios\' sites', () => {
  it('are each on a port this process has not listened on before (an origin new to the browser)', async () => {
    const ports = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const { url, close } = await listen(createServer());
      assert.ok(!ports.has(url), `${url} handed out twice (after ${i} sites)`);
      ports.add(url);
      await close();
    }
  });
});

for (const [name, { start, missing }] of Object.entries(ENGINES)) {
  describe(`two real tabs in ${name}, busy and acting at random`, { skip: missing }, () => {
    let engine: Engine;
    before(async () => {
      engine = await start();
    });
    after(() => engine?.quit());

    for (const scenario of SCENARIOS) {
      it(scenario.name, async () => {
        const { url, agent, close } = await site(scenario.seed, scenario.slow, scenario.history, scenario.choices);
        try {
          const tabs = await engine.open(url);
          for (const tab of tabs) await greeted(tab, name);
          await scenario.run(tabs, agent, scenario.seed, `${name}, seed ${scenario.seed}`);
        } finally {
          await engine.closeTabs();
          await close();
        }
      });
    }
  });
}
