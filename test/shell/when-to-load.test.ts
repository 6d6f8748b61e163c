/**
 * The shell's reads of storage, which it makes without the engine's parser: a text search of what
 * the engine's store writes. Written here through the store itself (createStore), so that a change
 * of how a conversation is stored that the search would miss fails here.
 */
import { expect } from '@open-wc/testing';
import { TEASER_SEEN_KEY } from '../../src/controllers/nudge-controller.js';
import type { ChatMessage, Conversation, HeldRequest, UserMessage } from '../../src/conversation/transcript.js';
import { hasNews, teaserDue, wasOpen, whenPageIdle } from '../../src/shell/when-to-load.js';
import { tabValue } from '../../src/view/tab-state.js';
import { createStore } from '../../src/storage/store.js';

const url = `${location.origin}/left-to-send/${Date.now()}`;
const at = Date.now();
const sent = (text: string, i = 0): UserMessage => ({ kind: 'user', id: `u${i}-${crypto.randomUUID()}`, at: at + i, text, status: 'sent', request: { text } });
const reply = (text: string, i = 0): ChatMessage => ({ kind: 'agent', id: `a${i}-${crypto.randomUUID()}`, at: at + i, item: { type: 'text', options: [text], altText: text } });
const postback = (data: string, greeting?: boolean): HeldRequest => ({ id: crypto.randomUUID(), at, message: { payload: { type: 'node', data } }, ...(greeting && { greeting }), by: 'agent-chat:tab:gone' });

/**
 * Stores `conversation` as the engine does, with every reply in it seen (the `read` time the
 * engine's ConversationController.shareRead writes: the newest message's), and asks the shell.
 */
function leftToSend(conversation: Partial<Conversation>) {
  const store = createStore(`agent-chat:${url}`);
  store.set('conversation', { startedAt: at, updatedAt: at, greeted: true, messages: [], ...conversation });
  store.set('read', Math.max(at, ...(conversation.messages ?? []).map((m) => m.at)));
  return hasNews(url);
}

/** Stores `messages` as the engine does, seen up to `readAt` (none: never), and asks the shell. */
function unread(messages: ChatMessage[], readAt?: number) {
  const store = createStore(`agent-chat:${url}`);
  store.set('conversation', { startedAt: at, updatedAt: at, greeted: true, messages });
  if (readAt !== undefined) store.set('read', readAt);
  return hasNews(url);
}

