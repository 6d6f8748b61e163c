/**
 * Journeys through an agent that answers too late: the proxy gives up on it (504), or the widget
 * does (no answer within its 20 s). The agent may have had the request all the same and acted on it
 * (an order placed, a flow's question answered), so what it may have heard is never sent again
 * unless the visitor asks: the visitor reads that, and sends it again, once, as the newest message.
 * A 504 with a `Retry-After` under 5 s (a proxy still waiting on the agent, which keeps its late
 * answer for the next try, as this project's does) is asked again by itself, the message still on
 * its way; a longer one is a retry the visitor is told of. Every try carries the message's `requestId`.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChatErrorEvent } from '../../src/events.js';
import { echoAgent, type Reply } from '../support/fake-proxy.js';
import { bubbles, mount, part, parts, shownText, statusOf, useFakeProxies, WAIT, waitForBubbles } from '../support/widget.js';
import { down, outboxSettled, sent, submit, waitForStatus } from './support.js';

/** What the proxy answers when the agent service does not answer within its timeout. */
const tooLate: Reply = { status: 504, json: { status: 'error', error: 'The agent service did not answer within 15000 ms' } };
const NO_ANSWER = 'No answer in time. The assistant may have received it. Retry now Discard';

/** The `agent-chat-error` events `chat` fires from now on. */
function errorsOf(chat: HTMLElement) {
  const details: AgentChatErrorEvent['detail'][] = [];
  chat.addEventListener('agent-chat-error', (e) => details.push((e as AgentChatErrorEvent).detail));
  return details;
}

