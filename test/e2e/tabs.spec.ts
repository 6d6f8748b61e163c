import { expect, test, type Page } from '@playwright/test';
import { prng } from '../support/prng.js';
import { storedMessages, waitingTags } from './stored.js';

/**
 * Two real tabs (two renderers, real storage events and Web Locks) whose visitor sends at random
 * moments, each tab's page busy for a random while before (a host page's long task: the browser
 * handles the visitor's input before storage's change notices, so a busy tab writes the
 * conversation as it last saw it), and the agent answering after a random delay. Whatever the
 * interleaving, every message is kept once, in both tabs and in storage, posted once and answered.
 * Before writes named the writes they were made on, each of these seeds lost messages and posted
 * others two or three times. A failure names its seed, to replay it.
 */
const SEEDS = [1, 2, 3];
const STEPS = 12;

/**
 * Answers like the agent service, in place of the demo's proxy (whose per-address rate limit these
 * bursts would reach): the greeting, and "You said: …" to a text, at once or after up to 150 ms
 * (a reply can then arrive mid-send in the other tab). Records each request when it is made.
 */
async function fakeAgent(page: Page, seed: number) {
  const latencyOf = prng(seed + 1000);
  const posts: string[] = [];
  await page.context().route('**/chat', async (route) => {
    const { message } = JSON.parse(route.request().postData() ?? '{}');
    posts.push(message?.text ?? `(${message?.payload?.data})`);
    const latency = latencyOf() < 0.5 ? latencyOf() * 150 : 0;
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency));
    const text = message?.text === undefined ? GREETING : `You said: ${message.text}`;
    await route.fulfill({ json: { status: 'ok', result: { responses: [{ id: `TX_${posts.length}_${Math.random()}`, type: 'text', options: [text], altText: text }] } } });
  });
  return posts;
}

const GREETING = 'Hello! How can I help?';

/** Two tabs of the demo's smallest page, greeted. */
async function twoTabs(page: Page) {
  const tabs = [page, await page.context().newPage()];
  for (const tab of tabs) {
    await tab.goto('/embed.html');
    await expect(tab.locator('agent-chat [part~="bubble--agent"]').first()).toContainText(GREETING);
  }
  return tabs;
}


for (const seed of SEEDS) {
  test(`two tabs, busy and sending at random (seed ${seed}): every message kept once in both tabs and storage, posted once, answered`, async ({ page }) => {
    // The steps from one generator, the agent's delays from another (they are drawn as requests come).
    const random = prng(seed);
    const posts = await fakeAgent(page, seed);
    const tabs = await twoTabs(page);
    const typed: string[] = [];
    const running: Promise<void>[] = [];
    for (let step = 0; step < STEPS; step++) {
      const which = random() < 0.5 ? 0 : 1;
      const text = `Step ${step} in tab ${'AB'[which]}`;
      const busy = Math.floor(random() * 300);
      typed.push(text);
      running.push(tabs[which].evaluate(([text, busy]) => {
        const until = Date.now() + busy;
        while (Date.now() < until);
        (document.querySelector('agent-chat') as HTMLElement & { send(text: string): void }).send(text);
      }, [text, busy] as const));
      // Half the time the next step waits for the busy tabs; else it comes at once.
      if (random() < 0.5) await Promise.all(running.splice(0));
    }
    await Promise.all(running);
    const why = `seed ${seed}`;
    await expect.poll(async () => (await storedMessages(page)).filter((m) => m.kind === 'user' && m.status === 'sent').length, `${why}: every message delivered`).toBe(typed.length);
    const stored = await storedMessages(page);
    expect(stored.filter((m) => m.kind === 'user').map((m) => m.text).sort(), `${why}: storage keeps each message once`).toEqual([...typed].sort());
    expect(stored.filter((m) => m.kind === 'agent').length, `${why}: the greeting and one answer to each`).toBe(1 + typed.length);
    for (const [index, tab] of tabs.entries()) {
      await expect.poll(() => tab.locator('agent-chat [part~="bubble--user"]').allTextContents().then((texts) => texts.map((t) => t.trim()).sort()), `${why}: tab ${'AB'[index]} shows each once`).toEqual([...typed].sort());
    }
    expect(posts.filter((p) => !p.startsWith('(')).sort(), `${why}: each posted once`).toEqual([...typed].sort());
  });
}

