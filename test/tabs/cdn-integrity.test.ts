/**
 * The CDN snippet `npm run sri` prints, pasted on a page of a site and served from another origin
 * (a loopback "CDN" that serves dist/ under `/npm/agent-chat@<version>/dist/`), in each engine.
 * The script tag's `integrity` covers the shell only: the view (the panel, the engine, Lit) and the
 * chunks (marked and DOMPurify among them) come by `import()` from next to it. The snippet's
 * import map vouches for each of them, so a CDN that serves other bytes than the release's gets
 * them refused, and none of their code runs: the panel says it could not load, or a reply shows
 * as its plain text. Without the map (the snippet before 27 November), the changed file runs: the
 * last test shows it, in every engine.
 *
 * A changed file is the built one with a statement added at its end that records, in the page,
 * that it ran. Each test has a site and a CDN of its own (new origins: nothing cached, nothing
 * stored). Run after `npm run build`; an engine that is not installed is skipped, with the reason.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { importMap, snippets } from '../../scripts/sri.mjs';
import { listFrom } from '../support/env.mjs';
import { ENGINE_TABS, type Tab } from './engine-tab.js';
import { CDN_PATH, cdnBase, listen, serveCdn } from './loopback.js';
import { poll } from './scenarios.js';

const GREETING = { markdown: '**Hello!** How can I help?', plain: 'Hello! How can I help?' };
/** A carousel after the greeting's text: drawn by a chunk of its own. */
const CAROUSEL = { id: 'CA_1', type: 'carousel', altText: 'Our plans: Plan S', cards: [{ title: 'Plan S', buttons: [{ title: 'Choose', payload: { type: 'node', data: 's' } }] }] };

/**
 * A CDN serving the built files, those whose path contains one of `changed` with a statement added
 * that records the file in `window.ran` when it runs; and a site whose page has the snippet (the ES
 * module's or the classic script's; `withoutMap`: its script tag only; `engine`: the engine's map
 * and a module of the site's that imports `agent-chat/engine` from the CDN, recording in
 * `window.engine` what came of it) and an agent that greets in markdown. Both close after the test.
 */
async function siteAndCdn({ classic = false, changed = [] as string[], withoutMap = false, engine = false }) {
  const cdnServer = createServer((request, response) => serveCdn(request.url ?? '/', response, (path, file) =>
    changed.some((name) => path.includes(name)) ? Buffer.concat([file, Buffer.from(`\n;(window.ran ??= []).push(${JSON.stringify(path)});\n`)]) : file));
  const cdn = await listen(cdnServer);
  const [module, classicScript] = snippets(cdnBase(cdn.url));
  let snippet = classic ? classicScript : module;
  if (withoutMap) snippet = snippet.replace(/<script type="importmap">[^]*?<\/script>\n/, '');
  if (engine) {
    snippet = `<script type="importmap">${JSON.stringify(importMap(cdnBase(cdn.url), 'engine'))}</script>\n<script type="module">`
      + `import('${cdn.url}${CDN_PATH}agent-chat-engine.js').then((m) => (window.engine = typeof m.createChatSession), () => (window.engine = 'refused'));</script>`;
  }
  const siteServer = createServer(async (request, response) => {
    if (request.method === 'POST' && request.url === '/chat') {
      for await (const _ of request); // (the request's body, read and let go)
      const items = [{ id: 'TX_1', type: 'text', options: [GREETING.markdown], altText: GREETING.plain }, CAROUSEL];
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', result: { responses: items } }));
    }
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><meta charset="utf-8"><title>A page of the site</title><link rel="icon" href="data:,">'
      + `${snippet}\n<agent-chat proxy-url="/chat" mode="inline"></agent-chat>`);
  });
  const site = await listen(siteServer);
  return { url: site.url, snippet, close: () => Promise.all([site.close(), cdn.close()]) };
}

