/**
 * A visitor who follows a link and comes back, in each engine's real back/forward navigation: they
 * chat on a page, go to another page of the site and chat there, then press Back. The page they
 * come back to shows the whole conversation, sends what they type next once, and (in Chromium and
 * WebKit) comes back from the browser's back/forward cache, as a page without the widget would.
 *
 * Before the session let go of its Web Locks and channel while away and read storage on its
 * return: WebKit brought the page back showing the conversation as it was when the visitor left
 * (the other page's messages missing), and Chromium dropped it from its cache, as a message on its
 * BroadcastChannel came while it was there (the page loaded again, the panel closed). Firefox keeps
 * no page that holds a Web Lock in its cache (its own rule, which a lock let go of at `pagehide`
 * comes too late for), so it loads the page again: the conversation is whole there too.
 *
 * Chromium through Playwright (its back/forward cache switched back on: Playwright turns it off),
 * Firefox through puppeteer-core, WebKitGTK's MiniBrowser through WebKitWebDriver. A draft the
 * visitor typed goes with them to the next page of the site (the tab's sessionStorage), and once
 * sent there, it is not back on the page they come back to; so does the panel they leave open (it
 * opens with the next page, and the focus stays with the page). Run after
 * `npm run build`; an engine that is not installed is skipped, with the reason.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listFrom } from '../support/env.mjs';
import { ENGINE_TABS, type Tab } from './engine-tab.js';
import { listen, serveDist } from './loopback.js';
import { poll } from './scenarios.js';
import { draftIn, open, say, shown, type } from './visitor.js';

const page = (path: string) => '<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,">'
  + `<title>${path}</title><h1>A page of the site: ${path}</h1><a href="/next">The next page</a>`
  // Whether each show of the page came from the back/forward cache, in order.
  + '<script>window.shows = []; addEventListener("pageshow", (event) => shows.push(event.persisted));</script>'
  + '<script type="module" src="/dist/agent-chat.js"></script><agent-chat proxy-url="/chat"></agent-chat>';

/** A site on a port of its own (so storage and locks start empty): two pages, the widget's files, and an agent that records each request as it comes. */
async function site() {
  const posts: string[] = [];
  const agent = { down: false };
  const server: Server = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (request.method === 'POST' && url === '/chat') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const text = JSON.parse(body).message?.text;
      if (agent.down && text !== undefined) {
        posts.push(`${text} (down)`);
        return void response.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"error","error":"down"}');
      }
      posts.push(text ?? '(greeting)');
      const reply = text === undefined ? 'Hello!' : `You said: ${text}`;
      response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', result: { responses: [{ id: `TX_${posts.length}`, type: 'text', options: [reply], altText: reply }] } }));
    } else if (url === '/' || url === '/next') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(url));
    } else if (url.startsWith('/plain')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>plain</title><input aria-label="A field">');
    } else {
      await serveDist(url, response);
    }
  });
  return { ...(await listen(server)), posts, agent };
}

/** Whether the tab shows the page at `path`, loaded (false while it navigates: the page it asked is gone). */
const onPage = (tab: Tab, path: string) =>
  tab.evaluate((path) => location.pathname === path && document.readyState === 'complete', path).catch(() => false);

/**
 * Whether the engine leaves the focus where it is until a page the site takes the visitor from is
 * hidden (probed on a page without the widget: a field focused, another page of the site asked
 * for). Chromium 150, its back/forward cache on as a visitor's is, takes it out first: no page can
 * tell then that the focus was in it, so the next page leaves it with the page (Chromium 156 keeps
 * it; so do Firefox and WebKit).
 */
async function keepsFocusUntilHidden(tab: Tab, url: string) {
  await tab.goto(`${url}plain`);
  await tab.evaluate(() => {
    const field = document.querySelector('input')!;
    field.focus();
    addEventListener('pagehide', () => sessionStorage.setItem('kept', String(document.activeElement === field)));
    location.assign('/plain?next');
  }, null);
  await poll(() => tab.evaluate(() => location.search === '?next' && document.readyState === 'complete', null).catch(() => false), 'the next plain page');
  return (await tab.evaluate(() => sessionStorage.getItem('kept'), null)) === 'true';
}

/** Which engines come back to the page from their back/forward cache (Firefox loads it again: see above). */
const ENGINES = {
  chromium: { ...ENGINE_TABS.chromium, cached: true },
  firefox: { ...ENGINE_TABS.firefox, cached: false },
  webkit: { ...ENGINE_TABS.webkit, cached: true },
};
/** `BACK_ENGINES=webkit` runs one engine. */
const chosen = listFrom('BACK_ENGINES', ['chromium', 'firefox', 'webkit'], ['chromium', 'firefox', 'webkit']);

