// The proxy as a Cloudflare Worker (served by workerd through `wrangler dev --local`), as the
// README's recipe runs it: settings arrive per request in `env`; the handler is made once; `ctx`
// lets the proxy wait on for an agent's late answer after its 504 ("Sent once").
import { createProxy, readProxyEnv } from '../../../dist/server/proxy.js';

let proxy;
export default {
  fetch(request, env, ctx) {
    proxy ??= createProxy(readProxyEnv(env));
    return proxy(request, env, ctx);
  },
};
