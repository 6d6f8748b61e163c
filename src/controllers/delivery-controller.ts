import type { ReactiveController, ReactiveControllerHost } from 'lit';
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
}

export interface DeliveryControllerOptions {
  proxyUrl: () => string;
  /** Adds sender, language, tags and options to a message, at send time. */
  buildRequest: (message: EventMessage) => ClientEventRequest;
  /** Called before each attempt; returning false cancels the job. */
  onSend: (job: DeliveryJob, request: ClientEventRequest) => boolean;
  onSuccess: (job: DeliveryJob, request: ClientEventRequest, result: EventResult) => void;
  /** `retryable`: the job is kept at the head of the queue until `retry()`. */
  onFailure: (job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, retryable: boolean) => void;
  /** Read at send time, so a page (or a test) that wraps `fetch` later is honoured. */
  fetch?: () => typeof fetch;
  timeoutMs?: number;
}

/**
 * Sends jobs one at a time, in order, so replies never interleave. A job that failed for a reason
 * worth retrying stays at the head of the queue (later messages wait behind it) until `retry()`.
 */
export class DeliveryController implements ReactiveController {
  /** A request is in flight. */
  busy = false;
  /** The job that failed and waits for `retry()`. */
  stalled?: DeliveryJob;
  private queue: DeliveryJob[] = [];
  private inFlight?: AbortController;
  private readonly host: ReactiveControllerHost & { isConnected?: boolean };
  private readonly options: DeliveryControllerOptions;

  constructor(host: ReactiveControllerHost, options: DeliveryControllerOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  hostConnected() {
    void this.pump();
  }

  hostDisconnected() {
    // Moving the element disconnects and reconnects it in one task: only abort if it stays out.
    queueMicrotask(() => {
      if (!this.host.isConnected) this.inFlight?.abort();
    });
  }

  get pending(): number {
    return this.queue.length;
  }

  enqueue(job: DeliveryJob) {
    this.queue.push(job);
    // Sending again is also asking to retry what is stuck in front of it.
    this.stalled = undefined;
    void this.pump();
  }

  retry() {
    this.stalled = undefined;
    void this.pump();
  }

  /** Drops everything queued and aborts what is in flight (a new conversation). */
  clear() {
    this.queue = [];
    this.stalled = undefined;
    this.inFlight?.abort();
    this.setBusy(false);
  }

  // One loop at a time: `onSend` listeners may call `enqueue()` re-entrantly. The flag must be
  // released synchronously when there is nothing to send, so no `await` precedes the loop check.
  private pumping = false;

  private async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.stalled && this.queue.length && this.host.isConnected !== false) await this.sendHead();
    } finally {
      this.pumping = false;
    }
  }

  private async sendHead() {
    const job = this.queue[0];
    const request = (job.request ??= this.options.buildRequest(job.message));
    if (!this.options.onSend(job, request)) {
      this.queue.shift();
      return;
    }
    const controller = (this.inFlight = new AbortController());
    this.setBusy(true);
    const outcome = await postEvent(this.options.proxyUrl(), request, {
      signal: controller.signal,
      timeoutMs: this.options.timeoutMs,
      fetch: this.options.fetch?.(),
    });
    this.inFlight = undefined;
    this.setBusy(false);
    // Aborted: cleared (the queue is gone) or disconnected (resumes on reconnect).
    if ((!outcome.ok && outcome.failure.kind === 'aborted') || this.queue[0] !== job) return;
    if (outcome.ok) {
      this.queue.shift();
      this.options.onSuccess(job, request, outcome.result);
      return;
    }
    const retryable = isRetryable(outcome.failure);
    if (retryable) this.stalled = job;
    else this.queue.shift();
    this.options.onFailure(job, request, outcome.failure, retryable);
  }

  private setBusy(busy: boolean) {
    if (this.busy === busy) return;
    this.busy = busy;
    this.host.requestUpdate();
  }
}
