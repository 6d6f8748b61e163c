/**
 * Settings the proxy refuses, each with the message that names it: the CLI stops on each (exit 2,
 * one line: test/server/cli.test.ts), and `readProxyEnv` throws it (test/server/config.test.ts).
 * Changed from `SETTINGS`, a whole valid environment.
 */

/** A token only tests use; it must never reach an output. */
export const TOKEN = 'fake-cli-token-not-a-secret';

/** A whole valid environment (the upstream URL aside). */
export const SETTINGS = (upstreamUrl: string) => ({
  AGENT_API_URL: upstreamUrl, AGENT_HANDLE: 'cli-handle', AGENT_API_TOKEN: TOKEN, ALLOWED_ORIGINS: 'https://shop.example', PORT: '0',
});

export const BAD_SETTINGS: [string, Record<string, string | undefined>, RegExp][] = [
  ['AGENT_API_URL missing', { AGENT_API_URL: undefined }, /AGENT_API_URL is not set/],
  ['AGENT_API_URL not a URL', { AGENT_API_URL: 'agents.example' }, /AGENT_API_URL must be an http\(s\) URL/],
  ['AGENT_HANDLE missing', { AGENT_HANDLE: undefined }, /AGENT_HANDLE is not set/],
  ['AGENT_API_TOKEN missing', { AGENT_API_TOKEN: undefined }, /AGENT_API_TOKEN is not set/],
  ['ALLOWED_ORIGINS missing', { ALLOWED_ORIGINS: undefined }, /ALLOWED_ORIGINS is not set/],
  ['ALLOWED_ORIGINS with a path', { ALLOWED_ORIGINS: 'https://shop.example/page' }, /must be a bare origin/],
  ['PORT not a number', { PORT: 'eighty' }, /PORT must be a whole number/],
  ['AGENT_TIMEOUT_MS out of range', { AGENT_TIMEOUT_MS: '5' }, /AGENT_TIMEOUT_MS must be a whole number from 100/],
  ['TRUSTED_PROXIES not addresses', { TRUSTED_PROXIES: 'the load balancer' }, /TRUSTED_PROXIES: "the load balancer" is not an IP address/],
  ['TRUSTED_PROXIES trusting everyone', { TRUSTED_PROXIES: '0.0.0.0/0' }, /TRUSTED_PROXIES: "0.0.0.0\/0" trusts every address/],
  ['TRUSTED_PROXIES with the limit off', { TRUSTED_PROXIES: 'private', RATE_LIMIT_PER_MINUTE: '0' }, /TRUSTED_PROXIES is set but RATE_LIMIT_PER_MINUTE=0/],
  ['REDIS_URL not a redis URL', { REDIS_URL: 'localhost:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
  ['RATE_LIMIT_ON_OUTAGE with the limit off', { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ON_OUTAGE: 'closed' }, /RATE_LIMIT_ON_OUTAGE is set but RATE_LIMIT_PER_MINUTE=0/],
  ['RATE_LIMIT_ON_OUTAGE without REDIS_URL', { RATE_LIMIT_ON_OUTAGE: 'closed' }, /RATE_LIMIT_ON_OUTAGE is set but REDIS_URL is not/],
  ['RATE_LIMIT_ON_OUTAGE neither open nor closed', { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_ON_OUTAGE: 'maybe' }, /RATE_LIMIT_ON_OUTAGE must be open or closed/],
  // A wildcard never matches a browser's Origin: every request would be refused (403).
  ['ALLOWED_ORIGINS with a wildcard', { ALLOWED_ORIGINS: 'https://*.shop.example' }, /ALLOWED_ORIGINS: "https:\/\/\*\.shop\.example" has a wildcard/],
  // A token that cannot go in an Authorization header made every request fail with 502 "could
  // not be reached"; one given with its scheme went as "Bearer Bearer …" (401 from the service).
  ['AGENT_API_TOKEN with a line break', { AGENT_API_TOKEN: `${TOKEN}\nsecond-line` }, /^agent-chat-proxy: AGENT_API_TOKEN must be the token alone, one word of visible characters/],
  // Credentials in a URL never reach the output. fetch refuses a URL that holds them: every request failed (502).
  ['AGENT_API_URL with credentials', { AGENT_API_URL: 'https://ada:s3cret-pass@agents.example' }, /^agent-chat-proxy: AGENT_API_URL must not hold a user name or password \(the token goes in AGENT_API_TOKEN\)$/],
  ['REDIS_URL with a port that is not a number', { REDIS_URL: 'redis://:s3cret-pass@cache.internal:sixty' }, /^agent-chat-proxy: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, not "redis:\/\/…@cache.internal:sixty"$/],
  // `{base}/api/events` after a query or a fragment is not that path: every request went to the base.
  ['AGENT_API_URL with a query', { AGENT_API_URL: 'https://agents.example/?region=eu' }, /^agent-chat-proxy: AGENT_API_URL must be the service's base URL, without a query \(\?\) or fragment \(#\)$/],
  ['AGENT_API_URL with a fragment', { AGENT_API_URL: 'https://agents.example/#v2' }, /AGENT_API_URL must be the service's base URL, without a query/],
  ['AGENT_API_URL with the endpoint\'s path', { AGENT_API_URL: 'https://agents.example/api/events/' }, /^agent-chat-proxy: AGENT_API_URL must be the service's base URL, without \/api\/events \(the proxy adds it\)$/],
  ['ALLOWED_ORIGINS with credentials', { ALLOWED_ORIGINS: 'https://ada:s3cret-pass@shop.example' }, /ALLOWED_ORIGINS: "https:\/\/…@shop.example" must be a bare origin/],
  ['PROXY_DEBUG neither on nor off', { PROXY_DEBUG: 'yes' }, /PROXY_DEBUG must be 1 \(or true\) to log message text, or 0 \(or false\), not "yes"/],
  ['AGENT_API_TOKEN with its scheme', { AGENT_API_TOKEN: `Bearer ${TOKEN}` }, /AGENT_API_TOKEN must be the token alone.*without "Bearer "/],
];
