/**
 * Bun, Deno and workerd for the proxy's runtime tests, installed from the npm registry into a cache
 * folder on first use (pinned versions; wrangler 4.86 is the last release that runs on Node 20).
 * A runtime that cannot be installed or started is reported as skipped, with the reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const RUNTIME_DIR = `${root}node_modules/.cache/agent-chat-runtimes`;
const PACKAGES = { bun: '1.4.5', deno: '2.9.6', wrangler: '4.86.0' } as const;
export const bin = (name: string) => `${RUNTIME_DIR}/node_modules/.bin/${name}`;

/** Installs what is missing; returns, per runtime, undefined when ready or why it is not. */
export function ensureRuntimes(): Record<keyof typeof PACKAGES, string | undefined> {
  const missing = (Object.keys(PACKAGES) as (keyof typeof PACKAGES)[]).filter((name) => !existsSync(bin(name)));
  let installError: string | undefined;
  if (missing.length) {
    mkdirSync(RUNTIME_DIR, { recursive: true });
    writeFileSync(`${RUNTIME_DIR}/package.json`, JSON.stringify({ name: 'agent-chat-runtimes', private: true }));
    const run = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...missing.map((n) => `${n}@${PACKAGES[n]}`)], {
      cwd: RUNTIME_DIR, encoding: 'utf8', timeout: 600_000,
    });
    if (run.status !== 0) installError = `could not be installed from the npm registry: ${(run.stderr || String(run.error)).trim().split('\n').at(-1)}`;
  }
  const check = (name: keyof typeof PACKAGES, args: string[]) => {
    if (!existsSync(bin(name))) return installError ?? `${name} is not installed`;
    const run = spawnSync(bin(name), args, { encoding: 'utf8', timeout: 60_000 });
    return run.status === 0 ? undefined : `${name} does not run here: ${(run.stderr || String(run.error)).trim().split('\n')[0]}`;
  };
  return { bun: check('bun', ['--version']), deno: check('deno', ['--version']), wrangler: check('wrangler', ['--version']) };
}
