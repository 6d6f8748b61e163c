/**
 * "Sent once" (src/server/proxy/replay.ts): a request the widget tries again (its `requestId` the
 * same) reaches the agent once, over real HTTP on loopback: the next try gets the agent's answer to
 * the first, also when it comes while the agent is still on it, and after the browser got its 504.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import type { ServerResponse } from 'node:http';
import { createProxy, ReplayMemory, type Answer, type ProxyOptions, type ReplayStore, type RequestLogLine } from '../../src/server/proxy/index.js';
import { activeTimers, answerJson, fakeUpstream, numberedAnswers as numbered } from './support/servers.js';

const ORIGIN = 'https://shop.example';
const logs: RequestLogLine[] = [];

type Upstream = Awaited<ReturnType<typeof fakeUpstream>>;

function startProxy(upstream: Upstream, overrides: Partial<ProxyOptions> = {}): Promise<RunningServer> {
  return listen(createProxy({
    upstreamUrl: upstream.url, handle: 'h', token: 'fake-token-not-a-secret', allowedOrigins: [ORIGIN], timeoutMs: 2000,
    rateLimitPerMinute: 1000, log: (line) => logs.push(line), ...overrides,
  }));
}

type Reply = { status: string; error?: string; result?: { responses: { options: string[] }[] } };

async function post(proxy: RunningServer, body: unknown) {
  const response = await fetch(`${proxy.url}/`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: ORIGIN }, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), replayed: response.headers.get('agent-chat-replayed'), json: (await response.json()) as Reply };
}

const ask = (text: string, requestId?: string, extra: object = {}) => ({
  ...(requestId && { requestId }), message: { text }, sender: { id: 'visitor-1' }, timestamp: Date.now(), ...extra,
});

const said = (json: Reply) => json.result?.responses[0].options[0];

describe('the proxy: a request tried again reaches the agent once', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await fakeUpstream();
  });
  after(() => upstream.close());

  it('the next try of a request answered gets the same answer, and the agent is not asked again; the id is not forwarded', async () => {
    const proxy = await startProxy(upstream);
    try {
      numbered(upstream);
      const before = upstream.calls.length;
      const first = await post(proxy, ask('Place the order', 'r-1'));
      const again = await post(proxy, ask('Place the order', 'r-1', { timestamp: Date.now() + 5_000 })); // a next page's time
      assert.equal(first.status, 200);
      assert.equal(first.replayed, null, 'the first try is answered by the agent');
      assert.deepEqual(again, { ...first, replayed: '1' }, 'the same answer, said to be one to an earlier try');
      assert.equal(upstream.calls.length - before, 1, 'the agent was asked once');
      assert.equal('requestId' in (upstream.calls.at(-1)!.body as object), false, 'requestId stays with the proxy');
      assert.equal(logs.at(-1)!.replayed, true, 'the log says it was answered from memory');
    } finally {
      await proxy.close();
    }
  });

  it('a try that comes while the agent is still on the first waits for that answer: one call, the same answer for both', async () => {
    const proxy = await startProxy(upstream);
    try {
      numbered(upstream, 300);
      const before = upstream.calls.length;
      const [first, second] = await Promise.all([post(proxy, ask('Cancel it', 'r-2')), post(proxy, ask('Cancel it', 'r-2'))]);
      assert.equal(upstream.calls.length - before, 1);
      assert.deepEqual([first.replayed, second.replayed].sort(), ['1', null], 'the try that waited gets the other\'s answer, and is told so');
      assert.deepEqual(second.json, first.json);
      assert.match(said(first.json)!, /: Cancel it$/);
    } finally {
      await proxy.close();
    }
  });

  it('past its timeout the browser gets 504 while the proxy waits on: the next try gets the agent\'s late answer, not a second call', async () => {
    const proxy = await startProxy(upstream, { timeoutMs: 150, lateAnswerMs: 5_000 });
    try {
      const answered = numbered(upstream, 600);
      const before = upstream.calls.length;
      const first = await post(proxy, ask('Book the table', 'r-3'));
      assert.equal(first.status, 504);
      assert.match(first.json.error!, /did not answer within 150 ms; its answer is kept for the next try/);
      assert.equal(first.retryAfter, '1', 'Retry-After: the next try is safe (the widget makes it by itself)');
      const tooSoon = await post(proxy, ask('Book the table', 'r-3'));
      assert.equal(tooSoon.status, 504, 'tried again while the agent is still on it: 504 again');
      assert.equal(tooSoon.retryAfter, '1');
      await answered[before];
      const late = await post(proxy, ask('Book the table', 'r-3'));
      assert.equal(late.status, 200);
      assert.match(said(late.json)!, /: Book the table$/);
      assert.equal(upstream.calls.length - before, 1, 'the agent was asked once');
    } finally {
      await proxy.close();
    }
  });

  it('a try that waits for the first while the agent fails it goes to the agent itself, and gets its answer', async () => {
    const memory = new ReplayMemory();
    // Told at each claim (a try reaching the store), so the first's failure can come once the second waits.
    let claims = 0;
    let claimed = () => {};
    const store: ReplayStore = {
      claim: (key, content) => memory.claim(key, content).finally(() => (claims++, claimed())),
      settle: (...args) => memory.settle(...args),
    };
    const proxy = await startProxy(upstream, { replay: store });
    try {
      let held: ServerResponse | undefined;
      const reached = new Promise<void>((resolve) => upstream.behave((_call, res) => ((held = res), resolve())));
      const before = upstream.calls.length;
      const first = post(proxy, ask('Pay', 'r-9'));
      await reached;
      const waiting = new Promise<void>((resolve) => (claimed = () => claims === 2 && resolve()));
      const second = post(proxy, ask('Pay', 'r-9'));
      await waiting;
      numbered(upstream);
      answerJson(503, { status: 'error', error: 'overloaded' })(upstream.calls[before], held!);
      assert.equal((await first).status, 503);
      const again = await second;
      assert.deepEqual([again.status, again.replayed], [200, null], 'answered by the agent, not from memory');
      assert.match(said(again.json)!, /: Pay$/);
      assert.equal(upstream.calls.length - before, 2, 'the agent was asked by each try once');
    } finally {
      await proxy.close();
    }
  });

  it('a store that keeps saying another try is on it, and then that it got no answer, holds no request: the second time, the proxy asks the agent', async () => {
    let claims = 0;
    const stuck: ReplayStore = {
      claim: async () => {
        if (++claims > 3) throw new Error('asked too often');
        return { answer: Promise.resolve(undefined) };
      },
      settle: () => undefined,
    };
    const proxy = await startProxy(upstream, { replay: stuck });
    try {
      numbered(upstream);
      const before = upstream.calls.length;
      const { status, json } = await post(proxy, ask('Hello', 'r-10'));
      assert.equal(status, 200);
      assert.match(said(json)!, /: Hello$/);
      assert.deepEqual([claims, upstream.calls.length - before], [2, 1]);
    } finally {
      await proxy.close();
    }
  });

  it('leaves no timer running once it has answered (a process can end; none waits out the timeout per request)', async () => {
    const direct = createProxy({
      upstreamUrl: 'http://agent.example', handle: 'h', token: 'fake-token-not-a-secret', allowedOrigins: '*', timeoutMs: 30_000, log: () => undefined,
      fetch: async () => new Response(JSON.stringify({ status: 'ok', result: { responses: [] } }), { status: 200 }),
    });
    const before = activeTimers();
    for (const requestId of ['t-1', 't-2', 't-1']) {
      const response = await direct(new Request('http://proxy.example/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ask('Hi', requestId)) }));
      assert.equal(response.status, 200);
    }
    assert.ok(activeTimers() <= before, `${activeTimers() - before} timers more than before`);
  });

  it('asks the agent again for a try that differs (another text), another sender\'s request of the same id, and a request without an id', async () => {
    const proxy = await startProxy(upstream);
    try {
      numbered(upstream);
      const before = upstream.calls.length;
      await post(proxy, ask('Hi', 'r-4'));
      await post(proxy, ask('Hello', 'r-4'));
      await post(proxy, ask('Hi', 'r-4', { sender: { id: 'visitor-2' } }));
      await post(proxy, ask('Hi'));
      await post(proxy, ask('Hi'));
      assert.equal(upstream.calls.length - before, 5);
    } finally {
      await proxy.close();
    }
  });

  it('a try that carries session tags the first did not (set by the next page) is the same request: answered from memory, said so, its tags not forwarded', async () => {
    const proxy = await startProxy(upstream);
    try {
      numbered(upstream);
      const before = upstream.calls.length;
      const first = await post(proxy, ask('Place the order', 'r-9'));
      const again = await post(proxy, ask('Place the order', 'r-9', { tagOperations: { add: ['returning'] } }));
      assert.equal(upstream.calls.length - before, 1, 'the agent heard it once');
      assert.equal(again.replayed, '1', 'the widget keeps the tags for its next request');
      assert.deepEqual(again.json, first.json);
    } finally {
      await proxy.close();
    }
  });

  it('keeps no failure: after the agent\'s 503, a body that is not JSON or any status but 2xx, the next try goes to the agent', async () => {
    const proxy = await startProxy(upstream);
    try {
      const before = upstream.calls.length;
      upstream.behave(answerJson(300, { status: 'error', error: 'not an answer' }));
      assert.equal((await post(proxy, ask('Hi', 'r-5'))).status, 300);
      upstream.behave(answerJson(503, { status: 'error', error: 'overloaded' }));
      assert.equal((await post(proxy, ask('Hi', 'r-5'))).status, 503);
      upstream.behave((_call, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>portal</html>'));
      assert.equal((await post(proxy, ask('Hi', 'r-5'))).status, 502);
      numbered(upstream);
      assert.equal((await post(proxy, ask('Hi', 'r-5'))).status, 200);
      assert.equal(upstream.calls.length - before, 4);
    } finally {
      await proxy.close();
    }
  });

  it('`replay: false` forwards every try, and its 504 has no Retry-After (the widget then leaves the next try to the visitor)', async () => {
    const proxy = await startProxy(upstream, { replay: false, timeoutMs: 100 });
    try {
      const answered = numbered(upstream);
      const before = upstream.calls.length;
      await post(proxy, ask('Hi', 'r-6'));
      await post(proxy, ask('Hi', 'r-6'));
      assert.equal(upstream.calls.length - before, 2);
      numbered(upstream, 300);
      const late = await post(proxy, ask('Hi', 'r-6'));
      assert.deepEqual([late.status, late.retryAfter], [504, null]);
      assert.match(late.json.error!, /did not answer within 100 ms$/);
      await Promise.all(answered);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a requestId that is not a string of 1 to 200 characters, saying so', async () => {
    const proxy = await startProxy(upstream);
    try {
      for (const requestId of ['', 'x'.repeat(201), 7]) {
        const { status, json } = await post(proxy, { ...ask('Hi'), requestId });
        assert.equal(status, 400);
        assert.match(json.error!, /"requestId"/);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('ReplayMemory', () => {
  const answer = (body = '{}'): Answer => ({ status: 200, body });

  it('the first try claims a request, a later one gets its answer; an answer is kept for keepMs; a request given no answer is forgotten', async () => {
    let now = 1_000;
    const memory = new ReplayMemory({ keepMs: 100, now: () => now });
    assert.equal(await memory.claim('a', 'c'), undefined, 'the first try claims it');
    const waiting = await memory.claim('a', 'c');
    assert.ok(waiting, 'a try while the agent is on it waits for its answer');
    memory.settle('a', 'c', answer('{"x":1}'));
    assert.deepEqual(await waiting.answer, answer('{"x":1}'));
    assert.deepEqual(await (await memory.claim('a', 'c'))!.answer, answer('{"x":1}'));
    assert.equal(await memory.claim('a', 'other content'), undefined, 'another content claims it anew');
    memory.settle('a', 'other content', undefined);
    assert.equal(await memory.claim('a', 'other content'), undefined, 'given no answer, forgotten: claimed anew');
    memory.settle('a', 'other content', answer());
    now += 100;
    assert.equal(await memory.claim('a', 'other content'), undefined, 'expired: claimed anew');
  });

  it('an answer settles only the try it answers: not a later try of the id with another content, not one already answered, not one forgotten meanwhile', async () => {
    const memory = new ReplayMemory();
    assert.equal(await memory.claim('a', 'Hi'), undefined);
    assert.equal(await memory.claim('a', 'Hello'), undefined, 'another content: another request (the first one\'s answer still to come)');
    const waiting = await memory.claim('a', 'Hello');
    memory.settle('a', 'Hi', answer('{"to":"Hi"}'));
    memory.settle('a', 'Hello', answer('{"to":"Hello"}'));
    assert.deepEqual(await waiting!.answer, answer('{"to":"Hello"}'), 'the try of "Hello" gets the answer to "Hello"');
    const chars = memory.chars;
    memory.settle('a', 'Hello', answer('{"to":"Hello, again"}'));
    assert.deepEqual(await (await memory.claim('a', 'Hello'))!.answer, answer('{"to":"Hello"}'), 'answered once: a second answer changes nothing');
    assert.equal(memory.chars, chars, 'nor what it counts as kept');
    const small = new ReplayMemory({ maxEntries: 10 });
    for (let i = 0; i < 11; i++) await small.claim(`k${i}`, 'c'); // over the limit: the oldest, still asked, forgotten
    small.settle('k0', 'c', answer());
    assert.equal(await small.claim('k0', 'c'), undefined, 'the answer of a request forgotten is not kept');
  });

  it('keeps as many entries and characters as its limits say; past one, the oldest go until a tenth under it', async () => {
    const byCount = new ReplayMemory({ maxEntries: 10 });
    const byChars = new ReplayMemory({ maxChars: 1_000 });
    for (let i = 0; i < 10; i++) {
      await byCount.claim(`k${i}`, 'c');
      byCount.settle(`k${i}`, 'c', answer());
      await byChars.claim(`k${i}`, 'c');
      byChars.settle(`k${i}`, 'c', answer('x'.repeat(100)));
    }
    assert.equal(byCount.size, 10, 'at its entries\' limit, nothing goes');
    assert.equal(byChars.chars, 1_000, 'at its characters\' limit, nothing goes');
    await byCount.claim('k10', 'c');
    byCount.settle('k10', 'c', answer());
    await byChars.claim('k10', 'c');
    byChars.settle('k10', 'c', answer('x'.repeat(100)));
    assert.equal(byCount.size, 9, 'past it, the oldest go until a tenth under it');
    assert.equal(byChars.chars, 900, 'past it, the oldest go until a tenth under it (characters)');
  });

  it('past a limit, the expired go first (one expiring this very moment among them), before an older request whose answer is still to come', async () => {
    let now = 1_000;
    const memory = new ReplayMemory({ maxEntries: 3, keepMs: 100, now: () => now });
    assert.equal(await memory.claim('asked', 'c'), undefined, 'the oldest: the agent still on it');
    const waiting = (await memory.claim('asked', 'c'))!;
    for (const key of ['old', 'older']) {
      await memory.claim(key, 'c');
      memory.settle(key, 'c', answer());
    }
    now += 100; // both expire now
    await memory.claim('new', 'c');
    assert.equal(memory.size, 2, 'the expired two gone');
    memory.settle('asked', 'c', answer('{"kept":true}'));
    assert.deepEqual(await waiting.answer, answer('{"kept":true}'), 'the request still asked stayed, and its try got the answer');
  });

  it('stays within its limits, the oldest going first: entries and characters', async () => {
    const byCount = new ReplayMemory({ maxEntries: 10 });
    for (let i = 0; i < 25; i++) {
      await byCount.claim(`k${i}`, 'c');
      byCount.settle(`k${i}`, 'c', answer());
    }
    assert.ok(byCount.size <= 10, `${byCount.size} entries`);
    assert.ok(await byCount.claim('k24', 'c'), 'the newest kept');
    assert.equal(await byCount.claim('k0', 'c'), undefined, 'the oldest gone');
    const byChars = new ReplayMemory({ maxChars: 1_000 });
    for (let i = 0; i < 25; i++) {
      await byChars.claim(`k${i}`, 'c');
      byChars.settle(`k${i}`, 'c', answer('x'.repeat(100)));
    }
    assert.ok(byChars.chars <= 1_000, `${byChars.chars} characters`);
    assert.ok(await byChars.claim('k24', 'c'));
    assert.equal(await byChars.claim('k0', 'c'), undefined);
  });
});

describe('the proxy on a runtime that ends a request\'s work with its response (Cloudflare Workers)', () => {
  it('hands the wait for the agent\'s late answer to `ctx.waitUntil`, so the next try still gets it', async () => {
    const upstream = await fakeUpstream();
    try {
      const answered = numbered(upstream, 300);
      const proxy = createProxy({ upstreamUrl: upstream.url, handle: 'h', token: 'fake-token-not-a-secret', allowedOrigins: '*', timeoutMs: 50, log: () => undefined });
      const request = () => new Request('http://proxy.example/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ask('Late', 'w-1')) });
      const kept: Promise<unknown>[] = [];
      const first = await proxy(request(), {}, { waitUntil: (promise) => kept.push(promise) });
      assert.equal(first.status, 504);
      assert.equal(kept.length, 1, 'one wait handed over');
      await answered[0];
      await kept[0];
      const late = await proxy(request(), {}, { waitUntil: (promise) => kept.push(promise) });
      assert.equal(late.status, 200);
      assert.equal(upstream.calls.length, 1);
    } finally {
      await upstream.close();
    }
  });
});