for (const [engine, { start, missing, cached }] of Object.entries(ENGINES)) {
  describe(`Back to a page of the site in ${engine}`, { skip: chosen.includes(engine) ? missing : 'not chosen (BACK_ENGINES)' }, () => {
    let tab: Tab;
    before(async () => {
      tab = await start();
    });
    after(() => tab?.quit());

    it(`chatting on another page and coming back: the page shows the whole conversation and sends the next message once${cached ? ', back from the cache' : ''}`, async () => {
      const { url, posts, close } = await site();
      try {
        await tab.goto(url);
        await say(tab, engine, 'one');
        await tab.evaluate(() => document.querySelector('a')!.click(), null);
        await poll(() => onPage(tab, '/next'), `${engine}: on the next page`);
        await say(tab, engine, 'two');
        // The conversation as the next page shows it. (The greeting first, unless the visitor's
        // "one" went in while it was on its way, on a busy machine: then after "one", in every page.)
        const whole = await tab.evaluate(shown, null);
        assert.deepEqual([...whole].sort(), ['Hello!', 'You said: one', 'You said: two', 'one', 'two'], `${engine}: the next page shows both pages' messages, once each`);
        await tab.evaluate(() => history.back(), null);
        await poll(() => onPage(tab, '/'), `${engine}: back on the first page`);
        await open(tab);
        await poll(async () => (await tab.evaluate(shown, null)).join('|') === whole.join('|'), `${engine}: the first page shows the conversation of both pages, as the next page did (${JSON.stringify(whole)})`, 5_000)
          .catch(async (error) => assert.fail(`${error.message}: it shows ${JSON.stringify(await tab.evaluate(shown, null))}`));
        if (cached) assert.deepEqual(await tab.evaluate(() => (window as unknown as { shows: boolean[] }).shows, null), [false, true], 'the first page came back from the back/forward cache');
        await say(tab, engine, 'three');
        assert.deepEqual(posts, ['(greeting)', 'one', 'two', 'three'], 'each message reached the agent once, and the greeting once');
      } finally {
        await close();
      }
    });

    it(`a draft typed on one page is in the composer on the next page of the site; sent there, it is not back on Back, nor after a reload${cached ? ' (back from the cache)' : ''}`, async () => {
      const { url, posts, close } = await site();
      try {
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('Hello!'), `${engine}: greeted`);
        await type(tab, 'Do you ship to Gr');
        await tab.evaluate(() => document.querySelector('a')!.click(), null);
        await poll(() => onPage(tab, '/next'), `${engine}: on the next page`);
        await poll(() => open(tab), `${engine}: the launcher is there on the next page`);
        await poll(async () => (await draftIn(tab)) === 'Do you ship to Gr', `${engine}: the draft is in the next page's composer`)
          .catch(async (error) => assert.fail(`${error.message}: it holds ${JSON.stringify(await draftIn(tab))}`));
        await say(tab, engine, 'Do you ship to Greece?');
        await tab.evaluate(() => history.back(), null);
        await poll(() => onPage(tab, '/'), `${engine}: back on the first page`);
        await poll(() => open(tab), `${engine}: the launcher is there, back`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('You said: Do you ship to Greece?'), `${engine}: back, the conversation is whole`);
        assert.equal(await draftIn(tab), '', 'back on the first page, the draft sent from the next is not in its composer');
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there after a reload`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('You said: Do you ship to Greece?'), `${engine}: reloaded, the conversation is whole`);
        assert.equal(await draftIn(tab), '', 'nor after a reload');
        assert.deepEqual(posts, ['(greeting)', 'Do you ship to Greece?'], 'the draft was not sent, the message once');
      } finally {
        await close();
      }
    });

    it('the panel open when the visitor follows a link of the site is open on the next page without a click, the focus left to the page; taken on by the site from inside the panel, the focus back in it; closed, it is closed after a reload', async () => {
      const { url, posts, close } = await site();
      /** Whether the panel shows (its launcher says so), and where the page's focus is. */
      const state = () => tab.evaluate(() => ({
        open: document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="launcher"]')?.getAttribute('aria-expanded') ?? null,
        panel: !!document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="panel"]'),
        focus: document.activeElement?.localName ?? null,
      }), null);
      try {
        const keeps = await keepsFocusUntilHidden(tab, url);
        await tab.goto(url);
        await poll(() => open(tab), `${engine}: the launcher is there`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('Hello!'), `${engine}: greeted`);
        // A link of the page, taken with the keyboard (the focus on it; a pointer's press takes it from the panel too).
        await tab.evaluate(() => {
          document.querySelector('a')!.focus();
          document.querySelector('a')!.click();
        }, null);
        await poll(() => onPage(tab, '/next'), `${engine}: on the next page`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('Hello!'), `${engine}: the next page shows the conversation, nothing clicked`)
          .catch(async (error) => assert.fail(`${error.message}: ${JSON.stringify(await state())}`));
        assert.deepEqual(await state(), { open: 'true', panel: true, focus: 'body' }, 'open, the focus with the page');
        // In the panel, the site takes the visitor on (as from a reply): on the page it goes to, the focus is back in the panel.
        await tab.evaluate(() => {
          document.querySelector('agent-chat')!.shadowRoot!.querySelector<HTMLElement>('[part~="input"]')!.focus();
          location.assign('/');
        }, null);
        await poll(() => onPage(tab, '/'), `${engine}: taken to the first page`);
        if (keeps) {
          await poll(async () => (await state()).focus === 'agent-chat', `${engine}: the focus back in the panel`)
            .catch(async (error) => assert.fail(`${error.message}: ${JSON.stringify(await state())}`));
        } else {
          await poll(async () => (await state()).panel, `${engine}: the panel drawn`);
          assert.equal((await state()).focus, 'body', `${engine} took the focus out before the page was hidden: it stays with the page`);
        }
        assert.equal((await state()).open, 'true', 'open there');
        await tab.evaluate(() => document.querySelector('agent-chat')!.shadowRoot!.querySelector<HTMLElement>('[part~="close-button"]')!.click(), null);
        await poll(async () => (await state()).open === 'false', `${engine}: closed`);
        await tab.goto(`${url}next`);
        await poll(() => onPage(tab, '/next'), `${engine}: reloaded`);
        await poll(async () => (await state()).open === 'false', `${engine}: closed after the reload`);
        assert.equal((await state()).panel, false, 'no panel drawn');
        assert.deepEqual(posts, ['(greeting)'], 'greeted once');
      } finally {
        await close();
      }
    });

    it(`a message waiting for a retry when the visitor leaves, sent from the next page: back, it shows once and is not sent again${cached ? ', back from the cache' : ''}`, async () => {
      const { url, posts, agent, close } = await site();
      try {
        await tab.goto(url);
        // Greeted before the agent goes down: a greeting still on its way then fails too, and is
        // answered after the message, below it (the first page showed "while down" above "Hello!").
        await poll(() => open(tab), `${engine}: the launcher is there`);
        await poll(async () => (await tab.evaluate(shown, null)).includes('Hello!'), `${engine}: greeted`);
        agent.down = true;
        await say(tab, engine, 'while down', false);
        await poll(() => tab.evaluate(() => /retrying/.test(document.querySelector('agent-chat')!.shadowRoot!.textContent!), null), `${engine}: waiting for a retry`);
        await tab.evaluate(() => document.querySelector('a')!.click(), null);
        await poll(() => onPage(tab, '/next'), `${engine}: on the next page`);
        agent.down = false;
        await open(tab);
        await poll(async () => (await tab.evaluate(shown, null)).includes('You said: while down'), `${engine}: sent from the next page`);
        await tab.evaluate(() => history.back(), null);
        await poll(() => onPage(tab, '/'), `${engine}: back on the first page`);
        await open(tab);
        const once = ['Hello!', 'while down', 'You said: while down'];
        await poll(async () => (await tab.evaluate(shown, null)).join('|') === once.join('|'), `${engine}: the first page shows the message and its answer once`, 5_000)
          .catch(async (error) => assert.fail(`${error.message}: it shows ${JSON.stringify(await tab.evaluate(shown, null))}`));
        if (cached) assert.deepEqual(await tab.evaluate(() => (window as unknown as { shows: boolean[] }).shows, null), [false, true], 'the first page came back from the back/forward cache');
        // A new message goes after it: by then a second copy would have been sent too.
        await say(tab, engine, 'after');
        assert.deepEqual(posts.filter((post) => !post.endsWith('(down)')), ['(greeting)', 'while down', 'after'], 'each message reached the agent once');
      } finally {
        await close();
      }
    });
  });
}
