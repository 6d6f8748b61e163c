import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { fakeUpstream, OK_BODY } from './support/servers.js';
import { BAD_SETTINGS, SETTINGS, TOKEN } from './support/settings.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = `${root}dist/server/cli.js`;

/** Polls a condition (a process's output, a request's arrival), never a fixed sleep. */
async function until(condition: () => boolean, what: string, ms = 10_000) {
  for (const end = Date.now() + ms; !condition();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [cli], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (output.stdout += d));
  child.stderr!.on('data', (d) => (output.stderr += d));
  return { child, output };
}

describe('agent-chat-proxy CLI', () => {
  before(() => {
    // `npm test` builds first; a standalone run of this file builds the CLI itself.
    if (!existsSync(cli)) assert.equal(spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'ignore' }).status, 0);
  });

  it('without its server packages (a widget-only install), says which to install', () => {
    const alone = mkdtempSync(join(tmpdir(), 'agent-chat-cli-'));
    try {
      cpSync(`${root}dist/server`, alone, { recursive: true });
      writeFileSync(`${alone}/package.json`, '{"type":"module"}');
      const env: Record<string, string> = { ...SETTINGS('http://127.0.0.1:9'), PATH: process.env.PATH! };
      const run = spawnSync(process.execPath, [`${alone}/cli.js`], { env, encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /the proxy needs its server packages; install them with\n {2}npm install hono @hono\/node-server zod ipaddr\.js/);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  for (const [what, change, message] of BAD_SETTINGS) {
    it(`refuses to start with ${what}, naming the setting`, () => {
      const env: Record<string, string> = { ...SETTINGS('http://127.0.0.1:9'), PATH: process.env.PATH! };
      for (const [key, value] of Object.entries(change)) if (value === undefined) delete env[key]; else env[key] = value;
      const run = spawnSync(process.execPath, [cli], { env, encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr.trim(), message);
      assert.ok(!run.stderr.includes(TOKEN), 'the token is not printed');
      assert.ok(!run.stderr.includes('s3cret-pass'), 'no password is printed');
      assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
    });
  }

  // Where it cannot listen: one line naming the setting, not a stack trace.
  const cannotListen: [string, Record<string, string>, RegExp][] = [
    ['a port in use', {}, /^agent-chat-proxy: cannot listen on 127\.0\.0\.1:\d+: the port is in use \(PORT\)$/],
    ['a host that is not a name or address', { HOST: 'not a host' }, /^agent-chat-proxy: cannot listen on not a host:\d+: no such host \(HOST\)$/],
    ['an address that is not this machine\'s', { HOST: '192.0.2.1' }, /^agent-chat-proxy: cannot listen on 192\.0\.2\.1:\d+: not an address of this machine \(HOST\)$/],
  ];
  for (const [what, change, message] of cannotListen) {
    it(`stops at start on ${what}, naming the setting`, async () => {
      const taken = createServer().listen(0, '127.0.0.1');
      await once(taken, 'listening');
      try {
        const env = { ...SETTINGS('http://127.0.0.1:9'), PORT: String((taken.address() as AddressInfo).port), ...change, PATH: process.env.PATH! };
        const run = spawnSync(process.execPath, [cli], { env, encoding: 'utf8', timeout: 10_000 });
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr.trim(), message);
        assert.ok(!run.stderr.includes(TOKEN), 'the token is not printed');
      } finally {
        taken.close();
      }
    });
  }

  describe('running', () => {
    let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
    let proc: ChildProcess;
    let output: { stdout: string; stderr: string };
    let url: string;
    let release: (() => void) | undefined;

    before(async () => {
      upstream = await fakeUpstream((call, res) => {
        const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(OK_BODY));
        if ((call.body as { message: { text?: string } }).message.text === 'hold') release = answer;
        else answer();
      });
      ({ child: proc, output } = start(SETTINGS(upstream.url)));
      await until(() => /listening on (http:\S+)\//.test(output.stderr), 'the listening line');
      url = /listening on (http:\S+)\//.exec(output.stderr)![1];
    });
    after(async () => {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await upstream.close();
    });

    it('serves the endpoint at / and answers health checks', async () => {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(await (await fetch(`${url}/`)).json(), { status: 'ok' });
      const response = await fetch(`${url}/`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://shop.example' }, body: JSON.stringify({ message: { text: 'hi' }, sender: { id: 'x' } }),
      });
      assert.equal(response.status, 200);
      assert.equal(upstream.calls.at(-1)!.headers.authorization, `Bearer ${TOKEN}`);
    });

    it('on SIGTERM finishes the request in flight, then exits 0; the token never reached its output', async () => {
      const inFlight = fetch(`${url}/`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: { text: 'hold' }, sender: { id: 'y' } }),
      });
      await until(() => release !== undefined, 'the held request to reach the upstream');
      const exited = once(proc, 'exit');
      proc.kill('SIGTERM');
      await until(() => output.stderr.includes('SIGTERM: finishing in-flight requests'), 'the shutdown notice');
      const refused = await fetch(`${url}/`).then(() => 'accepted', () => 'refused');
      assert.equal(refused, 'refused', 'no new connections during shutdown');
      release!();
      assert.equal((await inFlight).status, 200, 'the request in flight completed');
      const [code] = await exited;
      assert.equal(code, 0);
      assert.ok(!output.stdout.includes(TOKEN) && !output.stderr.includes(TOKEN), 'token not in any output');
      assert.match(output.stdout, /"status":200/, 'structured log lines on stdout');
    });
  });
});
