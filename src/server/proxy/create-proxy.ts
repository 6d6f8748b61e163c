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
import { jsonLogger, shortHash, type RequestLogger, type RequestLogLine } from './request-log.js';

/** A Fetch-API handler; `env` is whatever the runtime passes (Node: `{ incoming, outgoing }`). */
export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

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
}

type Variables = { line: RequestLogLine };
type ProxyContext = Context<{ Variables: Variables }>;


const fail = (c: ProxyContext, status: 400 | 403 | 405 | 413 | 415 | 429 | 502 | 503 | 504, error: string) => {
  c.var.line.error = error;
  return c.json({ status: 'error', error }, status);
};

/**
 * The token-holding proxy (CONTRACT §3): validates a browser's event request, adds the handle and
 * the token, forwards it to `{upstreamUrl}/api/events`, and returns the upstream's status and body.
 */
export function createProxy(options: ProxyOptions): FetchHandler {
  const {
    path = '/', upstreamUrl, handle, token, allowedOrigins, timeoutMs = 15_000, rateLimitPerMinute = 60,
    maxBodyBytes = LIMITS.bodyBytes, debug = false, log = jsonLogger, trustedProxies,
  } = options;
  if (options.clientAddress && trustedProxies) {
    throw new ConfigError('Give clientAddress or trustedProxies, not both: trustedProxies is a way to build a clientAddress');
  }
  const clientAddress = options.clientAddress ?? (trustedProxies ? trustingProxies(trustedProxies) : peerAddress);
  const upstreamFetch = options.fetch ?? globalThis.fetch;
  const rateLimits = options.rateLimitStore ?? new MemoryRateLimitStore();
  const endpoint = `${upstreamUrl.replace(/\/+$/, '')}/api/events`;
  const isAllowedOrigin = (origin: string) => allowedOrigins === '*' || allowedOrigins.includes(origin);

  const app = new Hono<{ Variables: Variables }>();

  // Every request gets one log line, written after the response is known.
  app.use('*', async (c, next) => {
    const started = performance.now();
    const line: RequestLogLine = { time: new Date().toISOString(), method: c.req.method, path: new URL(c.req.url).pathname, status: 0, ms: 0 };
    const origin = c.req.header('Origin');
    if (origin) line.origin = origin;
    c.set('line', line);
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
      return next();
    },
    bodyLimit({ maxSize: maxBodyBytes, onError: (c) => fail(c as ProxyContext, 413, `Body is larger than ${maxBodyBytes} bytes`) }),
    async (c) => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        return fail(c, 400, 'Body is not valid JSON');
      }
      if (typeof body === 'object' && body !== null && 'handle' in body) {
        return fail(c, 400, '"handle" must not be sent: the proxy adds it');
      }
      const checked = validate(clientEventRequestSchema, body);
      if (!checked.ok) return fail(c, 400, `Invalid request: ${checked.error}`);
      const request = checked.value;
      if (request.sender) c.var.line.sender = await shortHash(request.sender.id);
      if (debug && request.message.text) c.var.line.text = request.message.text;
      const limited = await overLimit(c, request.sender ? `sender:${request.sender.id}` : undefined);
      if (limited) return limited;
      return forward(c, JSON.stringify({ ...request, handle }));
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

  async function forward(c: ProxyContext, body: string) {
    let upstream: Response;
    try {
      upstream = await upstreamFetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        return fail(c, 504, `The agent service did not answer within ${timeoutMs} ms`);
      }
      return fail(c, 502, 'The agent service could not be reached');
    }
    c.var.line.upstreamStatus = upstream.status;
    let text: string;
    try {
      text = await upstream.text();
      JSON.parse(text);
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        return fail(c, 504, `The agent service did not answer within ${timeoutMs} ms`);
      }
      return fail(c, 502, `The agent service answered HTTP ${upstream.status} with a body that is not JSON`);
    }
    // The upstream's JSON, unchanged, with its status.
    return c.body(text, upstream.status as 200, { 'Content-Type': 'application/json; charset=utf-8' });
  }

  return async (request, env) => app.fetch(request, env);
}
