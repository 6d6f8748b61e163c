import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { retryDelay } from '../conversation/backoff.js';
import type { ClientEventRequest, EventMessage, EventResult } from '../protocol/types.js';
import { isRetryable, mayHaveArrived, postEvent, stillWaiting, type TransportFailure } from '../transport/post-event.js';

/** One request to make: the message, and the log entry that shows it (none for the greeting). */
export interface DeliveryJob {
  id: string;
  message: EventMessage;
  userMessageId?: string;
  greeting?: boolean;
  /** The tab (page) that made it, while it is to be sent: see ChatSession's outbox. */
  by?: string;
  /** Built on first send and reused by retries, so a retry sends the same tags and timestamp. */
  request?: ClientEventRequest;
  /** Failed attempts so far (sets the backoff). */
  attempts?: number;
}

/** What happens next after a failure. */
export interface FailureOutcome {
  /** Worth trying again (network, timeout, 5xx, 429, a garbled success). */
  retryable: boolean;
  /**
   * The controller will retry by itself, after a backoff: when retryable, but where the agent may
   * have the request (no answer in time: see mayHaveArrived), which only the greeting is sent again
   * after (a second greeting begins the conversation again; a message or postback would be heard twice).
   */
  willRetry: boolean;
}

/**
 * The state of the queue, which is the state of every item in it: items go out one at a time, in
 * order (so replies never interleave), and the items behind the head share its wait.
 *
 * ```
 *             enqueue                    2xx with a valid body
 *   (none) ───────────▶ in-flight ─────────────────────────────▶ delivered: leaves the queue
 *                        │  │  │
 *                        │  │  └─ 4xx, or anything retrying cannot fix ─▶ failed: leaves the queue
 *                        │  │     no answer in time (a timeout, a 504      (the visitor sees why, and Discard;
 *                        │  │     without Retry-After), but for the greeting  Retry now where it may help)
 *                        │  └─ network error while the browser is offline ─▶ offline
 *                        │         offline ──(`online` event)──▶ in-flight
 *                        └─ network, 5xx, 429, garbled 2xx, a 504 with   ─▶ retrying at T
 *                           Retry-After ≥ 5 s (the greeting: any timeout, any 504)
 *                              retrying ──(T reached, `online`, tab visible again, a new item
 *                                          enqueued, retryNow())──▶ in-flight
 *                              (any of those while the try was out: T is the first retry's wait)
 *   in-flight stays in-flight through a 504 with Retry-After under 5 s (a proxy still waiting on
 *   the agent: stillWaiting), asked again after that wait; clear() ends the wait at once.
 *   any state ──clear() (restart, proxy-url change)──▶ (none): the request in flight is aborted,
 *                                                       or kept going (a restart: see ChatSession)
 * ```
 *
 * Invariants (each tested in test/journeys/, test/delivery.test.ts and test/controllers/delivery-controller.test.ts):
 * 1. While the queue holds anything, it is in exactly one of `in-flight`, `retrying` (with the
 *    time T) or `offline`. There is no dead stop: transient failures retry for as long as the page
 *    is open, with a backoff capped at `RETRY.maxMs`; but no request the agent may have had (no
 *    answer in time) goes again unless the visitor asks for it, the greeting's excepted.
 * 2. The greeting is an item like any other: a visitor's send wakes a retrying queue at once, and
 *    the greeting goes first. A send while a try is out counts too: if that try fails, the next
 *    comes after the first retry's wait, not the grown one (the visitor is here now).
 * 3. An item leaves the queue exactly once: delivered, failed for good, discarded, or cleared. A
 *    reply that arrives after `clear()` is dropped (its request was aborted), unless `clear()`
 *    kept that request going: it is then delivered (or fails) like any other.
 */
export type DeliveryState =
  | { name: 'idle' }
  | { name: 'in-flight' }
  | { name: 'retrying'; at: number }
  | { name: 'offline' };

