/**
 * Journeys through turns of a conversation: choices the visitor has answered stop inviting clicks
 * (everywhere the conversation shows), and every group of messages says when it was sent.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { ok, text } from '../support/fake-proxy.js';
import { bubbles, mount, part, parts, shownText, statusOf, useFakeProxies, WAIT, waitForBubbles, waitForRequests } from '../support/widget.js';
import { sent, submit } from './support.js';

const choices: AgentResponseItem = {
  type: 'buttons', text: 'What do you need?', altText: 'What do you need?',
  buttons: [
    { title: 'Pricing', payload: { type: 'node', data: 'pricing' } },
    { title: 'Docs', url: 'https://example.com/docs' },
    { title: 'Sales' },
  ],
};
const button = (chat: AgentChat, title: string) => parts(chat, 'button').find((b) => b.textContent!.trim() === title)!;
const state = (chat: AgentChat) => parts(chat, 'button').map((b) => `${b.textContent!.trim()}:${b.getAttribute('part')!.replace('button ', '')}${(b as HTMLButtonElement).disabled ? ':inert' : ''}`);

/**
 * A conversation of yesterday noon in storage, for the page's proxy `url`: the agent's "Hello
 * yesterday" and what `more` gives for that time. Returns the time.
 */
function storeYesterday(url: string, more: (at: number) => object[] = () => []) {
  const yesterday = new Date();
  yesterday.setDate(yesterday.getDate() - 1);
  const at = yesterday.setHours(12, 0, 0, 0);
  localStorage.setItem(`agent-chat:${url}:conversation`, JSON.stringify({ v: 1, data: {
    startedAt: at, updatedAt: at, greeted: true,
    messages: [{ kind: 'agent', id: 'a1', at, item: { type: 'text', options: ['Hello yesterday'], altText: 'Hello yesterday' } }, ...more(at)],
  } }));
  return at;
}

