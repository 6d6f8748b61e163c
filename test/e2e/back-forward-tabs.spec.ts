import { expect, type BrowserContext, type Page } from '@playwright/test';
import { withBackForwardCache as test } from './back-forward-cache.js';

/**
 * Two tabs of a site in Chromium with its back/forward cache on, as a visitor's is. One tab sends a
 * message the agent takes a while to answer; the other tab shows it waiting and asks for the outbox
 * (the Web Lock of the tab that sends what waits), to send it should the first tab go. The visitor
 * follows a link in that second tab meanwhile: its page, frozen in the cache, still asked.
 *
 * Before the page let go of what it asked for when it was hidden, Chromium granted the outbox to
 * the frozen page once the first tab was done, and no tab sent anything again: the visitor's next
 * messages, in either tab, stayed "Sending…" until they went back to that page (found by the faults
 * test's runs that follow links, FAULT_STEPS=40 FAULT_SEEDS=6000-6029: 6 of 30 runs with two tabs).
 */
const chat = (page: Page) => page.locator('agent-chat');
const bubble = (page: Page, who: 'user' | 'agent', text: string) =>
  page.locator(`agent-chat [part~="bubble--${who}"]`).filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) });

async function say(page: Page, text: string) {
  await page.locator('agent-chat [part~="input"]').fill(text);
  await page.locator('agent-chat [part~="input"]').press('Enter');
}

/** How many requests for the outbox lock wait (in any tab of the site). */
const outboxAsks = (page: Page) =>
  page.evaluate(async () => (await navigator.locks.query()).pending!.filter((lock) => lock.name!.endsWith(':outbox')).length);

/**
 * The agent: each request recorded when it is made; its answer to "first" held until `release()`.
 * Each page records whether each show of it came from the back/forward cache (`shows`).
 */
async function heldAgent(context: BrowserContext) {
  const posts: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/chat', async (route) => {
    const said: string | undefined = JSON.parse(route.request().postData() ?? '{}').message?.text;
    posts.push(said ?? '(greeting)');
    if (said === 'first') await held;
    const text = said === undefined ? 'Hello!' : `You said: ${said}`;
    await route.fulfill({ json: { status: 'ok', result: { responses: [{ id: `TX_${posts.length}`, type: 'text', options: [text], altText: text }] } } }).catch(() => {});
  });
  await context.addInitScript(() => addEventListener('pageshow', (event) => ((window as unknown as { shows: boolean[] }).shows ??= []).push(event.persisted)));
  return { posts, release };
}

test('a page left for another while it waited for the outbox, frozen in the back/forward cache: the other tab and the next page still send, once each, and the page come back to shows all', async ({ context }) => {
  const { posts, release } = await heldAgent(context);

  const a = await context.newPage();
  const b = await context.newPage();
  await a.goto('/embed.html');
  await expect(bubble(a, 'agent', 'Hello!')).toBeVisible();
  await b.goto('/embed.html');
  await expect(bubble(b, 'agent', 'Hello!')).toBeVisible();

  await say(a, 'first');
  await expect.poll(() => posts).toEqual(['(greeting)', 'first']);
  // Tab B shows it waiting, and asks for the outbox that tab A holds while it sends.
  await expect(bubble(b, 'user', 'first')).toBeVisible();
  await expect.poll(() => outboxAsks(a), { message: 'tab B asks for the outbox' }).toBe(1);

  // The visitor follows a link in tab B; then the agent answers tab A.
  await b.goto('/embed.html?page=next');
  await expect(chat(b).locator('[part~="launcher"]')).toBeVisible();
  release();
  await expect(bubble(a, 'agent', 'You said: first')).toBeVisible();

  await say(a, 'second');
  await expect(bubble(a, 'agent', 'You said: second'), 'tab A sends its next message').toBeVisible({ timeout: 10_000 });
  await expect(bubble(b, 'agent', 'You said: second'), 'the next page in tab B shows it answered').toBeVisible();
  await say(b, 'third');
  await expect(bubble(b, 'agent', 'You said: third'), 'the next page in tab B sends').toBeVisible();

  // Back in tab B: the page left, from the cache, shows the whole conversation and sends once.
  await b.goBack({ waitUntil: 'commit' });
  await expect(bubble(b, 'agent', 'You said: third')).toBeVisible();
  expect(await b.evaluate(() => (window as unknown as { shows: boolean[] }).shows), 'back from the back/forward cache').toEqual([false, true]);
  await say(b, 'fourth');
  await expect(bubble(b, 'agent', 'You said: fourth')).toBeVisible();
  await expect(bubble(a, 'agent', 'You said: fourth')).toBeVisible();
  expect(posts, 'each message reached the agent once').toEqual(['(greeting)', 'first', 'second', 'third', 'fourth']);
});

/**
 * The same two tabs, and the visitor going Back in the tab that sends: the page they come back to,
 * from the cache, asks for the outbox as it is shown, while the page they leave lets go of it and
 * the other tab waits for it. Before the page shown again waited a task to start, Chromium granted
 * the outbox to neither waiting page until one of them was hidden: no message went, in either tab
 * (found by the faults test's runs that follow links, FAULT_STEPS=40 FAULT_SEEDS=6033, two tabs,
 * which stalled every time; each page logged the locks it asked for, got and let go).
 */
test('Back in the tab that sends, from the cache, while the other tab waits for the outbox: the message goes, and the next ones', async ({ context }) => {
  const { posts, release } = await heldAgent(context);

  const a = await context.newPage();
  const b = await context.newPage();
  await a.goto('/embed.html');
  await expect(bubble(a, 'agent', 'Hello!')).toBeVisible();
  await a.goto('/embed.html?page=2');
  await expect(bubble(a, 'agent', 'Hello!')).toBeVisible();
  await b.goto('/embed.html?page=3');
  await expect(bubble(b, 'agent', 'Hello!')).toBeVisible();

  // Tab A's page sends "first" (the agent holds its answer); tab B waits for the outbox.
  await say(a, 'first');
  await expect.poll(() => posts).toEqual(['(greeting)', 'first']);
  await expect(bubble(b, 'user', 'first')).toBeVisible();
  await expect.poll(() => outboxAsks(a), { message: 'tab B asks for the outbox' }).toBe(1);

  // Back in tab A: the first page, from the cache; the page left lets go of the outbox.
  await a.goBack({ waitUntil: 'commit' });
  await expect(chat(a).locator('[part~="launcher"]')).toBeVisible();
  expect(await a.evaluate(() => (window as unknown as { shows: boolean[] }).shows), 'back from the back/forward cache').toEqual([false, true]);
  release();
  await expect(bubble(b, 'agent', 'You said: first'), 'the message is sent again and answered').toBeVisible({ timeout: 10_000 });
  await expect(bubble(a, 'agent', 'You said: first')).toBeVisible();
  await say(b, 'second');
  await expect(bubble(a, 'agent', 'You said: second')).toBeVisible();
  await say(a, 'third');
  await expect(bubble(b, 'agent', 'You said: third')).toBeVisible();
});