export interface DeliveryControllerOptions {
  proxyUrl: () => string;
  /** Adds sender, language, tags and options to a message, at send time. */
  buildRequest: (message: EventMessage) => ClientEventRequest;
  /** Called before each attempt; returning false cancels the job. */
  onSend: (job: DeliveryJob, request: ClientEventRequest) => boolean;
  /** `replayed`: answered with the answer to an earlier try (see TransportOutcome). */
  onSuccess: (job: DeliveryJob, request: ClientEventRequest, result: EventResult, replayed: boolean) => void;
  onFailure: (job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, outcome: FailureOutcome) => void;
  /** The state changed (or an item left the queue): whatever shows it should be redrawn. */
  onChange: () => void;
}

const isOnline = () => globalThis.navigator?.onLine !== false;

/** Sends queued jobs one at a time, in order; see {@link DeliveryState} for what happens on failure. */
export class DeliveryController implements ReactiveController {
  /** The browser says it is offline; sending resumes when it is back. */
  offline = !isOnline();
  #queue: DeliveryJob[] = [];
  #inFlight?: AbortController;
  #timer?: ReturnType<typeof setTimeout>;
  /** When the scheduled retry goes out (ms since epoch), while one is scheduled. */
  #retryAt?: number;
  /** Woken (retryNow) while the try in flight was out: if it fails, the next try waits the least. */
  #woken?: boolean;
  readonly #host: ReactiveControllerHost & { isConnected?: boolean };
  readonly #options: DeliveryControllerOptions;

