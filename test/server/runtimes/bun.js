// The proxy under Bun, as the README's recipe runs it: Bun passes the server, whose requestIP gives
// the client's address.
import { createProxy, readProxyEnv } from '../../../dist/server/proxy.js';

const config = readProxyEnv(process.env);
const proxy = createProxy(config);
const server = Bun.serve({ port: config.port, hostname: config.host, fetch: (request, server) => proxy(request, server) });
console.log(`listening on ${server.port}`);
