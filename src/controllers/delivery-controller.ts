import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { RETRY, retryDelay } from '../conversation/backoff.js';
import type { ClientEventRequest, EventMessage, EventResult } from '../protocol/types.js';
import { isRetryable, postEvent, type TransportFailure } from '../transport/post-event.js';

/** One request to make: the message, and the log entry that shows it (none for the greeting). */
export interface DeliveryJob {
  id: string;
  message: EventMessage;
  userMessageId?: string;
  greeting?: boolean;
  /** Built on first send and reused by retries, so a retry sends the same tags and timestamp. */
  request?: ClientEventRequest;
  attempts?: number;
}

/** What happens next after a failure. */
export interface FailureOutcome {
  /** Worth trying again (network, timeout, 5xx, 429). */
  retryable: boolean;
  /** The controller will retry by itself, after a backoff. */
  willRetry: boolean;
}

export interface DeliveryControllerOptions {
  proxyUrl: () => string;
  /** Adds sender, language, tags and options to a message, at send time. */
  buildRequest: (message: EventMessage) => ClientEventRequest;
  /** Called before each attempt; returning false cancels the job. */
  onSend: (job: DeliveryJob, request: ClientEventRequest) => boolean;
  onSuccess: (job: DeliveryJob, request: ClientEventRequest, result: EventResult) => void;
  onFailure: (job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, outcome: FailureOutcome) => void;
}

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/**
 * Sends jobs one at a time, in order, so replies never interleave. Failures worth retrying are
 * retried with backoff up to a bound; then the job waits at the head of the queue (later messages
 * behind it) for `retry()` or `discard()`. While the browser is offline, nothing is sent.
 */
export class DeliveryController implements ReactiveController {
  /** A request is in flight. */
  busy = false;
  /** The browser says it is offline; sending resumes when it is back. */
  offline = !isOnline();
  /** The job that exhausted its automatic retries and waits for `retry()` or `discard()`. */
  stalled?: DeliveryJob;
  #queue: DeliveryJob[] = [];
  #inFlight?: AbortController;
  #timer?: ReturnType<typeof setTimeout>;
  readonly #host: ReactiveControllerHost & { isConnected?: boolean };
  readonly #options: DeliveryControllerOptions;

  constructor(host: ReactiveControllerHost, options: DeliveryControllerOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostConnected() {
    addEventListener('online', this.#handleConnectivity);
    addEventListener('offline', this.#handleConnectivity);
    this.offline = !isOnline();
    void this.#pump();
  }

  hostDisconnected() {
    removeEventListener('online', this.#handleConnectivity);
    removeEventListener('offline', this.#handleConnectivity);
    this.#clearTimer();
    // Moving the element disconnects and reconnects it in one task: only abort if it stays out.
    queueMicrotask(() => {
      if (this.#host.isConnected) return;
      this.#inFlight?.abort();
      // Gone for good (as far as we know): let another widget or tab take over the outbox.
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    });
  }

  #idleWaiters: (() => void)[] = [];

  /** Resolves once nothing is queued any more (in flight, waiting to retry, or stalled). */
  whenIdle(): Promise<void> {
    // A removed element sends nothing more: it must not hold the outbox (even if its lock was
    // granted only after it was removed).
    if (!this.#queue.length || this.#host.isConnected === false) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #settle() {
    if (!this.#queue.length) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Whether `id` is queued or in flight (so a restored transcript does not send it twice). */
  has(id: string): boolean {
    return this.#queue.some((job) => job.id === id);
  }

  enqueue(job: DeliveryJob) {
    this.#queue.push(job);
    void this.#pump();
  }

  /** Sends the stalled job again, with a fresh set of automatic retries. */
  retry() {
    if (this.stalled) this.stalled.attempts = 0;
    this.stalled = undefined;
    this.#clearTimer();
    void this.#pump();
  }

  /** Drops the stalled job; the rest of the queue goes on. */
  discard() {
    const dropped = this.stalled;
    if (dropped) this.#queue = this.#queue.filter((job) => job !== dropped);
    this.stalled = undefined;
    this.#settle();
    void this.#pump();
  }

  /** Drops everything queued and aborts what is in flight (a new conversation). */
  clear() {
    this.#queue = [];
    this.stalled = undefined;
    this.#clearTimer();
    this.#inFlight?.abort();
    this.#setBusy(false);
    this.#settle();
  }

  readonly #handleConnectivity = () => {
    this.offline = !isOnline();
    this.#host.requestUpdate();
    if (!this.offline) {
      this.#clearTimer();
      void this.#pump();
    }
  };

  // One loop at a time: `onSend` listeners may call `enqueue()` re-entrantly. The flag must be
  // released synchronously when there is nothing to send, so no `await` precedes the loop check.
  #pumping = false;

  async #pump() {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#canSend()) await this.#sendHead();
    } finally {
      this.#pumping = false;
    }
  }

  #canSend() {
    return !this.stalled && !this.offline && this.#timer === undefined && this.#queue.length > 0 && this.#host.isConnected !== false;
  }

  async #sendHead() {
    const job = this.#queue[0];
    const request = (job.request ??= this.#options.buildRequest(job.message));
    if (!this.#options.onSend(job, request)) {
      this.#queue.shift();
      this.#settle();
      return;
    }
    const controller = (this.#inFlight = new AbortController());
    this.#setBusy(true);
    // postEvent reads `fetch` at call time, so a page (or a test) that wraps it later is honoured.
    const outcome = await postEvent(this.#options.proxyUrl(), request, { signal: controller.signal });
    this.#inFlight = undefined;
    this.#setBusy(false);
    // Aborted: cleared (the queue is gone) or disconnected (resumes on reconnect).
    if ((!outcome.ok && outcome.failure.kind === 'aborted') || this.#queue[0] !== job) return;
    if (outcome.ok) {
      this.#queue.shift();
      this.#options.onSuccess(job, request, outcome.result);
      this.#settle();
      return;
    }
    const { failure } = outcome;
    if (failure.kind === 'network' && !isOnline()) {
      // Not the server's fault and not worth an attempt: wait for the `online` event.
      this.offline = true;
      this.#host.requestUpdate();
      return;
    }
    const retryable = isRetryable(failure);
    const attempts = (job.attempts = (job.attempts ?? 0) + 1);
    const willRetry = retryable && attempts < RETRY.attempts && (failure.retryAfterMs ?? 0) <= RETRY.maxRetryAfterMs;
    if (willRetry) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.#pump();
      }, retryDelay(attempts, failure.retryAfterMs));
      this.#options.onFailure(job, request, failure, { retryable, willRetry });
      return;
    }
    if (retryable) this.stalled = job;
    else this.#queue.shift();
    this.#options.onFailure(job, request, failure, { retryable, willRetry });
    this.#settle();
  }

  #clearTimer() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #setBusy(busy: boolean) {
    if (this.busy === busy) return;
    this.busy = busy;
    this.#host.requestUpdate();
  }
}
