/**
 * The framework examples as a user would build them: the package packed with `npm pack`, each
 * example's own dependencies installed from the npm registry, the tarball installed over the
 * workspace link, then `npm run build` (which type-checks the TSX / Vue templates first). Served
 * with the reference agent behind the proxy at /chat.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { createProxy } from '../../src/server/proxy/index.js';
import { createReferenceAgent, DEMO_FLOW } from '../../src/server/reference-agent/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLES = ['react-vite', 'vue-vite'] as const;

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${relative(root, cwd) || '.'}) failed:\n${result.stdout}\n${result.stderr}`);
}

/** Packs the package once; installs and builds each example. Throws with the failing step's output. */
export function buildExamples() {
  const packDir = mkdtempSync(join(tmpdir(), 'agent-chat-pack-'));
  run('npm', ['pack', '--pack-destination', packDir], root);
  const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
  for (const example of EXAMPLES) {
    const dir = `${root}examples/${example}`;
    run('npm', ['install', '--no-audit', '--no-fund'], dir);
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', tarball], dir);
    run('npm', ['run', 'build'], dir);
  }
}

/** Serves a built example at / with the reference agent behind the proxy at /chat. */
export async function serveExample(example: string): Promise<{ url: string; close: () => Promise<void> }> {
  const token = `example-token-${Math.random().toString(36).slice(2)}`;
  const servers: RunningServer[] = [];
  const agent = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { demo: token } }));
  servers.push(agent);
  let proxy: ReturnType<typeof createProxy> | undefined;
  const site = new Hono();
  site.all('/chat', (c) => proxy!(c.req.raw, c.env));
  site.use('*', serveStatic({ root: relative(process.cwd(), `${root}examples/${example}/dist`) || '.' }));
  const running = await listen(site.fetch);
  servers.push(running);
  proxy = createProxy({
    upstreamUrl: agent.url, handle: 'demo', token, path: '/chat', allowedOrigins: [new URL(running.url).origin], log: () => undefined,
  });
  return { url: `${running.url}/`, close: async () => void (await Promise.all(servers.map((s) => s.close(1000)))) };
}
