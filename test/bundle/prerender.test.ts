// A page Chromium prerenders (speculation rules) for a link the visitor may follow, with the built
// widget inline in it: the page, its script and its chat load and draw while prerendered, but the
// conversation begins at the agent only once the visitor comes to the page (before, the greeting
// went out with the prerender: a conversation the agent counted, and paid a model for, on a page no
// one may ever see). Chromium prerenders no page of a browser driven through the DevTools Protocol
// ("PrerenderingDisabledByDevTools"), as Playwright and the test runner drive theirs; so this one
// runs Chromium by itself, and the pages tell this server what they see. A request the browser
// makes for a prerendered page says so (`Sec-Purpose: prefetch;prerender`).
// The same in the three engines, with the prerendering as Chromium shows it to a page:
// test/engine/chat-session.test.ts, test/journeys/reload-and-tabs.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/browsers.mjs';

const dist = new URL('../../dist/', import.meta.url);

/** The page the visitor is on: it prerenders the next one, and follows the link to it once told to. */
const FIRST = `<!doctype html><title>first</title>
<script type="speculationrules">{"prerender":[{"source":"list","urls":["/next.html"]}]}</script>
<script type="module">await fetch('/follow'); location.href = '/next.html';</script>`;

/** The page prerendered: an inline chat, and what the page sees told to the server (timers only: no frame comes while prerendered). */
const NEXT = `<!doctype html><title>next</title>
<script type="module" src="/dist/agent-chat.js"></script>
<agent-chat mode="inline" proxy-url="/chat"></agent-chat>
<script type="module">
  const tell = (what) => fetch('/seen?' + new URLSearchParams(what));
  document.addEventListener('prerenderingchange', () => tell({ activated: '' }));
  const chat = document.querySelector('agent-chat');
  const look = () => {
    const root = chat.shadowRoot;
    if (!root?.querySelector('[part~="input"]')) return setTimeout(look, 20);
    tell({ drawn: '', prerendering: !!document.prerendering });
    const greeted = () => {
      const bubble = root.querySelector('[part~="bubble--agent"]');
      if (bubble) tell({ greeted: bubble.textContent.trim() });
      else setTimeout(greeted, 20);
    };
    greeted();
  };
  look();
</script>`;

/** The launcher with a teaser, and when the page sees it told to the server. */
const NEXT_TEASER = `<!doctype html><title>next</title>
<script type="module" src="/dist/agent-chat.js"></script>
<agent-chat proxy-url="/chat" teaser="Questions? Ask us here" teaser-delay="2"></agent-chat>
<script type="module">
  const tell = (what) => fetch('/seen?' + new URLSearchParams(what));
  const chat = document.querySelector('agent-chat');
  // The visitor follows the link only once the prerender has lasted longer than the teaser's delay.
  const longer = () => performance.now() > 3000 ? tell({ longer: '', prerendering: !!document.prerendering }) : setTimeout(longer, 50);
  longer();
  const look = () => {
    const teaser = chat.shadowRoot?.querySelector('[part~="teaser"]');
    if (!teaser) return setTimeout(look, 20);
    const came = performance.getEntriesByType('navigation')[0].activationStart;
    tell({ teaser: teaser.textContent.trim(), prerendering: !!document.prerendering, came, after: performance.now() - came });
  };
  look();
</script>`;

interface Post {
  purpose: string;
  body: { message?: { payload?: { data?: unknown } } };
}

interface Prerendered {
  /** Resolves with what the page tells once it tells `key`. */
  when: (key: string) => Promise<Record<string, string>>;
  /** The visitor follows the link to the prerendered page. */
  follow: () => void;
  /** The requests made to the chat's proxy URL, with their Sec-Purpose. */
  posts: Post[];
}

