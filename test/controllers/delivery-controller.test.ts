/**
 * The delivery queue on its own, with a host of its own: what no widget shows, because the session
 * in front of it gives it nothing to send while stopped (see test/delivery.test.ts for the journeys).
 */
import { expect } from '@open-wc/testing';
import { DeliveryController } from '../../src/controllers/delivery-controller.js';

/** Whether `promise` has settled already: true if it is resolved by the time a microtask queued now runs. */
const atOnce = (promise: Promise<unknown>) => Promise.race([promise.then(() => true), Promise.resolve().then(() => false)]);

describe('DeliveryController', () => {
  it('sends nothing while its host is out of the page: what is queued then waits (whenIdle() resolving at once), and goes once the host is back', async () => {
    const asked: (string | undefined)[] = [];
    const fetch = window.fetch;
    // Recorded as `fetch` is called.
    window.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(JSON.parse(String(init!.body)).message.text);
      return new Response(JSON.stringify({ status: 'ok', result: { responses: [] } }), { headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    const host = { isConnected: false, addController() {}, removeController() {}, requestUpdate() {}, updateComplete: Promise.resolve(true) };
    const delivered: string[] = [];
    const queue = new DeliveryController(host, {
      proxyUrl: () => '/delivery-unit',
      buildRequest: (message) => ({ sender: { id: 'visitor' }, message }),
      onSend: () => true,
      onSuccess: (job) => delivered.push(job.id),
      onFailure: () => {},
      onChange: () => {},
    });
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
      window.fetch = fetch;
      queue.hostDisconnected();
    }
  });
});
