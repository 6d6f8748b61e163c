/**
 * `npm start`: the whole thing on loopback in one command. Starts the local reference agent (or,
 * with AGENT_API_URL / AGENT_HANDLE / AGENT_API_TOKEN set, uses that real deployment instead),
 * the proxy in front of it at /chat, and the demo site, then prints the one URL to open.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listen, type RunningServer } from '../src/server/node/serve.js';
import { ConfigError, createProxy, readProxyEnv, type FetchHandler } from '../src/server/proxy/index.js';
import { createReferenceAgent, DEMO_FLOW } from '../src/server/reference-agent/index.js';
import { launcherSnippet, launcherStyleHash } from '../src/shell/launcher-snippet.js';

// serveStatic resolves roots against the working directory.
const fromCwd = (path: string) => relative(process.cwd(), fileURLToPath(new URL(path, import.meta.url))) || '.';

/**
 * A strict policy, as a careful host page would set: no inline script or style, no eval, Trusted
 * Types enforced (Lit's and DOMPurify's policies are the only ones).
 */
export const DEMO_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' https: data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
  "require-trusted-types-for 'script'", "trusted-types lit-html dompurify",
].join('; ');

/** A plain page whose launcher is drawn by the HTML itself; the script comes last and takes over. */
const launcherFirstPage = (snippet: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>agent-chat: the launcher before any script</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <main>
      <h1>The launcher before any script</h1>
      <p>View the source: the launcher is markup in the page (a declarative shadow root), shown with the page's
        first paint; the script at the end takes it over.</p>
    </main>
    <agent-chat proxy-url="/chat">${snippet}</agent-chat>
    <script type="module" src="/dist/agent-chat.js"></script>
  </body>
</html>
`;

export interface Demo {
  url: string;
  /** The upstream the proxy forwards to (the reference agent, unless a real deployment is set). */
  upstreamUrl: string;
  close(): Promise<void>;
}

export async function startDemo({ port = 8080, host = '127.0.0.1', env = process.env, quiet = false } = {}): Promise<Demo> {
  const servers: RunningServer[] = [];
  let upstream: { upstreamUrl: string; handle: string; token: string };
  if (env.AGENT_API_URL) {
    const config = readProxyEnv({ ALLOWED_ORIGINS: '*', ...env });
    upstream = { upstreamUrl: config.upstreamUrl, handle: config.handle, token: config.token };
  } else {
    // A throwaway credential for this run: the reference agent and the proxy share it, nobody else.
    // (End-to-end tests pass a known fake one to prove it never reaches the browser.)
    const token = env.REFERENCE_AGENT_TOKEN ?? `local-demo-token-${randomUUID()}`;
    const agent = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { demo: token } }), { host });
    servers.push(agent);
    upstream = { upstreamUrl: agent.url, handle: 'demo', token };
  }

  let proxy: FetchHandler | undefined;
  const site = new Hono();
  const styleHash = await launcherStyleHash();
  site.all('/chat', (c) => proxy!(c.req.raw, c.env));
  site.use('*', async (c, next) => {
    await next();
    // embed.html loads the widget twice on purpose (two copies of Lit, so two "lit-html" policies).
    const csp = c.req.path === '/embed.html' ? DEMO_CSP.replace('dompurify', "dompurify 'allow-duplicates'")
      : c.req.path === '/launcher-first.html' ? DEMO_CSP.replace("style-src 'self'", `style-src 'self' ${styleHash}`) : DEMO_CSP;
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
  });
  // The launcher in the page before any script, as a server renders it (README, "The launcher before
  // any script"): the snippet in the page's language, its style allowed by hash.
  site.get('/launcher-first.html', (c) => c.html(launcherFirstPage(launcherSnippet({ language: 'en' }))));
  site.use('/dist/*', serveStatic({ root: fromCwd('../'), onNotFound: () => undefined }));
  site.use('*', serveStatic({ root: fromCwd('./') }));

  const running = await listen(site.fetch, { port, host });
  servers.push(running);
  const origin = new URL(running.url).origin;
  proxy = createProxy({
    ...upstream,
    path: '/chat',
    allowedOrigins: [origin, origin.replace('127.0.0.1', 'localhost')],
    rateLimitPerMinute: 120,
    log: quiet ? () => {} : undefined,
  });
  return {
    url: `${running.url}/`,
    upstreamUrl: upstream.upstreamUrl,
    close: async () => {
      await Promise.all(servers.map((s) => s.close(1000)));
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const demo = await startDemo({ port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? '127.0.0.1', quiet: process.env.QUIET === '1' });
    const against = process.env.AGENT_API_URL ? `your deployment at ${demo.upstreamUrl}` : `the local reference agent at ${demo.upstreamUrl}`;
    console.log(`\n  agent-chat demo (talking to ${against})\n\n  Open ${demo.url}\n\n  Ctrl+C stops it.\n`);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`agent-chat demo: ${error.message}`);
      process.exit(2);
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`agent-chat demo: port ${process.env.PORT ?? 8080} is in use; try PORT=8081 npm start`);
      process.exit(2);
    }
    throw error;
  }
}
