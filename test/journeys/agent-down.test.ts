/**
 * Journeys through an agent that is down, or a browser that is offline: nothing waits silently,
 * the visitor reads which state each message is in, and everything goes out by itself, once, in
 * order, when the way is clear again.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { echoAgent } from '../support/fake-proxy.js';
import { bubbles, mount, part, parts, shownText, statusOf, useFakeProxies, WAIT, waitForBubbles } from '../support/widget.js';
import { afterIdle, clickLauncher, down, downForAMinute, lookAway, lookBack, recordStates, resetOnline, sent, setOnline, submit, waitForStatus } from './support.js';

describe('journeys: the agent is down, the browser is offline', () => {
  const proxy = useFakeProxies();
  afterEach(resetOnline);

  it('agent down at first open → the visitor types → the agent comes back: greeting and message delivered once, in order, no click', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.handle(() => down);
    const states = recordStates(chat, p);
    await clickLauncher(chat);
    await waitUntil(() => part(chat, 'error'), 'the greeting problem is shown', WAIT);
    expect(part(chat, 'error')!.textContent!.replace(/\s+/g, ' ').trim()).to.match(/^The chat could not start — retrying in \d+ s\s*Retry now$/);

    const before = p.requests.length;
    await submit(chat, 'Do you ship to Greece?');
    expect(sent(p, before), 'the send retried the greeting at once, greeting first').to.deep.equal(['(greeting)']);
    // One wait, one "Retry now": the greeting's. The message goes after it, so it offers no retry of its own.
    await waitForStatus(chat, 'Do you ship to Greece?', 'Not delivered yet Discard');
    expect(parts(chat, 'retry-button').map((b) => b.closest('[part~="error"]') !== null), 'one Retry now, the greeting\'s').to.deep.equal([true]);

    const downAttempts = p.requests.length;
    p.handle(echoAgent); // the agent is back
    await waitForBubbles(chat, 3, 'greeting, message and reply');
    await waitUntil(() => statusOf(chat, 'Do you ship to Greece?') === 'sent', 'delivered', WAIT);
    const shown = states.stop();

    expect(sent(p, downAttempts), 'after recovery: each once, greeting first').to.deep.equal(['(greeting)', 'Do you ship to Greece?']);
    expect(bubbles(chat)).to.have.members(['Hello! How can I help?', 'Do you ship to Greece?', 'You said: Do you ship to Greece?']);
    expect(bubbles(chat).at(-1), 'the reply comes last').to.equal('You said: Do you ship to Greece?');
    expect(shownText(chat, 'error'), 'the greeting problem is gone').to.equal(null);
    const idleSending = shown.filter((s) => s.inFlight === 0 && s.words.includes('Sending…'));
    expect(idleSending, '"Sending…" never shown with nothing in flight').to.deep.equal([]);
    const idleTyping = shown.filter((s) => s.inFlight === 0 && s.words.includes('Agent is typing…'));
    expect(idleTyping, 'never "typing" with nothing in flight').to.deep.equal([]);
  });

  it('a greeting the agent refuses → the visitor writes anyway and is answered: "could not start" goes, and a reload neither greets nor says it', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.next({ status: 400, json: { status: 'error', error: 'Unknown node' } });
    await clickLauncher(chat);
    await waitUntil(() => part(chat, 'error'), 'the greeting problem is shown', WAIT);
    expect(shownText(chat, 'error')).to.match(/^The chat could not start/);
    await submit(chat, 'Hello anyway');
    await waitForBubbles(chat, 2, 'answered');
    await chat.updateComplete;
    expect(shownText(chat, 'error'), 'the chat has started after all').to.equal(null);
    chat.remove();
    const { chat: reloaded } = await mount(p, { open: true });
    await reloaded.updateComplete;
    expect(bubbles(reloaded)).to.deep.equal(['Hello anyway', 'You said: Hello anyway']);
    expect(shownText(reloaded, 'error')).to.equal(null);
    expect(sent(p), 'one greeting, refused; no other').to.deep.equal(['(greeting)', 'Hello anyway']);
  });

  it('a greeting the agent refuses, then the agent down for the visitor\'s message: the message has the countdown and Retry now (the greeting, failed for good, has none)', async () => {
    const { chat, proxy: p } = await mount(proxy());
    p.next({ status: 400, json: { status: 'error', error: 'Unknown node' } });
    await clickLauncher(chat);
    await waitUntil(() => part(chat, 'error'), 'the greeting problem is shown', WAIT);
    p.handle(() => ({ status: 503, headers: { 'Retry-After': '60' }, json: { status: 'error', error: 'overloaded' } }));
    await submit(chat, 'Hello anyway');
    await waitForStatus(chat, 'Hello anyway', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    expect(shownText(chat, 'error'), 'the greeting\'s problem, with no retry').to.match(/^The chat could not start\.[^]*(?<!Retry now)$/);
    const before = p.requests.length;
    p.handle(echoAgent);
    part(chat, 'retry-button')!.click(); // the next try was a minute away
    await waitForBubbles(chat, 2, 'answered long before the minute');
    expect(sent(p, before)).to.deep.equal(['Hello anyway']);
  });

  it('agent down mid-conversation → two messages → recovery: both delivered in order, through "retrying in …"', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const states = recordStates(chat, p);
    p.handle(() => ({ status: 503, json: { status: 'error', error: 'overloaded' } }));
    const before = p.requests.length;
    await submit(chat, 'first');
    await submit(chat, 'second');
    // One wait, one "Retry now": under the first, which is retried; the second goes after it.
    await waitForStatus(chat, 'first', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    await waitForStatus(chat, 'second', 'Not delivered yet Discard');
    expect(parts(chat, 'retry-button'), 'one Retry now').to.have.length(1);
    expect(sent(p, before).every((t) => t === 'first'), 'the second waits behind the first').to.equal(true);

    const downAttempts = p.requests.length;
    p.handle(echoAgent);
    await waitForBubbles(chat, 5);
    const shown = states.stop();
    expect(sent(p, downAttempts), 'each once, in order').to.deep.equal(['first', 'second']);
    expect(bubbles(chat).slice(1), 'in the order things happened').to.deep.equal(['first', 'second', 'You said: first', 'You said: second']);
    expect(shown.some((s) => s.words.some((w) => /^Not delivered yet — retrying in \d+ s/.test(w))), 'passed through "retrying"').to.equal(true);
    expect(shown.filter((s) => s.inFlight === 0 && s.words.includes('Sending…')), '"Sending…" only with something in flight').to.deep.equal([]);
    expect(shownText(chat, 'error'), 'no banner').to.equal(null);
  });

  it('agent down → three messages → the first discarded: the countdown and Retry now go on to the next, which its click sends', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => ({ status: 503, headers: { 'Retry-After': '60' }, json: { status: 'error', error: 'overloaded' } }));
    for (const text of ['first', 'second', 'third']) await submit(chat, text);
    await waitForStatus(chat, 'first', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    await waitForStatus(chat, 'third', 'Not delivered yet Discard');
    part(chat, 'discard-button')!.click(); // the first's
    await waitForStatus(chat, 'second', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    expect(statusOf(chat, 'third')).to.equal('Not delivered yet Discard');
    expect(parts(chat, 'retry-button'), 'one Retry now').to.have.length(1);
    const before = p.requests.length;
    p.handle(echoAgent);
    part(chat, 'retry-button')!.click(); // the next try was a minute away
    await waitForBubbles(chat, 5, 'both answered long before the minute');
    expect(sent(p, before), 'each once, in order').to.deep.equal(['second', 'third']);
  });

  it('agent down for a minute → three messages → the first discarded: the next is tried at once, not when the first would have been, a minute later', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => downForAMinute);
    for (const text of ['first', 'second', 'third']) await submit(chat, text);
    await waitForStatus(chat, 'first', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    await waitForStatus(chat, 'third', 'Not delivered yet Discard');
    const before = p.requests.length;
    part(chat, 'discard-button')!.click(); // the first's
    await waitUntil(() => p.requests.length > before, 'the next tried at once (the first was to wait a minute)', WAIT);
    expect(sent(p, before), 'the next, not the one behind it').to.deep.equal(['second']);
    await waitForStatus(chat, 'second', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    expect(statusOf(chat, 'third')).to.equal('Not delivered yet Discard');
  });

  it('agent down → three messages → the middle one discarded: the others go when the agent is back, in order, and it never does', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => downForAMinute);
    for (const text of ['first', 'second', 'third']) await submit(chat, text);
    await waitForStatus(chat, 'third', 'Not delivered yet Discard');
    const before = p.requests.length;
    parts(chat, 'discard-button')[1].click(); // the second's
    await waitUntil(() => bubbles(chat).length === 3, 'the second gone from the log', WAIT);
    // (The visitor is here: the first is tried again at once, as when they send.)
    await waitForStatus(chat, 'first', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    expect(statusOf(chat, 'third')).to.equal('Not delivered yet Discard');
    p.handle(echoAgent);
    const back = p.requests.length;
    part(chat, 'retry-button')!.click();
    await waitForBubbles(chat, 5);
    expect(bubbles(chat).slice(1)).to.deep.equal(['first', 'third', 'You said: first', 'You said: third']);
    expect(sent(p, back), 'once the agent is back: the first, then the third, each once').to.deep.equal(['first', 'third']);
    expect(sent(p, before), 'the second never').not.to.include('second');
  });

  it('a refused message discarded while the next waits out the agent\'s minute: the next keeps waiting, then goes', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(({ body }) => (body.message.text === 'refused' ? { status: 400, json: { status: 'error', error: 'bad request' } } : downForAMinute));
    await submit(chat, 'refused');
    await submit(chat, 'later');
    await waitForStatus(chat, 'refused', /^Not delivered — .* Discard$/);
    await waitForStatus(chat, 'later', /^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    const before = p.requests.length;
    part(chat, 'discard-button')!.click(); // the refused one's
    await waitUntil(() => !bubbles(chat).includes('refused'), 'the refused message gone', WAIT);
    await afterIdle();
    expect(sent(p, before), 'the agent\'s minute kept').to.deep.equal([]);
    expect(statusOf(chat, 'later')).to.match(/^Not delivered yet — retrying in \d+ s Retry now Discard$/);
    p.handle(echoAgent);
    part(chat, 'retry-button')!.click();
    await waitForBubbles(chat, 3);
    expect(sent(p, before)).to.deep.equal(['later']);
  });

  it('offline → two messages → online: no fetch while offline, exactly one each after', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const before = p.requests.length;
    setOnline(false);
    await submit(chat, 'written on the train');
    await submit(chat, 'and another');
    await chat.updateComplete;
    expect(p.requests.length, 'no fetch while offline').to.equal(before);
    expect(statusOf(chat, 'written on the train')).to.equal('Waiting for connection Discard');
    expect(statusOf(chat, 'and another')).to.equal('Waiting for connection Discard');
    expect(part(chat, 'notice')!.textContent).to.match(/offline/i);

    setOnline(true);
    await waitForBubbles(chat, 5);
    expect(sent(p, before), 'one each, in order').to.deep.equal(['written on the train', 'and another']);
    expect(shownText(chat, 'notice')).to.equal(null);
  });

  it('a request the dropped connection failed waits for the connection, then goes out by itself', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.next(() => {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
      return down;
    });
    await submit(chat, 'in a tunnel');
    await waitForStatus(chat, 'in a tunnel', 'Waiting for connection Discard');
    const before = p.requests.length;
    setOnline(true);
    await waitForBubbles(chat, 3);
    expect(sent(p, before)).to.deep.equal(['in a tunnel']);
  });

  it('a queue waiting out the agent\'s minute: the tab put in the background keeps the wait; looked at again, it tries again at once', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.next(downForAMinute);
    await submit(chat, 'back from another tab');
    await waitForStatus(chat, 'back from another tab', /^Not delivered yet — retrying in \d+ s/);
    const before = p.requests.length;
    lookAway(true);
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await afterIdle();
      expect(sent(p, before), 'nothing asked as the visitor goes to another tab').to.deep.equal([]);
    } finally {
      lookBack();
    }
    document.dispatchEvent(new Event('visibilitychange')); // document.visibilityState is "visible"
    expect(sent(p, before), 'sent at once, not at the timer').to.deep.equal(['back from another tab']);
    await waitForBubbles(chat, 3);
  });

  it('Discard while waiting drops the message for good; the agent never gets it', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => down);
    await submit(chat, 'never mind');
    await waitForStatus(chat, 'never mind', /^Not delivered yet/);
    part(chat, 'discard-button')!.click();
    await chat.updateComplete;
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
    const tries = p.requests.length;
    p.handle(echoAgent);
    await submit(chat, 'something else');
    await waitForBubbles(chat, 3);
    expect(sent(p, tries)).to.deep.equal(['something else']);
  });
  it('a question still waiting for the agent outlives session-timeout: after a reload two hours later it is there and goes out when the agent is back, with no new greeting', async () => {
    const p = proxy();
    const first = await mount(p, { open: true, attrs: { 'session-timeout': '60' } });
    await waitForBubbles(first.chat, 1);
    p.handle(() => down);
    await submit(first.chat, 'Do you ship to Greece?');
    await waitForStatus(first.chat, 'Do you ship to Greece?', /^Not delivered yet/);
    first.chat.remove(); // the visitor leaves, the question not delivered
    const key = Object.keys(localStorage).find((k) => k.includes(p.url) && k.endsWith(':conversation'))!;
    const stored = JSON.parse(localStorage.getItem(key)!);
    stored.data.updatedAt -= 2 * 60 * 60_000; // and comes back two hours later
    localStorage.setItem(key, JSON.stringify(stored));
    p.handle(echoAgent);
    const before = p.requests.length;
    const again = await mount(p, { open: true, attrs: { 'session-timeout': '60' } });
    await waitForBubbles(again.chat, 3, 'the greeting, the question and its answer');
    expect(bubbles(again.chat)).to.deep.equal(['Hello! How can I help?', 'Do you ship to Greece?', 'You said: Do you ship to Greece?']);
    expect(sent(p, before), 'the question, once, and no new greeting').to.deep.equal(['Do you ship to Greece?']);
  });

  it('a question still waiting when the visitor opens the panel again after session-timeout stays, and is sent, not dropped with the conversation', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true, attrs: { 'session-timeout': '60' } });
    await waitForBubbles(chat, 1);
    p.handle(() => down);
    await submit(chat, 'Is anyone there?');
    await waitForStatus(chat, 'Is anyone there?', /^Not delivered yet/);
    chat.hide();
    await chat.updateComplete;
    const now = Date.now;
    Date.now = () => now() + 2 * 60 * 60_000; // the panel opened again two hours later
    try {
      p.handle(echoAgent);
      const before = p.requests.length;
      chat.show();
      await chat.updateComplete;
      expect(bubbles(chat), 'still there').to.include('Is anyone there?');
      part(chat, 'retry-button')?.click();
      await waitUntil(() => bubbles(chat).includes('You said: Is anyone there?'), 'answered', WAIT);
      expect(sent(p, before), 'the question, once, and no new greeting').to.deep.equal(['Is anyone there?']);
    } finally {
      Date.now = now;
    }
  });
});
