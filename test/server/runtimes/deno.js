// The proxy under Deno, as the README's recipe runs it: Deno passes `info`, whose remoteAddr is the
// client's address.
import { createProxy, readProxyEnv } from '../../../dist/server/proxy.js';

const config = readProxyEnv(Deno.env.toObject());
const proxy = createProxy(config);
Deno.serve({ port: config.port, hostname: config.host, onListen: ({ port }) => console.log(`listening on ${port}`) }, (request, info) => proxy(request, info));
