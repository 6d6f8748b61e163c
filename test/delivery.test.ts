import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { AgentChatErrorEvent } from '../src/events.js';
import { echoAgent, ok, text, type Reply } from './support/fake-proxy.js';
import { bubbles, mount, part, shownText, statusOf, typeDraft, WAIT, waitForBubbles, waitForRequests, useFakeProxies } from './support/widget.js';

const unavailable: Reply = { status: 503, json: { status: 'error', error: 'overloaded' }, headers: { 'Retry-After': '0' } };
const errorsOf = (chat: HTMLElement) => {
  const details: AgentChatErrorEvent['detail'][] = [];
  chat.addEventListener('agent-chat-error', (e) => details.push(e.detail));
  return details;
};

describe('<agent-chat> delivery', () => {
  const proxy = useFakeProxies();

  it('gives every message a client id and stores it as "sending" in the task that makes its request', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const key = Object.keys(localStorage).find((k) => k.includes(p.url) && k.endsWith(':conversation'))!;
    // The fake's handler runs inside the `fetch` call; one microtask later, still in the task that
    // made the request (no reload can come in between), storage holds the message.
    let stored: Record<string, unknown> | undefined;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    p.next(async (request) => {
      await null;
      stored = JSON.parse(localStorage.getItem(key)!).data.messages.at(-1);
      await gate;
      return echoAgent(request);
    });
    chat.send('persist me');
    await waitForRequests(p, 2);
    expect(stored).to.deep.include({ kind: 'user', text: 'persist me', status: 'sending', request: { text: 'persist me' } });
    expect(stored!.id).to.match(/^[0-9a-f-]{36}$/);
    expect(statusOf(chat, 'persist me'), 'in flight: no "Sending…"').to.equal('');
    expect(part(chat, 'typing')!.textContent!.trim(), 'in flight: the agent is typing').to.equal('Agent is typing…');
    release();
    await waitForBubbles(chat, 3);
    expect(statusOf(chat, 'persist me'), 'status once delivered').to.equal('sent');
  });

  it('retries 5xx, network errors and garbled bodies by itself, with agent-chat-error saying so', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const errors = errorsOf(chat);
    p.next({ status: 500, json: { status: 'error', error: 'boom' } }).next({ networkError: true }).next({ text: '<html>portal</html>' });
    chat.send('keep trying');
    await waitForBubbles(chat, 3, 'the reply after three automatic retries');
    expect(errors.map((e) => [e.kind, e.willRetry])).to.deep.equal([['http', true], ['network', true], ['invalid-response', true]]);
    expect(p.bodies.slice(1).map((b) => b.message.text)).to.deep.equal(Array(4).fill('keep trying'));
    expect(new Set(p.bodies.slice(1).map((b) => b.timestamp)).size, 'the same request each time').to.equal(1);
    expect(shownText(chat, 'error'), 'nothing scary shown').to.equal(null);
  });

  it('waits as long as Retry-After says', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.next({ status: 429, json: { status: 'error', error: 'slow down' }, headers: { 'Retry-After': '1' } });
    chat.send('patient');
    await waitForBubbles(chat, 3);
    const [limited, retried] = p.requests.slice(1);
    expect(retried.at - limited.at, 'ms between the 429 and the retry').to.be.at.least(950);
  });

  it('never gives up on a transient failure: says when it retries, "Retry now" sends at once, and it gets through', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const errors = errorsOf(chat);
    p.handle(() => unavailable);
    chat.send('stubborn');
    const tries = () => p.bodies.filter((b) => b.message.text === 'stubborn').length;
    await waitUntil(() => tries() === 3, 'the first try and two automatic retries, no click', WAIT);
    // The old bound was 5 tries: go well past it, each "Retry now" sending at once.
    while (tries() < 8) {
      await waitUntil(() => /^Not delivered yet — retrying in \d+ s Retry now Discard$/.test(statusOf(chat, 'stubborn')), 'retrying', WAIT);
      const before = tries();
      part(chat, 'retry-button')!.click();
      expect(tries(), 'sent at the click').to.equal(before + 1);
    }
    await waitUntil(() => statusOf(chat, 'stubborn').startsWith('Not delivered yet'), 'still retrying', WAIT);
    const seconds = Number(/in (\d+) s/.exec(statusOf(chat, 'stubborn'))![1]);
    expect(seconds, 'after 8 failures the wait is 16–30 s (capped)').to.be.within(16, 30);
    expect(errors.every((e) => e.willRetry && e.retryable), 'every failure says it will be retried').to.equal(true);
    expect(shownText(chat, 'error'), 'no second banner').to.equal(null);

    p.handle(echoAgent);
    part(chat, 'retry-button')!.click();
    await waitForBubbles(chat, 3);
    expect(bubbles(chat).slice(1)).to.deep.equal(['stubborn', 'You said: stubborn']);
    expect(statusOf(chat, 'stubborn')).to.equal('sent');
    expect(p.bodies.filter((b) => b.message.text === 'stubborn'), 'one request per try').to.have.length(9);
  });

  it('a message sent while a try is out, which then fails, wakes the queue as a send does: the next try comes at once, not after the grown wait', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => unavailable);
    chat.send('stubborn');
    const tries = () => p.bodies.filter((b) => b.message.text === 'stubborn').length;
    // Seven failures: the wait after the next is 15–30 s.
    while (tries() < 7) {
      await waitUntil(() => part(chat, 'retry-button'), 'retrying', WAIT);
      part(chat, 'retry-button')!.click();
    }
    await waitUntil(() => part(chat, 'retry-button'), 'retrying', WAIT);
    let fail!: () => void;
    const failed = new Promise<void>((resolve) => (fail = resolve));
    p.next(async () => {
      await failed;
      return unavailable;
    });
    part(chat, 'retry-button')!.click();
    expect(tries(), 'the eighth try is out').to.equal(8);
    chat.send('here now');
    p.handle(echoAgent);
    fail();
    await waitUntil(() => tries() === 9, 'tried again at once: the visitor sent while the eighth was out', WAIT);
    const [eighth, ninth] = p.requests.filter((r) => r.body.message.text === 'stubborn').slice(-2);
    expect(ninth.at - eighth.at, 'ms from the eighth try to the ninth (the first retry\'s wait, not 15–30 s)').to.be.below(2000);
    await waitForBubbles(chat, 5);
    expect(bubbles(chat).slice(1)).to.deep.equal(['stubborn', 'here now', 'You said: stubborn', 'You said: here now']);
  });

  it('Discard drops a waiting message, and the messages queued behind it go on at once, not after its wait', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    // Overloaded for a minute: the message waits that long before its next try.
    const overloaded: Reply = { ...unavailable, headers: { 'Retry-After': '60' } };
    p.handle(({ body }) => (body.message.text === 'doomed' ? overloaded : echoAgent({ body } as never)));
    chat.send('doomed');
    chat.send('next');
    await waitUntil(() => part(chat, 'discard-button'), 'Discard offered', WAIT);
    expect(p.bodies.some((b) => b.message.text === 'next'), 'next waits behind it').to.equal(false);
    part(chat, 'discard-button')!.click();
    await waitForBubbles(chat, 3);
    expect(bubbles(chat).slice(1)).to.deep.equal(['next', 'You said: next']);
    expect(p.bodies.filter((b) => b.message.text === 'doomed'), 'the discarded message never asked again').to.have.length(1);
    const key = Object.keys(localStorage).find((k) => k.includes(p.url) && k.endsWith(':conversation'))!;
    await waitUntil(() => !localStorage.getItem(key)!.includes('doomed'), 'gone from storage too', WAIT);
  });

  it('does not retry a 4xx: the message says why and offers Discard only', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.next({ status: 400, json: { status: 'error', error: 'Invalid request: "message.text" must be at most 2000 characters' } });
    const failed = oneEvent(chat, 'agent-chat-error') as Promise<AgentChatErrorEvent>;
    chat.send('rejected');
    expect((await failed).detail).to.deep.include({ retryable: false, willRetry: false });
    await chat.updateComplete;
    expect(statusOf(chat, 'rejected')).to.equal('Not delivered — Your message could not be sent. Discard');
    expect(shownText(chat, 'retry-button'), 'no Retry').to.equal(null);
    expect(part(chat, 'discard-button'), 'Discard').to.exist;
    expect(part(chat, 'message-status--failed')!.getAttribute('role'), 'announced where it is shown').to.equal('alert');
    expect(shownText(chat, 'error'), 'said once: no banner repeating it').to.equal(null);
    expect(p.requests, 'sent once').to.have.length(2);
    chat.send('next');
    await waitForBubbles(chat, 4);
    expect(p.bodies.slice(1).map((b) => b.message.text), 'what follows is sent; the rejected one is not resent').to.deep.equal(['rejected', 'next']);
  });

  it('a failed greeting is retried by itself, says the chat could not start, and "Retry now" sends it at once', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.handle(() => unavailable);
    chat.show();
    await waitForRequests(p, 2);
    await waitUntil(() => part(chat, 'error'), 'the greeting problem shown', WAIT);
    const said = part(chat, 'error')!.textContent!.replace(/\s+/g, ' ').trim();
    expect(said).to.match(/^The chat could not start — retrying in \d+ s\s*Retry now$/);
    expect(said, 'nobody asked a question').not.to.contain('could not answer');
    expect(bubbles(chat)).to.deep.equal([]);
    await waitForRequests(p, 3); // retried by itself, no click
    // The third try is in flight now; "Retry now" is offered again once it has failed.
    await waitUntil(() => part(chat, 'retry-button'), 'waiting to retry again', WAIT);
    p.handle(echoAgent);
    const tries = p.requests.length;
    part(chat, 'retry-button')!.click();
    await waitForBubbles(chat, 1);
    expect(p.requests, 'the click sent it once, at once').to.have.length(tries + 1);
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
    expect(shownText(chat, 'error'), 'the problem is gone').to.equal(null);
  });

  it('a greeting refused for good (4xx) says the chat could not start, is not retried, and the visitor can still write', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.next({ status: 401, json: { status: 'error', error: 'Invalid token' } });
    const original = console.error;
    console.error = () => undefined;
    try {
      chat.show();
      await waitUntil(() => part(chat, 'error'), 'the greeting problem shown', WAIT);
    } finally {
      console.error = original;
    }
    expect(shownText(chat, 'error')).to.equal('The chat could not start. Chat is unavailable right now.');
    expect(shownText(chat, 'retry-button'), 'nothing to retry').to.equal(null);
    for (const draft of ['a', 'ab']) await typeDraft(chat, draft); // re-renders
    expect(p.requests, 'no second greeting').to.have.length(1);
    chat.send('anyone there?');
    await waitForBubbles(chat, 2);
    expect(p.bodies.map((b) => b.message.text ?? 'greeting')).to.deep.equal(['greeting', 'anyone there?']);
  });

  it('a failed greeting recovers by itself, with an exact count of attempts', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.next(unavailable).next(unavailable).next(unavailable);
    chat.show();
    await waitForBubbles(chat, 1, 'the greeting after three failures');
    await chat.updateComplete;
    expect(p.bodies.map((b) => b.message.payload?.data), 'three failures and one success, nothing more').to.deep.equal(Array(4).fill('greeting'));
    expect(shownText(chat, 'error')).to.equal(null);
  });

  describe('offline', () => {
    const setOnline = (online: boolean) => {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
      window.dispatchEvent(new Event(online ? 'online' : 'offline'));
    };
    afterEach(() => delete (navigator as { onLine?: boolean }).onLine);

    it('pauses sending while offline, says so, and sends when the connection is back', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      setOnline(false);
      await chat.updateComplete;
      expect(part(chat, 'notice')!.textContent).to.match(/offline/i);
      expect(part(chat, 'notice')!.getAttribute('role'), 'said to assistive technology').to.equal('status');
      chat.send('written offline');
      await chat.updateComplete;
      expect(bubbles(chat).at(-1), 'shown at once').to.equal('written offline');
      expect(p.requests, 'nothing sent').to.have.length(1);
      setOnline(true);
      await waitForBubbles(chat, 3);
      expect(p.bodies[1].message.text).to.equal('written offline');
      expect(shownText(chat, 'notice'), 'notice gone').to.equal(null);
    });

    it('a request that fails because the connection dropped waits for it instead of failing', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const errors = errorsOf(chat);
      p.next(() => {
        Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
        return { networkError: true };
      });
      chat.send('dropped');
      await waitUntil(() => part(chat, 'notice'), 'offline notice', WAIT);
      expect(errors, 'no error: just waiting').to.deep.equal([]);
      setOnline(true);
      await waitForBubbles(chat, 3);
    });

    it('an answer that comes while the browser says it is offline (a proxy on the local network; the browser can be wrong) is taken as it is: a refusal says why, as online, and is not held for the connection', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      p.next(() => {
        Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
        return { status: 400, json: { status: 'error', error: 'Invalid request' } };
      });
      const failed = oneEvent(chat, 'agent-chat-error') as Promise<AgentChatErrorEvent>;
      chat.send('refused');
      expect((await failed).detail).to.deep.include({ kind: 'http', status: 400, retryable: false, willRetry: false });
      await chat.updateComplete;
      expect(statusOf(chat, 'refused')).to.equal('Not delivered — Your message could not be sent. Discard');
    });
  });

  it('moving the element (taken off and put back in one task, as a framework re-parents it) keeps its request in flight: answered once, not sent again', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 1);
    const gate = p.hold();
    chat.send('moved mid-send');
    await waitForRequests(p, 2);
    const elsewhere = document.createElement('div');
    chat.parentElement!.after(elsewhere);
    try {
      elsewhere.append(chat); // disconnected and connected again in this task
      gate.release();
      await waitForBubbles(chat, 3);
      await chat.updateComplete;
      expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?', 'moved mid-send', 'You said: moved mid-send']);
      expect(p.bodies.filter((b) => b.message.text === 'moved mid-send'), 'sent once').to.have.length(1);
    } finally {
      elsewhere.remove();
    }
  });

  it('taken out by the page as a reply comes (a site that changes its page on the agent\'s answer): the message queued behind it is not asked from the page it left, and goes once, when it is back', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 1);
    const box = chat.parentElement!;
    const gate = p.hold();
    chat.send('first');
    chat.send('second'); // waits for it
    await waitForRequests(p, 2);
    chat.addEventListener('agent-chat-response', () => chat.remove(), { once: true });
    gate.release();
    await waitUntil(() => !chat.isConnected, 'taken out as the first reply came', WAIT);
    let backAt = Infinity;
    // (In a frame: whatever the queue does in this task and the next ones has run by then.)
    await new Promise(requestAnimationFrame);
    backAt = performance.now();
    box.append(chat);
    await waitForBubbles(chat, 5, 'both replies');
    const tries = p.requests.filter((r) => r.body.message.text === 'second');
    expect(tries.map((r) => r.at >= backAt), 'asked once, once back, not from the page it left').to.deep.equal([true]);
  });

  it('taken out mid-send and put back a moment later (a single-page site rendering its layout again): the message goes again, under its id, and is answered', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 1);
    const box = chat.parentElement!;
    p.hold(); // never answered: the element is taken out first
    chat.send('taken out mid-send');
    await waitForRequests(p, 2);
    chat.remove();
    await new Promise(requestAnimationFrame);
    box.append(chat);
    await waitForBubbles(chat, 3, 'the reply'); // (it stayed "Sending…": the outbox still counted this page as sending)
    await chat.updateComplete;
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?', 'taken out mid-send', 'You said: taken out mid-send']);
    const tries = p.requests.filter((r) => r.body.message.text === 'taken out mid-send');
    expect(tries.map((r) => !!r.aborted), 'the first try called off, one more').to.deep.equal([true, false]);
    expect(tries[1].body.requestId).to.equal(tries[0].body.requestId);
  });

  it('a reload mid-send loses nothing: the pending message is sent once, and never again once answered', async () => {
    const p = proxy();
    const first = await mount(p, { open: true });
    await waitForBubbles(first.chat, 1);
    p.hold(); // never answered: the page "reloads" first
    first.chat.send('survive the reload');
    await waitForRequests(p, 2);
    first.chat.remove();

    const second = await mount(p, { open: true });
    await waitForBubbles(second.chat, 3);
    expect(bubbles(second.chat)).to.deep.equal(['Hello! How can I help?', 'survive the reload', 'You said: survive the reload']);
    second.chat.remove();

    const third = await mount(p, { open: true });
    expect(bubbles(third.chat)).to.have.length(3);
    await third.chat.updateComplete;
    expect(p.bodies.filter((b) => b.message.text === 'survive the reload'), 'first try and one resend').to.have.length(2);
  });

  describe('two tabs', () => {
    // Two widgets on one proxy URL in one page stand in for two tabs: they share storage, the
    // BroadcastChannel and the outbox lock exactly as tabs do.
    it('show one conversation: the second does not greet, and sees messages sent in the first', async () => {
      const p = proxy();
      const a = await mount(p, { open: true });
      await waitForBubbles(a.chat, 1);
      const b = await mount(p, { mode: 'inline' });
      expect(bubbles(b.chat), 'restored in the second tab').to.deep.equal(['Hello! How can I help?']);
      a.chat.send('from tab A');
      await waitForBubbles(b.chat, 3, 'tab B to show the message and its reply');
      expect(bubbles(b.chat)).to.deep.equal(['Hello! How can I help?', 'from tab A', 'You said: from tab A']);
      expect(p.bodies.filter((x) => x.message.payload), 'one greeting in all').to.have.length(1);
    });

    it('a tab opened while another is sending does not send that message again', async () => {
      const p = proxy();
      const a = await mount(p, { open: true });
      await waitForBubbles(a.chat, 1);
      const gate = p.hold();
      a.chat.send('in flight in A');
      await waitForRequests(p, 2);
      const b = await mount(p, { mode: 'inline' });
      expect(bubbles(b.chat)).to.include('in flight in A');
      gate.release(ok(text('answered')));
      await waitForBubbles(b.chat, 3);
      await waitUntil(() => statusOf(b.chat, 'in flight in A') === 'sent', 'B sees it delivered', WAIT);
      expect(p.bodies.filter((x) => x.message.text === 'in flight in A'), 'sent once').to.have.length(1);
    });

    it('a tab whose restore waits for the outbox leaves a message sent meanwhile by another tab to it', async () => {
      const p = proxy();
      const a = await mount(p, { open: true });
      await waitForBubbles(a.chat, 1);
      // Hold the outbox lock so the second tab's restore runs only after the first tab stored a new
      // message as "sending" (the race between a tab opening and another tab sending).
      const outbox = `agent-chat:${p.url}:outbox`;
      let releaseOutbox!: () => void;
      const taken = new Promise<void>((taking) => {
        void navigator.locks.request(outbox, () => { taking(); return new Promise<void>((r) => (releaseOutbox = r)); });
      });
      await taken;
      const b = await mount(p, { mode: 'inline' });
      const gate = p.hold();
      a.chat.send('from tab A');
      await waitForRequests(p, 2);
      releaseOutbox();
      // The first tab holds the outbox (its message is in flight); the second tab waits behind it.
      const outboxLocks = async () => {
        const { held = [], pending = [] } = await navigator.locks.query();
        return [held.filter((l) => l.name === outbox).length, pending.filter((l) => l.name === outbox).length];
      };
      await waitUntil(async () => (await outboxLocks()).join() === '1,1', 'A holds the outbox, B waits', WAIT);
      gate.release();
      await waitUntil(() => statusOf(b.chat, 'from tab A') === 'sent', 'B sees it delivered', WAIT);
      await navigator.locks.request(outbox, () => undefined);
      expect(p.bodies.filter((x) => x.message.text === 'from tab A'), 'sent once, by the tab that took it').to.have.length(1);
      expect(bubbles(b.chat)).to.deep.equal(['Hello! How can I help?', 'from tab A', 'You said: from tab A']);
    });
  });

  it('corrupt stored state is discarded quietly and the widget starts afresh', async () => {
    const p = proxy();
    localStorage.setItem(`agent-chat:${p.url}:conversation`, '{"v":1,"data":{"messages":"not a list"');
    localStorage.setItem(`agent-chat:${p.url}:sender`, 'not json at all');
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 1);
    expect(p.bodies[0].sender!.id).to.match(/^[0-9a-f-]{36}$/);
    expect(shownText(chat, 'error')).to.equal(null);
  });
});