describe('what the shell reads of storage', () => {
  afterEach(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith(`agent-chat:${url}`) || key === TEASER_SEEN_KEY) localStorage.removeItem(key);
  });

  it('something left to send: a visitor\'s message still sending, a held postback or greeting; nothing else', () => {
    expect(hasNews(url), 'nothing stored').to.equal(false);
    expect(leftToSend({ messages: [sent('hi'), reply('hello')] }), 'all sent').to.equal(false);
    expect(leftToSend({ messages: [sent('"status":"sending" and "held":[{"id":1}]'), reply('"held":[{')] }), 'those words in a message').to.equal(false);
    expect(leftToSend({ messages: [sent('hi'), reply('hello')], held: [] }), 'nothing held').to.equal(false);
    expect(leftToSend({ messages: [{ ...sent('hi'), status: 'failed', error: 'refused', retryable: false }] }), 'failed for good').to.equal(false);
    expect(leftToSend({ messages: [sent('hi'), { ...sent('still going', 1), status: 'sending', by: 'agent-chat:tab:gone' }] }), 'a message sending').to.equal(true);
    expect(leftToSend({ held: [postback('checkout-started')] }), 'a held postback').to.equal(true);
    expect(leftToSend({ greeted: false, held: [postback('greeting', true)] }), 'a held greeting').to.equal(true);
  });

  it('in a long conversation, whose older messages the store keeps in parts of their own: the newest, still sending, is found', () => {
    const messages = Array.from({ length: 250 }, (_, i) => (i % 2 ? reply(`reply ${i}`, i) : sent(`message ${i}`, i)));
    messages.push({ ...sent('the last', 250), status: 'sending' });
    expect(leftToSend({ messages }), 'the newest sending').to.equal(true);
    expect(Object.keys(localStorage).some((key) => key.startsWith(`agent-chat:${url}:~`)), 'stored in parts').to.equal(true);
    messages[250] = { ...(messages[250] as UserMessage), status: 'sent' };
    expect(leftToSend({ messages }), 'once sent').to.equal(false);
  });

  it('replies the visitor has seen in no tab: newer than the `read` time, in any length of conversation; none when all are seen or there are none', () => {
    expect(unread([sent('hi', 0), reply('hello', 1)]), 'a reply, nothing ever seen').to.equal(true);
    expect(unread([sent('hi', 0), reply('hello', 1)], at + 1), 'seen').to.equal(false);
    expect(unread([reply('greeting', 0), sent('hi', 1), reply('answer', 2)], at + 1), 'seen up to the message before it').to.equal(true);
    expect(unread([reply('greeting', 0), sent('hi', 1)], at), 'the visitor\'s own message is no news').to.equal(false);
    expect(unread([], 0), 'an empty conversation').to.equal(false);
    const corrupt = createStore(`agent-chat:${url}`);
    corrupt.set('conversation', { startedAt: at, updatedAt: at, greeted: true, messages: [null, 'junk', reply('hello', 1)] as never });
    corrupt.set('read', at);
    expect(hasNews(url), 'among messages that are not (corrupt, which the engine leaves out)').to.equal(true);
    const messages = Array.from({ length: 250 }, (_, i) => (i % 2 ? reply(`reply ${i}`, i) : sent(`message ${i}`, i)));
    expect(unread(messages, at + 248), 'the newest of 250 (the older in parts)').to.equal(true);
    expect(Object.keys(localStorage).some((key) => key.startsWith(`agent-chat:${url}:~`)), 'stored in parts').to.equal(true);
    expect(unread(messages, at + 249), 'all of them seen').to.equal(false);
  });

  it('the teaser is due until storage says its time is over; storage that cannot be read: never', () => {
    expect(teaserDue()).to.equal(true);
    localStorage.setItem(TEASER_SEEN_KEY, '1');
    expect(teaserDue(), 'the nudge controller\'s key').to.equal(false);
    localStorage.removeItem(TEASER_SEEN_KEY);
    const { getItem } = Storage.prototype;
    Storage.prototype.getItem = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    try {
      expect(teaserDue(), 'unreadable').to.equal(false);
      expect(hasNews(url), 'unreadable: nothing to send').to.equal(false);
    } finally {
      Storage.prototype.getItem = getItem;
    }
  });

  it('the panel open on the tab\'s page before: what the view keeps for the tab, under the URL resolved, on a page come to from the site; storage that cannot be read: no', () => {
    // (A page the visitor came to from a page of the site: from elsewhere, storage is not read.)
    Object.defineProperty(document, 'referrer', { configurable: true, get: () => `${location.origin}/the-page-before` });
    expect(!!wasOpen(url), 'nothing kept').to.equal(false);
    tabValue(new URL(url).pathname, 'open', '1'); // (the view keeps it under the URL resolved, as the shell reads it)
    try {
      expect(!!wasOpen(url), 'kept open').to.equal(true);
      expect(!!wasOpen(`${url}/other`), 'another deployment\'s').to.equal(false);
      const { getItem } = Storage.prototype;
      Storage.prototype.getItem = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
      try {
        expect(!!wasOpen(url), 'unreadable').to.equal(false);
      } finally {
        Storage.prototype.getItem = getItem;
      }
      Object.defineProperty(document, 'referrer', { configurable: true, get: () => 'https://elsewhere.example/' });
      expect(!!wasOpen(url), 'come to from another site').to.equal(false);
      delete (document as { referrer?: string }).referrer;
      expect(!!wasOpen(url), 'come to with no referrer').to.equal(false);
      Object.defineProperty(document, 'referrer', { configurable: true, get: () => `${location.origin}/the-page-before` });
      tabValue(url, 'open', '');
      expect(!!wasOpen(url), 'kept closed').to.equal(false);
    } finally {
      sessionStorage.clear();
      delete (document as { referrer?: string }).referrer;
    }
  });
});

describe('whenPageIdle', () => {
  /** Runs `whenPageIdle(task)` and `then(asked, task)` with the browser's idle callbacks recorded as asked for, not run. */
  function askingIdle(then: (asked: [unknown, unknown][], task: () => void) => void) {
    const asked: [unknown, unknown][] = [];
    const { requestIdleCallback } = globalThis;
    globalThis.requestIdleCallback = ((task: unknown, options: unknown) => asked.push([task, options])) as typeof requestIdleCallback;
    try {
      const task = () => {};
      whenPageIdle(task);
      then(asked, task);
    } finally {
      globalThis.requestIdleCallback = requestIdleCallback;
    }
  }

  it('on a page that has loaded, hands the task to the browser\'s idle callbacks at once, with a deadline of 5 s', () => {
    expect(document.readyState, 'the test page has loaded').to.equal('complete');
    askingIdle((asked, task) => expect(asked).to.deep.equal([[task, { timeout: 5000 }]]));
  });

  it('on a page still loading, asks for nothing before the page\'s load event, then hands the task over', () => {
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'interactive' });
    try {
      askingIdle((asked, task) => {
        expect(asked, 'nothing while the page loads').to.deep.equal([]);
        dispatchEvent(new Event('load'));
        expect(asked, 'at its load event').to.deep.equal([[task, { timeout: 5000 }]]);
      });
    } finally {
      delete (document as { readyState?: string }).readyState;
    }
  });
});
