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

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = `${root}dist/server/cli.js`;
const TOKEN = 'fake-cli-token-not-a-secret';

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

const baseEnv = (upstreamUrl: string) => ({
  AGENT_API_URL: upstreamUrl, AGENT_HANDLE: 'cli-handle', AGENT_API_TOKEN: TOKEN, ALLOWED_ORIGINS: 'https://shop.example', PORT: '0',
});

describe('agent-chat-proxy CLI', () => {
  before(() => {
    // `npm test` builds first; a standalone run of this file builds the CLI itself.
    if (!existsSync(cli)) assert.equal(spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'ignore' }).status, 0);
  });

  const bad: [string, Record<string, string | undefined>, RegExp][] = [
    ['AGENT_API_URL missing', { AGENT_API_URL: undefined }, /AGENT_API_URL is not set/],
    ['AGENT_API_URL not a URL', { AGENT_API_URL: 'agents.example' }, /AGENT_API_URL must be an http\(s\) URL/],
    ['AGENT_HANDLE missing', { AGENT_HANDLE: undefined }, /AGENT_HANDLE is not set/],
    ['AGENT_API_TOKEN missing', { AGENT_API_TOKEN: undefined }, /AGENT_API_TOKEN is not set/],
    ['ALLOWED_ORIGINS missing', { ALLOWED_ORIGINS: undefined }, /ALLOWED_ORIGINS is not set/],
    ['ALLOWED_ORIGINS with a path', { ALLOWED_ORIGINS: 'https://shop.example/page' }, /must be a bare origin/],
    ['PORT not a number', { PORT: 'eighty' }, /PORT must be a whole number/],
    ['AGENT_TIMEOUT_MS out of range', { AGENT_TIMEOUT_MS: '5' }, /AGENT_TIMEOUT_MS must be a whole number from 100/],
    ['TRUSTED_PROXIES not addresses', { TRUSTED_PROXIES: 'the load balancer' }, /TRUSTED_PROXIES: "the load balancer" is not an IP address/],
    ['TRUSTED_PROXIES trusting everyone', { TRUSTED_PROXIES: '0.0.0.0/0' }, /TRUSTED_PROXIES: "0.0.0.0\/0" trusts every address/],
    ['TRUSTED_PROXIES with the limit off', { TRUSTED_PROXIES: 'private', RATE_LIMIT_PER_MINUTE: '0' }, /TRUSTED_PROXIES is set but RATE_LIMIT_PER_MINUTE=0/],
    ['REDIS_URL not a redis URL', { REDIS_URL: 'localhost:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['RATE_LIMIT_ON_OUTAGE with the limit off', { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_ON_OUTAGE: 'closed' }, /RATE_LIMIT_ON_OUTAGE is set but RATE_LIMIT_PER_MINUTE=0/],
    ['RATE_LIMIT_ON_OUTAGE without REDIS_URL', { RATE_LIMIT_ON_OUTAGE: 'closed' }, /RATE_LIMIT_ON_OUTAGE is set but REDIS_URL is not/],
    ['RATE_LIMIT_ON_OUTAGE neither open nor closed', { REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_ON_OUTAGE: 'maybe' }, /RATE_LIMIT_ON_OUTAGE must be open or closed/],
    // A wildcard never matches a browser's Origin: every request would be refused (403).
    ['ALLOWED_ORIGINS with a wildcard', { ALLOWED_ORIGINS: 'https://*.shop.example' }, /ALLOWED_ORIGINS: "https:\/\/\*\.shop\.example" has a wildcard/],
    // A token that cannot go in an Authorization header made every request fail with 502 "could
    // not be reached"; one given with its scheme went as "Bearer Bearer …" (401 from the service).
    ['AGENT_API_TOKEN with a line break', { AGENT_API_TOKEN: `${TOKEN}\nsecond-line` }, /^agent-chat-proxy: AGENT_API_TOKEN must be the token alone, one word of visible characters/],
    // Credentials in a URL never reach the output. fetch refuses a URL that holds them: every request failed (502).
    ['AGENT_API_URL with credentials', { AGENT_API_URL: 'https://ada:s3cret-pass@agents.example' }, /^agent-chat-proxy: AGENT_API_URL must not hold a user name or password \(the token goes in AGENT_API_TOKEN\)$/],
    ['REDIS_URL with a port that is not a number', { REDIS_URL: 'redis://:s3cret-pass@cache.internal:sixty' }, /^agent-chat-proxy: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, not "redis:\/\/…@cache.internal:sixty"$/],
    // `{base}/api/events` after a query or a fragment is not that path: every request went to the base.
    ['AGENT_API_URL with a query', { AGENT_API_URL: 'https://agents.example/?region=eu' }, /^agent-chat-proxy: AGENT_API_URL must be the service's base URL, without a query \(\?\) or fragment \(#\)$/],
    ['AGENT_API_URL with a fragment', { AGENT_API_URL: 'https://agents.example/#v2' }, /AGENT_API_URL must be the service's base URL, without a query/],
    ['AGENT_API_URL with the endpoint\'s path', { AGENT_API_URL: 'https://agents.example/api/events/' }, /^agent-chat-proxy: AGENT_API_URL must be the service's base URL, without \/api\/events \(the proxy adds it\)$/],
    ['ALLOWED_ORIGINS with credentials', { ALLOWED_ORIGINS: 'https://ada:s3cret-pass@shop.example' }, /ALLOWED_ORIGINS: "https:\/\/…@shop.example" must be a bare origin/],
    ['PROXY_DEBUG neither on nor off', { PROXY_DEBUG: 'yes' }, /PROXY_DEBUG must be 1 \(or true\) to log message text, or 0 \(or false\), not "yes"/],
    ['AGENT_API_TOKEN with its scheme', { AGENT_API_TOKEN: `Bearer ${TOKEN}` }, /AGENT_API_TOKEN must be the token alone.*without "Bearer "/],
  ];
  it('without its server packages (a widget-only install), says which to install', () => {
    const alone = mkdtempSync(join(tmpdir(), 'agent-chat-cli-'));
    try {
      cpSync(`${root}dist/server`, alone, { recursive: true });
      writeFileSync(`${alone}/package.json`, '{"type":"module"}');
      const env: Record<string, string> = { ...baseEnv('http://127.0.0.1:9'), PATH: process.env.PATH! };
      const run = spawnSync(process.execPath, [`${alone}/cli.js`], { env, encoding: 'utf8', timeout: 10_000 });
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /the proxy needs its server packages; install them with\n {2}npm install hono @hono\/node-server zod ipaddr\.js/);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  for (const [what, change, message] of bad) {
    it(`refuses to start with ${what}, naming the setting`, () => {
      const env: Record<string, string> = { ...baseEnv('http://127.0.0.1:9'), PATH: process.env.PATH! };
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
        const env = { ...baseEnv('http://127.0.0.1:9'), PORT: String((taken.address() as AddressInfo).port), ...change, PATH: process.env.PATH! };
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
      ({ child: proc, output } = start(baseEnv(upstream.url)));
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
