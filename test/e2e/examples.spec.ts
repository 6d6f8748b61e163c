// The React 19 and Vue 3 examples, built in the test run from the packed package, smoke-tested in
// Chromium: the greeting shows, and the app receives the widget's events through its framework.
import { expect, test } from '@playwright/test';
import { buildExamples, EXAMPLES, serveExample } from './examples.js';

let buildError: string | undefined;

/**
 * An install that cannot reach the npm registry is not a failure of the widget: such a run skips the
 * examples, naming the reason (npm test's summary lists it). Any other build error fails.
 */
function requireBuiltExamples() {
  const offline = buildError !== undefined && /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.test(buildError);
  test.skip(offline, `the examples could not be installed: ${buildError?.split('\n')[0]}`);
  expect(buildError, 'the examples build').toBeUndefined();
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  try {
    buildExamples();
  } catch (error) {
    buildError = (error as Error).message;
  }
});

for (const example of EXAMPLES) {
  test(`the ${example} example greets and receives the widget's events`, async ({ page }) => {
    requireBuiltExamples();
    const site = await serveExample(example);
    try {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(site.url);
      const chat = page.locator('agent-chat');
      await expect(chat.locator('[part~="bubble--agent"]').first()).toContainText("I'm the demo agent");
      await expect(page.locator('#replies')).not.toHaveText('Replies received: 0');
      const before = Number((await page.locator('#replies').textContent())!.match(/\d+/)![0]);
      await chat.locator('[part~="input"]').fill('hello from the example');
      await chat.locator('[part~="send-button"]').click();
      await expect(chat.locator('[part~="bubble--user"]')).toHaveText('hello from the example');
      await expect.poll(async () => Number((await page.locator('#replies').textContent())!.match(/\d+/)![0])).toBeGreaterThan(before);
      expect(problems).toEqual([]);
    } finally {
      await site.close();
    }
  });
}

test('React with server rendering: the greeting reply reaches the listener attached during hydration', async ({ page }) => {
  requireBuiltExamples();
  const site = await serveExample('react-vite');
  try {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The browser's own favicon request is not the page's problem.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(message.text());
    });
    const response = await page.goto(`${site.url}ssr.html`);
    expect(await response!.text(), 'the element is in the server-rendered HTML').toContain('<agent-chat proxy-url="/chat" mode="inline"');
    await expect(page.locator('agent-chat [part~="bubble--agent"]').first()).toContainText("I'm the demo agent");
    const shown = await page.locator('agent-chat [part~="message--agent"]').count();
    expect(shown, 'the greeting has replies').toBeGreaterThan(0);
    await expect(page.locator('#replies'), "every reply of the greeting was heard").toHaveText(`Replies received: ${shown}`);
    expect(problems, 'no hydration mismatch or error').toEqual([]);
  } finally {
    await site.close();
  }
});
