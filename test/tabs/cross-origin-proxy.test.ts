/**
 * A visitor of a site whose proxy runs on another origin (a Worker, a subdomain), in each engine,
 * with the real pieces: this project's proxy in front of the reference agent and its demo flow. The
 * other tab suites talk to loopback stand-ins, and the end-to-end suite (the demo, one origin) runs
 * in Chromium only; here each engine's CORS is what stands between the widget and what the proxy
 * says in its headers. The visitor is greeted (markdown and buttons), picks a choice, asks for the
 * plans' table while the agent is slow (past the proxy's timeout: its 504 asks, in `Retry-After`,
 * to come back in a second, and keeps the agent's answer for that try, marked
 * `Agent-Chat-Replayed`), reloads before it came, and writes once more. The answer comes once, the agent hears
 * each message once, in order, and a session tag the site set while the slow answer was awaited
 * reaches the agent with the next message (the try answered from memory did not carry it there).
 * A browser that could not read those two headers from another origin would leave the message
 * failed ("No answer in time"), or the tag lost. And the journey the widget's first bug was found
 * on: the agent down as the visitor opens the chat (the proxy cannot reach it: its 502), they type
 * anyway, the agent comes back: the greeting and the message reach it once each, greeting first,
 * and the message is answered, nothing left waiting.
 *
 * Run after `npm run build`; an engine that is not installed is skipped, with the reason.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listen as serve } from '../../src/server/node/serve.js';
import { createProxy } from '../../src/server/proxy/index.js';
import { createReferenceAgent, DEMO_FLOW } from '../../src/server/reference-agent/index.js';
import { listFrom } from '../support/env.mjs';
import { ENGINE_TABS, type Tab } from './engine-tab.js';
import { listen, serveDist } from './loopback.js';
import { poll } from './scenarios.js';
import { open, say, shown } from './visitor.js';

/** How long the proxy waits for the agent before its 504; the slow answer takes three times as long. */
const PROXY_TIMEOUT_MS = 300;

/**
 * The agent (the reference agent, its demo flow) and this project's proxy in front of it, on an
 * origin of their own; and a site, on another, whose page has the chat on that proxy. The agent
 * answers `slowly` the texts named so, past the proxy's timeout, and cannot be reached while
 * `agent.down` (the proxy's 502). `heard` is what reached the agent, in order, as it came (a text,
 * or a postback's node), with the session tags each request added; `refused`, the tries while down.
 */
async function siteWithProxyElsewhere(slowly: string[] = []) {
  const heard: { what: string; tags: string[] }[] = [];
  const state = { down: false, refused: 0 };
  const token = randomUUID();
  const agent = await serve(createReferenceAgent({ flow: DEMO_FLOW, deployments: { demo: token } }));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let proxyUrl = '';
  const siteServer = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (url !== '/') return serveDist(url, response);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><meta charset="utf-8"><title>A page of the site</title><link rel="icon" href="data:,">'
      + `<script type="module" src="/dist/agent-chat.js"></script><agent-chat proxy-url="${proxyUrl}"></agent-chat>`);
  });
  const site = await listen(siteServer);
  const proxy = await serve(createProxy({
    upstreamUrl: agent.url, handle: 'demo', token, allowedOrigins: [new URL(site.url).origin], timeoutMs: PROXY_TIMEOUT_MS, log: () => undefined,
    fetch: async (input, init) => {
      if (state.down) {
        state.refused++;
        throw new TypeError('fetch failed (connection refused)');
      }
      const { message, tagOperations } = JSON.parse(String(init?.body));
      const what = message.text ?? message.payload?.data;
      heard.push({ what, tags: tagOperations?.add ?? [] });
      if (slowly.includes(what)) await sleep(PROXY_TIMEOUT_MS * 3);
      return fetch(input, init);
    },
  }));
  proxyUrl = `${proxy.url}/`;
  assert.notEqual(new URL(proxyUrl).origin, new URL(site.url).origin, 'the proxy is on another origin than the page');
  return { url: site.url, heard, agent: state, close: () => Promise.all([site.close(), proxy.close(0), agent.close(0)]) };
}

const GREETING = ["Hi! I'm the demo agent. I answer from a local flow file, so everything here works offline.", 'What would you like to do?'];
const FALLBACK = 'Sorry, I did not get that. Try pricing, plans, my name, who am I, video or menu.';

/** In the page: the visitor's messages still sending, waiting or failed (their status parts). */
const unsettled = () => document.querySelector('agent-chat')?.shadowRoot
  ?.querySelectorAll('[part~="message-status--sending"], [part~="message-status--waiting"], [part~="message-status--failed"]').length ?? 0;

/** In the page: whether the panel shows a problem (its error part: the chat not started, say). */
const problemShown = () => !!document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="error"]');

