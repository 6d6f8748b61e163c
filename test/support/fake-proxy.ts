/**
 * A fake proxy for browser tests: wraps `window.fetch` so requests to one URL are recorded (exact
 * bodies and headers) and answered by a script the test controls. Other URLs pass through.
 */
import type { AgentResponseItem, ClientEventRequest } from '../../src/protocol/types.js';

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: ClientEventRequest;
  /** performance.now() when `fetch` was called. */
  at: number;
  /** The widget aborted it (restart, another proxy URL, the page went away). */
  aborted?: boolean;
}

/** An HTTP answer, or a transport failure. */
export type Reply =
  | {
    status?: number; json?: unknown; text?: string; headers?: Record<string, string>;
    /** The body breaks off halfway (the connection dropped after the headers, or the page began to unload). */
    cut?: boolean;
  }
  | { networkError: true };

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export const ok = (...responses: AgentResponseItem[]): Reply => ({ json: { status: 'ok', result: { responses } } });
export const text = (...options: string[]): AgentResponseItem => ({
  id: `TX_${crypto.randomUUID()}`, type: 'text', options, altText: options.join(' '),
});

/** Default script: greets on the greeting postback, echoes text, acknowledges other postbacks. */
export const echoAgent: Handler = ({ body }) => {
  const { message } = body;
  if (message.text !== undefined) return ok(text(`You said: ${message.text}`));
  if (message.payload?.type === 'node' && message.payload.data === 'greeting') return ok(text('Hello! How can I help?'));
  return ok(text(`Postback: ${JSON.stringify(message.payload?.data)}`));
};

/** A body that breaks off halfway through `whole`, as one whose connection dropped after the headers. */
export const cutOff = (whole: string) => new ReadableStream({
  start(stream) {
    stream.enqueue(new TextEncoder().encode(whole.slice(0, whole.length / 2)));
    stream.error(new TypeError('network error'));
  },
});

let counter = 0;

export class FakeProxy {
  readonly url: string;
  readonly requests: RecordedRequest[] = [];
  /** Requests made and not yet answered, failed or aborted. */
  inFlight = 0;
  private handler: Handler = echoAgent;
  private readonly queued: Handler[] = [];
  private readonly original = window.fetch;

  constructor() {
    // A fresh URL per proxy: the widget keys its storage by proxy URL, so tests never share state.
    this.url = `${location.origin}/fake-proxy/${Date.now()}-${++counter}`;
    window.fetch = this.fetch;
  }

  /** Answers every later request not covered by `next()`. */
  handle(handler: Handler) {
    this.handler = handler;
    return this;
  }

  /** Answers the next request (queue several by calling again). */
  next(reply: Reply | Handler) {
    this.queued.push(typeof reply === 'function' ? reply : () => reply);
    return this;
  }

  /** The next request waits until the test calls `release(reply)`. */
  hold(): { release: (reply?: Reply) => void } {
    let release!: (reply?: Reply) => void;
    const gate = new Promise<Reply | undefined>((resolve) => (release = resolve));
    this.queued.push(async (request) => (await gate) ?? this.handler(request));
    return { release };
  }

  restore() {
    window.fetch = this.original;
  }

  get bodies(): ClientEventRequest[] {
    return this.requests.map((r) => r.body);
  }

  /**
   * Records the request the moment `fetch` is called (the body is read synchronously: the widget
   * sends a JSON string), so "nothing was sent" checks cannot race the recording. Honours the
   * request's AbortSignal at any time, as a real fetch does: an aborted request rejects at once and
   * is marked `aborted`, and its reply, when the script gives one, goes nowhere.
   */
  private readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url !== this.url) return this.original.call(window, input, init);
    const recorded: RecordedRequest = {
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: JSON.parse(String(init?.body)),
      at: performance.now(),
    };
    this.requests.push(recorded);
    this.inFlight++;
    const handler = this.queued.shift() ?? this.handler;
    const signal = init?.signal;
    let settled = false;
    return new Promise<Response>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        signal?.removeEventListener('abort', abort);
        outcome();
      };
      const abort = () => settle(() => {
        recorded.aborted = true;
        reject(new DOMException('aborted', 'AbortError'));
      });
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      Promise.resolve(handler(recorded)).then((reply) => {
        if ('networkError' in reply) return settle(() => reject(new TypeError('Failed to fetch')));
        const whole = reply.text ?? JSON.stringify(reply.json ?? {});
        const body = reply.cut ? cutOff(whole) : whole;
        const response = new Response(body, {
          status: reply.status ?? 200,
          headers: { 'Content-Type': reply.text === undefined ? 'application/json' : 'text/html', ...reply.headers },
        });
        // In flight until the body is read, as over a real connection.
        const json = response.json.bind(response);
        response.json = () => json().finally(() => settle(() => undefined));
        const read = response.text.bind(response);
        response.text = () => read().finally(() => settle(() => undefined));
        resolve(response);
      }, (error) => settle(() => reject(error)));
    });
  };
}