describe('journeys: the agent answers too late', () => {
  const proxy = useFakeProxies();

  it('the proxy gives up (504) → nothing is sent again by itself, not with the next message nor after a reload → the visitor sends it again: once, as the newest', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    const errors = errorsOf(chat);
    p.next(tooLate);
    await submit(chat, 'Yes, place the order');
    await waitForStatus(chat, 'Yes, place the order', NO_ANSWER);
    expect(errors.map(({ status, retryable, willRetry }) => ({ status, retryable, willRetry }))).to.deep.equal([{ status: 504, retryable: true, willRetry: false }]);
    expect(part(chat, 'typing'), 'nothing is on its way').to.equal(null);

    // A message sent next goes alone (a send wakes what waits for a retry: this does not wait).
    await submit(chat, 'When will it arrive?');
    await waitForBubbles(chat, 4, 'the reply to the next message');
    expect(sent(p, 1)).to.deep.equal(['Yes, place the order', 'When will it arrive?']);

    // A reload (the next page) sends what was waiting; this was not.
    chat.remove();
    const { chat: reloaded } = await mount(p, { open: true });
    await outboxSettled(p);
    await reloaded.updateComplete;
    expect(statusOf(reloaded, 'Yes, place the order'), 'the next page says the same').to.equal(NO_ANSWER);
    expect(sent(p, 1), 'and sends nothing').to.deep.equal(['Yes, place the order', 'When will it arrive?']);

    // The visitor decides: "Retry now" sends it again, as the newest message.
    parts(reloaded, 'retry-button').find((b) => b.closest('[part~="message--user"]'))!.click();
    await waitUntil(() => bubbles(reloaded).at(-1) === 'You said: Yes, place the order', 'answered', WAIT);
    expect(bubbles(reloaded)).to.deep.equal([
      'Hello! How can I help?', 'When will it arrive?', 'You said: When will it arrive?', 'Yes, place the order', 'You said: Yes, place the order',
    ]);
    expect(sent(p, 1), 'twice in all: the second time asked for').to.deep.equal(['Yes, place the order', 'When will it arrive?', 'Yes, place the order']);
    expect(statusOf(reloaded, 'Yes, place the order')).to.equal('sent');
  });

  it('no answer within the widget\'s own 20 s → the same: the request is called off and not made again until the visitor asks', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    // The widget's 20 s, at once (the agent, held, never answers).
    const realSetTimeout = window.setTimeout;
    window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) => realSetTimeout(handler, ms === 20_000 ? 0 : ms, ...rest)) as typeof setTimeout;
    const held = p.hold();
    try {
      await submit(chat, 'Cancel my subscription');
      await waitForStatus(chat, 'Cancel my subscription', NO_ANSWER);
    } finally {
      window.setTimeout = realSetTimeout;
    }
    expect(p.requests.at(-1)!.aborted, 'the request was called off').to.equal(true);
    held.release();
    await submit(chat, 'Hello?');
    await waitForBubbles(chat, 4, 'the next message answered');
    expect(sent(p, 1)).to.deep.equal(['Cancel my subscription', 'Hello?']);
    part(chat, 'discard-button')!.click();
    await chat.updateComplete;
    expect(bubbles(chat), 'Discard takes it away').to.deep.equal(['Hello! How can I help?', 'Hello?', 'You said: Hello?']);
  });

  it('every try of a message carries its requestId (a retry, the next page, Retry now), so that the proxy can answer a try it has seen with the agent\'s answer to it', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    p.next(down);
    const release = p.hold(); // the retry, held: the visitor leaves meanwhile
    await submit(chat, 'Two tickets');
    await waitUntil(() => p.requests.length === 3, 'sent, failed, sent again', WAIT);
    chat.remove();
    release.release(down);
    const { chat: next } = await mount(p, { open: true }); // the next page sends it again
    await waitUntil(() => p.requests.length === 4, 'sent from the next page', WAIT);
    p.next(tooLate);
    await submit(next, 'Confirm');
    await waitForStatus(next, 'Confirm', NO_ANSWER);
    p.handle(echoAgent);
    parts(next, 'retry-button').find((b) => b.closest('[part~="message--user"]'))!.click();
    await waitUntil(() => bubbles(next).at(-1) === 'You said: Confirm', 'answered', WAIT);
    const ids = p.bodies.slice(1).map((b) => `${b.message.text} ${b.requestId}`);
    const [tickets, confirm] = [p.bodies[1].requestId, p.bodies.at(-1)!.requestId];
    expect(ids).to.deep.equal([`Two tickets ${tickets}`, `Two tickets ${tickets}`, `Two tickets ${tickets}`, `Confirm ${confirm}`, `Confirm ${confirm}`]);
    expect(tickets).to.not.equal(confirm);
    expect(p.bodies[0].requestId, 'the greeting has its own').to.be.a('string').and.not.oneOf([tickets, confirm]);
  });

  it('a 504 with a short Retry-After (a proxy still waiting on the agent, which keeps its answer for the next try) is asked again by itself while the agent is shown typing: no "Not delivered yet", no error, the reply with no click', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    const errors = errorsOf(chat);
    const statuses = new Set<string>();
    const observer = new MutationObserver(() => {
      for (const status of parts(chat, 'message-status')) statuses.add(status.textContent!.replace(/\s+/g, ' ').trim());
    });
    observer.observe(chat.shadowRoot!, { subtree: true, childList: true, characterData: true });
    let typingAtSecondTry: boolean | undefined;
    p.next({ ...tooLate, headers: { 'Retry-After': '1' } }).next((request) => {
      typingAtSecondTry = !!part(chat, 'typing');
      return echoAgent(request);
    });
    await submit(chat, 'Book a table');
    await waitForBubbles(chat, 3, 'the reply, with no click');
    observer.disconnect();
    expect(errors, 'not an error: the proxy waits for the answer').to.deep.equal([]);
    expect([...statuses].filter((status) => /Not delivered/.test(status))).to.deep.equal([]);
    expect(typingAtSecondTry, 'the agent shown typing as the second try goes').to.equal(true);
    expect(sent(p, 1)).to.deep.equal(['Book a table', 'Book a table']);
    expect(p.bodies[1].requestId, 'under the same id').to.equal(p.bodies[2].requestId);
  });

  it('the same 504 with its body cut off after the headers (the connection dropped, or the page began to unload mid-answer): still asked again by itself, and what the visitor typed meanwhile goes after it', async () => {
    // Read as a 504 without Retry-After, it was "No answer in time", never sent again by itself, and
    // the next message went first: the order the agent heard them in broken (FAULT_SEEDS=2021,
    // where a reload came as the 504 arrived; test/tabs/reload-mid-answer.test.ts).
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    const errors = errorsOf(chat);
    p.next({ ...tooLate, headers: { 'Retry-After': '1' }, cut: true });
    await submit(chat, 'Book a table');
    await waitUntil(() => p.requests.length === 2 && p.inFlight === 0, 'the first try answered, cut off', WAIT);
    await submit(chat, 'For two');
    await waitForBubbles(chat, 5, 'both answered');
    expect(errors, 'not an error: the proxy waits for the answer').to.deep.equal([]);
    expect(sent(p, 1), 'asked again, then the next').to.deep.equal(['Book a table', 'Book a table', 'For two']);
    expect(bubbles(chat), 'in the order they came').to.deep.equal(['Hello! How can I help?', 'Book a table', 'For two', 'You said: Book a table', 'You said: For two']);
    expect(statusOf(chat, 'Book a table')).to.equal('sent');
  });

  it('a 504 with a long Retry-After is a wait the visitor is told of: "retrying in 30 s" and Retry now, which sends it again at once', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    const errors = errorsOf(chat);
    p.next({ ...tooLate, headers: { 'Retry-After': '30' } });
    await submit(chat, 'Book a table');
    await waitForStatus(chat, 'Book a table', /Not delivered yet — retrying in (30|29) s/);
    expect(errors.map(({ status, willRetry }) => ({ status, willRetry }))).to.deep.equal([{ status: 504, willRetry: true }]);
    part(chat, 'retry-button')!.click();
    await waitForBubbles(chat, 3, 'the reply');
    expect(sent(p, 1)).to.deep.equal(['Book a table', 'Book a table']);
  });

  it('a new proxy URL while waiting to ask again calls the wait off: the new conversation\'s greeting goes at once, and the old proxy is not asked again', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    let answeredAt = 0;
    p.next(() => {
      answeredAt = performance.now();
      return { ...tooLate, headers: { 'Retry-After': '4' } };
    });
    await submit(chat, 'Book a table');
    await waitUntil(() => answeredAt && p.inFlight === 0, 'the first try answered', WAIT);
    const next = proxy();
    chat.proxyUrl = next.url;
    await waitUntil(() => next.requests.length, 'the new greeting', WAIT);
    expect(sent(next), 'the new proxy asked for the greeting only').to.deep.equal(['(greeting)']);
    expect(next.requests[0].at - answeredAt, 'sent before the old wait was over').to.be.below(4_000);
    await waitForBubbles(chat, 1, 'the new conversation greeted');
    expect(sent(p, 1), 'the old proxy asked once').to.deep.equal(['Book a table']);
  });

  it('the greeting is the exception: a greeting without an answer in time is sent again by itself (a second one only begins the conversation again)', async () => {
    const p = proxy();
    p.next(tooLate);
    const { chat } = await mount(p);
    const errors = errorsOf(chat);
    part(chat, 'launcher')!.click();
    await waitForBubbles(chat, 1, 'the greeting, with no click');
    expect(sent(p)).to.deep.equal(['(greeting)', '(greeting)']);
    expect(errors.map((e) => e.willRetry)).to.deep.equal([true]);
  });

  it('a site\'s postback without a title is not sent again either: the page hears `willRetry: false`, and the visitor reads it under the log', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1, 'the greeting');
    const errors = errorsOf(chat);
    p.next(tooLate);
    chat.postback({ type: 'node', data: 'confirm-order' });
    await waitUntil(() => part(chat, 'error'), 'the failure is shown', WAIT);
    expect(shownText(chat, 'error')).to.match(/^No answer in time\. The assistant may have received it\./);
    expect(errors.map((e) => e.willRetry)).to.deep.equal([false]);
    await submit(chat, 'Did it work?');
    await waitForBubbles(chat, 3, 'the next message answered');
    expect(sent(p, 1)).to.deep.equal(['{"type":"node","data":"confirm-order"}', 'Did it work?']);
  });
});
