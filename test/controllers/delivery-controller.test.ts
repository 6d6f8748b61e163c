/**
 * The delivery queue on its own, with a host of its own: what no widget shows, because the session
 * in front of it gives it nothing to send while stopped (see test/delivery.test.ts for the journeys).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { DeliveryController } from '../../src/controllers/delivery-controller.js';

/** Whether `promise` has settled already: true if it is resolved by the time a microtask queued now runs. */
const atOnce = (promise: Promise<unknown>) => Promise.race([promise.then(() => true), Promise.resolve().then(() => false)]);

describe('DeliveryController', () => {
  /**
   * A queue whose host is in the page (unless `connected` is false: not yet connected), asking a
   * `fetch` that records each request as it is called and answers with `answer`.
   */
  const queueAsking = (answer: (text: string) => Response | Promise<Response>, { onSend = (_id: string): boolean => true, connected = true } = {}) => {
    const asked: string[] = [];
    const delivered: string[] = [];
    const fetch = window.fetch;
    window.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const { text } = JSON.parse(String(init!.body)).message;
      asked.push(text);
      return answer(text);
    }) as typeof fetch;
    const host = { isConnected: connected, addController() {}, removeController() {}, requestUpdate() {}, updateComplete: Promise.resolve(true) };
    const queue = new DeliveryController(host, {
      proxyUrl: () => '/delivery-unit',
      buildRequest: (message) => ({ sender: { id: 'visitor' }, message }),
      onSend: (job) => onSend(job.id),
      onSuccess: (job) => delivered.push(job.id),
      onFailure: () => {},
      onChange: () => {},
    });
    if (connected) queue.hostConnected();
    const done = () => {
      window.fetch = fetch;
      queue.hostDisconnected();
    };
    return { queue, host, asked, delivered, done };
  };
  const answered = () => new Response(JSON.stringify({ status: 'ok', result: { responses: [] } }), { headers: { 'Content-Type': 'application/json' } });
  /** Overloaded for a minute: the queue waits at least that long before it tries again by itself. */
  const overloaded = () => new Response(JSON.stringify({ status: 'error', error: 'overloaded' }), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '60' } });

  it('sends nothing while its host is out of the page: what is queued then waits (whenIdle() resolving at once), and goes once the host is back', async () => {
    const { queue, host, asked, delivered, done } = queueAsking(answered, { connected: false });
    try {
      queue.enqueue({ id: 'a', message: { text: 'made while out' } });
      expect(asked, 'nothing asked while out of the page').to.deep.equal([]);
      expect(queue.pending.map((job) => job.id), 'kept').to.deep.equal(['a']);
      // The outbox waits for this before it lets go of its lock: a queue out of the page sends nothing, so holds nothing.
      expect(await atOnce(queue.whenIdle()), 'idle as far as the outbox goes, though something is queued').to.equal(true);
      host.isConnected = true;
      queue.hostConnected();
      await queue.whenIdle();
      expect(asked, 'asked once back').to.deep.equal(['made while out']);
      expect(delivered).to.deep.equal(['a']);
      expect(await atOnce(queue.whenIdle()), 'nothing queued: idle at once').to.equal(true);
      queue.enqueue({ id: 'b', message: { text: 'next' } });
      expect(await atOnce(queue.whenIdle()), 'not while something is queued').to.equal(false);
      await queue.whenIdle();
      expect(delivered).to.deep.equal(['a', 'b']);
    } finally {
      done();
    }
  });
  it('a job its onSend refuses (a cancelled send event, a conversation begun anew) is never asked for and leaves the queue; the one behind it goes', async () => {
    const { queue, asked, delivered, done } = queueAsking(answered, { onSend: (id) => id !== 'refused' });
    try {
      queue.enqueue({ id: 'refused', message: { text: 'cancelled' } });
      queue.enqueue({ id: 'b', message: { text: 'next' } });
      await queue.whenIdle();
      expect(asked).to.deep.equal(['next']);
      expect(delivered).to.deep.equal(['b']);
      expect(queue.pending).to.deep.equal([]);
    } finally {
      done();
    }
  });

  it('whenIdle() waits for every job queued, not only the first to be answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { queue, delivered, done } = queueAsking(async (text) => {
      if (text === 'second') await held;
      return answered();
    });
    try {
      queue.enqueue({ id: 'a', message: { text: 'first' } });
      queue.enqueue({ id: 'b', message: { text: 'second' } });
      const idle = queue.whenIdle();
      await waitUntil(() => delivered.length === 1, 'the first answered');
      expect(await atOnce(idle), 'not idle while the second is out').to.equal(false);
      release();
      await idle;
      expect(delivered).to.deep.equal(['a', 'b']);
    } finally {
      done();
    }
  });

  it('clear() with a request in flight that it keeps (a restart): that request goes on and is answered; what was queued behind it is dropped, never asked for', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { queue, asked, delivered, done } = queueAsking(async () => {
      await held;
      return answered();
    });
    try {
      queue.enqueue({ id: 'a', message: { text: 'with the agent' } });
      queue.enqueue({ id: 'b', message: { text: 'queued behind it' } });
      queue.clear((job) => job.id === 'a');
      expect(queue.pending.map((job) => job.id), 'only the one in flight kept').to.deep.equal(['a']);
      release();
      await queue.whenIdle();
      expect(delivered).to.deep.equal(['a']);
      expect(asked).to.deep.equal(['with the agent']);
    } finally {
      done();
    }
  });

  it('says where it stands: idle, retrying (when), offline, each only while something is queued', async () => {
    const { queue, asked, done } = queueAsking(overloaded);
    try {
      expect(queue.state, 'nothing queued').to.deep.equal({ name: 'idle' });
      queue.enqueue({ id: 'a', message: { text: 'stubborn' } });
      expect(queue.state.name, 'asked at once').to.equal('in-flight');
      await waitUntil(() => queue.state.name === 'retrying', 'failed: waiting to retry');
      const { at } = queue.state as { at: number };
      expect(at - Date.now(), 'ms until the retry (Retry-After: 60)').to.be.above(50_000);
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
      window.dispatchEvent(new Event('offline'));
      expect(queue.state, 'the browser says it is offline').to.deep.equal({ name: 'offline' });
      queue.clear();
      expect(queue.state, 'offline, with nothing queued').to.deep.equal({ name: 'idle' });
      expect(asked).to.deep.equal(['stubborn']);
    } finally {
      delete (navigator as { onLine?: boolean }).onLine;
      done();
    }
  });

  it('waiting to retry, tries again at once when the visitor comes back to the tab, not while it is hidden', async () => {
    const { queue, asked, done } = queueAsking(overloaded);
    const setHidden = (hidden: boolean) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    try {
      queue.enqueue({ id: 'a', message: { text: 'stubborn' } });
      await waitUntil(() => queue.state.name === 'retrying', 'failed: waiting a minute to retry');
      setHidden(true);
      expect(queue.state.name, 'hidden: still waiting').to.equal('retrying');
      setHidden(false);
      expect(queue.state.name, 'shown again: asked again at once').to.equal('in-flight');
      await waitUntil(() => asked.length === 2, 'the second try made');
    } finally {
      delete (document as { hidden?: boolean }).hidden;
      done();
    }
  });
});
