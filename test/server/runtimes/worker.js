// The proxy as a Cloudflare Worker (served by workerd through `wrangler dev --local`), as the
// README's recipe runs it: settings arrive per request in `env`; the handler is made once.
import { createProxy, readProxyEnv } from '../../../dist/server/proxy.js';

let proxy;
export default {
  fetch(request, env) {
    proxy ??= createProxy(readProxyEnv(env));
    return proxy(request, env);
  },
};
