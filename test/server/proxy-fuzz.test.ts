/**
 * The proxy under seeded random bad input, over real HTTP on 127.0.0.1 (bounded: a few hundred
 * requests, a few seconds): a valid request with one part of it broken (a field's type, a value out
 * of range, unknown or dangerous keys, odd text) or with a broken header. Whatever comes, it answers
 * JSON, `{status: "error", error}` with a 4xx saying what is wrong, or forwards a request the agent
 * service's OpenAPI document accepts; it never answers 5xx of its own, never pollutes prototypes,
 * and stays up. In front of the reference agent, what it forwards is answered as the service
 * would (an EventResponse of the document). `PROXY_FUZZ_SEED=n` replays a seed, `PROXY_FUZZ_LOG=1`
 * prints how many of each status came.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { createProxy } from '../../src/server/proxy/index.js';
import { createReferenceAgent, DEMO_FLOW } from '../../src/server/reference-agent/index.js';
import { numberFrom } from '../support/env.mjs';
import { pick, prng } from '../support/prng.js';
import { openapi } from './support/openapi.js';
import { fakeUpstream } from './support/servers.js';

const ORIGIN = 'https://shop.example';
const SEED = numberFrom('PROXY_FUZZ_SEED', 20261126);
const REQUESTS = 300;

const valid = () => ({
  message: { text: 'hello' },
  sender: { id: 'visitor-1', name: 'Ada', email: 'ada@example.com' },
  language: 'en',
  tagOperations: { add: ['vip'], remove: ['new'] },
  options: { includeMetadata: true },
  timestamp: 1764720000000,
});

type Random = () => number;

/** A value of any JSON type, or text hostile to some parser or log. */
function oddValue(random: Random, depth = 0): unknown {
  const kinds = ['null', 'true', 'number', 'big', 'negative', 'nan-text', 'empty', 'long', 'unicode', 'control', 'array', 'object', 'proto'];
  switch (pick(random, depth > 2 ? kinds.slice(0, 9) : kinds)) {
    case 'null': return null;
    case 'true': return true;
    case 'number': return Math.floor(random() * 100);
    case 'big': return 2 ** 53 + 2; // past the safe integers
    case 'negative': return -1;
    case 'nan-text': return 'NaN';
    case 'empty': return '';
    case 'long': return 'x'.repeat(1 + Math.floor(random() * 5000));
    case 'unicode': return '\u202e\ud83d\ude00 \u0000 \ufeff Ω';
    case 'control': return '\r\nSet-Cookie: a=b\u0007';
    case 'array': return Array.from({ length: Math.floor(random() * 4) }, () => oddValue(random, depth + 1));
    case 'object': return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, oddValue(random, depth + 1)]));
    default: return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  }
}

/**
 * Where an error names a field and a limit of its kind (`"sender.id" must be at most 64 characters`,
 * `"tagOperations.add" must have at most 20 items`), that field of `body` is of that kind: a limit
 * said of the wrong kind (a number's as "items") tells the client nothing it can fix.
 */
function limitOfItsKind(body: string, error: string): boolean {
  const said = /^Invalid request: "([^"]+)" must (?:be at most \d+ (characters)|have at most \d+ (items)|be at (?:most|least) -?[\d.e+]+$)/.exec(error);
  if (!said) return true;
  let value: unknown = JSON.parse(body);
  for (const key of said[1].split('.')) value = (value as Record<string, unknown>)?.[key];
  return said[2] ? typeof value === 'string' : said[3] ? Array.isArray(value) : typeof value === 'number';
}

/** The paths of a value's fields, for breaking one. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([key, inner]) => paths(inner, [...prefix, key]))];
}

/** `body` with the field at `path` set to `value` (or removed), or with a key added beside it. */
function broken(random: Random) {
  const body = valid() as Record<string, unknown>;
  const path = pick(random, paths(body).filter((p) => p.length > 0));
  let parent = body;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const key = path.at(-1)!;
  const how = pick(random, ['replace', 'replace', 'remove', 'add']);
  if (how === 'replace') parent[key] = oddValue(random);
  else if (how === 'remove') delete parent[key];
  else parent[pick(random, ['handle', 'extra', '__proto__', 'constructor', 'payload', key.toUpperCase()])] = oddValue(random);
  return JSON.stringify(body);
}

