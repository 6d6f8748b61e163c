/**
 * Journeys that change the conversation under a request: a restart, a new proxy URL. Nothing of
 * the old conversation reaches the new one: its request is aborted and its queue dropped.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { echoAgent, ok, text } from '../support/fake-proxy.js';
import { bubbles, mount, part, shownText, useFakeProxies, WAIT, waitForBubbles, waitForRequests } from '../support/widget.js';
import { down, outboxSettled, sent, submit, waitForStatus } from './support.js';

describe('journeys: restart and configuration changes', () => {
  const proxy = useFakeProxies();

  /** Greeted, then a question the agent holds, and "New conversation" while it does. */
  async function restartWithQuestionInFlight() {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    const gate = p.hold();
    await submit(chat, 'old question');
    await waitForRequests(p, 2);
    part(chat, 'restart-button')!.click();
    await chat.updateComplete;
    return { chat, p, gate };
  }

  it('restart with a request in flight: the request goes on (the agent has it), the new greeting after it, and its late reply never shows in the new conversation', async () => {
    const { chat, p, gate } = await restartWithQuestionInFlight();
    expect(bubbles(chat), 'cleared').to.deep.equal([]);
    expect(p.requests, 'the greeting waits for it').to.have.length(2);
    gate.release(ok(text('late answer to the old question')));
    await waitForBubbles(chat, 1, 'the new greeting');
    expect(p.requests[1].aborted, 'not called off').to.not.equal(true);
    await outboxSettled(p);
    await chat.updateComplete;
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
    expect(sent(p)).to.deep.equal(['(greeting)', 'old question', '(greeting)']);
  });

  it('two new conversations while a message is with the agent, a message typed in the first of them: the late answer shows in neither, and Undo brings back the one put away last, with its message, sent once', async () => {
    const { chat, p, gate } = await restartWithQuestionInFlight();
    await submit(chat, 'typed in the second'); // waits behind the old question, as the new greeting does
    part(chat, 'restart-button')!.click(); // the second put away, with it: the first is gone
    await chat.updateComplete;
    expect(bubbles(chat), 'the third conversation, empty').to.deep.equal([]);
    const answered = new Promise((resolve) => chat.addEventListener('agent-chat-response', resolve, { once: true }));
    gate.release(ok(text('late answer to the old question')));
    await answered;
    await waitForBubbles(chat, 1, 'the third greeted');
    part(chat, 'undo-button')!.click();
    await waitForBubbles(chat, 3, 'the second back, greeted, its message answered');
    await outboxSettled(p);
    await chat.updateComplete;
    // The late answer belongs to the first conversation, which is gone.
    expect(bubbles(chat)).to.deep.equal(['typed in the second', 'Hello! How can I help?', 'You said: typed in the second']);
    expect(sent(p)).to.deep.equal(['(greeting)', 'old question', '(greeting)', '(greeting)', 'typed in the second']);
  });

  for (const when of ['after its answer came', 'while it is still with the agent']) {
    it(`a new conversation while the greeting is with the agent, taken back with Undo ${when}: its greeting shows once and is not sent again`, async () => {
      const p = proxy();
      const gate = p.hold();
      const { chat } = await mount(p, { open: true });
      await waitForRequests(p, 1);
      part(chat, 'restart-button')!.click();
      await chat.updateComplete;
      if (when === 'after its answer came') {
        const answered = new Promise((resolve) => chat.addEventListener('agent-chat-response', resolve, { once: true }));
        gate.release();
        await answered;
        await waitForBubbles(chat, 1, 'the new conversation greeted');
      }
      part(chat, 'undo-button')!.click();
      if (when !== 'after its answer came') gate.release();
      await outboxSettled(p);
      await waitForBubbles(chat, 1);
      expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
      expect(sent(p), 'the second, the new conversation\'s, only if it went before the Undo').to.deep.equal(when === 'after its answer came' ? ['(greeting)', '(greeting)'] : ['(greeting)']);
    });
  }

  it('"Undo" of a new conversation puts the focus back in the input, where the visitor goes on writing (the button goes away under it)', async () => {
    const { chat } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    part(chat, 'restart-button')!.click();
    await chat.updateComplete;
    const undo = part(chat, 'undo-button')!;
    undo.focus();
    undo.click();
    await chat.updateComplete;
    expect(shownText(chat, 'undo-button'), 'the button gone').to.equal(null);
    expect(chat.shadowRoot!.activeElement === part(chat, 'input'), 'the focus in the input').to.equal(true);
  });

  it('restart while a message waits to be retried: the old message is never sent', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    p.handle(() => down);
    await submit(chat, 'stale');
    await waitForStatus(chat, 'stale', /^Not delivered yet/);
    p.handle(echoAgent);
    const before = p.requests.length;
    part(chat, 'restart-button')!.click();
    await waitForBubbles(chat, 1);
    await outboxSettled(p);
    expect(sent(p, before), 'only the new greeting').to.deep.equal(['(greeting)']);
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
  });

  it('a tab left open past session-timeout: as the page is looked at again, the conversation is put away and a new one greets at once, not as the visitor starts typing', async () => {
    const { chat, proxy: p } = await mount(proxy(), { open: true, attrs: { 'session-timeout': '60' } });
    await waitForBubbles(chat, 1);
    await submit(chat, 'before lunch');
    await waitForBubbles(chat, 3);
    const { now } = Date;
    Date.now = () => now.call(Date) + 2 * 60 * 60_000; // back two hours later
    try {
      document.dispatchEvent(new Event('visibilitychange')); // document.visibilityState is "visible"
      await waitForRequests(p, 3);
      await waitUntil(() => bubbles(chat).length === 1, 'the new conversation alone', WAIT);
      expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
      expect(p.bodies[2].message, 'greeted again').to.deep.equal(p.bodies[0].message);
    } finally {
      Date.now = now;
    }
  });

  it('proxy-url changed at run time: nothing of the old queue goes to the new URL (or the old one)', async () => {
    const oldProxy = proxy();
    const newProxy = proxy();
    const { chat } = await mount(oldProxy, { open: true });
    await waitForBubbles(chat, 1);
    oldProxy.handle(() => down);
    await submit(chat, 'meant for the old deployment');
    await waitForStatus(chat, 'meant for the old deployment', /^Not delivered yet/);
    const oldTries = oldProxy.requests.length;
    const gate = oldProxy.hold(); // if anything were sent again, it would wait here
    chat.setAttribute('proxy-url', newProxy.url);
    await waitForBubbles(chat, 1, 'the new deployment greets');
    await waitUntil(() => bubbles(chat)[0] === 'Hello! How can I help?', 'a fresh conversation', WAIT);
    gate.release();
    await outboxSettled(newProxy);
    expect(sent(newProxy)).to.deep.equal(['(greeting)']);
    expect(oldProxy.requests, 'the old URL gets nothing more').to.have.length(oldTries);
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
  });

  it('proxy-url changed while a message is with the old deployment: its request is called off, which the page is not told of as an error, and the new deployment greets at once; the old answer never shows', async () => {
    const oldProxy = proxy();
    const newProxy = proxy();
    const { chat } = await mount(oldProxy, { open: true });
    await waitForBubbles(chat, 1);
    const errors: string[] = [];
    chat.addEventListener('agent-chat-error', (e) => errors.push((e as CustomEvent<{ kind: string }>).detail.kind));
    const gate = oldProxy.hold();
    await submit(chat, 'meant for the old deployment');
    await waitForRequests(oldProxy, 2);
    chat.setAttribute('proxy-url', newProxy.url);
    // (Both deployments greet alike: the old conversation showed the greeting and the message.)
    await waitUntil(() => newProxy.requests.length === 1 && bubbles(chat).join('|') === 'Hello! How can I help?', 'the new deployment greets', WAIT);
    gate.release(ok(text('late answer from the old deployment')));
    await outboxSettled(newProxy);
    await chat.updateComplete;
    expect(sent(newProxy)).to.deep.equal(['(greeting)']);
    expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?']);
    expect(errors, 'a request called off is no failure').to.deep.equal([]);
  });

  it('proxy-url taken away (a framework that drops the attribute while its configuration reloads): nothing goes to the page\'s own URL; the conversation goes on through the URL it had, and nothing is sent twice when it is set again', async () => {
    const p = proxy();
    const posts: string[] = [];
    const fetch = window.fetch;
    const { chat } = await mount(p, { open: true });
    await waitForBubbles(chat, 1);
    // Recorded as `fetch` is called, whatever the URL.
    window.fetch = (input, init) => (posts.push(new Request(input, init).url), fetch.call(window, input, init));
    try {
      chat.removeAttribute('proxy-url');
      await submit(chat, 'typed meanwhile');
      await waitForBubbles(chat, 3);
      chat.proxyUrl = '';
      await submit(chat, 'and again');
      await waitForBubbles(chat, 5);
      chat.setAttribute('proxy-url', p.url);
      await chat.updateComplete;
      await outboxSettled(p);
      expect(posts, 'all to the URL it had').to.deep.equal([p.url, p.url]);
      expect(sent(p)).to.deep.equal(['(greeting)', 'typed meanwhile', 'and again']);
      expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?', 'typed meanwhile', 'You said: typed meanwhile', 'and again', 'You said: and again']);
    } finally {
      window.fetch = fetch;
    }
  });

  it('proxy-url taken away while the rest of the widget loads: the view keeps the URL it was loaded for (its greeting went to the page\'s own URL)', async () => {
    const p = proxy();
    const posts: string[] = [];
    const fetch = window.fetch;
    // Recorded as `fetch` is called, whatever the URL.
    window.fetch = (input, init) => (posts.push(new Request(input, init).url), fetch.call(window, input, init));
    const chat = document.createElement('agent-chat');
    chat.proxyUrl = p.url;
    document.body.append(chat);
    try {
      chat.show(); // loads the rest
      chat.proxyUrl = ''; // before it has come
      await waitForBubbles(chat, 1);
      await outboxSettled(p);
      expect(posts).to.deep.equal([p.url]);
      expect(sent(p)).to.deep.equal(['(greeting)']);
    } finally {
      window.fetch = fetch;
      chat.remove();
    }
  });

  it('elements in the page before their proxy URL (a framework that sets it once its configuration has loaded): nothing is sent until it is set (a greeting went to the page\'s own URL), then each talks through its own, once', async () => {
    const [inlineProxy, launcherProxy, otherProxy] = [proxy(), proxy(), proxy()];
    const posts: string[] = [];
    const fetch = window.fetch;
    // Recorded as `fetch` is called, whatever the URL.
    window.fetch = (input, init) => (posts.push(new Request(input, init).url), fetch.call(window, input, init));
    const inline = document.createElement('agent-chat');
    const launcher = document.createElement('agent-chat');
    try {
      inline.mode = 'inline';
      document.body.append(inline, launcher);
      launcher.show();
      launcher.send('Where is my order?');
      // A chat with its URL, opened as they are: greeted once the rest of the widget has loaded,
      // by which time the other two would have asked for their greeting.
      const { chat: other } = await mount(otherProxy, { open: true });
      await waitForBubbles(other, 1);
      expect(posts, 'nothing sent without a URL').to.deep.equal([otherProxy.url]);
      expect(launcher.shadowRoot!.querySelector('[part~="panel"]')!.getAttribute('aria-busy'), 'the panel still waits').to.equal('true');
      inline.proxyUrl = inlineProxy.url;
      launcher.setAttribute('proxy-url', launcherProxy.url);
      await waitForBubbles(inline, 1);
      await waitForBubbles(launcher, 2);
      await outboxSettled(inlineProxy);
      await outboxSettled(launcherProxy);
      expect(sent(inlineProxy)).to.deep.equal(['(greeting)']);
      // (The page's message began the conversation, as any sent before the rest has loaded: no greeting.)
      expect(sent(launcherProxy), 'the message kept for it').to.deep.equal(['Where is my order?']);
      expect(posts.sort()).to.deep.equal([otherProxy.url, inlineProxy.url, launcherProxy.url].sort());
    } finally {
      window.fetch = fetch;
      inline.remove();
      launcher.remove();
    }
  });
});
