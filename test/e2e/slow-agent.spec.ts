// A slow agent behind the real proxy: the proxy gives up on it (504) while the agent goes on and
// acts on the message. This project's proxy keeps the agent's late answer for the next try and says
// so (`Retry-After` on its 504): the built widget tries again by itself and gets it, and the agent
// hears the message once; so too the next page of a visitor who left mid-send
// (src/server/proxy/replay.ts). Behind a proxy that keeps nothing (a plain 504), the widget must not
// send the message again by itself (the agent would act twice): the visitor decides.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { Hono } from 'hono';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { createProxy } from '../../src/server/proxy/index.js';

/** An agent service that takes `slowMs` over each text; it notes each text as it comes (`heard`) and once it has acted on it (`acted`). */
function slowAgent() {
  const agent = { slowMs: 1_500, heard: [] as string[], acted: [] as string[], tagged: [] as string[] };
  const app = new Hono();
  app.post('/api/events', async (c) => {
    const { message, tagOperations } = await c.req.json();
    if (tagOperations?.add?.includes('returning')) agent.tagged.push(message.text ?? '(greeting)');
    if (message.text === undefined) return c.json({ status: 'ok', result: { responses: [{ id: 'TX_1', type: 'text', options: ['Hello!'], altText: 'Hello!' }] } });
    agent.heard.push(message.text);
    await new Promise((resolve) => setTimeout(resolve, agent.slowMs));
    agent.acted.push(message.text);
    const said = `Done: ${message.text}`;
    return c.json({ status: 'ok', result: { responses: [{ id: `TX_${agent.acted.length}`, type: 'text', options: [said], altText: said }] } });
  });
  return { agent, app };
}

/**
 * A page with the chat on `proxy` (this project's proxy at /chat, one that keeps nothing at /plain);
 * with `tags`, the site tags the visitor "returning" at each page view, as the chat is defined.
 */
