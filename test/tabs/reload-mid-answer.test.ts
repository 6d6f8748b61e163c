/**
 * A visitor who reloads the page just as the proxy's answer to their message arrives: its headers
 * are in, its body is not. The answer is this project's proxy's 504 "still waiting on the agent,
 * come back in 1 s" (`Retry-After: 1`, the agent's late answer kept for the next try: README "Sent
 * once"), so the message is still on its way and the next page asks again.
 *
 * Found by the fault sweep (FAULT_SEEDS=2021, FAULT_STEPS=40): the page being unloaded read the
 * cut-off body as a 504 without `Retry-After` ("No answer in time", which is not sent again by
 * itself) and wrote that down before it went; the next page showed the message failed and sent the
 * visitor's later messages first. The widget now keeps what the headers said when the body breaks
 * off (src/transport/post-event.ts).
 *
 * In each engine: Chromium through Playwright, Firefox through puppeteer-core, WebKitGTK's
 * MiniBrowser through WebKitWebDriver. Run after `npm run build`; an engine that is not installed
 * is skipped, with the reason.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listFrom } from '../support/env.mjs';
import { ENGINE_TABS, type Tab } from './engine-tab.js';
import { listen, serveDist } from './loopback.js';
import { poll } from './scenarios.js';
import { open, say, shown } from './visitor.js';

// The page counts the answers whose headers have come (the widget reads `fetch` when it sends), so
// the test reloads once the 504's headers are in, not after a guess of how long they take.
const PAGE = '<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>A page of the site</title>'
  + '<script>const send = fetch; window.headersIn = 0; window.fetch = (...args) => send(...args).then((r) => (headersIn++, r));</script>'
  + '<script type="module" src="/dist/agent-chat.js"></script><agent-chat proxy-url="/chat"></agent-chat>';

/** A site on a port of its own: the page, the widget's files, and a proxy that records each request as it comes and cuts its first answer to "one" off after the headers. */
async function site() {
  const posts: string[] = [];
  const cut: ServerResponse[] = [];
  const server = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (request.method === 'POST' && url === '/chat') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const text: string | undefined = JSON.parse(body).message?.text;
      posts.push(text ?? '(greeting)');
      if (text === 'one' && !cut.length) {
        // The headers of the proxy's 504 that asks to come back, and half its body: the rest never comes.
        response.writeHead(504, { 'content-type': 'application/json', 'retry-after': '1', 'content-length': '120' });
        response.write('{"status":"error","error":"The agent service');
        cut.push(response);
        return;
      }
      const reply = text === undefined ? 'Hello!' : `You said: ${text}`;
      response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', result: { responses: [{ id: `TX_${posts.length}`, type: 'text', options: [reply], altText: reply }] } }));
    } else if (url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    } else {
      await serveDist(url, response);
    }
  });
  const site = await listen(server);
  return { ...site, posts, close: () => (cut.forEach((response) => response.destroy()), site.close()) };
}

/** `RELOAD_ENGINES=webkit` runs one engine. */
const chosen = listFrom('RELOAD_ENGINES', ['chromium', 'firefox', 'webkit'], ['chromium', 'firefox', 'webkit']);

for (const [engine, { start, missing }] of Object.entries(ENGINE_TABS)) {
  describe(`A reload as the answer arrives in ${engine}`, { skip: chosen.includes(engine) ? missing : 'not chosen (RELOAD_ENGINES)' }, () => {
    let tab: Tab;
    before(async () => {
      tab = await start();
    });
    after(() => tab?.quit());

    it('the proxy\'s 504 "come back in 1 s" half in when the visitor reloads: the next page asks again, the message is answered, and the next message goes after it', async () => {
      const { url, posts, close } = await site();
      try {
        await tab.goto(url);
        await poll(async () => (await open(tab)) && (await tab.evaluate(shown, null)).includes('Hello!'), `${engine}: greeted`);
        await say(tab, engine, 'one', false);
        await poll(() => tab.evaluate(() => (window as unknown as { headersIn: number }).headersIn === 2, null), `${engine}: the 504's headers are in`);
        await tab.goto(url);
        await poll(async () => (await open(tab)) && (await tab.evaluate(shown, null)).includes('You said: one'), `${engine}: the next page has "one" answered`)
          .catch(async (error) => assert.fail(`${error.message}: it shows ${JSON.stringify(await tab.evaluate(() => document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="log"]')?.textContent?.replace(/\s+/g, ' '), null))}`));
        await say(tab, engine, 'two');
        assert.deepEqual(await tab.evaluate(shown, null), ['Hello!', 'one', 'You said: one', 'two', 'You said: two'], `${engine}: the conversation in order`);
        assert.deepEqual(posts, ['(greeting)', 'one', 'one', 'two'], `${engine}: "one" asked again by the next page, then "two"`);
      } finally {
        await close();
      }
    });
  });
}
