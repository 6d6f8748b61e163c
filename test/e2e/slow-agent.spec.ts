// A slow agent behind the real proxy: the proxy gives up on it (504) while the agent goes on and
// acts on the message. The built widget must not send that message again by itself (the agent
// would act twice); sent again on purpose, or from the next page of a visitor who left mid-send,
// it gets the agent's answer, which the proxy kept (src/server/proxy/replay.ts): heard once.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { Hono } from 'hono';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { createProxy } from '../../src/server/proxy/index.js';

/** An agent service that takes `slowMs` over each text while `slow`; it notes each text as it comes (`heard`) and once it has acted on it (`acted`). */
function slowAgent() {
  const agent = { slow: true, slowMs: 1_500, heard: [] as string[], acted: [] as string[] };
  const app = new Hono();
  app.post('/api/events', async (c) => {
    const { message } = await c.req.json();
    if (message.text === undefined) return c.json({ status: 'ok', result: { responses: [{ id: 'TX_1', type: 'text', options: ['Hello!'], altText: 'Hello!' }] } });
    agent.heard.push(message.text);
    if (agent.slow) await new Promise((resolve) => setTimeout(resolve, agent.slowMs));
    agent.acted.push(message.text);
    const said = `Done: ${message.text}`;
    return c.json({ status: 'ok', result: { responses: [{ id: `TX_${agent.acted.length}`, type: 'text', options: [said], altText: said }] } });
  });
  return { agent, app };
}

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>slow agent</title></head>
<body><agent-chat proxy-url="/chat"></agent-chat><script type="module" src="/dist/agent-chat.js"></script></body></html>`;

let upstream: RunningServer;
let site: RunningServer;
let agent: ReturnType<typeof slowAgent>['agent'];

test.beforeAll(async () => {
  const slow = slowAgent();
  agent = slow.agent;
  upstream = await listen(slow.app.fetch);
  const proxy = createProxy({ path: '/chat', upstreamUrl: upstream.url, handle: 'h', token: 'not-a-secret', allowedOrigins: '*', timeoutMs: 300, log: () => undefined });
  const app = new Hono();
  app.all('/chat', (c) => proxy(c.req.raw, c.env));
  app.get('/dist/*', async (c) => {
    const file = new URL(`../../${c.req.path.slice(1)}`, import.meta.url);
    return c.body(await readFile(file), 200, { 'Content-Type': 'text/javascript' });
  });
  app.get('/', (c) => c.html(page));
  site = await listen(app.fetch);
});

test.afterAll(async () => {
  await site?.close(1_000);
  await upstream?.close(3_000);
});

test('the proxy gives up on a slow agent (504): the message is not sent again by itself; Retry now gets the answer the agent gave meanwhile, which the proxy kept: the agent hears it once', async ({ page: tab }) => {
  const heard = agent.heard.length;
  await tab.goto(site.url);
  const chat = tab.locator('agent-chat');
  await chat.locator('[part~="launcher"]').click();
  await expect(chat.locator('[part~="bubble--agent"]')).toHaveText(['Hello!']);

  await chat.locator('[part~="input"]').fill('Yes, place the order');
  await chat.locator('[part~="input"]').press('Enter');
  const status = chat.locator('[part~="message-status--failed"]');
  await expect(status).toContainText('No answer in time. The assistant may have received it.');
  // The agent goes on and acts on it. Sent again by itself, the message would have reached the
  // agent before that (the proxy gives up after 0.3 s, a retry follows within 0.75 s, the agent
  // takes 1.5 s): when it has acted, it has heard the message once.
  await expect.poll(() => agent.acted.slice(heard), { timeout: 10_000 }).toEqual(['Yes, place the order']);
  expect(agent.heard.slice(heard)).toEqual(['Yes, place the order']);
  await tab.reload();
  await chat.locator('[part~="launcher"]').click();
  await expect(status, 'the next page says the same').toContainText('No answer in time.');
  await chat.locator('[part~="message-status--failed"] [part~="retry-button"]').click();
  await expect(chat.locator('[part~="bubble--agent"]').last()).toHaveText('Done: Yes, place the order');
  expect(agent.heard.slice(heard), 'heard once: the proxy answered the second try with the answer it kept').toEqual(['Yes, place the order']);
  await expect(status).toHaveCount(0);
});

test('a visitor who goes to another page while the reply is on its way gets it there, and the agent hears the message once', async ({ page: tab }) => {
  const heard = agent.heard.length;
  agent.slowMs = 200; // under the proxy's timeout
  try {
    await tab.goto(site.url);
    const chat = tab.locator('agent-chat');
    await chat.locator('[part~="launcher"]').click();
    await expect(chat.locator('[part~="bubble--agent"]').first()).toHaveText('Hello!');
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