/** Runs Chromium on a first page that prerenders `next`, with a server that answers the chat's requests. */
async function prerendering(next: string, run: (page: Prerendered) => Promise<void>) {
  const posts: Post[] = [];
  const seen: Record<string, string>[] = [];
  const waiting = new Map<string, (value: Record<string, string>) => void>();
  const when = (key: string) => new Promise<Record<string, string>>((resolve) => {
    const told = seen.find((what) => key in what);
    if (told) resolve(told);
    else waiting.set(key, resolve);
  });
  let follow: () => void = () => {};
  const followed = new Promise<void>((resolve) => (follow = resolve));

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url!, 'http://localhost');
    const send = (type: string, body: string | Buffer) => response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (url.pathname === '/') return send('text/html', FIRST);
    if (url.pathname === '/next.html') return send('text/html', next);
    if (url.pathname === '/follow') return followed.then(() => send('text/plain', ''));
    if (url.pathname === '/seen') {
      const what = Object.fromEntries(url.searchParams);
      seen.push(what);
      for (const key of Object.keys(what)) waiting.get(key)?.(what);
      return send('text/plain', '');
    }
    if (url.pathname.startsWith('/dist/')) {
      try {
        return send('text/javascript', readFileSync(new URL(url.pathname.slice('/dist/'.length), dist)));
      } catch {
        return response.writeHead(404).end();
      }
    }
    if (url.pathname === '/chat' && request.method === 'POST') {
      let body = '';
      for await (const chunk of request) body += chunk;
      posts.push({ purpose: String(request.headers['sec-purpose'] ?? ''), body: JSON.parse(body) });
      const reply = { id: 'TX_1', type: 'text', options: ['Hello from the agent'], altText: 'Hello from the agent' };
      return send('application/json', JSON.stringify({ status: 'ok', result: { responses: [reply] } }));
    }
    if (url.pathname === '/favicon.ico') return response.writeHead(204).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = mkdtempSync(join(tmpdir(), 'agent-chat-prerender-'));
  const browser = spawn(CHROMIUM!, [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, `${origin}/`], { stdio: 'ignore', detached: true });
  try {
    await run({ when, follow, posts });
  } finally {
    // The browser's whole process group: its renderers write to the profile after the browser is gone.
    const exited = new Promise((resolve) => browser.once('exit', resolve));
    process.kill(-browser.pid!, 'SIGKILL');
    await exited;
    server.closeAllConnections();
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

describe('a page Chromium prerenders', { skip: !CHROMIUM && 'Chromium is not installed' }, () => {
  it('with an inline chat: draws the chat while prerendered and greets the agent only once the visitor follows the link: one greeting, not made for the prerender', { timeout: 60_000 }, () =>
    prerendering(NEXT, async ({ when, follow, posts }) => {
      const drawn = await when('drawn');
      assert.equal(drawn.prerendering, 'true', 'Chromium prerendered the next page, and the chat was drawn in it');
      follow();
      await when('activated');
      const greeted = await when('greeted');
      assert.equal(greeted.greeted, 'Hello from the agent');
      assert.deepEqual(posts.map((post) => [post.body.message?.payload?.data, post.purpose]), [['greeting', '']],
        'one greeting, sent once the visitor came to the page (a request made for the prerender says so in Sec-Purpose)');
    }));

  it('with a teaser: its teaser-delay counts from when the visitor came to the page, not from the prerender (that lasted longer than the delay)', { timeout: 60_000 }, () =>
    prerendering(NEXT_TEASER, async ({ when, follow, posts }) => {
      const longer = await when('longer');
      assert.equal(longer.prerendering, 'true', 'the page was still prerendered 3 s on, past the teaser\'s delay of 2 s');
      follow();
      const teaser = await when('teaser');
      assert.equal(teaser.teaser, 'Questions? Ask us here');
      assert.equal(teaser.prerendering, 'false', 'shown only once the visitor came');
      assert.ok(Number(teaser.came) > 3000, `the visitor came after the delay had gone by since the prerender began (at ${teaser.came} ms)`);
      assert.ok(Number(teaser.after) >= 2000, `shown 2 s after the visitor came, not at once (${Math.round(Number(teaser.after))} ms after)`);
      assert.deepEqual(posts, [], 'a teaser asks the agent nothing');
    }));
});