/** `PROXY_ENGINES=webkit` runs one engine. */
const chosen = listFrom('PROXY_ENGINES', ['chromium', 'firefox', 'webkit'], ['chromium', 'firefox', 'webkit']);

for (const [engine, { start, missing }] of Object.entries(ENGINE_TABS)) {
  describe(`the proxy on another origin, in ${engine}`, { skip: chosen.includes(engine) ? missing : 'not chosen (PROXY_ENGINES)' }, () => {
    let tab: Tab;
    before(async () => {
      tab = await start();
    });
    after(() => tab?.quit());
    const bubbles = () => tab.evaluate(shown, null);
    /** Waits until a bubble shows `text`; failing, says what the panel shows. */
    const showing = (text: string, why: string) => poll(async () => (await bubbles()).some((b) => b.includes(text)), `${engine}: ${why}`)
      .catch(async (error) => assert.fail(`${error.message}: it shows ${JSON.stringify(await bubbles())}`));

    it('greeted, a choice picked, a slow answer kept by the proxy, a reload before it came, one more message: each heard once, in order, the tag set meanwhile delivered', async () => {
      const { url, heard, close } = await siteWithProxyElsewhere(['compare']);
      try {
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there`);
        await showing(GREETING[0], 'greeted, its markdown drawn');
        await showing(GREETING[1], 'the greeting offers its choices');
        await tab.evaluate(() => [...document.querySelector('agent-chat')!.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="button"]')]
          .find((button) => button.textContent!.trim() === 'Pricing')!.click(), null);
        await showing('Our pricing is simple:', 'the choice answered');
        await say(tab, engine, 'compare', false);
        // The first try is with the agent (which will answer it late); the site tags the visitor
        // meanwhile, and the visitor reloads: the next page sends the question again, with the tag,
        // and is given the kept answer.
        await poll(async () => heard.some(({ what }) => what === 'compare'), `${engine}: the slow question reached the agent`);
        await tab.evaluate(() => (document.querySelector('agent-chat') as unknown as { updateTags(t: object): void }).updateTags({ add: ['vip'] }), null);
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there after the reload`);
        // The table of the "compare" node, once the reloaded page has asked again and been given the kept answer.
        await showing('Plans at a glance', 'the slow answer shows after the reload, asked again past the proxy\'s 504');
        assert.equal(await tab.evaluate(() => document.querySelector('agent-chat')!.shadowRoot!.querySelectorAll('table').length, null), 1, 'its table drawn');
        assert.equal(await tab.evaluate(unsettled, null), 0, 'nothing is left sending, waiting or failed');
        assert.deepEqual((await bubbles()).map((text) => text.split('\n')[0]), [
          ...GREETING, 'Pricing',
          'Our pricing is simple:', 'Would you like to see the plans?', 'compare', 'Plans at a glance',
        ], 'the reloaded page shows the whole conversation, each message once');
        await say(tab, engine, 'menu', false);
        await poll(async () => (await bubbles()).filter((b) => b === GREETING[0]).length === 2, `${engine}: "menu" answered with the menu`);
        assert.deepEqual(heard.map(({ what }) => what), ['greeting', 'pricing', 'compare', 'menu'], 'the agent heard each once, in order');
        assert.deepEqual(heard.map(({ tags }) => tags.includes('vip')), [false, false, false, true], 'the tag set while the answer was kept reached the agent with the next message');
      } finally {
        await close();
      }
    });

    it('the agent down as the visitor opens the chat (the proxy\'s 502), they type anyway, the agent comes back: greeted, their message delivered after the greeting and answered, each once', async () => {
      const { url, heard, agent, close } = await siteWithProxyElsewhere();
      try {
        agent.down = true;
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there`);
        await poll(() => tab.evaluate(problemShown, null), `${engine}: the panel says the chat has not started`);
        await say(tab, engine, 'Do you ship to Greece?', false);
        await poll(() => tab.evaluate(() => !!document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="message-status--waiting"]'), null), `${engine}: the message shows as not delivered yet`);
        const refused = agent.refused;
        await poll(async () => agent.refused > refused, `${engine}: tried again while the agent was down`);
        agent.down = false;
        await showing(FALLBACK, 'answered once the agent is back');
        // (The greeting shows where it arrived: after the message, typed before it came.)
        assert.deepEqual([...await bubbles()].sort(), [...GREETING, 'Do you ship to Greece?', FALLBACK].sort(), 'greeted, the message and its answer, each once');
        assert.equal((await bubbles()).at(-1), FALLBACK, 'the answer comes last');
        assert.equal(await tab.evaluate(unsettled, null), 0, 'nothing is left sending, waiting or failed');
        assert.equal(await tab.evaluate(problemShown, null), false, 'the problem is gone');
        assert.deepEqual(heard.map(({ what }) => what), ['greeting', 'Do you ship to Greece?'], 'the agent heard the greeting, then the message, once each');
      } finally {
        await close();
      }
    });
  });
}
