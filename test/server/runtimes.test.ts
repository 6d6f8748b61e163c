// The same proxy handler on every runtime the README has a recipe for: Node (the CLI), Bun, Deno and
// workerd (Cloudflare's runtime, through `wrangler dev --local`), each started on a loopback port
// and driven over real HTTP with a representative subset of the proxy's tests. Bun, Deno and
// wrangler are installed from the npm registry on first use; one that cannot be installed or
// started is skipped by name, with the reason.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { freePort } from './support/redis.js';
import { bin, ensureRuntimes } from './support/runtimes.js';
import { fakeUpstream } from './support/servers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'fake-runtime-token-not-a-secret';
const ORIGIN = 'https://shop.example';
const ready = ensureRuntimes();

type Runtime = { name: string; skip?: string; start: (env: Record<string, string>, port: number, dir: string) => ChildProcess };

const runtimes: Runtime[] = [
  { name: 'Node', start: (env) => spawn(process.execPath, [`${root}dist/server/cli.js`], { env }) },
  { name: 'Bun', skip: ready.bun, start: (env) => spawn(bin('bun'), ['run', `${root}test/server/runtimes/bun.js`], { env, cwd: root }) },
  {
    name: 'Deno', skip: ready.deno,
    start: (env) => spawn(bin('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--no-prompt', `${root}test/server/runtimes/deno.js`], { env, cwd: root }),
  },
  {
    name: 'workerd', skip: ready.wrangler,
    start: (env, port, dir) => {
      const vars = Object.entries(env).filter(([k]) => /^(AGENT_|ALLOWED_|RATE_)/.test(k)).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
      writeFileSync(join(dir, 'wrangler.toml'), [
        'name = "agent-chat-proxy-test"', `main = ${JSON.stringify(`${root}test/server/runtimes/worker.js`)}`, 'compatibility_date = "2026-04-01"',
        '[vars]', ...vars,
      ].join('\n'));
      return spawn(bin('wrangler'), ['dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', '0', '--show-interactive-dev-session=false', '--config', join(dir, 'wrangler.toml')], {
        env: { ...env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: dir, CI: 'true', HOME: dir, XDG_CONFIG_HOME: dir },
        cwd: dir,
      });
    },
  },
];

for (const runtime of runtimes) {
  describe(`proxy on ${runtime.name}`, { skip: runtime.skip }, () => {
    let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
    let child: ChildProcess;
    let url: string;
    let dir: string;
    let output = '';

    before(async () => {
      upstream = await fakeUpstream();
      dir = mkdtempSync(join(tmpdir(), `agent-chat-${runtime.name}-`));
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      child = runtime.start({
        PATH: process.env.PATH!, AGENT_API_URL: upstream.url, AGENT_HANDLE: 'runtime-handle', AGENT_API_TOKEN: TOKEN,
        ALLOWED_ORIGINS: ORIGIN, RATE_LIMIT_PER_MINUTE: '3', PORT: String(port), HOST: '127.0.0.1',
      }, port, dir);
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
      // Up when the health check answers (polled: start-up takes from 0.1 s to ~10 s for workerd).
      for (const end = Date.now() + 60_000; ;) {
        if (child.exitCode !== null) throw new Error(`${runtime.name} exited: ${output}`);
        if (Date.now() > end) throw new Error(`${runtime.name} did not answer within 60 s: ${output}`);
        const ok = await fetch(`${url}/`).then((r) => r.ok, () => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 25)); // poll the condition again
      }
    });
    after(async () => {
      child?.kill('SIGTERM');
      if (child && child.exitCode === null) await new Promise((r) => child.once('exit', r));
      await upstream?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /**
     * POST over node:http from a loopback address of its own (127.0.0.x), so each test is a client
     * of its own and the per-address limit of one does not spill into the next.
     */
    const post = (body: unknown, { from = '127.0.0.1', origin = ORIGIN } = {}) => new Promise<{ status: number; headers: IncomingHttpHeaders; json: { status: string; error?: string } }>((resolve, reject) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const req = httpRequest(`${url}/`, {
        method: 'POST', localAddress: from, headers: { 'Content-Type': 'application/json', Origin: origin, 'Content-Length': Buffer.byteLength(text) },
      }, (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(data) }));
      });
      req.on('error', reject);
      req.end(text);
    });

    it('answers the health check', async () => {
      assert.deepEqual(await (await fetch(`${url}/`)).json(), { status: 'ok' });
    });

    it('forwards a valid request with the handle and the token added', async () => {
      const response = await post({ message: { text: 'hello' }, sender: { id: 'forward' } }, { from: '127.0.0.11' });
      assert.equal(response.status, 200);
      assert.equal(response.json.status, 'ok');
      const call = upstream.calls.at(-1)!;
      assert.equal(call.headers.authorization, `Bearer ${TOKEN}`);
      assert.deepEqual(call.body, { message: { text: 'hello' }, sender: { id: 'forward' }, handle: 'runtime-handle' });
    });

    it('answers an invalid body with 400 and a precise error', async () => {
      const response = await post({ sender: { id: 'invalid' } }, { from: '127.0.0.12' });
      assert.equal(response.status, 400);
      assert.equal(response.json.status, 'error');
      assert.match(response.json.error!, /^Invalid request: .*message/);
    });

    it('answers a body over 16 KB with 413', async () => {
      const response = await post({ message: { text: 'x'.repeat(20_000) }, sender: { id: 'big' } }, { from: '127.0.0.13' });
      assert.equal(response.status, 413);
      assert.equal(response.json.status, 'error');
    });

    it('answers CORS preflights for allowed origins and 403 for others', async () => {
      const preflight = await fetch(`${url}/`, { method: 'OPTIONS', headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
      assert.ok(preflight.status === 204 || preflight.status === 200, `preflight ${preflight.status}`);
      assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
      const other = await post({ message: { text: 'hi' } }, { from: '127.0.0.14', origin: 'https://evil.example' });
      assert.equal(other.status, 403);
    });

    it('rate-limits per sender with 429 and Retry-After', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        // from four addresses: only the sender's limit can stop the fourth
        const response = await post({ message: { text: 'hi' }, sender: { id: 'chatty' } }, { from: `127.0.0.${21 + i}` });
        statuses.push(response.status);
        if (i === 3) assert.ok(Number(response.headers['retry-after']) >= 1, 'Retry-After');
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    });

    if (runtime.name !== 'workerd') {
      // workerd behind `wrangler dev` has no edge to set CF-Connecting-IP: only the per-sender limit applies there.
      it('rate-limits per client address too: it knows the address on this runtime', async () => {
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await post({ message: { text: 'hi' }, sender: { id: `sender-${i}` } }, { from: '127.0.0.31' })).status);
        assert.deepEqual(statuses, [200, 200, 200, 429], 'four senders, one address');
      });
    }
  });
}