/** A request: mostly a broken body, sometimes broken framing or headers. */
function badRequest(random: Random): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: ORIGIN };
  const body = broken(random);
  switch (pick(random, ['body', 'body', 'body', 'body', 'truncated', 'type', 'auth', 'not-json'])) {
    case 'truncated': return { body: body.slice(0, Math.floor(random() * body.length)), headers };
    case 'type': return { body, headers: { ...headers, 'Content-Type': pick(random, ['text/plain', 'application/jsonx', 'multipart/form-data', '']) } };
    case 'auth': return { body, headers: { ...headers, Authorization: 'Bearer guessed' } };
    case 'not-json': return { body: pick(random, ['', 'null', '"text"', '42', '[]', '{', '\u0000', '{"message":{"text":"a"}}}']), headers };
    default: return { body, headers };
  }
}

describe(`proxy under random bad input (seed ${SEED}, PROXY_FUZZ_SEED=n to replay)`, () => {
  let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  let agent: RunningServer;
  let proxy: RunningServer;
  let proxyToAgent: RunningServer;
  const TOKEN = 'fake-test-token-not-a-secret-0123456789';
  const proxyTo = (upstreamUrl: string) => listen(createProxy({
    upstreamUrl, handle: 'test-handle', token: TOKEN, allowedOrigins: [ORIGIN], timeoutMs: 2000, rateLimitPerMinute: 100_000, log: () => {},
  }));

  before(async () => {
    upstream = await fakeUpstream();
    proxy = await proxyTo(upstream.url);
    agent = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { 'test-handle': TOKEN } }));
    proxyToAgent = await proxyTo(agent.url);
  });
  after(async () => {
    await Promise.all([proxy.close(), proxyToAgent.close()]);
    await Promise.all([upstream.close(), agent.close()]);
  });

  it(`answers ${REQUESTS} broken requests with a JSON error that says what is wrong, or forwards only what the agent service accepts, and stays up`, async () => {
    const random = prng(SEED);
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      const { body, headers } = badRequest(random);
      const forwardedBefore = upstream.calls.length;
      const response = await fetch(`${proxy.url}/`, { method: 'POST', headers, body });
      const text = await response.text();
      const what = `request ${i} (${JSON.stringify(headers['Content-Type'])}, ${body.slice(0, 160)}) → ${response.status} ${text.slice(0, 160)}`;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      assert.match(response.headers.get('content-type') ?? '', /application\/json/, what);
      const json = JSON.parse(text);
      if (upstream.calls.length > forwardedBefore) {
        assert.equal(response.status, 200, what);
        const forwarded = upstream.calls.at(-1)!.body;
        assert.deepEqual(openapi.eventRequest(forwarded), [], `forwarded a request the service refuses: ${what}`);
        assert.equal((forwarded as { handle?: string }).handle, 'test-handle', what);
      } else {
        assert.ok(response.status >= 400 && response.status < 500, what);
        assert.equal(json.status, 'error', what);
        assert.equal(typeof json.error, 'string', what);
        assert.ok(json.error.length > 8, what);
        assert.ok(limitOfItsKind(body, json.error), `a limit said of the wrong kind of value: ${what}`);
        assert.deepEqual(openapi.errorResponse(json), [], what);
      }
      assert.equal(({} as { polluted?: boolean }).polluted, undefined, `prototype polluted after ${what}`);
    }
    if (process.env.PROXY_FUZZ_LOG) console.log(JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > REQUESTS / 3, `mostly refused as invalid: ${JSON.stringify([...statuses])}`);
    const health = await fetch(`${proxy.url}/`);
    assert.equal(health.status, 200, 'still up');
  });

  it('in front of the reference agent: every request answered with a reply the service could send, or a JSON 4xx; no 5xx', async () => {
    const random = prng(SEED + 1);
    for (let i = 0; i < REQUESTS / 3; i++) {
      const { body, headers } = badRequest(random);
      const response = await fetch(`${proxyToAgent.url}/`, { method: 'POST', headers, body });
      const text = await response.text();
      const what = `request ${i} (${body.slice(0, 160)}) → ${response.status} ${text.slice(0, 160)}`;
      const json = JSON.parse(text);
      if (response.status === 200) assert.deepEqual(openapi.eventResponse(json), [], what);
      else {
        assert.ok(response.status >= 400 && response.status < 500, what);
        assert.deepEqual(openapi.errorResponse(json), [], what);
      }
    }
    assert.equal((await fetch(`${agent.url}/`)).status < 500, true, 'the agent still up');
  });
});
