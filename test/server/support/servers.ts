/** Loopback servers for server tests: a scriptable fake upstream, and helpers around `listen`. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UpstreamCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type UpstreamBehaviour = (call: UpstreamCall, res: ServerResponse) => void;

export const answerJson = (status: number, body: unknown): UpstreamBehaviour => (_call, res) => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
};

export const OK_BODY = { status: 'ok', result: { responses: [{ id: 'TX_1', type: 'text', options: ['hi'], altText: 'hi' }] } };

/** A fake agent service on 127.0.0.1 that records every call and answers as told. */
export async function fakeUpstream(behaviour: UpstreamBehaviour = answerJson(200, OK_BODY)) {
  const calls: UpstreamCall[] = [];
  let current = behaviour;
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const call = { method: req.method!, url: req.url!, headers: req.headers, body: text ? JSON.parse(text) : undefined };
    calls.push(call);
    hanging.add(res);
    res.on('close', () => hanging.delete(res));
    current(call, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    behave(next: UpstreamBehaviour) {
      current = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Has `upstream` answer each text with "n: text" (n: its call's number) after `ms`; `answered[i]`
 * settles once it has written its answer to call i (of all its calls, counted from its start).
 */
export function numberedAnswers(upstream: Awaited<ReturnType<typeof fakeUpstream>>, ms = 0) {
  const answered: Promise<void>[] = [];
  upstream.behave((call, res) => {
    const n = upstream.calls.length;
    const text = (call.body as { message: { text: string } }).message.text;
    answered[n - 1] = new Promise((resolve) => setTimeout(() => {
      answerJson(200, { status: 'ok', result: { responses: [{ id: `TX_${n}`, type: 'text', options: [`${n}: ${text}`], altText: text }] } })(call, res);
      resolve();
    }, ms));
  });
  return answered;
}

/**
 * How many timers keep this process alive. A test compares it before and after what it runs: at
 * most as many after (a timer of an earlier test may end meanwhile), none left per request.
 */
export const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
