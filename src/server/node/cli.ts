/**
 * `agent-chat-proxy`: serves the proxy at `/` of PORT, configured by the environment (CONTRACT §3):
 * AGENT_API_URL, AGENT_HANDLE, AGENT_API_TOKEN, ALLOWED_ORIGINS, PORT, HOST, AGENT_TIMEOUT_MS,
 * RATE_LIMIT_PER_MINUTE, TRUSTED_PROXIES, PROXY_DEBUG.
 */
import { ConfigError, readProxyEnv } from '../proxy/config.js';
import { createProxy } from '../proxy/create-proxy.js';
import { closeOnSignals, listen } from './serve.js';

try {
  const config = readProxyEnv(process.env);
  const running = await listen(createProxy(config), config);
  closeOnSignals([running]);
  console.error(`agent-chat-proxy: listening on ${running.url}/ → ${config.upstreamUrl}/api/events (handle ${config.handle})`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`agent-chat-proxy: ${error.message}`);
  process.exit(2);
}
