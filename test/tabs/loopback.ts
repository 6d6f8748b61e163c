/**
 * What the tab suites' loopback servers share (engines.test.ts, back-forward.test.ts): the built
 * widget's files under `/dist/`, and listening on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';

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

/** Starts `server` on a free port of 127.0.0.1; its base URL and a function that closes it. */
export async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}
