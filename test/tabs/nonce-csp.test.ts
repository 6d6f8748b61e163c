/**
 * The widget under the strict CSP most sites write (a nonce for scripts and styles, with
 * `'strict-dynamic'` or without, no host list, Trusted Types enforced), in each engine: only the
 * script tag carries the nonce, and every file the widget loads after it (the view, the markdown
 * chunk, a language's strings, the carousel) comes by `import()`, which the policy allows only as
 * the nonce passed on to it; its styles are constructed sheets, which no `style-src` names. The
 * demo and the end-to-end tests run under the other strict policy (`script-src 'self'`,
 * test/e2e/demo.spec.ts).
 * Here: the ES module and the classic script from the site's own origin, and the ES module from a
 * CDN with the snippet's import map (which needs the nonce too, as an inline script); no violation
 * reported, a German markdown reply with a table and a carousel drawn.
 *
 * Each test has a site (and a CDN) of its own. Run after `npm run build`; an engine that is not
 * installed is skipped, with the reason.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { snippets } from '../../scripts/sri.mjs';
import { listFrom } from '../support/env.mjs';
import { ENGINE_TABS, type Tab } from './engine-tab.js';
import { cdnBase, listen, serveCdn, serveDist } from './loopback.js';
import { poll } from './scenarios.js';

const NONCE = 'c3RyaWN0LWNzcA';
/** The policy, with `'strict-dynamic'` (scripts a trusted script adds are trusted) or with the nonce alone. */
const policy = (strictDynamic: boolean) =>
  `script-src 'nonce-${NONCE}'${strictDynamic ? " 'strict-dynamic'" : ''}; object-src 'none'; base-uri 'none'; style-src 'nonce-${NONCE}'; require-trusted-types-for 'script'; trusted-types lit-html dompurify`;
const REPLY = [
  { id: 'TX_1', type: 'text', options: ['**Hallo!** Die Pläne:\n\n| Plan | Preis |\n|---|---|\n| S | 9 € |'], altText: 'Hallo! Die Pläne: S 9 €' },
  { id: 'CA_1', type: 'carousel', altText: 'Plan S', cards: [{ title: 'Plan S', subtitle: '9 €', buttons: [{ title: 'Wählen', payload: { type: 'node', data: 's' } }] }] },
];

/** The page: a nonced listener recording each violation, then `scripts` (already nonced), then the inline chat in German. */
const pageWith = (scripts: string) => '<!doctype html><html lang="de"><meta charset="utf-8"><title>Eine Seite</title><link rel="icon" href="data:,">'
  + `<script nonce="${NONCE}">window.violations = []; addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));</script>`
  + `${scripts}<agent-chat proxy-url="/chat" mode="inline" language="DE"></agent-chat>`;

/** A site under `policy(strictDynamic)` whose page loads the widget as `how` says; for `cdn`, the files come from a CDN of their own (another origin) with the snippet's import map. */
async function site(how: 'module' | 'classic' | 'cdn', strictDynamic: boolean) {
  let cdn: Awaited<ReturnType<typeof listen>> | undefined;
  let scripts = how === 'classic' ? `<script nonce="${NONCE}" src="/dist/agent-chat.iife.js"></script>` : `<script type="module" nonce="${NONCE}" src="/dist/agent-chat.js"></script>`;
  if (how === 'cdn') {
    cdn = await listen(createServer((request, response) => serveCdn(request.url ?? '/', response)));
    scripts = snippets(cdnBase(cdn.url))[0].replaceAll('<script ', `<script nonce="${NONCE}" `);
  }
  const server = createServer(async (request, response) => {
    if (request.method === 'POST' && request.url === '/chat') {
      for await (const _ of request); // (the request's body, read and let go)
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', result: { responses: REPLY } }));
    }
    if (request.url === '/') return void response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': policy(strictDynamic) }).end(pageWith(scripts));
    await serveDist(request.url ?? '/', response);
  });
  const own = await listen(server);
  return { url: own.url, close: () => Promise.all([own.close(), cdn?.close()]) };
}

/** In the page: the violations reported, and what the chat drew (the markdown's table, the carousel's card, the composer's German placeholder). */
const drawn = () => {
  const root = document.querySelector('agent-chat')?.shadowRoot;
  return {
    violations: (window as unknown as { violations: string[] }).violations,
    table: !!root?.querySelector('[part~="bubble--agent"] table'),
    strong: root?.querySelector('[part~="bubble--agent"] strong')?.textContent ?? '',
    card: root?.querySelector('[part~="card-title"]')?.textContent?.trim() ?? '',
    placeholder: root?.querySelector('[part~="input"]')?.getAttribute('placeholder') ?? '',
  };
};

/** `CSP_ENGINES=firefox` runs one engine (npm test passes the engines it found). */
const chosen = listFrom('CSP_ENGINES', ['chromium', 'firefox', 'webkit'], ['chromium', 'firefox', 'webkit']);

for (const [engine, { start, missing }] of Object.entries(ENGINE_TABS)) {
  describe(`a nonce-based strict CSP in ${engine}`, { skip: chosen.includes(engine) ? missing : 'not chosen (CSP_ENGINES)' }, () => {
    let tab: Tab;
    before(async () => {
      tab = await start();
    });
    after(() => tab?.quit());

    const cases = { module: 'the ES module from the site', classic: 'the classic script from the site', cdn: 'the ES module from a CDN, with the snippet\'s import map nonced' } as const;
    for (const [how, what] of Object.entries(cases) as [keyof typeof cases, string][]) for (const strictDynamic of [true, false]) {
      it(`${what}, ${strictDynamic ? "with 'strict-dynamic'" : 'the nonce alone'}: the view and the markdown, German and carousel chunks load, no violation`, async () => {
        const page = await site(how, strictDynamic);
        try {
          await tab.goto(page.url);
          let state: ReturnType<typeof drawn> | undefined;
          await poll(async () => !!(state = await tab.evaluate(drawn, null)).card && state.table, `${engine}: the reply is drawn (last seen: ${JSON.stringify(state)})`);
          assert.deepEqual(state!.violations, []);
          assert.equal(state!.strong, 'Hallo!');
          assert.equal(state!.card, 'Plan S');
          assert.match(state!.placeholder, /Nachricht/);
        } finally {
          await page.close();
        }
      });
    }
  });
}