  constructor(host: ReactiveControllerHost, options: DeliveryControllerOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Where the queue stands (see the diagram above). */
  get state(): DeliveryState {
    if (this.#inFlight) return { name: 'in-flight' };
    if (this.#queue[0] && this.offline) return { name: 'offline' };
    return this.#queue[0] && this.#retryAt ? { name: 'retrying', at: this.#retryAt } : { name: 'idle' };
  }

  /** The jobs not yet delivered, the one in flight first. */
  get pending(): readonly DeliveryJob[] {
    return this.#queue;
  }

  hostConnected() {
    addEventListener('online', this.#handleConnectivity);
    addEventListener('offline', this.#handleConnectivity);
    document.addEventListener('visibilitychange', this.#handleVisibility);
    this.offline = !isOnline();
    void this.#pump();
  }

  hostDisconnected() {
    removeEventListener('online', this.#handleConnectivity);
    removeEventListener('offline', this.#handleConnectivity);
    document.removeEventListener('visibilitychange', this.#handleVisibility);
    this.#clearTimer();
    // Moving the element disconnects and reconnects it in one task: only let go if it stays out.
    queueMicrotask(() => {
      if (this.#host.isConnected) return;
      // Gone for good (as far as we know), or till the page comes back from the back/forward cache:
      // its request is aborted and its queue dropped, and another widget or tab takes over the
      // outbox. What it was sending waits in storage, where another tab may send it meanwhile;
      // connected again, the host sends what still waits then, not what this queue held (a message
      // another tab sent meanwhile went twice).
      this.clear();
    });
  }

  #idleWaiters: (() => void)[] = [];

  /** Resolves once nothing is queued any more (in flight, retrying or waiting for the network). */
  whenIdle(): Promise<void> {
    // A removed element sends nothing more: it must not hold the outbox (even if its lock was
    // granted only after it was removed).
    if (!this.#queue.length || this.#host.isConnected === false) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #settle() {
    if (!this.#queue.length) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    this.#changed();
  }

  /** Whether `id` is queued or in flight (so a restored transcript does not send it twice). */
  has(id: string): boolean {
    return this.#queue.some((job) => job.id === id);
  }

  /** Queues a job. A queue waiting to retry tries again at once: the visitor is here now. */
  enqueue(job: DeliveryJob) {
    this.#queue.push(job);
    this.retryNow();
  }

  /** Ends a wait for a retry and sends now (a no-op while offline or with a request in flight). */
  retryNow() {
    this.#woken = !!this.#inFlight;
    this.#clearTimer();
    this.#changed();
    void this.#pump();
  }

  /** Drops a job that is not in flight; the rest of the queue goes on at once (the visitor is here). */
  discard(id: string) {
    const index = this.#queue.findIndex((job) => job.id === id);
    if (index < 0 || (index === 0 && this.#inFlight)) return;
    this.#queue.splice(index, 1);
    this.#settle();
    this.retryNow();
  }

  /**
   * Drops everything queued and aborts what is in flight (a new conversation, another proxy), but
   * a request in flight that `keep` keeps: it goes on (the agent has it), and what is queued next
   * waits for it.
   */
  clear(keep?: (job: DeliveryJob) => unknown) {
    this.#queue = this.#inFlight && keep?.(this.#queue[0]) ? this.#queue.slice(0, 1) : [];
    this.#clearTimer();
    if (!this.#queue[0]) {
      this.#inFlight?.abort();
      this.#inFlight = undefined;
    }
    this.#settle();
  }

  readonly #handleConnectivity = () => {
    this.offline = !isOnline();
    this.#host.requestUpdate();
    if (!this.offline) this.retryNow();
    else this.#changed();
  };

  readonly #handleVisibility = () => {
    if (!document.hidden) this.retryNow();
  };

  // One loop at a time: `onSend` listeners may call `enqueue()` re-entrantly. The flag must be
  // released synchronously when there is nothing to send, so no `await` precedes the loop check.
  #pumping?: boolean;

  async #pump() {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#canSend()) await this.#sendHead();
    } finally {
      this.#pumping = false;
    }
  }

  /** Not while the host is out of the page (test/controllers/delivery-controller.test.ts). */
  #canSend() {
    return !this.offline && !this.#timer && this.#queue.length > 0 && this.#host.isConnected !== false;
  }

  async #sendHead() {
    const job = this.#queue[0];
    const request = (job.request ??= { requestId: job.id, ...this.#options.buildRequest(job.message) });
    if (!this.#options.onSend(job, request)) {
      this.#queue.shift();
      this.#settle();
      return;
    }
    const controller = (this.#inFlight = new AbortController());
    this.#retryAt = undefined;
    this.#woken = false;
    this.#changed();
    // postEvent reads `fetch` at call time, so a page (or a test) that wraps it later is honoured.
    // A proxy still waiting on the agent for it (stillWaiting) is asked again after the wait it
    // names, the request still in flight: the visitor sees the agent typing, not "Not delivered
    // yet", and the page hears of no failure. The wait ends at once when the request is called off.
    let outcome;
    for (;;) {
      outcome = await postEvent(this.#options.proxyUrl(), request, { signal: controller.signal });
      if (outcome.ok || !stillWaiting(outcome.failure)) break;
      const delay = retryDelay(1, outcome.failure.retryAfterMs);
      await new Promise((resolve) => {
        controller.signal.onabort = resolve;
        setTimeout(resolve, delay);
      });
      if (controller.signal.aborted) break;
    }
    if (this.#inFlight === controller) this.#inFlight = undefined;
    // Aborted: cleared (the queue is gone, and so is this reply; also when disconnected).
    if (controller.signal.aborted || this.#queue[0] !== job) return this.#changed();
    if (outcome.ok) {
      this.#queue.shift();
      this.#options.onSuccess(job, request, outcome.result, outcome.replayed);
      this.#settle();
      return;
    }
    const { failure } = outcome;
    if (failure.kind === 'network' && !isOnline()) {
      // Not the server's fault and not worth an attempt: wait for the `online` event.
      this.offline = true;
      this.#host.requestUpdate();
      this.#changed();
      return;
    }
    const retryable = isRetryable(failure);
    const willRetry = retryable && (!!job.greeting || !mayHaveArrived(failure));
    if (willRetry) {
      job.attempts = (job.attempts ?? 0) + 1;
      const delay = retryDelay(this.#woken ? 1 : job.attempts, failure.retryAfterMs);
      this.#retryAt = Date.now() + delay;
      this.#timer = setTimeout(() => {
        this.#clearTimer();
        void this.#pump();
      }, delay);
    } else {
      this.#queue.shift();
    }
    this.#options.onFailure(job, request, failure, { retryable, willRetry });
    this.#settle();
  }

  #clearTimer() {
    clearTimeout(this.#timer);
    this.#timer = this.#retryAt = undefined;
  }

  #changed() {
    this.#host.requestUpdate();
    this.#options.onChange();
  }
}
