/** A real redis-server on a free loopback port, started and stopped by the test (Debian: redis-server). */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { createClient } from 'redis';
import type { FetchHandler } from '../../../src/server/proxy/index.js';
import { listen, type RunningServer } from '../../../src/server/node/serve.js';
import { fakeUpstream } from './servers.js';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Why Redis tests cannot run here, or undefined when they can. */
export const redisMissing = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0
  ? undefined
  : 'redis-server is not installed (Debian: apt-get install redis-server)';

export const freePort = () => new Promise<number>((resolve, reject) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
  server.on('error', reject);
});

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop()`). */
  start(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d) => {
        output += d;
        if (output.includes('Ready to accept connections')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Starts the built CLI (dist/server/cli.js) on a free loopback port with `env` (and PATH), and
 * resolves with its URL once it says it listens; `children` gets the process, for the test to stop.
 */
export async function startCli(env: Record<string, string>, children: ChildProcess[]): Promise<string> {
  const port = await freePort();
  const cli = fileURLToPath(new URL('../../../dist/server/cli.js', import.meta.url));
  const child = spawn(process.execPath, [cli], { env: { PATH: process.env.PATH, PORT: String(port), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  while (!err.includes('listening on')) {
    if (child.exitCode !== null) throw new Error(err);
    await once(child.stderr!, 'data');
  }
  return `http://127.0.0.1:${port}`;
}

/** Stops the CLIs `startCli` started (SIGTERM), once they have exited. */
export async function stopClis(children: ChildProcess[]) {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
}

/**
 * For a describe block: a redis-server and a fake upstream, started before its tests and stopped
 * after them with the clients and proxies it made. `client()` connects one (no offline queue,
 * reconnecting every 50 ms); `serve(handler)` serves a proxy on a free loopback port.
 */
export function useRedisAndUpstream() {
  const made = { clients: [] as ReturnType<typeof createClient>[], servers: [] as RunningServer[] };
  const fixture = {
    redis: undefined as unknown as RunningRedis,
    upstream: undefined as unknown as Awaited<ReturnType<typeof fakeUpstream>>,
    async client() {
      const client = createClient({ url: fixture.redis.url, disableOfflineQueue: true, socket: { reconnectStrategy: 50 } });
      client.on('error', () => undefined);
      await client.connect();
      made.clients.push(client);
      return client;
    },
    async serve(handler: FetchHandler) {
      const server = await listen(handler);
      made.servers.push(server);
      return server;
    },
  };
  before(async () => {
    fixture.redis = await startRedis();
    fixture.upstream = await fakeUpstream();
  });
  after(async () => {
    await Promise.all(made.servers.map((s) => s.close()));
    for (const client of made.clients) client.destroy();
    await fixture.redis.stop();
    await fixture.upstream.close();
  });
  return fixture;
}
