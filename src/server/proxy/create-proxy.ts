import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { LIMITS } from '../validation/limits.js';
import { clientEventRequestSchema, validate } from '../validation/event-request.js';
import { peerAddress, trustingProxies, type ClientAddress } from './client-address.js';
import { ConfigError } from './config-error.js';
import type { ProxyConfig } from './config.js';
import { MemoryRateLimitStore, retryAfterSeconds, type RateLimitStore } from './rate-limit.js';
import { RateLimitUnavailableError } from './redis-store.js';
import { ReplayMemory, type Answer, type ReplayStore } from './replay.js';
import { digest, jsonLogger, shortHash, type RequestLogger, type RequestLogLine } from './request-log.js';

/** A Fetch-API handler; `env` is whatever the runtime passes (Node: `{ incoming, outgoing }`). */
export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/** What the proxy uses of a Workers-style execution context. */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The proxy: a FetchHandler that also takes `ctx`, the execution context of runtimes that end a
 * request's work with its response (Cloudflare Workers: its `waitUntil` keeps the agent's late
 * answer coming for the request's next try, see README "Sent once").
 */
export type ProxyHandler = (request: Request, env?: unknown, ctx?: WaitUntil) => Promise<Response>;

/** Each request's execution context, where the runtime gave one. */
const contexts = new WeakMap<Request, WaitUntil>();

export interface ProxyOptions extends ProxyConfig {
  /** Path the endpoint answers on (default `/`). */
  path?: string;
  /** Shared limits across instances (default: in memory). */
  rateLimitStore?: RateLimitStore;
  /** Where request log lines go (default: one JSON line on stdout). */
  log?: RequestLogger;
  /**
   * The client's address, for the per-address rate limit. Default: the connecting peer as Node,
   * Bun, Deno and Cloudflare Workers report it, or, with `trustedProxies`, the client named by the
   * forwarding headers of those proxies. Give either this or `trustedProxies`, not both.
   */
  clientAddress?: ClientAddress;
  /** Upstream `fetch` (tests inject faults here). */
  fetch?: typeof fetch;
  /**
   * What the proxy remembers of the requests that carry a `requestId` (the widget's), so that a
   * request tried again reaches the agent once (README, "Sent once"): a `ReplayMemory` (default, in
   * memory, per instance), `redisReplayStore(client)` (shared by several instances), or `false` to
   * forward every try.
   */
  replay?: ReplayStore | false;
  /**
   * How long the agent may take over a request with a `requestId` (default 2 minutes): past
   * `timeoutMs` the browser gets its 504 (with `Retry-After: 1`), while the proxy waits on for the
   * agent's answer and keeps it for the request's next try.
   */
  lateAnswerMs?: number;
}

/** What asking the agent came to: its answer (any status, a JSON body), or a failure to pass on. */
type Asked = (Answer & { fail?: undefined; upstreamStatus?: undefined }) | { fail: 502 | 504; error: string; upstreamStatus?: number; status?: undefined };

/** What `within` gives for a promise that did not settle in time. */
const LATE = Symbol('late');

type Variables = { line: RequestLogLine; ctx?: WaitUntil };
type ProxyContext = Context<{ Variables: Variables }>;


const fail = (c: ProxyContext, status: 400 | 403 | 405 | 413 | 415 | 429 | 502 | 503 | 504, error: string) => {
  c.var.line.error = error;
  return c.json({ status: 'error', error }, status);
};

