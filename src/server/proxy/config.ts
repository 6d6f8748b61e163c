/** Configuration of the proxy, and reading it from the environment (CONTRACT §3). */
import { trustingProxies } from './client-address.js';
import { ConfigError } from './config-error.js';

export interface ProxyConfig {
  /** The agent service's base URL; requests go to `{upstreamUrl}/api/events`. */
  upstreamUrl: string;
  handle: string;
  token: string;
  /** Origins allowed to call the proxy from a browser, or `'*'` for any. */
  allowedOrigins: readonly string[] | '*';
  /** Upstream timeout in milliseconds. */
  timeoutMs?: number;
  /** Requests per minute per client address and per sender id; 0 turns limiting off. */
  rateLimitPerMinute?: number;
  /**
   * Proxies in front of this one (addresses, CIDR ranges, `loopback`, `private`) whose
   * `Forwarded` / `X-Forwarded-For` headers name the client; nobody else's are read.
   */
  trustedProxies?: readonly string[];
  /** Largest accepted body in bytes. */
  maxBodyBytes?: number;
  /** Log message text too (never the token). For debugging only. */
  debug?: boolean;
}

/** Where the CLI keeps rate-limit counters shared by several instances. */
export interface SharedLimitConfig {
  /** `redis://…`: counters in Redis (the `redis` package must be installed). */
  redisUrl?: string;
  /** While Redis is unreachable: let requests through (`open`, default) or refuse them (`closed`). */
  rateLimitOnOutage?: 'open' | 'closed';
}

export { ConfigError };

type Env = Record<string, string | undefined>;

function required(env: Env, name: string, hint: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is not set: ${hint}`);
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  }
  return Number(raw);
}

/** A URL as a message may show it: without the user name and password it may hold. */
const withoutCredentials = (raw: string) => raw.replace(/\/\/[^/]*@/, '//…@');

/** `raw` parsed, or undefined where it is no URL. */
function urlOf(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function httpUrl(name: string, raw: string): string {
  const url = urlOf(raw);
  if (!url) throw new ConfigError(`${name} must be an http(s) URL such as https://agents.example.com, not "${withoutCredentials(raw)}"`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must use http or https, not ${url.protocol}`);
  // fetch refuses such a URL: every request failed as "could not be reached".
  if (url.username || url.password) throw new ConfigError(`${name} must not hold a user name or password (the token goes in AGENT_API_TOKEN)`);
  // The endpoint is `{base}/api/events`: after a query or a fragment that is not its path.
  if (/[?#]/.test(raw)) throw new ConfigError(`${name} must be the service's base URL, without a query (?) or fragment (#)`);
  if (/\/api\/events\/*$/.test(url.pathname)) throw new ConfigError(`${name} must be the service's base URL, without /api/events (the proxy adds it)`);
  return url.href.replace(/\/+$/, '');
}

/**
 * The token as it goes after "Bearer " in the Authorization header. A value that cannot (a line
 * break from a pasted file, spaces) made every request fail as "could not be reached", and one given
 * with its scheme went as "Bearer Bearer …". Its characters are never put in the message.
 */
function bearerToken(raw: string): string {
  if (/^bearer\s/i.test(raw)) throw new ConfigError('AGENT_API_TOKEN must be the token alone, without "Bearer " (the proxy adds it)');
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('AGENT_API_TOKEN must be the token alone, one word of visible characters: it has spaces, line breaks or other characters an Authorization header cannot carry');
  }
  return raw;
}

function origins(raw: string): readonly string[] | '*' {
  if (raw === '*') return '*';
  return raw.split(',').map((entry) => {
    const trimmed = entry.trim();
    const url = urlOf(trimmed);
    const shown = withoutCredentials(trimmed);
    if (!url) throw new ConfigError(`ALLOWED_ORIGINS: "${shown}" is not an origin such as https://www.example.com`);
    // An origin is matched whole: a wildcard would match no page, and every request be refused.
    if (trimmed.includes('*')) {
      throw new ConfigError(`ALLOWED_ORIGINS: "${shown}" has a wildcard, which matches no page: list each origin (https://www.example.com,https://shop.example.com), or give * alone for any`);
    }
    if (url.origin === 'null' || url.href.replace(/\/$/, '') !== url.origin) {
      throw new ConfigError(`ALLOWED_ORIGINS: "${shown}" must be a bare origin (scheme://host[:port]), without a path`);
    }
    return url.origin;
  });
}

export interface ListenConfig {
  port: number;
  host: string;
}

function trustedProxies(env: Env, rateLimitPerMinute: number): string[] | undefined {
  const raw = env.TRUSTED_PROXIES?.trim();
  if (!raw) return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  trustingProxies(list); // throws for an entry that is not a range, or one that trusts everyone
  if (rateLimitPerMinute === 0) {
    throw new ConfigError('TRUSTED_PROXIES is set but RATE_LIMIT_PER_MINUTE=0 turns off the per-address limit it is for: unset one of them');
  }
  return list;
}

function sharedLimit(env: Env, rateLimitPerMinute: number): SharedLimitConfig {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  const outage = env.RATE_LIMIT_ON_OUTAGE?.trim() || undefined;
  if (redisUrl && !(/^rediss?:\/\/./.test(redisUrl) && urlOf(redisUrl))) {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, not "${withoutCredentials(redisUrl)}"`);
  }
  if (outage && outage !== 'open' && outage !== 'closed') throw new ConfigError(`RATE_LIMIT_ON_OUTAGE must be open or closed, not "${outage}"`);
  if (outage && !redisUrl) throw new ConfigError('RATE_LIMIT_ON_OUTAGE is set but REDIS_URL is not: it says what to do while Redis is down');
  // With the limit off, Redis still keeps what makes a request tried again reach the agent once ("Sent once").
  if (outage && rateLimitPerMinute === 0) {
    throw new ConfigError('RATE_LIMIT_ON_OUTAGE is set but RATE_LIMIT_PER_MINUTE=0 turns rate limiting off: unset one of them');
  }
  return redisUrl ? { redisUrl, rateLimitOnOutage: (outage as 'open' | 'closed' | undefined) ?? 'open' } : {};
}

/** PROXY_DEBUG: on or off, and nothing else (a "yes" left it off without a word). */
function debug(raw: string | undefined): boolean {
  if (!raw || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`PROXY_DEBUG must be 1 (or true) to log message text, or 0 (or false), not "${raw}"`);
}

/** Reads proxy and listen settings; throws a ConfigError that names the first bad setting. */
export function readProxyEnv(env: Env): ProxyConfig & ListenConfig & SharedLimitConfig {
  const rateLimitPerMinute = integer(env, 'RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000);
  return {
    ...sharedLimit(env, rateLimitPerMinute),
    upstreamUrl: httpUrl('AGENT_API_URL', required(env, 'AGENT_API_URL', "the agent service's base URL")),
    handle: required(env, 'AGENT_HANDLE', "the deployment's handle (identifier)"),
    token: bearerToken(required(env, 'AGENT_API_TOKEN', "the deployment's API token")),
    allowedOrigins: origins(required(env, 'ALLOWED_ORIGINS', 'comma-separated origins allowed to call the proxy, or *')),
    port: integer(env, 'PORT', 8787, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    timeoutMs: integer(env, 'AGENT_TIMEOUT_MS', 15_000, 100, 600_000),
    rateLimitPerMinute,
    trustedProxies: trustedProxies(env, rateLimitPerMinute),
    debug: debug(env.PROXY_DEBUG?.trim()),
  };
}