for (const seed of [4, 5]) {
  test(`two tabs, busy and doing anything at random (seed ${seed}): sends, ratings, new conversations and their undo leave both tabs alike, nothing posted twice, nothing left to send`, async ({ page }) => {
    const random = prng(seed);
    const posts = await fakeAgent(page, seed);
    const tabs = await twoTabs(page);
    for (const tab of tabs) await tab.locator('agent-chat').evaluate((chat) => chat.setAttribute('feedback', ''));
    const running: Promise<void>[] = [];
    for (let step = 0; step < 16; step++) {
      const which = random() < 0.5 ? 0 : 1;
      const pick = random();
      const action = pick < 0.6 ? 'send' : pick < 0.85 ? 'rate' : pick < 0.95 ? 'restart' : 'undo';
      const args = [action, `Step ${step} in tab ${'AB'[which]}`, Math.floor(random() * 300), random() < 0.5 ? 'up' : 'down'] as const;
      running.push(tabs[which].evaluate(([action, text, busy, thumb]) => {
        const until = Date.now() + busy;
        while (Date.now() < until);
        const chat = document.querySelector('agent-chat') as HTMLElement & { send(text: string): void };
        const last = (part: string) => [...chat.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${part}"]`)].pop();
        if (action === 'send') chat.send(text);
        else if (action === 'rate') last(`feedback-button--${thumb}`)?.click();
        else last(action === 'restart' ? 'restart-button' : 'undo-button')?.click();
      }, args));
      if (random() < 0.5) await Promise.all(running.splice(0));
    }
    await Promise.all(running);
    const why = `seed ${seed}`;
    const shown = (tab: Page) => tab.locator('agent-chat').evaluate((chat) =>
      [...chat.shadowRoot!.querySelectorAll('[part~="bubble"], [part~="feedback"]')].map((node) => node.textContent!.trim()).join(' | '));
    const settled = async () => {
      const messages = await storedMessages(page);
      const [a, b] = await Promise.all(tabs.map(shown));
      return a === b && !messages.some((m) => m.kind === 'user' && m.status !== 'sent');
    };
    await expect.poll(settled, `${why}: both tabs show one conversation, every message in it delivered`).toBe(true);
    const texts = posts.filter((p) => !p.startsWith('('));
    expect(texts.filter((text, i) => texts.indexOf(text) !== i), `${why}: nothing posted twice`).toEqual([]);
  });
}

for (const seed of [6, 7]) {
  test(`two tabs, busy and tagging the session at random (seed ${seed}): every tag reaches the agent or still waits for the next request`, async ({ page }) => {
    const random = prng(seed);
    const tagged: string[][] = [];
    await page.context().route('**/chat', async (route) => {
      const { message, tagOperations } = JSON.parse(route.request().postData() ?? '{}');
      tagged.push(tagOperations?.add ?? []);
      const text = message?.text === undefined ? GREETING : `You said: ${message.text}`;
      await route.fulfill({ json: { status: 'ok', result: { responses: [{ id: `TX_${tagged.length}_${Math.random()}`, type: 'text', options: [text], altText: text }] } } });
    });
    const tabs = await twoTabs(page);
    const tags: string[] = [];
    const running: Promise<void>[] = [];
    for (let step = 0; step < 16; step++) {
      const which = random() < 0.5 ? 0 : 1;
      const tag = random() < 0.7 ? `step-${step}` : undefined;
      if (tag) tags.push(tag);
      running.push(tabs[which].evaluate(([tag, text, busy]) => {
        const until = Date.now() + busy;
        while (Date.now() < until);
        const chat = document.querySelector('agent-chat') as HTMLElement & { send(text: string): void; updateTags(operations: { add: string[] }): void };
        if (tag) chat.updateTags({ add: [tag] });
        else chat.send(text);
      }, [tag, `Step ${step} in tab ${'AB'[which]}`, Math.floor(random() * 300)] as const));
      if (random() < 0.5) await Promise.all(running.splice(0));
    }
    await Promise.all(running);
    const why = `seed ${seed}`;
    await expect.poll(async () => (await storedMessages(page)).some((m) => m.kind === 'user' && m.status !== 'sent'), `${why}: every message delivered`).toBe(false);
    await expect.poll(async () => {
      const stillWaiting = await waitingTags(page);
      return tags.filter((tag) => !tagged.flat().includes(tag) && !stillWaiting.includes(tag));
    }, `${why}: no tag lost`).toEqual([]);
  });
}
