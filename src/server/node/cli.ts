/**
 * `agent-chat-proxy`: serves the proxy at `/` of PORT, configured by the environment (CONTRACT §3):
 * AGENT_API_URL, AGENT_HANDLE, AGENT_API_TOKEN, ALLOWED_ORIGINS, PORT, HOST, AGENT_TIMEOUT_MS,
 * RATE_LIMIT_PER_MINUTE, TRUSTED_PROXIES, PROXY_DEBUG.
 */
const SERVER_PACKAGES = 'hono @hono/node-server zod ipaddr.js';

// The server's packages are optional peers (a site that only embeds the widget does not install
// them): loaded here, so that their absence is said plainly instead of as a module stack trace.
let modules;
try {
  modules = await Promise.all([import('../proxy/config.js'), import('../proxy/create-proxy.js'), import('./serve.js')]);
} catch (error) {
  if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error(`agent-chat-proxy: the proxy needs its server packages; install them with\n  npm install ${SERVER_PACKAGES}\n(${(error as Error).message})`);
  process.exit(2);
}
const [{ ConfigError, readProxyEnv }, { createProxy }, { closeOnSignals, listen }] = modules;

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
export {};