const page = (proxy: string, tags: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>slow agent</title></head>
<body><agent-chat proxy-url="${proxy}"></agent-chat><script type="module" src="/dist/agent-chat.js"></script>
${tags ? `<script type="module">customElements.whenDefined('agent-chat').then(() => document.querySelector('agent-chat').updateTags({ add: ['returning'] }));</script>` : ''}</body></html>`;

let upstream: RunningServer;
let site: RunningServer;
/** The same proxy at another origin (another port): a site whose proxy runs elsewhere, as on a Worker. */
let elsewhere: RunningServer;
let agent: ReturnType<typeof slowAgent>['agent'];

test.beforeAll(async () => {
  const slow = slowAgent();
  agent = slow.agent;
  upstream = await listen(slow.app.fetch);
  const options = { upstreamUrl: upstream.url, handle: 'h', token: 'not-a-secret', allowedOrigins: '*' as const, timeoutMs: 300, log: () => undefined };
  const keeps = createProxy({ ...options, path: '/chat' });
  const plain = createProxy({ ...options, path: '/plain', replay: false });
  const app = new Hono();
  app.all('/chat', (c) => keeps(c.req.raw, c.env));
  app.all('/plain', (c) => plain(c.req.raw, c.env));
  app.get('/dist/*', async (c) => {
    const file = new URL(`../../${c.req.path.slice(1)}`, import.meta.url);
    return c.body(await readFile(file), 200, { 'Content-Type': 'text/javascript' });
  });
  app.get('/', (c) => c.html(page(c.req.query('proxy') ?? '/chat', c.req.query('tags') !== undefined)));
  site = await listen(app.fetch);
  const other = new Hono();
  other.all('/chat', (c) => keeps(c.req.raw, c.env));
  elsewhere = await listen(other.fetch);
});

test.afterAll(async () => {
  await site?.close(1_000);
  await elsewhere?.close(1_000);
  await upstream?.close(3_000);
});

async function openChat(tab: Page, query = '') {
  await tab.goto(`${site.url}/${query}`);
  const chat = tab.locator('agent-chat');
  await chat.locator('[part~="launcher"]').click();
  await expect(chat.locator('[part~="bubble--agent"]').first()).toHaveText('Hello!');
  return chat;
}

test('an agent slower than the proxy\'s timeout: the widget asks again by itself, the agent shown typing, and gets the answer the proxy kept; the agent hears the message once', async ({ page: tab }) => {
  const heard = agent.heard.length;
  const chat = await openChat(tab);
  // Every status line the message shows while it waits.
  await tab.evaluate(() => {
    const root = document.querySelector('agent-chat')!.shadowRoot!;
    const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
    new MutationObserver(() => {
      for (const status of root.querySelectorAll('[part~="message-status"]')) seen.push(status.textContent!.replace(/\s+/g, ' ').trim());
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
  await chat.locator('[part~="input"]').fill('Yes, place the order');
  await chat.locator('[part~="input"]').press('Enter');
  await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Yes, place the order', { timeout: 10_000 });
  expect(agent.heard.slice(heard), 'heard once').toEqual(['Yes, place the order']);
  await expect(chat.locator('[part~="message-status"]')).toHaveCount(0);
  const seen = await tab.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen.filter((status) => /Not delivered/.test(status)), 'never said to be undelivered').toEqual([]);
});

test('the same through a proxy at another origin: its 504\'s Retry-After reaches the page (CORS exposes it), so the widget asks again by itself', async ({ page: tab }) => {
  const heard = agent.heard.length;
  const chat = await openChat(tab, `?proxy=${encodeURIComponent(`${elsewhere.url}/chat`)}`);
  await chat.locator('[part~="input"]').fill('Two seats by the window');
  await chat.locator('[part~="input"]').press('Enter');
  await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Two seats by the window', { timeout: 10_000 });
  expect(agent.heard.slice(heard), 'heard once').toEqual(['Two seats by the window']);
  await expect(chat.locator('[part~="message-status"]')).toHaveCount(0);
});

test('behind a proxy that keeps nothing (its 504 without Retry-After): not sent again by itself; the visitor reads why, and Retry now sends it again on purpose', async ({ page: tab }) => {
  const heard = agent.heard.length;
  const chat = await openChat(tab, '?proxy=/plain');
  await chat.locator('[part~="input"]').fill('Cancel my subscription');
  await chat.locator('[part~="input"]').press('Enter');
  const status = chat.locator('[part~="message-status--failed"]');
  await expect(status).toContainText('No answer in time. The assistant may have received it.');
  // Sent again by itself, the message would have reached the agent before it acted on the first
  // (the proxy gives up after 0.3 s, a retry follows within 0.75 s, the agent takes 1.5 s).
  await expect.poll(() => agent.acted.slice(heard), { timeout: 10_000 }).toEqual(['Cancel my subscription']);
  expect(agent.heard.slice(heard)).toEqual(['Cancel my subscription']);
  await tab.reload();
  await chat.locator('[part~="launcher"]').click();
  await expect(status, 'the next page says the same, and sends nothing').toContainText('No answer in time.');
  agent.slowMs = 100;
  try {
    await chat.locator('[part~="message-status--failed"] [part~="retry-button"]').click();
    await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Cancel my subscription');
  } finally {
    agent.slowMs = 1_500;
  }
  expect(agent.heard.slice(heard), 'twice: the second time because the visitor asked').toEqual(['Cancel my subscription', 'Cancel my subscription']);
  await expect(status).toHaveCount(0);
});

test('a visitor who goes to another page while the reply is on its way gets it there, and the agent hears the message once', async ({ page: tab }) => {
  const heard = agent.heard.length;
  agent.slowMs = 200; // under the proxy's timeout
  try {
    const chat = await openChat(tab);
    await chat.locator('[part~="input"]').fill('Two tickets for Friday');
    await chat.locator('[part~="input"]').press('Enter');
    await expect.poll(() => agent.heard.slice(heard)).toEqual(['Two tickets for Friday']);
    await tab.goto(`${site.url}/?another-page`); // before the reply: the next page sends the message again
    await chat.locator('[part~="launcher"]').click();
    await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Two tickets for Friday');
    expect(agent.heard.slice(heard), 'heard once: the next page\'s try got the answer to the first').toEqual(['Two tickets for Friday']);
    await expect(chat.locator('[part~="bubble--user"]')).toHaveText(['Two tickets for Friday']);
  } finally {
    agent.slowMs = 1_500;
  }
});

test('…and so on a site that tags the visitor at each page view: the next page\'s try carries the tag, is answered from the proxy\'s memory (the agent hears the message once), and the tag reaches the agent with the next message', async ({ page: tab }) => {
  const heard = agent.heard.length;
  const tagged = agent.tagged.length;
  agent.slowMs = 200; // under the proxy's timeout
  try {
    const chat = await openChat(tab, '?tags');
    await chat.locator('[part~="input"]').fill('Two tickets for Saturday');
    await chat.locator('[part~="input"]').press('Enter');
    await expect.poll(() => agent.heard.slice(heard)).toEqual(['Two tickets for Saturday']);
    await tab.goto(`${site.url}/?tags&another-page`); // before the reply; this page tags the visitor again
    await chat.locator('[part~="launcher"]').click();
    await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Two tickets for Saturday');
    await chat.locator('[part~="input"]').fill('Thanks');
    await chat.locator('[part~="input"]').press('Enter');
    await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Thanks');
    expect(agent.heard.slice(heard), 'heard once: the try with the tag got the answer to the first').toEqual(['Two tickets for Saturday', 'Thanks']);
    expect(agent.tagged.slice(tagged), 'the tag: with the greeting, then with the next message (not with the try answered from memory)').toEqual(['(greeting)', 'Thanks']);
  } finally {
    agent.slowMs = 1_500;
  }
});
