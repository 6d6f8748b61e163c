/**
 * `agent-chat-proxy`: serves the proxy at `/` of PORT, configured by the environment (CONTRACT §3):
 * AGENT_API_URL, AGENT_HANDLE, AGENT_API_TOKEN, ALLOWED_ORIGINS, PORT, HOST, AGENT_TIMEOUT_MS,
 * RATE_LIMIT_PER_MINUTE, TRUSTED_PROXIES, REDIS_URL, RATE_LIMIT_ON_OUTAGE, PROXY_DEBUG.
 */
import type { ListenConfig } from '../proxy/config.js';
import type { RateLimitStore } from '../proxy/rate-limit.js';
import type { ReplayStore } from '../proxy/replay.js';

const SERVER_PACKAGES = 'hono @hono/node-server zod ipaddr.js';

// The server's packages are optional peers (a site that only embeds the widget does not install
// them): loaded here, so that their absence is said plainly instead of as a module stack trace.
let modules;
try {
  modules = await Promise.all([
    import('../proxy/config.js'), import('../proxy/create-proxy.js'), import('./serve.js'), import('../proxy/redis-store.js'),
    import('../proxy/redis-replay.js'),
  ]);
} catch (error) {
  if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(`agent-chat-proxy: the proxy needs its server packages; install them with\n  npm install ${SERVER_PACKAGES}\n(${(error as Error).message})`);
  process.exit(2);
}
const [{ ConfigError, readProxyEnv }, { createProxy }, { closeOnSignals, listen }, { redisRateLimitStore }, { redisReplayStore }] = modules;

/** Counters, and the requests answered ("Sent once"), in Redis, shared by every instance given the same REDIS_URL. */
async function redisStores(url: string, onOutage: 'open' | 'closed'): Promise<{ rateLimitStore: RateLimitStore; replay: ReplayStore }> {
  let redis;
  try {
    redis = await import('redis');
  } catch {
    throw new ConfigError('REDIS_URL is set but the redis package is not installed: npm install redis');
  }
  // No offline queue: while Redis is down a command fails at once and the store fails open or
  // closed, instead of requests waiting. Errors are reported by the store, once per outage.
  const client = redis.createClient({ url, disableOfflineQueue: true });
  client.on('error', () => undefined);
  void client.connect().catch(() => undefined); // keeps reconnecting in the background
  return { rateLimitStore: redisRateLimitStore(client, { onOutage }), replay: redisReplayStore(client) };
}

/** A failure to listen that the settings explain, said as a ConfigError naming the setting; any other error as it is. */
function cannotListen(error: NodeJS.ErrnoException, { host, port }: ListenConfig) {
  const why = {
    EADDRINUSE: 'the port is in use (PORT)',
    EACCES: 'not allowed to use this port (PORT; those below 1024 need privileges)',
    ENOTFOUND: 'no such host (HOST)',
    EAI_AGAIN: 'no such host (HOST)',
    EADDRNOTAVAIL: 'not an address of this machine (HOST)',
  }[error.code ?? ''];
  return why ? new ConfigError(`cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${why}`) : error;
}

try {
  const config = readProxyEnv(process.env);
  const stores = config.redisUrl ? await redisStores(config.redisUrl, config.rateLimitOnOutage ?? 'open') : undefined;
  const running = await listen(createProxy({ ...config, ...stores }), config).catch((error) => {
    throw cannotListen(error, config);
  });
  closeOnSignals([running]);
  console.error(`agent-chat-proxy: listening on ${running.url}/ → ${config.upstreamUrl}/api/events (handle ${config.handle})`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`agent-chat-proxy: ${error.message}`);
  process.exit(2);
}
export {};