/** In the page: the greeting's bubble as shown (its text, whether its markdown was drawn), the panel's text, and the changed files that ran. */
const seen = () => {
  const root = document.querySelector('agent-chat')?.shadowRoot;
  const [bubble, next] = root?.querySelectorAll('[part~="message--agent"]') ?? [];
  return {
    greeting: bubble?.querySelector('[part~="bubble"]')?.textContent?.trim() ?? '',
    markdown: !!bubble?.querySelector('strong'),
    /** What the carousel's place shows: its card's title, or the fallback bubble's text. */
    carousel: next?.querySelector('[part~="card-title"]')?.textContent?.trim() ?? next?.querySelector('[part~="bubble"]')?.textContent?.trim() ?? '',
    panel: root?.querySelector('[part~="panel"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    ran: (window as unknown as { ran?: string[] }).ran ?? [],
    engine: (window as unknown as { engine?: string }).engine ?? '',
  };
};

/** `CDN_ENGINES=firefox` runs one engine (npm test passes the engines it found). */
const chosen = listFrom('CDN_ENGINES', ['chromium', 'firefox', 'webkit'], ['chromium', 'firefox', 'webkit']);

for (const [engine, { start, missing }] of Object.entries(ENGINE_TABS)) {
  describe(`the CDN snippet in ${engine}`, { skip: chosen.includes(engine) ? missing : 'not chosen (CDN_ENGINES)' }, () => {
    let tab: Tab;
    before(async () => {
      tab = await start();
    });
    after(() => tab?.quit());

    /** Loads the page of a new site and CDN, and waits until `done` holds of what it shows. */
    async function visit(options: Parameters<typeof siteAndCdn>[0], done: (state: ReturnType<typeof seen>) => boolean, what: string) {
      const site = await siteAndCdn(options);
      try {
        await tab.goto(site.url);
        let state: ReturnType<typeof seen> | undefined;
        await poll(async () => done((state = await tab.evaluate(seen, null))), `${engine}: ${what} (last seen: ${JSON.stringify(state)})`);
        return { state: state!, snippet: site.snippet };
      } finally {
        await site.close();
      }
    }

    for (const classic of [false, true]) {
      const shell = classic ? 'the classic script' : 'the ES module';
      it(`as printed, with ${shell}: the view, the markdown and carousel chunks load, checked, and a markdown greeting shows as markdown, its carousel as cards`, async () => {
        const { state, snippet } = await visit({ classic }, (s) => s.markdown && !!s.carousel, 'the greeting shows as markdown, with its carousel');
        assert.match(snippet, /<script type="importmap">/);
        assert.equal(state.greeting, GREETING.plain);
        assert.equal(state.carousel, 'Plan S');
      });

      it(`with ${shell}, the view changed on the CDN: refused, none of it runs, and the panel says the chat could not load`, async () => {
        const { state } = await visit({ classic, changed: ['agent-chat-view.js'] }, (s) => /could not load/.test(s.panel), 'the panel says the chat could not load');
        assert.deepEqual(state.ran, []);
        assert.equal(state.greeting, '');
      });
    }

    it('the markdown chunk (marked and DOMPurify) changed on the CDN: refused, none of it runs, and the greeting shows as its plain text', async () => {
      const { state } = await visit({ changed: ['chunks/markdown-'] }, (s) => !!s.greeting, 'the greeting shows');
      assert.deepEqual(state.ran, []);
      assert.equal(state.greeting, GREETING.plain);
      assert.equal(state.markdown, false);
    });

    it('the carousel chunk changed on the CDN: refused, none of it runs, and the carousel shows as its plain text', async () => {
      const { state } = await visit({ changed: ['chunks/carousel-'] }, (s) => !!s.carousel, 'the carousel\'s place shows');
      assert.deepEqual(state.ran, []);
      assert.equal(state.carousel, CAROUSEL.altText);
      assert.equal(state.markdown, true, 'the markdown chunk, untouched, loads');
    });

    it('agent-chat/engine imported by a site\'s own module from the CDN, with the engine\'s import map: loads checked; changed on the CDN, refused and none of it runs', async () => {
      assert.equal((await visit({ engine: true }, (s) => !!s.engine, 'the import settles')).state.engine, 'function');
      const { state } = await visit({ engine: true, changed: ['agent-chat-engine.js'] }, (s) => !!s.engine, 'the import settles');
      assert.equal(state.engine, 'refused');
      assert.deepEqual(state.ran, []);
    });

    it('without the import map (the snippet before it had one), the changed chunk runs: what the map is there for', async () => {
      const { state } = await visit({ changed: ['chunks/markdown-'], withoutMap: true }, (s) => !!s.greeting, 'the greeting shows');
      assert.deepEqual(state.ran.map((path) => path.replace(/-[\w-]+\.js$/, '')), ['chunks/markdown']);
    });
  });
}