/**
 * The token-holding proxy (CONTRACT §3): validates a browser's event request, adds the handle and
 * the token, forwards it to `{upstreamUrl}/api/events`, and returns the upstream's status and body.
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  const {
    path = '/', upstreamUrl, handle, token, allowedOrigins, timeoutMs = 15_000, rateLimitPerMinute = 60,
    maxBodyBytes = LIMITS.bodyBytes, debug = false, log = jsonLogger, trustedProxies, lateAnswerMs = 120_000,
  } = options;
  const replay = options.replay ?? new ReplayMemory();
  if (options.clientAddress && trustedProxies) {
    throw new ConfigError('Give clientAddress or trustedProxies, not both: trustedProxies is a way to build a clientAddress');
  }
  const clientAddress = options.clientAddress ?? (trustedProxies ? trustingProxies(trustedProxies) : peerAddress);
  const upstreamFetch = options.fetch ?? globalThis.fetch;
  const rateLimits = options.rateLimitStore ?? new MemoryRateLimitStore();
  const endpoint = `${upstreamUrl.replace(/\/+$/, '')}/api/events`;
  const isAllowedOrigin = (origin: string) => allowedOrigins === '*' || allowedOrigins.includes(origin);
  const tooLate = `The agent service did not answer within ${timeoutMs} ms`;
  const tooLarge = (c: ProxyContext) => fail(c, 413, `Body is larger than ${maxBodyBytes} bytes`);

  const app = new Hono<{ Variables: Variables }>();

  // Every request gets one log line, written after the response is known.
  app.use('*', async (c, next) => {
    const started = performance.now();
    const line: RequestLogLine = { time: new Date().toISOString(), method: c.req.method, path: new URL(c.req.url).pathname, status: 0, ms: 0 };
    const origin = c.req.header('Origin');
    if (origin) line.origin = origin;
    c.set('line', line);
    c.set('ctx', contexts.get(c.req.raw)); // (taken before the body limit may put another Request in its place)
    await next();
    line.status = c.res.status;
    line.ms = Math.round(performance.now() - started);
    log(line);
  });

  app.use('*', async (c, next) => {
    const origin = c.req.header('Origin');
    if (origin && !isAllowedOrigin(origin)) return fail(c, 403, `Origin ${origin} is not allowed to use this proxy (see ALLOWED_ORIGINS)`);
    return next();
  });

  app.use('*', cors({
    origin: allowedOrigins === '*' ? '*' : [...allowedOrigins],
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Content-Type'],
    // A page on another origin reads only the CORS-safelisted headers of an answer unless told:
    // the widget reads Retry-After (when to try again after a 429 or a 503, and a 504 for which
    // the proxy keeps the agent's late answer) and Agent-Chat-Replayed (an answer to an earlier
    // try: "Sent once").
    exposeHeaders: ['Retry-After', 'Agent-Chat-Replayed'],
    maxAge: 600,
  }));

  app.get(path, (c) => c.json({ status: 'ok' }));

  app.post(
    path,
    async (c, next) => {
      const address = clientAddress(c.req.raw, c.env);
      if (address) c.var.line.client = await shortHash(address);
      const limited = await overLimit(c, address ? `ip:${address}` : undefined);
      if (limited) return limited;
      if (c.req.header('Authorization') !== undefined) {
        return fail(c, 400, 'Send no Authorization header: the proxy adds the credentials itself');
      }
      if (!/^application\/json\s*(;|$)/i.test(c.req.header('Content-Type') ?? '')) {
        return fail(c, 415, 'Content-Type must be application/json');
      }
      // A declared length over the limit is refused here, before anything asks for the body: Hono's
      // body limit below reads `c.req.raw.body` first, which makes the Node adapter's stream of it,
      // and a body of a few hundred kilobytes left unread in that stream could not be drained: the
      // adapter closed the connection half a second after a 413 that said it would stay open, and
      // the client's next request on it failed.
      if (Number(c.req.header('Content-Length')) > maxBodyBytes) return tooLarge(c);
      return next();
    },
    // A body sent without a declared length (chunked) is counted as it arrives. The rest of one over
    // the limit is not read, so its connection cannot serve another request: the answer says so
    // (else the client sent its next request on it, and that failed when the adapter closed it).
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => {
        c.header('Connection', 'close');
        return tooLarge(c as ProxyContext);
      },
    }),
    async (c) => {
      let sent: unknown;
      try {
        sent = JSON.parse(await c.req.text());
      } catch {
        return fail(c, 400, 'Body is not valid JSON');
      }
      if (typeof sent === 'object' && sent !== null && 'handle' in sent) {
        return fail(c, 400, '"handle" must not be sent: the proxy adds it');
      }
      const checked = validate(clientEventRequestSchema, sent);
      if (!checked.ok) return fail(c, 400, `Invalid request: ${checked.error}`);
      const request = checked.value;
      if (request.sender) c.var.line.sender = await shortHash(request.sender.id);
      if (debug && request.message.text) c.var.line.text = request.message.text;
      const limited = await overLimit(c, request.sender ? `sender:${request.sender.id}` : undefined);
      if (limited) return limited;
      const { requestId, ...forwarded } = request;
      const body = JSON.stringify({ ...forwarded, handle });
      if (!replay || requestId === undefined || !request.sender) return respond(c, await askAgent(body, timeoutMs));
      // The same request: the same sender and id, and the same content but its time (a next page
      // makes it anew) and its session tags (a site may tag the visitor at each page view, so the
      // next page's try carries them again). Tags a later try carries do not reach the agent with
      // the answer to the first: the answer says so (Agent-Chat-Replayed), and the widget sends
      // them with its next request.
      const key = `${request.sender.id}\n${requestId}`;
      const { timestamp: _, tagOperations: __, ...content } = forwarded;
      return answerOnce(c, replay, key, await digest(JSON.stringify(content)), body);
    },
  );

  app.all(path, (c) => {
    c.header('Allow', 'GET, POST, OPTIONS');
    return fail(c, 405, `Method ${c.req.method} is not allowed: use POST (or GET for a health check)`);
  });
  app.notFound((c) => c.json({ status: 'error', error: `Not found: the chat endpoint is ${path}` }, 404));
  app.onError((error, c) => {
    c.get('line').error = `internal: ${error.name}`;
    return c.json({ status: 'error', error: 'The proxy failed unexpectedly' }, 500);
  });

  async function overLimit(c: ProxyContext, key: string | undefined) {
    if (!key || rateLimitPerMinute <= 0) return undefined;
    let hit;
    try {
      hit = await rateLimits.hit(key, 60_000);
    } catch (error) {
      if (!(error instanceof RateLimitUnavailableError)) throw error;
      c.header('Retry-After', '10');
      return fail(c, 503, 'Rate limiting is unavailable, so requests are refused for now; try again shortly');
    }
    if (hit.count <= rateLimitPerMinute) return undefined;
    c.header('Retry-After', String(retryAfterSeconds(hit)));
    return fail(c, 429, `Too many requests: at most ${rateLimitPerMinute} a minute; try again later`);
  }

  /** Asks the agent, giving it up to `limitMs`; never throws. */
  async function askAgent(body: string, limitMs: number): Promise<Asked> {
    const timedOut = { fail: 504, error: tooLate } as const;
    let upstream: Response;
    try {
      upstream = await upstreamFetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` },
        body,
        signal: AbortSignal.timeout(limitMs),
      });
    } catch (error) {
      return isTimeout(error) ? timedOut : { fail: 502, error: 'The agent service could not be reached' };
    }
    try {
      const text = await upstream.text();
      JSON.parse(text);
      return { status: upstream.status, body: text };
    } catch (error) {
      if (isTimeout(error)) return { ...timedOut, upstreamStatus: upstream.status };
      return { fail: 502, error: `The agent service answered HTTP ${upstream.status} with a body that is not JSON`, upstreamStatus: upstream.status };
    }
  }

  /**
   * A request with a `requestId`: the answer to its earlier try when there was one (waited for while
   * the agent is on it), else the agent's, kept for its next try. The browser waits `timeoutMs` at
   * most (then 504), the proxy `lateAnswerMs` (see ProxyOptions).
   */
  async function answerOnce(c: ProxyContext, store: ReplayStore, key: string, content: string, body: string): Promise<Response> {
    // Twice at most: an earlier try that gave no answer lets this one claim the request.
    for (let round = 0; round < 2; round++) {
      const earlier = await store.claim(key, content, timeoutMs + 1_000);
      if (!earlier) {
        const asked = askAgent(body, Math.max(timeoutMs, lateAnswerMs));
        const kept = asked.then((got) => store.settle(key, content, got.fail === undefined && got.status < 300 ? got : undefined));
        c.var.ctx?.waitUntil(kept);
        const got = await within(asked, timeoutMs);
        return got === LATE ? stillWaiting(c) : respond(c, got);
      }
      const answer = await within(earlier.answer, timeoutMs);
      if (answer === LATE) return stillWaiting(c);
      if (answer) {
        c.var.line.replayed = true;
        c.header('Agent-Chat-Replayed', '1');
        return respond(c, answer);
      }
    }
    return respond(c, await askAgent(body, timeoutMs));
  }

  /**
   * A 504 while the agent is still on the request: with `Retry-After`, which tells the widget that
   * its next try is safe (it gets the answer kept for it, or waits for it), so it tries again by itself.
   */
  function stillWaiting(c: ProxyContext) {
    c.header('Retry-After', '1');
    return respond(c, { fail: 504, error: `${tooLate}; its answer is kept for the next try` });
  }

  /** The agent's answer, its status and JSON body unchanged; or the failure, in the upstream's shape. */
  function respond(c: ProxyContext, asked: Asked) {
    if (asked.upstreamStatus !== undefined || asked.fail === undefined) c.var.line.upstreamStatus = asked.upstreamStatus ?? asked.status;
    if (asked.fail !== undefined) return fail(c, asked.fail, asked.error);
    return c.body(asked.body, asked.status as 200, { 'Content-Type': 'application/json; charset=utf-8' });
  }
  return async (request, env, ctx) => {
    if (ctx) contexts.set(request, ctx);
    return app.fetch(request, env);
  };
}

const isTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError';

/** `promise`'s value, or LATE if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(resolve, ms, LATE)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
