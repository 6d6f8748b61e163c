import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { createProxy, type ProxyOptions, type RateLimitStore, type RequestLogLine } from '../../src/server/proxy/index.js';
import { openapi } from './support/openapi.js';
import { answerJson, closedPort, fakeUpstream, OK_BODY } from './support/servers.js';

const TOKEN = 'fake-test-token-not-a-secret-0123456789';
const HANDLE = 'test-handle';
const ORIGIN = 'https://shop.example';
const logs: RequestLogLine[] = [];
const responsesSeen: string[] = [];

async function startProxy(upstreamUrl: string, overrides: Partial<ProxyOptions> = {}): Promise<RunningServer> {
  return listen(createProxy({
    upstreamUrl, handle: HANDLE, token: TOKEN, allowedOrigins: [ORIGIN], timeoutMs: 2000, rateLimitPerMinute: 1000,
    log: (line) => logs.push(line), ...overrides,
  }));
}

/** fetch over real HTTP; records every response (status line, headers, body) for the token audit. */
async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  responsesSeen.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as { status: string; error?: string } };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** POSTs `body` chunked (no Content-Length: the proxy counts it as it streams), 1,000 characters a write; records the response as `call` does. */
const postChunked = (url: string, body: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
  const req = httpRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: ORIGIN } }, (res) => {
    let text = '';
    res.on('data', (d) => (text += d));
    res.on('end', () => {
      responsesSeen.push(text);
      resolve({ status: res.statusCode!, body: text });
    });
  });
  req.on('error', reject);
  for (let at = 0; at < body.length; at += 1000) req.write(body.slice(at, at + 1000));
  req.end();
});

const validBody = { message: { text: 'hello' }, sender: { id: 'visitor-1', name: 'Ada' }, language: 'EN' };

