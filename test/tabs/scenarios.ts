/**
 * A visitor with two real tabs of one site (two pages, real `storage` events, BroadcastChannel and
 * Web Locks), acting at random: each step is done in one tab after that tab's page was busy for a
 * random while (a host page's long task: the browser handles the visitor's input before storage's
 * change notices, so a busy tab writes the conversation as it last saw it), and the agent answers
 * after a random delay. Whatever the interleaving, what the visitor did is kept once, in both tabs
 * and in storage, and reaches the agent once.
 *
 * The same scenarios run in every engine: in Chromium through Playwright (test/e2e/tabs.spec.ts), in
 * Firefox and WebKit through their WebDriver drivers (test/tabs/engines.test.ts). Each engine gives
 * its pages as {@link Tab}s and its agent's record as an {@link AgentLog}. A failure names its seed,
 * to replay it. Functions passed to `evaluate` run in the page: they use nothing from this module.
 */
import assert from 'node:assert/strict';
import { prng } from '../support/prng.js';

/** A page: runs a function in it with one JSON argument, as Playwright, Puppeteer and WebdriverIO do. */
export interface Tab {
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  /**
   * The driver runs one call at a time across tabs (WebDriver classic): a step then runs in a task
   * of its own after the call returns, so that both tabs can be busy at once. Else a step runs in
   * the call's own task (as the page's handling of the driver's message, where a renderer's copy of
   * storage can be out of date), and calls to two tabs overlap.
   */
  detached?: boolean;
}

/** What the agent heard, in the order the requests were made (recorded when each request arrives). */
export interface AgentLog {
  /** Each request's text, or `(payload)` for a postback and `(greeting)` for the greeting. */
  posts: string[];
  /** Each request's `requestId`, the same in each try of one message (the proxy answers a try it has seen from memory). */
  requestIds?: string[];
  /** The tags each request added. */
  tagged: string[][];
  /**
   * Replies the agent sends before its greeting's own, in each answer to a greeting: a long
   * conversation from the start (past 100 messages, storage keeps the older ones in parts).
   */
  history?: number;
  /** Each answer ends with a turn of two choices ("Pick 3.1", "Pick 3.2": the request's number, the choice's), which the agent answers as it does text. */
  choices?: boolean;
}

/**
 * The seeds `list` names (`1-40`, `7`, or both kinds joined by commas: `300-310,317`), else
 * `defaults` when it is unset or empty: FAULT_SEEDS and TAB_SEEDS run other seeds than a suite's
 * own, to look for more bugs or replay one. Anything else throws (a typo is not the defaults run again).
 */
