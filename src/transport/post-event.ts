import { readEventError, readEventResult } from '../protocol/guards.js';
import type { ClientEventRequest, EventResult } from '../protocol/types.js';

/** Why a request did not produce a result. `status` is the HTTP status where there was one. */
export type TransportFailureKind = 'network' | 'timeout' | 'http' | 'invalid-response' | 'aborted';

export interface TransportFailure {
  kind: TransportFailureKind;
  message: string;
  status?: number;
  /** From a `Retry-After` header (seconds or HTTP date), in milliseconds. */
  retryAfterMs?: number;
}

export type TransportOutcome =
  | {
    ok: true;
    status: number;
    result: EventResult;
    /**
     * The proxy answered with the agent's answer to an earlier try of this request (its
     * `Agent-Chat-Replayed` header, README "Sent once"): what this try carried that the first did
     * not (session tags set meanwhile) did not reach the agent.
     */
    replayed: boolean;
  }
  | { ok: false; failure: TransportFailure };

export interface PostEventOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * POSTs one event request to the proxy and classifies whatever comes back; never throws. The
 * request's timer and its link to `signal` end with it: a finished request leaves no timer, signal or
 * listener alive (`AbortSignal.timeout` would stay, with its `AbortSignal.any` companion, until the
 * time ran out: in a quick conversation, hundreds of them in the heap).
 */
export async function postEvent(
  url: string,
  body: ClientEventRequest,
  { signal, timeoutMs = DEFAULT_TIMEOUT_MS, fetch: doFetch = globalThis.fetch }: PostEventOptions = {},
): Promise<TransportOutcome> {
  // Stopped with the failure to report as the reason.
  const request = new AbortController();
  const stop = (failure: TransportFailure) => () => request.abort(failure);
  const timer = setTimeout(stop({ kind: 'timeout', message: `no answer within ${timeoutMs} ms` }), timeoutMs);
  const follow = stop({ kind: 'aborted', message: 'request aborted' });
  if (signal?.aborted) follow();
  signal?.addEventListener('abort', follow);
  // Assigned once fetch resolves: a failure after it is the body's.
  let response: Response | undefined;
  let failure: TransportFailure;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: request.signal,
      credentials: 'omit',
    });
    const json: unknown = await response.json();
    const result = response.ok ? readEventResult(json) : undefined;
    if (result) return { ok: true, status: response.status, result, replayed: response.headers.has('Agent-Chat-Replayed') };
    failure = {
      kind: response.ok ? 'invalid-response' : 'http',
      status: response.status,
      message: readEventError(json) ?? (response.ok ? 'a success status without an {status:"ok"} body' : `HTTP ${response.status}`),
    };
  } catch (error) {
    // Stopped: the reason is what to report (undefined while not aborted).
    failure = (request.signal.reason as TransportFailure | undefined) ?? (response
      ? { kind: 'invalid-response', status: response.status, message: `HTTP ${response.status} with a body that is not JSON` }
      : { kind: 'network', message: error instanceof Error ? error.message : String(error) });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', follow);
  }
  // What the headers said stands when the body was cut off after them (the connection dropped, or
  // the page began to unload mid-answer): the proxy's 504 that asks to come back is still waiting
  // (stillWaiting), not one the agent may have had and that is not sent again (mayHaveArrived).
  const retryAfterMs = parseRetryAfter(response?.headers.get('Retry-After'));
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return { ok: false, failure };
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A 504 that asks to come back within seconds: a proxy still waiting on the agent for this request,
 * which keeps the agent's answer for its next try (this project's, README "Sent once"). Asked again
 * as it says, the request is still on its way, not failed: see DeliveryController.
 */
export const stillWaiting = ({ status, retryAfterMs }: TransportFailure) => status === 504 && (retryAfterMs ?? STILL_WAITING_MS) < STILL_WAITING_MS;

/** A 504's `Retry-After` under this is a wait on the agent ({@link stillWaiting}); a longer one, a retry the visitor is told of. */
export const STILL_WAITING_MS = 5_000;

/**
 * Failures after which the agent may have the request all the same: no answer in time, here or at
 * the proxy (its 504: the agent service had the request and did not answer within the proxy's
 * timeout). What the agent heard, sent again, it hears twice: an order placed twice, a flow's
 * question answered twice. Not a 504 with `Retry-After`: the proxy asks for the next try, as this
 * project's does when it keeps the agent's late answer for it ("Sent once"). (A connection lost
 * after the request left cannot be told from one never made: the browser says "network error" for both.)
 */
export const mayHaveArrived = ({ kind, status, retryAfterMs }: TransportFailure) => kind === 'timeout' || (status === 504 && retryAfterMs === undefined);

/**
 * Failures worth trying again as they are: the network, the clock, the server's load, or a
 * garbled success (a captive portal's page). A 4xx says the request itself is wrong.
 */
export function isRetryable({ kind, status = 0 }: TransportFailure): boolean {
  // (Without a status, 0: one called off. An invalid response always has its status.)
  return kind === 'network' || kind === 'timeout' || status === 429 || status >= 500 || (kind === 'invalid-response' && status < 300);
}