describe('proxy over HTTP', () => {
  let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  let proxy: RunningServer;

  before(async () => {
    upstream = await fakeUpstream();
    proxy = await startProxy(upstream.url);
  });
  beforeEach(() => upstream.behave(answerJson(200, OK_BODY)));
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('answers GET with a health status', async () => {
    const { status, json } = await call(`${proxy.url}/`);
    assert.equal(status, 200);
    assert.deepEqual(json, { status: 'ok' });
  });

  it('adds handle and bearer token, drops unknown fields, and returns the upstream answer unchanged', async () => {
    upstream.calls.length = 0;
    const { status, json } = await post(`${proxy.url}/`, { ...validBody, debugMe: true, sender: { ...validBody.sender, admin: true } }, { Cookie: 'session=abc' });
    assert.equal(status, 200);
    assert.deepEqual(json, OK_BODY);
    const [forwarded] = upstream.calls;
    assert.equal(forwarded.url, '/api/events');
    assert.equal(forwarded.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(forwarded.headers.cookie, undefined, 'cookies are not forwarded');
    assert.deepEqual(forwarded.body, { ...validBody, handle: HANDLE });
    assert.deepEqual(openapi.eventRequest(forwarded.body), [], 'forwarded body matches the OpenAPI EventRequest');
  });

  it('forwards to {upstreamUrl}/api/events also when the URL given ends in one slash or more', async () => {
    for (const ending of ['/', '//']) {
      const slashed = await startProxy(`${upstream.url}${ending}`);
      try {
        upstream.calls.length = 0;
        assert.equal((await post(`${slashed.url}/`, validBody)).status, 200, ending);
        assert.equal(upstream.calls[0].url, '/api/events', ending);
      } finally {
        await slashed.close();
      }
    }
  });

  it('forwards tag operations that only add, only remove, or both', async () => {
    for (const tagOperations of [{ add: ['vip'] }, { remove: ['new'] }, { add: ['vip'], remove: ['new'] }]) {
      upstream.calls.length = 0;
      const { status } = await post(`${proxy.url}/`, { ...validBody, tagOperations });
      assert.equal(status, 200, JSON.stringify(tagOperations));
      assert.deepEqual(upstream.calls[0].body, { ...validBody, tagOperations, handle: HANDLE });
    }
  });

  it('forwards any Unix time in ms the contract allows, a fraction of a millisecond included (CONTRACT: `timestamp` is a number)', async () => {
    for (const timestamp of [0, 1764720000000, 1764720000000.25]) {
      upstream.calls.length = 0;
      const { status } = await post(`${proxy.url}/`, { ...validBody, timestamp });
      assert.equal(status, 200, String(timestamp));
      assert.deepEqual(upstream.calls[0].body, { ...validBody, timestamp, handle: HANDLE });
    }
  });

  it('forwards every optional field of the contract at an ordinary size: a language with subtags, contexts, an action postback, an email', async () => {
    const bodies = [
      { ...validBody, language: 'de-AT' },
      { ...validBody, language: 'zh-Hant-TW' },
      { ...validBody, language: 'pt_BR' },
      { message: { text: 'hello', contexts: ['pricing'] }, sender: { id: 'visitor-1', name: 'Ada', email: 'ada@example.com' } },
      { message: { payload: { type: 'action', data: { actions: [{ type: 'add-tag', tag: 'vip' }] } } }, sender: { id: 'visitor-1' } },
    ];
    for (const body of bodies) {
      upstream.calls.length = 0;
      const { status, json } = await post(`${proxy.url}/`, body);
      assert.equal(status, 200, `${JSON.stringify(body)}: ${json.error}`);
      assert.deepEqual(upstream.calls[0].body, { ...body, handle: HANDLE });
    }
  });

  it('passes upstream error statuses and bodies through', async () => {
    for (const [status, error] of [[401, 'Invalid token'], [403, 'Unknown principal'], [500, 'Internal']] as const) {
      upstream.behave(answerJson(status, { status: 'error', error }));
      const response = await post(`${proxy.url}/`, validBody);
      assert.equal(response.status, status);
      assert.deepEqual(response.json, { status: 'error', error });
    }
  });

  const invalid: [string, unknown, RegExp][] = [
    ['neither text nor payload', { message: {} }, /exactly one of "text" or "payload"/],
    ['both text and payload', { message: { text: 'a', payload: { type: 'node', data: 'x' } } }, /exactly one/],
    ['no message', { sender: { id: 'x' } }, /"message" is required/],
    ['text of the wrong type', { message: { text: 5 } }, /"message.text" must be a string/],
    ['over-long text', { message: { text: 'x'.repeat(2001) } }, /"message.text" must be at most 2000 characters/],
    ['an unknown postback type', { message: { payload: { type: 'url', data: 'x' } } }, /"message.payload.type" must be one of/],
    ['a malformed language', { message: { text: 'a' }, language: 'english please' }, /"language" must be a language code/],
    ['too many tags', { message: { text: 'a' }, tagOperations: { add: Array.from({ length: 21 }, (_, i) => `t${i}`) } }, /"tagOperations.add" must have at most 20 items/],
    ['tag operations that neither add nor remove', { message: { text: 'a' }, tagOperations: {} }, /"tagOperations" needs "add" or "remove"/],
    ['a negative timestamp', { message: { text: 'a' }, timestamp: -1 }, /^Invalid request: "timestamp" must be at least 0$/],
    ['a timestamp that is not a number', { message: { text: 'a' }, timestamp: '2026-12-03' }, /^Invalid request: "timestamp" must be a number$/],
    ['an empty sender id', { message: { text: 'a' }, sender: { id: '' } }, /"sender.id" must not be empty/],
    ['a language subtag of one letter', { message: { text: 'a' }, language: 'de-A' }, /"language" must be a language code/],
    ['a language subtag of nine letters', { message: { text: 'a' }, language: 'de-ABCDEFGHI' }, /"language" must be a language code/],
    ['too many contexts', { message: { text: 'a', contexts: Array.from({ length: 21 }, (_, i) => `c${i}`) } }, /"message.contexts" must have at most 20 items/],
    ['too many actions in a postback', { message: { payload: { type: 'action', data: { actions: Array.from({ length: 21 }, () => ({ type: 'x' })) } } } }, /"message.payload.data.actions" must have at most 20 items/],
    ['an email over 254 characters', { message: { text: 'a' }, sender: { id: 's', email: `${'a'.repeat(250)}@b.cd` } }, /"sender.email" must be at most 254 characters/],
    ['a client-chosen handle', { ...validBody, handle: 'someone-else' }, /"handle" must not be sent/],
    ['not an object', [1, 2], /"body" must be an object/],
    ['invalid JSON', '{"message": ', /not valid JSON/],
  ];
  for (const [what, body, message] of invalid) {
    it(`answers 400 for ${what}, without calling the upstream`, async () => {
      upstream.calls.length = 0;
      const { status, json } = await post(`${proxy.url}/`, body);
      assert.equal(status, 400);
      assert.equal(json.status, 'error');
      assert.match(json.error!, message);
      assert.deepEqual(openapi.errorResponse(json), []);
      assert.equal(upstream.calls.length, 0);
    });
  }

  it('handles deeply nested JSON: refused at the root, stripped where it is not part of the contract', async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const atRoot = await post(`${proxy.url}/`, deep(5000));
    assert.equal(atRoot.status, 400);
    assert.match(atRoot.json.error!, /"body" must be an object/);

    upstream.calls.length = 0;
    const inside = await post(`${proxy.url}/`, `{"message":{"text":"hi"},"options":{"x":${deep(5000)}},"extra":${deep(2000)}}`);
    assert.equal(inside.status, 200);
    assert.deepEqual(upstream.calls[0].body, { message: { text: 'hi' }, options: {}, handle: HANDLE }, 'nesting dropped, not forwarded');
    assert.equal((await call(`${proxy.url}/`)).status, 200, 'still up');
  });

  it('refuses a client Authorization header and never forwards it', async () => {
    upstream.calls.length = 0;
    const { status, json } = await post(`${proxy.url}/`, validBody, { Authorization: 'Bearer stolen' });
    assert.equal(status, 400);
    assert.match(json.error!, /no Authorization header/);
    assert.equal(upstream.calls.length, 0);
  });

  it('answers 404 in its own shape for any other path, naming the chat endpoint', async () => {
    for (const path of ['/api/events', '/admin', '/favicon.ico']) {
      const { status, json } = await call(`${proxy.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: ORIGIN }, body: JSON.stringify(validBody) });
      assert.equal(status, 404, path);
      assert.deepEqual(json, { status: 'error', error: 'Not found: the chat endpoint is /' });
    }
  });

  it('answers 405 with Allow for other methods', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const { status, headers, json } = await call(`${proxy.url}/`, { method, headers: { Origin: ORIGIN } });
      assert.equal(status, 405, method);
      assert.equal(headers.get('allow'), 'GET, POST, OPTIONS');
      assert.match(json.error!, /use POST/);
    }
  });

  it('answers 415 when the body is not declared as JSON (another type that names JSON in it too), and takes JSON with parameters', async () => {
    for (const type of ['text/plain', 'application/json-patch+json', 'application/jsonl', 'text/x-application/json', 'text/plain; note=application/json']) {
      const { status, json } = await post(`${proxy.url}/`, JSON.stringify(validBody), { 'Content-Type': type });
      assert.equal(status, 415, type);
      assert.match(json.error!, /application\/json/);
    }
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/json ;charset=utf-8']) {
      assert.equal((await post(`${proxy.url}/`, JSON.stringify(validBody), { 'Content-Type': type })).status, 200, type);
    }
  });

  it('answers 413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ message: { text: 'x'.repeat(20_000) } });
    const declared = await post(`${proxy.url}/`, big);
    assert.equal(declared.status, 413);
    assert.match(declared.json.error!, /larger than 16384 bytes/);

    // chunked, no Content-Length: the limit must hold while streaming
    const streamed = await postChunked(`${proxy.url}/`, 'x'.repeat(40_000));
    assert.equal(streamed.status, 413);
  });

  it('takes a body of exactly the limit, declared or streamed, and refuses one byte more', async () => {
    // A valid request padded with the whitespace JSON allows after its value.
    const sized = (bytes: number) => { const json = JSON.stringify(validBody); return json + ' '.repeat(bytes - json.length); };
    assert.equal((await post(`${proxy.url}/`, sized(16_384))).status, 200, 'declared: 16,384 bytes taken');
    assert.equal((await post(`${proxy.url}/`, sized(16_385))).status, 413, 'declared: 16,385 bytes refused');
    assert.equal((await postChunked(`${proxy.url}/`, sized(16_384))).status, 200, 'streamed: 16,384 bytes taken');
    assert.equal((await postChunked(`${proxy.url}/`, sized(16_385))).status, 413, 'streamed: 16,385 bytes refused');
  });

  it('after a 413 for a large body, answers the client\'s next request: on the same connection when the length was declared', async () => {
    // Two megabytes, more than the Node adapter could drain once the body's stream was made: it
    // closed the connection half a second after its 413 (which said keep-alive), and the next
    // request on it failed with ECONNRESET. Sent chunked, the rest of the body is not read: the 413
    // says the connection closes, and the next request goes on a new one.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (body: string, chunked = false) => new Promise<{ status: number; socket: unknown; body: string; connection?: string }>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/`, {
        method: 'POST', agent, headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...(chunked ? {} : { 'Content-Length': Buffer.byteLength(body) }) },
      }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket, body: text, connection: res.headers.connection }));
      });
      req.on('error', reject);
      if (chunked) for (let at = 0; at < body.length; at += 10_000) req.write(body.slice(at, at + 10_000));
      req.end(chunked ? undefined : body);
    });
    const large = JSON.stringify({ message: { text: 'x'.repeat(2_000_000) } });
    try {
      const refused = await send(large);
      assert.equal(refused.status, 413);
      assert.match(refused.body, /larger than 16384 bytes/);
      let next = await send(JSON.stringify(validBody));
      assert.equal(next.status, 200);
      assert.equal(next.socket, refused.socket, 'the same connection');

      const streamed = await send(large, true);
      assert.equal(streamed.status, 413);
      assert.equal(streamed.connection, 'close');
      next = await send(JSON.stringify(validBody));
      assert.equal(next.status, 200);
      responsesSeen.push(refused.body, streamed.body, next.body);
    } finally {
      agent.destroy();
    }
  });

  it('answers preflight for allowed origins and 403 for others', async () => {
    const preflight = await call(`${proxy.url}/`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);

    const allowed = await post(`${proxy.url}/`, validBody);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ORIGIN);
    // A page on another origin reads Retry-After (a 429's, a 503's, a kept request's 504) and
    // Agent-Chat-Replayed only so.
    assert.equal(allowed.headers.get('access-control-expose-headers'), 'Retry-After,Agent-Chat-Replayed');

    const evil = await post(`${proxy.url}/`, validBody, { Origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    assert.match(evil.json.error!, /Origin https:\/\/evil.example is not allowed/);
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
  });

  it('allows any origin when configured with *', async () => {
    const open = await startProxy(upstream.url, { allowedOrigins: '*' });
    try {
      const response = await post(`${open.url}/`, validBody, { Origin: 'https://anywhere.example' });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('access-control-expose-headers'), 'Retry-After,Agent-Chat-Replayed');
    } finally {
      await open.close();
    }
  });

  it('answers 502 when the upstream is down or answers non-JSON, and 504 when it hangs; the log line names what the upstream answered', async () => {
    const down = await startProxy(`http://127.0.0.1:${await closedPort()}`);
    const hanging = await startProxy(upstream.url, { timeoutMs: 150 });
    try {
      const unreachable = await post(`${down.url}/`, validBody);
      assert.equal(unreachable.status, 502);
      assert.match(unreachable.json.error!, /could not be reached/);
      assert.equal('upstreamStatus' in logs.at(-1)!, false, 'its log line: nothing answered');

      upstream.behave((_c, res) => res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>Bad gateway</html>'));
      const html = await post(`${proxy.url}/`, validBody);
      assert.equal(html.status, 502);
      assert.match(html.json.error!, /HTTP 502 with a body that is not JSON/);
      assert.deepEqual([logs.at(-1)!.status, logs.at(-1)!.upstreamStatus], [502, 502], 'its log line: what the proxy answered, and what the agent service did');

      upstream.behave(() => { /* never answers */ });
      const timedOut = await post(`${hanging.url}/`, validBody);
      assert.equal(timedOut.status, 504);
      assert.match(timedOut.json.error!, /did not answer within 150 ms/);

      // Its status line and headers come, its body never does: a timeout too, not a body that is not JSON.
      upstream.behave((_c, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"status":'));
      const cutShort = await post(`${hanging.url}/`, validBody);
      assert.equal(cutShort.status, 504);
      assert.match(cutShort.json.error!, /did not answer within 150 ms/);
      assert.deepEqual([logs.at(-1)!.status, logs.at(-1)!.upstreamStatus], [504, 200], 'its log line: the status the agent service began its answer with');
    } finally {
      await down.close();
      await hanging.close();
    }
  });

  it('rate-limits per sender and per client address with 429 and Retry-After', async () => {
    const limited = await startProxy(upstream.url, { rateLimitPerMinute: 3 });
    try {
      const bySender = [];
      for (let i = 0; i < 4; i++) bySender.push(await post(`${limited.url}/`, { ...validBody, sender: { id: 'chatty' } }));
      assert.deepEqual(bySender.map((r) => r.status), [200, 200, 200, 429]);
      const retryAfter = Number(bySender[3].headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.match(bySender[3].json.error!, /at most 3 a minute/);
      // the address has now used 4 of its 3: a different sender from the same address is limited too
      const sameAddress = await post(`${limited.url}/`, { ...validBody, sender: { id: 'someone-else' } });
      assert.equal(sameAddress.status, 429);
    } finally {
      await limited.close();
    }
  });

  it('limits a sender on its own, also when its requests come from many addresses (a phone moving between networks, or a script)', async () => {
    const limited = await startProxy(upstream.url, { rateLimitPerMinute: 2, clientAddress: (request) => request.headers.get('X-Test-Client') ?? undefined });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post(`${limited.url}/`, { ...validBody, sender: { id: 'roaming' } }, { 'X-Test-Client': `192.0.2.${i}` })).status);
      assert.deepEqual(statuses, [200, 200, 429], 'each address is within its limit; the sender is not');
      const other = await post(`${limited.url}/`, { ...validBody, sender: { id: 'someone-else' } }, { 'X-Test-Client': '192.0.2.9' });
      assert.equal(other.status, 200, 'another sender is not limited by it');
    } finally {
      await limited.close();
    }
  });

  it('a rate-limit store that fails unexpectedly gives a 500 in the proxy\'s shape, logged by the error\'s name, and the proxy stays up', async () => {
    const broken: RateLimitStore = { hit: () => Promise.reject(new TypeError('a bug in the store')) };
    const lines: RequestLogLine[] = [];
    const failing = await startProxy(upstream.url, { rateLimitStore: broken, log: (line) => lines.push(line) });
    try {
      upstream.calls.length = 0;
      const { status, json } = await post(`${failing.url}/`, validBody);
      assert.equal(status, 500);
      assert.deepEqual(json, { status: 'error', error: 'The proxy failed unexpectedly' });
      assert.equal(lines.at(-1)!.error, 'internal: TypeError', 'named, without its message');
      assert.equal(upstream.calls.length, 0, 'nothing forwarded');
      assert.equal((await call(`${failing.url}/`)).status, 200, 'still up');
    } finally {
      await failing.close();
    }
  });

  it('a limit of 0 is off: neither a sender nor an address is ever limited', async () => {
    const unlimited = await startProxy(upstream.url, { rateLimitPerMinute: 0 });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await post(`${unlimited.url}/`, { ...validBody, sender: { id: 'chatty' } })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    } finally {
      await unlimited.close();
    }
  });

  it('shares limits between instances through a swapped-in store (as a Redis-backed one would)', async () => {
    const windows = new Map<string, { count: number; resetAt: number }>();
    const shared: RateLimitStore = {
      async hit(key, windowMs) {
        const now = Date.now();
        const current = windows.get(key);
        const window = current && current.resetAt > now ? current : { count: 0, resetAt: now + windowMs };
        window.count++;
        windows.set(key, window);
        return { ...window };
      },
    };
    const a = await startProxy(upstream.url, { rateLimitPerMinute: 2, rateLimitStore: shared });
    const b = await startProxy(upstream.url, { rateLimitPerMinute: 2, rateLimitStore: shared });
    try {
      const body = { ...validBody, sender: { id: 'roaming' } };
      const statuses = [(await post(`${a.url}/`, body)).status, (await post(`${b.url}/`, body)).status, (await post(`${a.url}/`, body)).status];
      assert.deepEqual(statuses, [200, 200, 429], 'the third request, on either instance, is over the shared limit');
      assert.ok(windows.has('sender:roaming'));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes one log line per request with hashed sender and no message text', async () => {
    const before = logs.length;
    const sent = performance.now();
    await post(`${proxy.url}/`, { ...validBody, sender: { id: 'visitor-log' } });
    const took = performance.now() - sent;
    assert.equal(logs.length, before + 1, 'one line');
    const line = logs[before];
    assert.equal(line.method, 'POST');
    assert.equal(line.status, 200);
    assert.equal(line.upstreamStatus, 200);
    assert.equal(line.origin, ORIGIN);
    // The first 12 hex digits of SHA-256, as the README says, so that an operator finds a visitor's
    // lines from their id (`printf %s "$id" | sha256sum | cut -c1-12`).
    const sha256 = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 12);
    assert.equal(line.sender, sha256('visitor-log'));
    assert.equal(line.client, sha256('127.0.0.1'), 'the client address, hashed');
    assert.ok(!JSON.stringify(line).includes('127.0.0.1'), 'the address is hashed');
    assert.ok(line.ms >= 0 && line.ms <= Math.ceil(took), `ms ${line.ms}: how long the proxy took, within the ${took.toFixed(1)} ms the client waited`);
    assert.ok(!JSON.stringify(line).includes('visitor-log'), 'sender id is hashed');
    assert.ok(!JSON.stringify(line).includes('hello'), 'no message text');
  });

  it('logs no origin and no client for a request without them (a health check from a script, a runtime that gives no address)', async () => {
    const lines: RequestLogLine[] = [];
    const anonymous = await startProxy(upstream.url, { clientAddress: () => undefined, log: (line) => lines.push(line) });
    try {
      await call(`${anonymous.url}/`);
      await call(`${anonymous.url}/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(validBody) });
      assert.deepEqual(lines.map((line) => [line.status, 'origin' in line, 'client' in line]), [[200, false, false], [200, false, false]]);
    } finally {
      await anonymous.close();
    }
  });

  it('logs message text only with debug on', async () => {
    const debugLogs: RequestLogLine[] = [];
    const debugging = await startProxy(upstream.url, { debug: true, log: (l) => debugLogs.push(l) });
    try {
      await post(`${debugging.url}/`, validBody);
      assert.equal(debugLogs[0].text, 'hello');
    } finally {
      await debugging.close();
    }
  });

  it('is still up and healthy after all of the above', async () => {
    assert.equal((await call(`${proxy.url}/`)).status, 200);
  });

  it('never puts the token in a response, a header or a log line', () => {
    assert.ok(responsesSeen.length > 20, `audited ${responsesSeen.length} responses`);
    for (const response of responsesSeen) assert.ok(!response.includes(TOKEN), `token in response: ${response.slice(0, 200)}`);
    for (const line of logs) assert.ok(!JSON.stringify(line).includes(TOKEN), 'token in a log line');
  });
});
