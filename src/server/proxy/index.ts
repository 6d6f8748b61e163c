/** The proxy for edge, serverless and Node runtimes: `createProxy(config)` is a Fetch handler. */
export { createProxy, type FetchHandler, type ProxyHandler, type ProxyOptions, type WaitUntil } from './create-proxy.js';
export { ConfigError, readProxyEnv, type ListenConfig, type ProxyConfig, type SharedLimitConfig } from './config.js';
export { peerAddress, trustingProxies, type ClientAddress } from './client-address.js';
export { MemoryRateLimitStore, type RateLimitHit, type RateLimitStore } from './rate-limit.js';
export {
  RateLimitUnavailableError, redisRateLimitStore, type RedisEvalClient, type RedisRateLimitStoreOptions,
} from './redis-store.js';
export { ReplayMemory, type Answer, type Earlier, type ReplayOptions, type ReplayStore } from './replay.js';
export { redisReplayStore, type RedisReplayStoreOptions } from './redis-replay.js';
export { jsonLogger, type RequestLogger, type RequestLogLine } from './request-log.js';
