/** Helpers that read the widget only through its public surface: attributes, parts, shadow DOM. */
import { fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../src/agent-chat.js';
import type { AgentChat } from '../../src/agent-chat.js';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { FakeProxy } from './fake-proxy.js';

export type Options = { mode?: 'launcher' | 'inline'; open?: boolean; attrs?: Record<string, string> };

/** Mounts `<agent-chat>` on a fresh fake proxy. */
export async function mount(proxy = new FakeProxy(), { mode = 'launcher', open = false, attrs = {} }: Options = {}) {
  const el = document.createElement('agent-chat');
  el.setAttribute('proxy-url', proxy.url);
  el.setAttribute('mode', mode);
  if (open) el.setAttribute('open', '');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  const chat = await fixture<AgentChat>(html`<div style="height: 600px">${el}</div>`).then((div) => div.firstElementChild as AgentChat);
  await chat.updateComplete;
  return { chat, proxy };
}

export const part = (chat: AgentChat, name: string) => chat.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
/**
 * A part's text, or null when it is not there: what a "not shown" assertion compares, so that a
 * failure prints the words (chai would serialise the whole element, which can hang the reporter).
 */
export const shownText = (chat: AgentChat, name: string) => part(chat, name)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
export const parts = (chat: AgentChat, name: string) => [...chat.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];

/** Text of each transcript entry, in order, e.g. ["Hello!", "Hi"]. */
export const bubbles = (chat: AgentChat) => parts(chat, 'bubble').map((b) => b.textContent!.trim());

/** The words under a visitor's message: its status line, "sent", or "" (in flight: the typing indicator speaks). */
export function statusOf(chat: AgentChat, text: string): string {
  const message = parts(chat, 'message--user').find((m) => m.querySelector('[part~="bubble"]')!.textContent === text);
  const status = message?.querySelector('[part~="message-status"]')?.textContent?.replace(/\s+/g, ' ').trim();
  return status ?? (message?.dataset.status === 'sent' ? 'sent' : '');
}

/** Condition waits get room for the retry backoff (up to ~4 s) on a slow, shared machine. */
export const WAIT = { timeout: 8000 };

/** Until `chat` shows `count` bubbles; a timeout says what it showed then (each visitor's message with its status). */
export async function waitForBubbles(chat: AgentChat, count: number, what = `${count} bubbles`) {
  await waitUntil(() => bubbles(chat).length >= count, `waited for ${what}`, WAIT).catch((error: Error) => {
    const statuses = parts(chat, 'message--user').map((m) => `${m.querySelector('[part~="bubble"]')?.textContent?.trim()}: ${m.dataset.status}`);
    throw new Error(`${error.message}; saw ${JSON.stringify(bubbles(chat))} (the visitor's: ${JSON.stringify(statuses)})`);
  });
  return bubbles(chat);
}

export async function waitForRequests(proxy: FakeProxy, count: number) {
  await waitUntil(() => proxy.requests.length >= count, `waited for ${count} requests; saw ${proxy.requests.length}`, WAIT);
  return proxy.bodies;
}

/** Types into the composer's input as a user would (an input event per change). */
export async function typeDraft(chat: AgentChat, value: string) {
  const input = part(chat, 'input') as HTMLTextAreaElement;
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await chat.updateComplete;
  return input;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Call inside a `describe`: returns a factory of fake proxies that, with the fixtures,
 * localStorage and sessionStorage, are cleaned up after each test.
 */
export function useFakeProxies() {
  let made: FakeProxy[] = [];
  afterEach(() => {
    fixtureCleanup();
    made.forEach((p) => p.restore());
    made = [];
    localStorage.clear();
    sessionStorage.clear();
  });
  return () => {
    const p = new FakeProxy();
    made.push(p);
    return p;
  };
}

/**
 * Makes a frame's blank document a page in standards mode, as a site's: a frame's own blank page is
 * in quirks mode, where a percentage height finds a height through any ancestor (an inline chat's
 * panel filled its box there, and grew past it on every real page). The frame's window, and what a
 * test stubbed on it, stay.
 */
export function standardsMode(win: Window) {
  win.document.open();
  win.document.write('<!doctype html><html><head></head><body></body></html>');
  win.document.close();
}

/**
 * Loads the built bundle into a fresh iframe document (its first evaluation there), in standards
 * mode; with `quirks`, in the quirks mode of a page without a doctype (the frame's own blank page).
 */
export async function loadBundleInto(frame: HTMLIFrameElement, { quirks = false } = {}) {
  const win = frame.contentWindow as Window & typeof globalThis;
  if (!quirks) standardsMode(win);
  const script = win.document.createElement('script');
  script.type = 'module';
  script.src = new URL('/dist/agent-chat.js', location.href).href;
  const loaded = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error('run `npm run build` first: /dist/agent-chat.js did not load'));
  });
  win.document.head.append(script);
  await loaded;
  return win;
}

/**
 * The built widget in a `width` × `height` iframe (a viewport of its own in every engine), its fetch
 * answering every request with `responses`: an open chat, or the `markup` given; with `quirks`, on a
 * page in quirks mode.
 */
export async function openInFrame(width: number, height: number, responses: AgentResponseItem[],
  markup = `<agent-chat proxy-url="/frame-${width}x${height}" open></agent-chat>`, { quirks = false } = {}) {
  const frame = document.createElement('iframe');
  frame.style.cssText = `width:${width}px;height:${height}px;border:0`;
  document.body.append(frame);
  const win = frame.contentWindow as Window & typeof globalThis;
  win.fetch = (async () => new Response(JSON.stringify({ status: 'ok', result: { responses } }),
    { headers: { 'Content-Type': 'application/json' } })) as typeof fetch;
  await loadBundleInto(frame, { quirks });
  win.document.body.innerHTML = markup;
  return { frame, win, chat: win.document.querySelector('agent-chat') as AgentChat };
}

/** Collects uncaught errors and unhandled rejections until `stop()`. */
export function collectPageErrors() {
  const errors: string[] = [];
  const onError = (e: ErrorEvent) => errors.push(e.message);
  const onRejection = (e: PromiseRejectionEvent) => errors.push(String(e.reason));
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  return {
    errors,
    stop() {
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
    },
  };
}