describe('journeys: turns', () => {
  const proxy = useFakeProxies();

  it('a choice clicked: that turn shows as answered (the chosen one marked, the others inert), links still open, the next turn is live', async () => {
    const p = proxy();
    p.next(ok(choices));
    const { chat } = await mount(p, { open: true });
    await waitUntil(() => button(chat, 'Pricing'), 'choices shown', WAIT);
    expect(state(chat), 'live before the answer').to.deep.equal(['Pricing:button', 'Docs:button--link', 'Sales:button']);
    p.next(ok(text('Plans start at 5 €.'), { ...choices, text: 'Anything else?' }));
    button(chat, 'Pricing').click();
    await waitForBubbles(chat, 4);
    expect(state(chat)).to.deep.equal([
      'Pricing:button--chosen:inert', 'Docs:button--link', 'Sales:button--answered:inert', // the turn answered
      'Pricing:button', 'Docs:button--link', 'Sales:button', // the new turn
    ]);
    expect(button(chat, 'Pricing').getAttribute('aria-pressed')).to.equal('true');
    expect(button(chat, 'Sales').getAttribute('aria-pressed')).to.equal('false');
    expect(parts(chat, 'button--link')[0].getAttribute('href')).to.equal('https://example.com/docs');
    parts(chat, 'button--answered')[0].click(); // inert: nothing is sent
    await chat.updateComplete;
    expect(sent(p)).to.deep.equal(['(greeting)', '{"type":"node","data":"pricing"}']);
  });

  it('a typed answer: the choices before it show as answered, none chosen', async () => {
    const p = proxy();
    p.next(ok(choices));
    const { chat } = await mount(p, { open: true });
    await waitUntil(() => button(chat, 'Pricing'), 'choices shown', WAIT);
    await submit(chat, 'Actually, I have a question');
    await waitForBubbles(chat, 3);
    expect(state(chat)).to.deep.equal(['Pricing:button--answered:inert', 'Docs:button--link', 'Sales:button--answered:inert']);
  });

  it('an answer that could not be delivered and is discarded gives the choices back', async () => {
    const p = proxy();
    p.next(ok(choices)).next({ status: 400, json: { status: 'error', error: 'rejected' } });
    const { chat } = await mount(p, { open: true });
    await waitUntil(() => button(chat, 'Pricing'), 'choices shown', WAIT);
    button(chat, 'Sales').click();
    await waitUntil(() => part(chat, 'discard-button'), 'not delivered', WAIT);
    expect(state(chat)[2], 'answered while it is there').to.equal('Sales:button--chosen:inert');
    part(chat, 'discard-button')!.click();
    await waitUntil(() => !part(chat, 'button--chosen'), 'choices back', WAIT);
    expect(state(chat)).to.deep.equal(['Pricing:button', 'Docs:button--link', 'Sales:button']);
  });

  it('keep-choices leaves them live, also when set later', async () => {
    const p = proxy();
    p.next(ok(choices));
    const { chat } = await mount(p, { open: true, attrs: { 'keep-choices': '' } });
    await waitUntil(() => button(chat, 'Pricing'), 'choices shown', WAIT);
    await submit(chat, 'typed');
    await waitForBubbles(chat, 3);
    expect(state(chat)).to.deep.equal(['Pricing:button', 'Docs:button--link', 'Sales:button']);
    chat.keepChoices = false;
    await chat.updateComplete;
    expect(state(chat)).to.deep.equal(['Pricing:button--answered:inert', 'Docs:button--link', 'Sales:button--answered:inert']);
  });

  it('two tabs: an answer in one shows the turn answered in the other', async () => {
    const p = proxy();
    p.next(ok(choices));
    const a = await mount(p, { open: true });
    await waitUntil(() => button(a.chat, 'Pricing'), 'choices shown', WAIT);
    const b = await mount(p, { mode: 'inline' });
    await waitUntil(() => button(b.chat, 'Pricing'), 'tab B shows them', WAIT);
    button(a.chat, 'Pricing').click();
    await waitForBubbles(b.chat, 3, 'tab B shows the answer and its reply');
    await waitUntil(() => part(b.chat, 'button--chosen'), 'answered in tab B', WAIT);
    expect(state(b.chat)).to.deep.equal(state(a.chat));
  });

  it('each group says when it was sent; a conversation from yesterday shows the day, then Today above the new turn', async () => {
    const p = proxy();
    const at = storeYesterday(p.url, (at) => [
      { kind: 'user', id: 'u1', at: at + 60_000, text: 'hi', status: 'sent', request: { text: 'hi' } },
      { kind: 'agent', id: 'a2', at: at + 61_000, item: { type: 'text', options: ['Yes?'], altText: 'Yes?' } },
      { kind: 'agent', id: 'a3', at: at + 62_000, item: { type: 'text', options: ['Still there?'], altText: 'Still there?' } },
    ]);
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 4);
    expect(parts(chat, 'day').map((d) => d.textContent!.trim())).to.deep.equal(['Yesterday']);
    const times = parts(chat, 'time');
    expect(times.map((t) => t.getAttribute('datetime')), 'one per group').to.deep.equal([at, at + 60_000, at + 61_000].map((t) => new Date(t).toISOString()));
    expect(times[0].textContent).to.match(/12[:.]00|12:00 PM/);
    expect(times.every((t) => t.getAttribute('dir') === 'auto'), '"12:00 PM" keeps its order on a right-to-left page').to.equal(true);
    await submit(chat, 'back today');
    await waitForBubbles(chat, 6);
    expect(parts(chat, 'day').map((d) => d.textContent!.trim())).to.deep.equal(['Yesterday', 'Today']);
    expect(parts(chat, 'day').every((d) => d.getAttribute('dir') === 'auto'), '"Monday, 16 November" keeps its order on a right-to-left page').to.equal(true);
    expect(statusOf(chat, 'back today')).to.equal('sent');
    expect(shownText(chat, 'time')).to.match(/\d/);
    expect(bubbles(chat).at(-1)).to.equal('You said: back today');
    await waitForRequests(p, 1);
  });

  it('a page left open past midnight: the day labels move on ("Yesterday" becomes its date, today\'s conversation gets "Yesterday") at the next message, or as the page is looked at again', async () => {
    const day = 86_400_000;
    const { now } = Date;
    const p = proxy();
    storeYesterday(p.url);
    const days = (chat: AgentChat) => parts(chat, 'day').map((d) => d.textContent!.trim());
    try {
      const { chat } = await mount(p, { open: true });
      await waitForBubbles(chat, 1);
      await submit(chat, 'late at night');
      await waitForBubbles(chat, 3);
      expect(days(chat)).to.deep.equal(['Yesterday', 'Today']);
      Date.now = () => now.call(Date) + day; // the page stays open until the next day
      document.dispatchEvent(new Event('visibilitychange')); // looked at again
      await waitUntil(() => days(chat)[0] !== 'Yesterday', 'the day labels follow the date', WAIT);
      expect(days(chat)[0]).to.match(/\d/).and.not.match(/Yesterday|Today/);
      expect(days(chat)[1]).to.equal('Yesterday');
      Date.now = () => now.call(Date) + 2 * day; // and another day, without a look
      await submit(chat, 'next morning');
      await waitForBubbles(chat, 5);
      expect(days(chat)).to.have.length(3);
      expect(days(chat).slice(0, 2).every((d) => /\d/.test(d)), 'two days with their dates').to.equal(true);
      expect(days(chat)[2]).to.equal('Today');
    } finally {
      Date.now = now;
    }
  });

  it('makes the time format while the greeting is on its way, not when the reply is to be shown', async () => {
    // A page's first date format costs ~20 ms (ICU's data): paid during the wait for the agent.
    const made: unknown[] = [];
    const { DateTimeFormat } = Intl;
    const intl = Intl as { -readonly [K in keyof typeof Intl]: (typeof Intl)[K] };
    intl.DateTimeFormat = function (...args: ConstructorParameters<typeof DateTimeFormat>) {
      made.push(args[0]);
      return new DateTimeFormat(...args);
    } as unknown as typeof DateTimeFormat;
    try {
      const p = proxy();
      const greeting = p.hold();
      // A language no other test in this file uses: the formats are kept per language.
      const { chat } = await mount(p, { open: true, attrs: { language: 'fr' } });
      await waitForRequests(p, 1);
      await waitUntil(() => made.includes('fr'), 'the time format made while the greeting is awaited', WAIT);
      expect(bubbles(chat), 'no reply yet').to.deep.equal([]);
      greeting.release(ok(text('Bonjour !')));
      await waitForBubbles(chat, 1);
      expect(shownText(chat, 'time')).to.match(/\d/);
    } finally {
      intl.DateTimeFormat = DateTimeFormat;
    }
  });
});
