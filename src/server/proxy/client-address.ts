/**
 * Whose request is this? The visitor's address, for the per-address rate limit, found the same way
 * on every runtime: the connecting peer's address as the runtime hands it to a Fetch handler, and
 * forwarding headers only when that peer is a proxy the operator said to trust.
 */
import ipaddr from 'ipaddr.js';
import { ConfigError } from './config-error.js';

/** Finds the client's address; `context` is what the runtime passes next to the request. */
export type ClientAddress = (request: Request, context: unknown) => string | undefined;

type Peer = {
  incoming?: { socket?: { remoteAddress?: string } };
  requestIP?: (request: Request) => { address?: string } | null;
  remoteAddr?: { hostname?: string };
};

/**
 * The connecting peer, per runtime: Node (`@hono/node-server` passes `{ incoming }`), Bun
 * (`fetch(request, server)`: `server.requestIP`), Deno (`Deno.serve((request, info))`:
 * `info.remoteAddr`), Cloudflare Workers (the edge sets `CF-Connecting-IP` itself and overwrites a
 * client's). Elsewhere: unknown, and only the per-sender limit applies.
 */
export function peerAddress(request: Request, context: unknown): string | undefined {
  const peer = (context ?? {}) as Peer;
  const node = peer.incoming?.socket?.remoteAddress;
  if (typeof node === 'string') return node;
  if (typeof peer.requestIP === 'function') return peer.requestIP(request)?.address ?? undefined;
  if (typeof peer.remoteAddr?.hostname === 'string') return peer.remoteAddr.hostname;
  if (globalThis.navigator?.userAgent === 'Cloudflare-Workers') return request.headers.get('CF-Connecting-IP') ?? undefined;
  return undefined;
}

/** Names for common ranges in `trustedProxies`. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRanges(entries: readonly string[]): Range[] {
  return entries.flatMap((raw) => {
    const entry = raw.trim();
    if (NAMED_RANGES[entry]) return NAMED_RANGES[entry].map((cidr) => ipaddr.parseCIDR(cidr));
    const cidr = entry.includes('/') ? entry : `${entry}/${ipaddr.IPv4.isValid(entry) ? 32 : 128}`;
    if (!ipaddr.isValidCIDR(cidr)) {
      throw new ConfigError(`TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range (10.0.0.0/8) or loopback / private`);
    }
    const range = ipaddr.parseCIDR(cidr);
    if (range[1] === 0) {
      throw new ConfigError(`TRUSTED_PROXIES: "${entry}" trusts every address, so any client could choose the address it is limited by`);
    }
    return [range];
  });
}

/** `192.0.2.1`, `"[2001:db8::1]:4711"`, `::ffff:10.0.0.1` → a comparable address, or undefined. */
function parseAddress(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let value = raw.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  return ipaddr.isValid(value) ? ipaddr.process(value) : undefined;
}

/** The forwarding chain, client first: RFC 7239 `Forwarded: for=…`, else `X-Forwarded-For`. */
function forwardedChain(headers: Headers): string[] {
  const forwarded = headers.get('Forwarded');
  if (forwarded) {
    return forwarded.split(',').flatMap((element) => {
      const pair = element.split(';').map((p) => p.trim()).find((p) => /^for=/i.test(p));
      return pair ? [pair.slice(4)] : [];
    });
  }
  return (headers.get('X-Forwarded-For') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * A `ClientAddress` that believes forwarding headers only from `trustedProxies` (addresses, CIDR
 * ranges, `loopback`, `private`): when the peer is trusted, the chain is walked from the nearest hop
 * back, skipping trusted hops, and the first address not trusted is the client. A peer that is not
 * trusted is the client, whatever headers it sends. Throws a ConfigError for an entry that is not a
 * range, or one that trusts everything.
 */
export function trustingProxies(trustedProxies: readonly string[]): ClientAddress {
  const ranges = parseRanges(trustedProxies);
  const isTrusted = (address: ipaddr.IPv4 | ipaddr.IPv6) => ranges.some(([net, bits]) => address.kind() === net.kind() && address.match(net, bits));
  return (request, context) => {
    const peer = peerAddress(request, context);
    const parsedPeer = peer === undefined ? undefined : parseAddress(peer);
    if (!parsedPeer || !isTrusted(parsedPeer)) return peer;
    let nearest = parsedPeer.toString();
    for (const hop of forwardedChain(request.headers).map(parseAddress).reverse()) {
      if (!hop) return nearest; // a hop we cannot read ("unknown"): stop at the last one we vouch for
      nearest = hop.toString();
      if (!isTrusted(hop)) return nearest;
    }
    return nearest;
  };
}
