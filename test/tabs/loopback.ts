/**
 * What the tab suites' loopback servers share (engines.test.ts, back-forward.test.ts,
 * cdn-integrity.test.ts, nonce-csp.test.ts, cross-origin-proxy.test.ts): the built widget's files
 * under `/dist/`, or as a CDN serves them, and listening on 127.0.0.1.
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

const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Where a CDN that mirrors npm (jsDelivr's layout) serves the built files of this version, after its base URL. */
export const CDN_PATH = `npm/agent-chat@${version}/dist/`;

/** The base URL to give `npm run sri`'s snippets for such a CDN at `url` (its `npm/`). */
export const cdnBase = (url: string) => `${url}npm`;

/**
 * Answers as such a CDN, another origin than the page's: `/${CDN_PATH}…js` with the built file (as
 * `change` gives it back, given the path under dist/), allowed to any origin, never cached (each test
 * its own bytes); 404 for anything else.
 */
export async function serveCdn(url: string, response: ServerResponse, change = (_path: string, file: Buffer) => file): Promise<void> {
  const path = url.startsWith(`/${CDN_PATH}`) ? url.slice(CDN_PATH.length + 1) : '';
  const file = /^[\w/.-]+\.js$/.test(path) && !path.includes('..') ? await readFile(new URL(path, DIST)).catch(() => undefined) : undefined;
  if (!file) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*', 'cache-control': 'no-store' }).end(change(path, file));
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
  // Closing ends the connections still open too: a browser may hold one it opened ahead and never
  // sent a request on (WebKit, to a second origin), which the server would otherwise wait for until
  // its headers timeout, a minute later.
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())) };
}
