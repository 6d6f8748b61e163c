/** A real redis-server on a free loopback port, started and stopped by the test (Debian: redis-server). */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
