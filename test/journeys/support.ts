/**
 * What journeys share: a visitor's actions through the public surface (launcher, composer, buttons
 * in the log) and a record of every state the widget showed, next to what was really in flight.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { FakeProxy, Reply } from '../support/fake-proxy.js';
import { part, parts, statusOf, typeDraft, WAIT } from '../support/widget.js';

/** The agent (or the network to it) is down: fetch fails, though the browser says it is online. */
export const down: Reply = { networkError: true };

/** The agent is down and asks for a minute (`Retry-After: 60`): a queue's next try is that far away, well past any wait of a test. */
export const downForAMinute: Reply = { status: 503, headers: { 'Retry-After': '60' }, json: { status: 'error', error: 'Service unavailable' } };

/** Until `n` frames have been drawn. */
export const frames = (n: number) => new Array(n).fill(0).reduce((p: Promise<unknown>) => p.then(() => new Promise(requestAnimationFrame)), Promise.resolve());

/** Types `text` into the composer and clicks Send, as a visitor does. */
export async function submit(chat: AgentChat, text: string) {
  await typeDraft(chat, text);
  part(chat, 'send-button')!.click();
  await chat.updateComplete;
}

/** Once the page has been idle: after what the shell does then (an idle callback, or a timer where there are none). */
export const afterIdle = () => new Promise((resolve) => (globalThis.requestIdleCallback ?? setTimeout)(() => setTimeout(resolve)));

/** Clicks the launcher. */
export async function clickLauncher(chat: AgentChat) {
  part(chat, 'launcher')!.click();
  await chat.updateComplete;
}

export function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

/** The page in the background (`yes`) or in view, as the browser says it: both `visibilityState` and `hidden`. */
export const lookAway = (yes: boolean) => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (yes ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => yes });
};
/** The browser's own again. */
export const lookBack = () => {
  delete (document as { visibilityState?: string }).visibilityState;
  delete (document as { hidden?: boolean }).hidden;
};

export function resetOnline() {
  delete (navigator as { onLine?: boolean }).onLine;
}

/** Resolves once every page that held or waited for this proxy's outbox is done with it. */
export async function outboxSettled(proxy: FakeProxy) {
  await navigator.locks.request(`agent-chat:${proxy.url}:outbox`, () => undefined);
}

export interface Shown {
  /** Every status line under a visitor's message, the greeting's problem and the typing indicator. */
  words: string[];
  /** Requests in flight at the fake proxy when this was on screen. */
  inFlight: number;
}

/**
 * Records what the widget shows after each change of its shadow DOM, with the number of requests
 * in flight then, until `stop()`. It looks at the end of the task, where the browser paints: what
 * is changed again within one task (a status replaced by the next in the same microtask chain)
 * is never on screen.
 */
export function recordStates(chat: AgentChat, proxy: FakeProxy) {
  const shown: Shown[] = [];
  const snapshot = () => {
    const words = [
      ...parts(chat, 'message-status').map((s) => s.textContent!.replace(/\s+/g, ' ').trim()),
      ...parts(chat, 'error').map((s) => s.textContent!.replace(/\s+/g, ' ').trim()),
      ...(part(chat, 'typing') ? [part(chat, 'typing')!.textContent!.trim()] : []),
    ];
    const last = shown.at(-1);
    if (!last || last.inFlight !== proxy.inFlight || last.words.join('|') !== words.join('|')) shown.push({ words, inFlight: proxy.inFlight });
  };
  let scheduled = false;
  const observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      snapshot();
    });
  });
  observer.observe(chat.shadowRoot!, { subtree: true, childList: true, characterData: true });
  snapshot();
  return {
    shown,
    stop: () => {
      observer.disconnect();
      return shown;
    },
  };
}

/** Waits until `text`'s status line matches. */
export async function waitForStatus(chat: AgentChat, text: string, expected: RegExp | string) {
  const matches = () => (typeof expected === 'string' ? statusOf(chat, text) === expected : expected.test(statusOf(chat, text)));
  // What it shows when the wait ends, not when it began.
  await waitUntil(matches, '', WAIT).catch(() => {
    throw new Error(`waited for "${text}" to show ${expected}; it shows "${statusOf(chat, text)}"`);
  });
}

/** The texts of the requests the fake proxy received, in order (the greeting as "(greeting)"). */
export const sent = (proxy: FakeProxy, from = 0) =>
  proxy.bodies.slice(from).map((b) => b.message.text ?? (b.message.payload?.data === 'greeting' ? '(greeting)' : JSON.stringify(b.message.payload)));

/**
 * Axe finds nothing on the chats shown on the page once they are still: their opening, closing and
 * preview transitions ended (mid-fade, text is faded, and axe would measure its contrast
 * half-drawn). The page's `getAnimations()` leaves shadow trees out in Chromium: each chat's are
 * asked too. A reply that comes during axe's run can start a fade of its own (a preview beside the
 * launcher): what axe finds is looked at again once that has ended, and only what it finds then counts.
 */
export async function accessibleOnceStill(what: string, ...chats: (AgentChat | undefined)[]) {
  const still = async () => {
    await new Promise(requestAnimationFrame);
    const running = [...document.getAnimations(), ...[...document.querySelectorAll('agent-chat')].flatMap((el) => el.shadowRoot!.getAnimations())];
    await Promise.all(running.filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined)));
  };
  for (const chat of chats) {
    for (let look = 1; chat?.isConnected && !chat.hidden; look++) {
      await still();
      try {
        await expect(chat).to.be.accessible();
        break;
      } catch (error) {
        if (look === 2) throw new Error(`axe (${what}): ${(error as Error).message}`);
      }
    }
  }
}

/**
 * Another tab's change of `agent-chat:{proxyUrl}:{key}`, its notice (`notice`: what its channel
 * message says changed) arriving before its localStorage write is visible here: posts the notice
 * and waits until the page has read the key, runs `meanwhile` (what the page shows then), makes the
 * write of `data` from a frame (storage events fire in other documents only), and waits until
 * `until` says the page shows it.
 */
export async function noticeAheadOfWrite(proxyUrl: string, notice: number, key: string, write: { meanwhile: () => Promise<void> | void; data: unknown; until: () => unknown; what: string }) {
  const fullKey = `agent-chat:${proxyUrl}:${key}`;
  const reads: string[] = [];
  const { getItem } = Storage.prototype;
  Storage.prototype.getItem = function (this: Storage, name: string) {
    reads.push(name);
    return getItem.call(this, name);
  };
  const channel = new BroadcastChannel(`agent-chat:${proxyUrl}`);
  try {
    channel.postMessage(notice);
    await waitUntil(() => reads.includes(fullKey), 'the notice made the widget read storage', WAIT);
  } finally {
    Storage.prototype.getItem = getItem;
    channel.close();
  }
  await write.meanwhile();
  const frame = document.createElement('iframe');
  document.body.append(frame);
  try {
    frame.contentWindow!.localStorage.setItem(fullKey, JSON.stringify({ v: 1, data: write.data }));
    await waitUntil(write.until, write.what, WAIT);
  } finally {
    frame.remove();
  }
}
