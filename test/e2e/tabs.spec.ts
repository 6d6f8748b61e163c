import { expect, test, type Page } from '@playwright/test';
import { prng } from '../support/prng.js';

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

const conversationIn = (page: Page) =>
  page.evaluate(() => {
    const raw = Object.entries(localStorage).find(([key]) => key.endsWith(':conversation'))?.[1];
    return (raw ? JSON.parse(raw).data.messages : []) as { kind: string; text?: string; status?: string }[];
  });

for (const seed of SEEDS) {
  test(`two tabs, busy and sending at random (seed ${seed}): every message kept once in both tabs and storage, posted once, answered`, async ({ page }) => {
    // The steps from one generator, the agent's delays from another (they are drawn as requests come).
    const [random, latencyOf] = [prng(seed), prng(seed + 1000)];
    const posts: string[] = [];
    await page.context().route('**/chat', async (route) => {
      const { message } = JSON.parse(route.request().postData() ?? '{}');
      posts.push(message?.text ?? `(${message?.payload?.data})`);
      // The agent answers at once or after up to 150 ms (a reply can arrive mid-send in the other tab).
      const latency = latencyOf() < 0.5 ? latencyOf() * 150 : 0;
      if (latency) await new Promise((resolve) => setTimeout(resolve, latency));
      return route.continue();
    });
    const tabs = [page, await page.context().newPage()];
    for (const tab of tabs) {
      await tab.goto('/embed.html');
      await expect(tab.locator('agent-chat [part~="bubble--agent"]').first()).toContainText("I'm the demo agent");
    }
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
    await expect.poll(async () => (await conversationIn(page)).filter((m) => m.kind === 'user' && m.status === 'sent').length, `${why}: every message delivered`).toBe(typed.length);
    const stored = await conversationIn(page);
    expect(stored.filter((m) => m.kind === 'user').map((m) => m.text).sort(), `${why}: storage keeps each message once`).toEqual([...typed].sort());
    expect(stored.filter((m) => m.kind === 'agent').length, `${why}: the greeting's two replies and one answer to each`).toBe(2 + typed.length);
    for (const [index, tab] of tabs.entries()) {
      await expect.poll(() => tab.locator('agent-chat [part~="bubble--user"]').allTextContents().then((texts) => texts.map((t) => t.trim()).sort()), `${why}: tab ${'AB'[index]} shows each once`).toEqual([...typed].sort());
    }
    expect(posts.filter((p) => !p.startsWith('(')).sort(), `${why}: each posted once`).toEqual([...typed].sort());
  });
}
