// `npm run load`: drives the proxy in front of the reference agent on 127.0.0.1 at high concurrency
// for a fixed time, and reports throughput, latency percentiles, errors (must be 0) and the memory
// of this process (proxy + agent) before and after. Bounded: LOAD_SECONDS (10) × LOAD_CONNECTIONS (100).
import autocannon from 'autocannon';
import { listen } from '../../src/server/node/serve.js';
import { numberFrom } from '../support/env.mjs';
import { createProxy } from '../../src/server/proxy/index.js';
import { createReferenceAgent, DEMO_FLOW } from '../../src/server/reference-agent/index.js';

const SECONDS = numberFrom('LOAD_SECONDS', 10, { min: 1, max: 60 });
const CONNECTIONS = numberFrom('LOAD_CONNECTIONS', 100, { min: 1, max: 500 });
const SENDERS = 1000;
const token = 'load-test-fake-token';

const agent = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { load: token } }));
// Rate limiting off: one client address sends everything here, and the limiter is not what is measured.
const proxy = await listen(createProxy({
  upstreamUrl: agent.url, handle: 'load', token, allowedOrigins: '*', rateLimitPerMinute: 0, log: () => {},
}));

const memory = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const texts = ['pricing', 'plans', 'hello', 'who am i', 'something else entirely'];
let counter = 0;

const before = memory();
const result = await autocannon({
  url: `${proxy.url}/`,
  connections: CONNECTIONS,
  duration: SECONDS,
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: 'https://load.example' },
  requests: [{
    setupRequest: (request) => {
      const n = counter++;
      return { ...request, body: JSON.stringify({ message: { text: texts[n % texts.length] }, sender: { id: `sender-${n % SENDERS}` } }) };
    },
  }],
});
const after = memory();
await proxy.close();
await agent.close();

const errors = result.errors + result.timeouts + result.non2xx;
console.log(`proxy → reference agent on 127.0.0.1, ${CONNECTIONS} connections for ${SECONDS} s`);
console.log(`  requests:   ${result.requests.total} (${Math.round(result.requests.average)} / s)`);
console.log(`  latency:    p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
console.log(`  errors:     ${errors} (errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`);
console.log(`  memory:     rss ${mb(before.rss)} → ${mb(after.rss)}, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}`);
process.exitCode = errors === 0 && result.requests.total > 0 ? 0 : 1;