export function seedsFrom(list: string | undefined, defaults: number[]): number[] {
  if (!list?.trim()) return defaults;
  return list.split(',').flatMap((range) => {
    const match = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(range);
    if (!match) throw new Error(`seeds: "${list}" is not a list of seeds or ranges (1-40,7)`);
    const [from, to] = [Number(match[1]), Number(match[2] ?? match[1])];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

export const GREETING = 'Hello! How can I help?';

/** The agent's answer to a request body, as the agent service sends it (used by every engine's fake agent). */
export function answer(body: { message?: { text?: string; payload?: { data?: string } }; tagOperations?: { add?: string[] }; requestId?: string }, log: AgentLog) {
  const { message, tagOperations, requestId } = body;
  log.posts.push(message?.text ?? (message?.payload ? `(${message.payload.data})` : '(greeting)'));
  log.requestIds?.push(requestId ?? '');
  log.tagged.push(tagOperations?.add ?? []);
  const picked = message?.payload?.data?.startsWith('pick-') ? message.payload.data : undefined;
  const texts = message?.text !== undefined ? [`You said: ${message.text}`]
    : picked ? [`You chose: ${picked}`]
    : [...Array.from({ length: log.history ?? 0 }, (_, i) => `Earlier ${i}`), GREETING];
  const n = log.posts.length;
  const id = () => `TX_${n}_${Math.random()}`;
  const responses: object[] = texts.map((text) => ({ id: id(), type: 'text', options: [text], altText: text }));
  if (log.choices) {
    const buttons = [1, 2].map((i) => ({ title: `Pick ${n}.${i}`, payload: { type: 'node', data: `pick-${n}.${i}` } }));
    responses.push({ id: id(), type: 'buttons', text: 'Pick one', altText: 'Pick one', buttons });
  }
  return { status: 'ok', result: { responses } };
}

/** The agent's delay before answering a request, drawn as requests come: none half the time, else up to 150 ms (a reply can then arrive mid-send in the other tab). */
export const latencies = (seed: number) => {
  const random = prng(seed + 1000);
  return () => (random() < 0.5 ? random() * 150 : 0);
};

/** Resolves once `check` returns true, re-checking every 50 ms; fails with `message` after `ms`. */
export async function poll(check: () => Promise<boolean>, message: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${message} (not within ${ms / 1000} s)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * What the widget keeps in the page's storage under `key` (`conversation`, `tags`): the stored value,
 * unwrapped, with the older messages of a long conversation from the parts it names (see Store).
 */
const storedIn = <T>(tab: Tab, key: string) =>
  tab.evaluate((key) => {
    const [name, raw] = Object.entries(localStorage).find(([name]) => name.endsWith(`:${key}`)) ?? [];
    const data = raw ? JSON.parse(raw).data : undefined;
    const older = (data?.p ?? []).flatMap(([part, skip]: [string, number]) => JSON.parse(localStorage.getItem(name!.slice(0, -key.length) + part) ?? '[]').slice(skip));
    return data?.p ? { ...data, messages: [...older, ...data.messages] } : data;
  }, key) as Promise<T | undefined>;

export interface StoredMessage {
  id: string;
  kind: string;
  item?: { id?: string; altText?: string; type?: string; buttons?: { title: string }[] };
  rating?: string;
  /** A rating's session tag still to reach the agent; empty for a reply of a session past (see src/conversation/changes.ts `untagging`). */
  tag?: string;
  text?: string;
  status?: string;
}

/** The conversation's messages as storage holds them. */
export const storedMessages = async (tab: Tab) => (await storedIn<{ messages: StoredMessage[] }>(tab, 'conversation'))?.messages ?? [];

/**
 * The session tags storage holds for the next request (added ones): the widget's, and those a
 * page's shell kept before the rest of the widget loaded (src/shell/early-tags.ts), which the next
 * request takes up.
 */
export const waitingTags = async (tab: Tab) => [
  ...((await storedIn<{ add?: string[] }>(tab, 'tags'))?.add ?? []),
  ...(await tab.evaluate(() => Object.entries(localStorage).flatMap(([key, kind]) => (key.includes(':early-tags:') && kind === 'add' ? [key.split(':early-tags:')[1]] : [])), undefined)),
];

/**
 * What the tab's widget shows: its bubbles' texts, or also its ratings. Nothing while the tab's
 * document is not the site's page yet (WebKit's driver answered once from the new tab's blank
 * document: polled, the next look finds the page).
 */
const shown = (tab: Tab, parts: string) =>
  tab.evaluate((parts) => [...document.querySelector('agent-chat')?.shadowRoot?.querySelectorAll(parts) ?? []].map((node) => node.textContent!.trim()), parts);

/** Each agent reply the tab shows, with the thumb pressed under it: `[text, 'up' | 'down' | '']`. */
export const ratingsShown = (tab: Tab) => tab.evaluate(() => [...document.querySelector('agent-chat')?.shadowRoot?.querySelectorAll('[part~="message--agent"]') ?? []]
  .map((entry) => [entry.querySelector('[part~="bubble"]')!.textContent!.trim(), entry.querySelector('[aria-pressed="true"]')?.getAttribute('part')?.match(/--(up|down)/)?.[1] ?? '']), undefined);

/** Resolves once the tab's widget shows the greeting. */
export const greeted = (tab: Tab, engine: string) =>
  poll(async () => (await shown(tab, '[part~="bubble--agent"]')).includes(GREETING), `${engine}: the tab is greeted`);

type Action = 'send' | 'rate' | 'restart' | 'undo' | 'tag' | 'choose' | 'page';

/**
 * Does a step in the tab: the page is busy for `busy` ms, then does the action through the public
 * surface (the element's methods, its parts' buttons). Resolves when the step is done, or at once
 * for a {@link Tab.detached} tab, where {@link stepsDone} says when it is.
 */
const start = (tab: Tab, step: { action: Action; text: string; busy: number; thumb: string; anyReply?: boolean; pages?: boolean }) =>
  tab.evaluate((step) => {
    const page = window as unknown as { started?: number; done?: number };
    page.started = (page.started ?? 0) + 1;
    (step.detached ? setTimeout : (now: () => void) => now())(() => {
      const until = Date.now() + step.busy;
      while (Date.now() < until);
      // (Between two pages, the element to come: what the visitor does goes to it.)
      const chat = (document.querySelector('agent-chat') ?? (window as unknown as { next: HTMLElement }).next) as HTMLElement & { send(text: string): void; updateTags(operations: { add: string[] }): void; updateComplete: Promise<unknown> };
      if (step.action === 'page') {
        // A single-page site goes to another of its pages: its router puts a new element, as the
        // page's HTML has it, in the old one's place, in the same task or after the next page's data.
        if (!chat.isConnected) return void (page.done = (page.done ?? 0) + 1); // (one on its way already)
        const next = document.createElement('agent-chat');
        for (const { name, value } of chat.attributes) next.setAttribute(name, value);
        const place = new Comment();
        chat.replaceWith(place);
        (window as unknown as { next?: HTMLElement }).next = next;
        return (step.busy % 2 ? setTimeout : (now: () => void) => now())(() => {
          place.replaceWith(next);
          delete (window as unknown as { next?: HTMLElement }).next;
          page.done = (page.done ?? 0) + 1;
        });
      }
      const buttons = [...chat.shadowRoot?.querySelectorAll<HTMLElement>(step.action === 'choose'
        ? 'button[part~="button"]:enabled'
        : `[part~="${step.action === 'rate' ? `feedback-button--${step.thumb}` : `${step.action}-button`}"]`,
      ) ?? []];
      // The newest reply's thumb, or with `anyReply` one of any reply shown; a choice the tab shows as
      // still to answer (from the busy time, not a draw of its own; none: nothing done).
      const button = step.anyReply || step.action === 'choose' ? buttons[step.busy % buttons.length] : buttons.pop();
      if (step.action === 'send' && step.pages) {
        // The visitor writes in the panel once it is there: on a single-page site that changes page,
        // in the element the page has by then (a call on one taken out before the rest of the
        // widget had loaded for it would go with it, as with a page left: README "Not yet").
        return void (async () => {
          for (;;) {
            const now = document.querySelector('agent-chat') as typeof chat | null;
            if (!now) await new Promise((between) => setTimeout(between, 10)); // (between two pages)
            else if ((await now.updateComplete, now === document.querySelector('agent-chat'))) return now.send(step.text);
          }
        })().then(() => (page.done = (page.done ?? 0) + 1));
      }
      if (step.action === 'send') chat.send(step.text);
      else if (step.action === 'tag') chat.updateTags({ add: [step.text] });
      else button?.click();
      page.done = (page.done ?? 0) + 1;
    });
  }, { ...step, detached: !!tab.detached });

/** Whether the tab has done every step it was given. */
const stepsDone = (tab: Tab) => tab.evaluate(() => {
  const page = window as unknown as { started?: number; done?: number };
  return (page.done ?? 0) === (page.started ?? 0);
}, undefined);

/**
 * Gives `steps` steps, each to tab A or B at random; half the time the next step waits until the
 * tabs have done theirs, else it comes at once. `pick` draws a step's action and text; with
 * `thumbs`, a rating's thumb is drawn too, with `pages` (a site that changes page) a message is sent
 * once the panel it is written in is there, and with `anyReply` it rates any reply shown, not only the
 * newest. (The draws keep their order: a seed replays as before.)
 */
async function act(tabs: Tab[], random: () => number, steps: number, pick: (step: number, tab: string) => { action: Action; text: string }, thumbs = false, anyReply = false, pages = false) {
  const running: Promise<void>[] = [];
  for (let step = 0; step < steps; step++) {
    const which = random() < 0.5 ? 0 : 1;
    const { action, text } = pick(step, 'AB'[which]);
    const busy = Math.floor(random() * 300);
    const tab = tabs[which];
    const thumb = thumbs && random() < 0.5 ? 'up' : 'down';
    running.push(start(tab, { action, text, busy, thumb, anyReply, pages }).then(() => poll(() => stepsDone(tab), 'the tab does its steps')));
    const wait = random() < 0.5;
    if (process.env.TAB_LOG) console.log(`step ${step}: tab ${'AB'[which]} ${action}${action === 'rate' ? ` ${thumb}` : ''} "${text}" after ${busy} ms busy${wait ? ', then both done' : ''}`);
    if (wait) await Promise.all(running.splice(0));
  }
  await Promise.all(running);
}

const sorted = (texts: string[]) => [...texts].sort();

/** The visitor sends at random from both tabs: every message kept once in both tabs and storage, posted once, answered. */
export async function sendingAtRandom(tabs: Tab[], agent: AgentLog, seed: number, why: string, steps = 12) {
  const typed: string[] = [];
  await act(tabs, prng(seed), steps, (step, tab) => {
    typed.push(`Step ${step} in tab ${tab}`);
    return { action: 'send', text: typed.at(-1)! };
  });
  const stored = await keptOnceEverywhere(tabs, agent, typed, why);
  assert.equal(stored.filter((m) => m.kind === 'agent').length, (agent.history ?? 0) + 1 + typed.length, `${why}: the greeting and one answer to each`);
  assert.deepEqual(sorted(agent.posts.filter((p) => !p.startsWith('('))), sorted(typed), `${why}: each posted once`);
}

/**
 * Once every message `typed` is delivered (a failure says what storage, the agent and each tab have):
 * storage keeps each once, nothing twice, and both tabs show each once. Returns what storage keeps.
 */
async function keptOnceEverywhere(tabs: Tab[], agent: AgentLog, typed: string[], why: string) {
  const delivered = async () => (await storedMessages(tabs[0])).filter((m) => m.kind === 'user' && m.status === 'sent').length === typed.length;
  await poll(delivered, `${why}: every message delivered`).catch(async (error) => {
    const stored = await storedMessages(tabs[0]);
    const tabsNow = await Promise.all(tabs.map((tab) => tab.evaluate(() => [...document.querySelectorAll('agent-chat')].map((chat) => `${chat.isConnected}:${chat.shadowRoot?.querySelectorAll('[part~="bubble--user"]').length}`).join(' '), undefined)));
    throw new Error(`${error.message}; stored ${stored.filter((m) => m.kind === 'user').map((m) => `${m.text} ${m.status}`).join(', ')}; posted ${agent.posts.join(', ')}; elements ${tabsNow.join(' | ')}`);
  });
  const stored = await storedMessages(tabs[0]);
  assert.deepEqual(sorted(stored.filter((m) => m.kind === 'user').map((m) => m.text!)), sorted(typed), `${why}: storage keeps each message once`);
  assert.equal(new Set(stored.map((m) => m.id)).size, stored.length, `${why}: no message twice in storage`);
  for (const [index, tab] of tabs.entries()) {
    const each = async () => JSON.stringify(sorted(await shown(tab, '[part~="bubble--user"]'))) === JSON.stringify(sorted(typed));
    await poll(each, `${why}: tab ${'AB'[index]} shows each message once`);
  }
  return stored;
}

/**
 * The visitor sends, rates replies (`feedback` is set), begins new conversations and undoes that, at
 * random from both tabs: both tabs alike, nothing posted twice, nothing left to send, and no
 * rating's tag lost (the site names each by its reply: it reached the agent, or waits, or went with
 * its session, a reply given before another conversation's greeting was answered).
 */
export async function anythingAtRandom(tabs: Tab[], agent: AgentLog, seed: number, why: string, steps = 16, pages = false) {
  const random = prng(seed);
  for (const tab of tabs) {
    await tab.evaluate(() => {
      document.querySelector('agent-chat')!.setAttribute('feedback', '');
      document.addEventListener('agent-chat-feedback', (event) => {
        const { detail } = event as CustomEvent<{ responseId: string; tag?: string }>;
        detail.tag = `rated ${detail.responseId}`;
      });
    }, undefined);
  }
  await act(tabs, random, steps, (step, tab) => {
    if (pages && step % 4 === 3) return { action: 'page', text: '' };
    const pick = random();
    return { action: pick < 0.6 ? 'send' : pick < 0.85 ? 'rate' : pick < 0.95 ? 'restart' : 'undo', text: `Step ${step} in tab ${tab}` };
  }, true, !!agent.history, pages); // (a long conversation's older replies are in parts: rated there too)
  // (A long conversation's oldest entries may have left one tab's log and not the other's: the newest.)
  const newest = <T>(entries: T[]) => (agent.history ? entries.slice(-80) : entries);
  // (Thanks says the same for either thumb: the thumb kept pressed tells them apart, as one tab may
  // still show its own rating of a reply the other tab rated the other way, and wrote last.)
  // (Nor a request held: a new conversation's greeting, its reply not yet come, which adds the
  // earlier messages of a long one: both tabs alike, showing none yet, were once taken for settled.)
  const settled = async () => {
    const { messages = [], held = [] } = (await storedIn<{ messages?: StoredMessage[]; held?: unknown[] }>(tabs[0], 'conversation')) ?? {};
    const [a, b] = await Promise.all(tabs.map(async (tab) => [newest(await shown(tab, '[part~="bubble"], [part~="feedback"]')), newest(await ratingsShown(tab))]));
    return JSON.stringify(a) === JSON.stringify(b) && !held.length && !messages.some((m) => m.kind === 'user' && m.status !== 'sent');
  };
  await poll(settled, `${why}: both tabs show one conversation, every message in it delivered, no request held`);
  const stored = await storedMessages(tabs[0]);
  assert.equal(new Set(stored.map((m) => m.id)).size, stored.length, `${why}: no message twice in storage`);
  // A rating's tag taken off (not waiting, nor marked as of a session past) reached the agent.
  const heard = agent.tagged.flat();
  const lost = stored.filter((m) => m.kind === 'agent' && m.rating && m.tag === undefined && !heard.includes(`rated ${m.item?.id}`));
  assert.deepEqual(lost.map((m) => m.item?.altText), [], `${why}: no rating's tag lost (the agent got ${JSON.stringify(heard.filter((tag) => tag.startsWith('rated')))})`);
  if (agent.history) {
    // Each reply tab A shows, with its rating (rated in either tab, its part of storage written again).
    const shownRatings = await ratingsShown(tabs[0]);
    const storedRatings = new Map(stored.filter((m) => m.kind === 'agent').map((m) => [m.item?.altText, m.rating ?? '']));
    assert.deepEqual(shownRatings.map(([text]) => [text, storedRatings.get(text)]), shownRatings, `${why}: storage keeps each reply and rating tab A shows`);
  }
  const posted = agent.posts.flatMap((post, i) => (post.startsWith('(') ? [] : [{ text: post, id: agent.requestIds?.[i] }]));
  if (process.env.TAB_LOG) console.log(`posted: ${agent.posts.map((post, i) => `${post} [${agent.requestIds?.[i]?.slice(0, 8)}]`).join(', ')}`);
  if (pages) {
    // A request a page change cut short is posted again as the same request, which the proxy
    // answers from memory (see changingPagesAtRandom).
    for (const { text } of posted) {
      const ids = new Set(posted.filter((other) => other.text === text).map((other) => other.id));
      assert.equal(ids.size, 1, `${why}: "${text}" posted as one request (${[...ids].join(', ')})`);
    }
  } else {
    const texts = posted.map(({ text }) => text);
    assert.deepEqual(texts.filter((text, i) => texts.indexOf(text) !== i), [], `${why}: nothing posted twice`);
  }
}

/**
 * The visitor sends at random from both tabs of a single-page site, which goes to another of its
 * pages now and then (the element replaced, a request of the old one cut short): every message kept
 * once in both tabs and storage, answered once; a message posted again (its request cut short)
 * carries the same `requestId`, so the proxy answers it from memory and the agent hears it once.
 */
export async function changingPagesAtRandom(tabs: Tab[], agent: AgentLog, seed: number, why: string, steps = 16) {
  const typed: string[] = [];
  await act(tabs, prng(seed), steps, (step, tab) => {
    if (step % 3 === 2) return { action: 'page', text: '' };
    typed.push(`Step ${step} in tab ${tab}`);
    return { action: 'send', text: typed.at(-1)! };
  }, false, false, true);
  const stored = await keptOnceEverywhere(tabs, agent, typed, why);
  assert.deepEqual(sorted(stored.filter((m) => m.kind === 'agent').map((m) => m.item!.altText!)), sorted([GREETING, ...typed.map((text) => `You said: ${text}`)]), `${why}: the greeting and one answer to each`);
  for (const text of typed) {
    const ids = new Set(agent.posts.flatMap((post, i) => (post === text ? [agent.requestIds![i]] : [])));
    assert.equal(ids.size, 1, `${why}: "${text}" posted as one request (${[...ids].join(', ')})`);
  }
}

/**
 * The visitor's site tags the session at random from both tabs while they send: every tag reaches
 * the agent or still waits for the next request. With `pages`, the site is a single-page one that
 * goes to another of its pages every third step (as in {@link changingPagesAtRandom}).
 */
export async function taggingAtRandom(tabs: Tab[], agent: AgentLog, seed: number, why: string, steps = 16, pages = false) {
  const random = prng(seed);
  const tags: string[] = [];
  await act(tabs, random, steps, (step, tab) => {
    if (pages && step % 3 === 2) return { action: 'page', text: '' };
    if (random() >= 0.7) return { action: 'send', text: `Step ${step} in tab ${tab}` };
    tags.push(`step-${step}`);
    return { action: 'tag', text: tags.at(-1)! };
  }, false, false, pages);
  await poll(async () => !(await storedMessages(tabs[0])).some((m) => m.kind === 'user' && m.status !== 'sent'), `${why}: every message delivered`);
  const lost = async () => {
    const stillWaiting = await waitingTags(tabs[0]);
    return tags.filter((tag) => !agent.tagged.flat().includes(tag) && !stillWaiting.includes(tag));
  };
  await poll(async () => (await lost()).length === 0, `${why}: no tag lost`).catch(async (error) => {
    const early = await tabs[0].evaluate(() => Object.entries(localStorage).filter(([key]) => /:tags$|:early-tags:/.test(key)).map(([key, value]) => `${key.split(':').at(-1)} ${value}`).join('; '), undefined);
    throw new Error(`${error.message}: ${(await lost()).join(', ')}; the agent got ${JSON.stringify(agent.tagged)}; storage: ${early}`);
  });
}

/** {@link anythingAtRandom} on a single-page site that changes page (every fourth step). */
export const anythingAcrossPagesAtRandom = (tabs: Tab[], agent: AgentLog, seed: number, why: string) => anythingAtRandom(tabs, agent, seed, why, 16, true);

/** {@link taggingAtRandom} on a single-page site that changes page. */
export const taggingAcrossPagesAtRandom = (tabs: Tab[], agent: AgentLog, seed: number, why: string) => taggingAtRandom(tabs, agent, seed, why, 16, true);

/** Each choice a tab shows: its title, its part, and `:inert` when it cannot be clicked. */
const choiceStates = (tab: Tab) => tab.evaluate(() => [...document.querySelector('agent-chat')!.shadowRoot!.querySelectorAll<HTMLButtonElement>('button[part~="button"]')]
  .map((b) => `${b.textContent!.trim()}:${b.getAttribute('part')}${b.disabled ? ':inert' : ''}`), undefined);

/**
 * The choices as the conversation says they show (see README, "Answered choices"): a turn with a
 * message of the visitor's after it is answered, the choice of that title chosen, the others
 * muted, none clickable; the others are live.
 */
function expectedChoices(stored: StoredMessage[]) {
  return stored.flatMap((message, i) => {
    if (message.kind !== 'agent' || message.item?.type !== 'buttons') return [];
    const answer = stored.slice(i + 1).find((m) => m.kind === 'user');
    return message.item.buttons!.map(({ title }) => `${title}:${!answer ? 'button' : title === answer.text ? 'button button--chosen:inert' : 'button button--answered:inert'}`);
  });
}

/**
 * The visitor types and picks the agent's choices at random from both tabs (the agent ends each
 * answer with two: `choices`), a tab picking what it shows as still to answer: both tabs show each
 * turn answered as the conversation in storage says, and each message (typed or picked) was posted
 * once.
 */
export async function choosingAtRandom(tabs: Tab[], agent: AgentLog, seed: number, why: string, steps = 16) {
  const random = prng(seed);
  const typed: string[] = [];
  await act(tabs, random, steps, (step, tab) => {
    if (random() >= 0.35) return { action: 'choose', text: '' };
    typed.push(`Step ${step} in tab ${tab}`);
    return { action: 'send', text: typed.at(-1)! };
  });
  let expected: string[] = [];
  const settled = async () => {
    const stored = await storedMessages(tabs[0]);
    expected = expectedChoices(stored);
    const [a, b] = await Promise.all(tabs.map(choiceStates));
    return !stored.some((m) => m.kind === 'user' && m.status !== 'sent') && JSON.stringify(a) === JSON.stringify(expected) && JSON.stringify(b) === JSON.stringify(expected);
  };
  await poll(settled, `${why}: every message delivered, both tabs show each turn answered as the conversation says`).catch(async (error) => {
    const [a, b] = await Promise.all(tabs.map(choiceStates));
    throw new Error(`${error.message}\nexpected ${expected.join(', ')}\ntab A    ${a.join(', ')}\ntab B    ${b.join(', ')}`);
  });
  const stored = await storedMessages(tabs[0]);
  assert.equal(new Set(stored.map((m) => m.id)).size, stored.length, `${why}: no message twice in storage`);
  const sent = stored.filter((m) => m.kind === 'user').map((m) => m.text!);
  assert.deepEqual(sorted(sent.filter((text) => text.startsWith('Step'))), sorted(typed), `${why}: storage keeps each typed message`);
  const posted = agent.posts.filter((p) => p !== '(greeting)').map((p) => p.replace(/^\(pick-(.*)\)$/, 'Pick $1'));
  assert.deepEqual(sorted(posted), sorted(sent), `${why}: each message the conversation keeps posted once, nothing else`);
  assert.ok(sent.length > typed.length, `${why}: a choice was picked`);
}
