// The per-address rate limit needs the visitor's address on every runtime, and must never take it
// from a header an arbitrary client wrote (CONTRACT §3: 429 per client address and per sender).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { ConfigError, createProxy, peerAddress, trustingProxies } from '../../src/server/proxy/index.js';
import { fakeUpstream } from './support/servers.js';

const request = (headers: Record<string, string> = {}) => new Request('http://proxy.test/', { method: 'POST', headers });
const node = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const bun = (address: string) => ({ requestIP: () => ({ address, family: 'IPv4', port: 5555 }) });
const deno = (hostname: string) => ({ remoteAddr: { transport: 'tcp', hostname, port: 5555 } });

describe('client address: the connecting peer on each runtime', () => {
  it('reads Node, Bun and Deno peers from what each passes to a Fetch handler', () => {
    assert.equal(peerAddress(request(), node('203.0.113.7')), '203.0.113.7');
    assert.equal(peerAddress(request(), bun('203.0.113.8')), '203.0.113.8');
    assert.equal(peerAddress(request(), deno('203.0.113.9')), '203.0.113.9');
  });

  it('a runtime that has no address for the peer (Bun on a Unix socket, a Node request without a socket) gives none', () => {
    assert.equal(peerAddress(request(), { requestIP: () => null }), undefined);
    assert.equal(peerAddress(request(), { incoming: {} }), undefined);
  });

  it('on Cloudflare Workers, takes CF-Connecting-IP, which the edge sets itself', () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
    try {
      assert.equal(peerAddress(request({ 'CF-Connecting-IP': '198.51.100.4' }), {}), '198.51.100.4');
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });

  it('elsewhere never reads a header: a client cannot choose its address', () => {
    const spoofed = request({ 'X-Forwarded-For': '1.2.3.4', Forwarded: 'for=1.2.3.4', 'CF-Connecting-IP': '1.2.3.4' });
    assert.equal(peerAddress(spoofed, node('203.0.113.7')), '203.0.113.7');
    assert.equal(peerAddress(spoofed, {}), undefined);
  });
});

describe('client address: trusted proxies', () => {
  const behindBalancer = trustingProxies(['10.0.0.0/8', 'loopback']);

  const cases: [string, Record<string, string>, object, string | undefined][] = [
    ['a trusted balancer naming the client in X-Forwarded-For', { 'X-Forwarded-For': '203.0.113.5' }, node('10.1.2.3'), '203.0.113.5'],
    ['a chain: the nearest untrusted hop is the client, not what it claims', { 'X-Forwarded-For': '6.6.6.6, 203.0.113.5, 10.9.9.9' }, node('10.1.2.3'), '203.0.113.5'],
    ['RFC 7239 Forwarded, IPv6 with port', { Forwarded: 'for="[2001:db8::1]:4711";proto=https, for=10.0.0.2' }, node('::ffff:127.0.0.1'), '2001:db8::1'],
    ['an untrusted peer: its headers are ignored', { 'X-Forwarded-For': '1.2.3.4' }, node('198.51.100.9'), '198.51.100.9'],
    ['a trusted peer without headers is the client', {}, node('10.1.2.3'), '10.1.2.3'],
    ['an unreadable hop stops the walk at the last trusted one', { 'X-Forwarded-For': '203.0.113.5, unknown' }, node('10.1.2.3'), '10.1.2.3'],
    ['every hop trusted: the first one', { 'X-Forwarded-For': '10.0.0.7, 10.0.0.8' }, node('10.1.2.3'), '10.0.0.7'],
    ['Bun behind the balancer', { 'X-Forwarded-For': '203.0.113.6' }, bun('10.0.0.1'), '203.0.113.6'],
    ['Deno behind the balancer', { 'X-Forwarded-For': '203.0.113.7' }, deno('127.0.0.1'), '203.0.113.7'],
    // Some balancers add the client's port to X-Forwarded-For; RFC 7239 quotes an address with one.
    ['an IPv4 client with its port, in X-Forwarded-For', { 'X-Forwarded-For': '203.0.113.5:52341' }, node('10.1.2.3'), '203.0.113.5'],
    ['RFC 7239 Forwarded, IPv4 with port', { Forwarded: 'for="192.0.2.43:47011"' }, node('10.1.2.3'), '192.0.2.43'],
    ['RFC 7239 Forwarded, IPv6 without port', { Forwarded: 'for="[2001:db8:cafe::17]"' }, node('10.1.2.3'), '2001:db8:cafe::17'],
    ['RFC 7239 Forwarded, its pairs spaced', { Forwarded: 'proto=https; for=203.0.113.8' }, node('10.1.2.3'), '203.0.113.8'],
    ['an IPv6 client whose last groups are digits (not a port)', { 'X-Forwarded-For': '2001:db8::1234:5678' }, node('10.1.2.3'), '2001:db8::1234:5678'],
    ['a runtime with no peer address: none, whatever the headers', { 'X-Forwarded-For': '203.0.113.5' }, {}, undefined],
  ];
  for (const [what, headers, context, expected] of cases) {
    it(what, () => assert.equal(behindBalancer(request(headers), context), expected));
  }

  it('takes entries with spaces around them, as a list written by hand has', () => {
    assert.equal(trustingProxies([' 10.0.0.0/8 ', ' loopback'])(request({ 'X-Forwarded-For': '203.0.113.5' }), node('10.1.2.3')), '203.0.113.5');
  });

  it('refuses entries that are not ranges, or that trust every address', () => {
    assert.throws(() => trustingProxies(['balancer.internal']), ConfigError);
    assert.throws(() => trustingProxies(['0.0.0.0/0']), /trusts every address/);
    assert.throws(() => trustingProxies(['::/0']), /trusts every address/);
  });

  it('createProxy takes clientAddress or trustedProxies, not both', () => {
    const config = { upstreamUrl: 'http://127.0.0.1:9', handle: 'h', token: 't', allowedOrigins: '*' as const };
    assert.throws(() => createProxy({ ...config, trustedProxies: ['private'], clientAddress: () => 'x' }), /not both/);
  });
});

describe('client address: over HTTP behind a trusted balancer', () => {
  let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  let proxy: RunningServer;
  before(async () => {
    upstream = await fakeUpstream();
    proxy = await listen(createProxy({
      upstreamUrl: upstream.url, handle: 'h', token: 'fake-token-not-a-secret', allowedOrigins: '*', rateLimitPerMinute: 2,
      trustedProxies: ['loopback'], log: () => undefined,
    }));
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('limits each visitor behind the balancer on their own, not everyone by the balancer', async () => {
    const send = (client: string, sender: string) => fetch(`${proxy.url}/`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': client },
      body: JSON.stringify({ message: { text: 'hi' }, sender: { id: sender } }),
    }).then((r) => r.status);
    const a = [await send('203.0.113.1', 'a1'), await send('203.0.113.1', 'a2'), await send('203.0.113.1', 'a3')];
    const b = await send('203.0.113.2', 'b1');
    assert.deepEqual(a, [200, 200, 429], 'the third request from one visitor is over their limit');
    assert.equal(b, 200, 'another visitor behind the same balancer is not');
  });
});
