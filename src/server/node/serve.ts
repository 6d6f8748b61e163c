/**
 * The Node adapter: serves a Fetch handler over node:http and shuts down gracefully. The only
 * module of the server side that knows it runs in Node.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { FetchHandler } from '../proxy/create-proxy.js';

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

export function listen(handler: FetchHandler, { port = 0, host = '127.0.0.1' }: { port?: number; host?: string } = {}): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: handler, port, hostname: host }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      const { port: actual } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({ url: `http://${shownHost}:${actual}`, port: actual, server, close: (graceMs) => closeGracefully(server, graceMs) });
    });
  });
}

function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    deadline.unref();
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    // Idle keep-alive sockets would hold close() open; in-flight ones finish first.
    server.closeIdleConnections();
  });
}

/** On SIGTERM/SIGINT: stop accepting, finish in-flight requests, exit 0. */
export function closeOnSignals(servers: RunningServer[], log: (message: string) => void = console.error) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal}: finishing in-flight requests, then exiting`);
    await Promise.all(servers.map((s) => s.close()));
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
