/**
 * What the tab suites' loopback servers share (engines.test.ts, back-forward.test.ts): the built
 * widget's files under `/dist/`, and listening on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';

const DIST = new URL('../../dist/', import.meta.url);

/** Answers a request for `/dist/…js` with the built file; 404 when there is none, and for any other URL. */
export async function serveDist(url: string, response: ServerResponse): Promise<void> {
  if (/^\/dist\/[\w/.-]+\.js$/.test(url) && !url.includes('..')) {
    const file = await readFile(new URL(url.slice('/dist/'.length), DIST)).catch(() => undefined);
    response.writeHead(file ? 200 : 404, { 'content-type': 'text/javascript' }).end(file);
  } else {
    response.writeHead(404).end();
  }
}

/** The ports this process has listened on: a browser kept open between scenarios remembers each origin's storage. */
const used = new Set<number>();

/**
 * Starts `server` on a port of 127.0.0.1 that this process has not used before; its base URL and a
 * function that closes it. Each scenario's origin is then new to the browser, which keeps the
 * storage, channels and locks of an origin for as long as it runs: the system hands out a port
 * again once it is free (18 of 430 servers opened and closed in turn got a port used before).
 */
export async function listen(server: Server) {
  const on = (target: Server | NetServer, port: number) => new Promise<number>((resolve, reject) => {
    target.once('error', reject);
    target.listen(port, '127.0.0.1', () => resolve((target.address() as { port: number }).port));
  });
  const blockers: NetServer[] = []; // each port used before, held until a new one is found
  let port = await on(server, 0);
  while (used.has(port)) {
    await new Promise((resolve) => server.close(resolve));
    const blocker = createNetServer();
    // (Taken by another process meanwhile: held all the same, and not handed out either.)
    if (await on(blocker, port).then(() => true, () => false)) blockers.push(blocker);
    port = await on(server, 0);
  }
  await Promise.all(blockers.map((blocker) => new Promise((resolve) => blocker.close(resolve))));
  used.add(port);
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}
