import type { Page } from '@playwright/test';

/** What the widget keeps in the page's storage under `key` (`conversation`, `tags`): the stored value, unwrapped. */
const storedIn = <T>(page: Page, key: string): Promise<T | undefined> =>
  page.evaluate((key) => {
    const raw = Object.entries(localStorage).find(([name]) => name.endsWith(`:${key}`))?.[1];
    return raw ? JSON.parse(raw).data : undefined;
  }, key);

/** The conversation's messages as storage holds them. */
export const storedMessages = async (page: Page) =>
  (await storedIn<{ messages: { kind: string; text?: string; status?: string }[] }>(page, 'conversation'))?.messages ?? [];

/** The session tags storage holds for the next request (added ones). */
export const waitingTags = async (page: Page) => (await storedIn<{ add?: string[] }>(page, 'tags'))?.add ?? [];
