// The browser part of `npm test`: @web/test-runner in every engine found. A test file cut short
// because its browser died (WebKitGTK's MiniBrowser crashes now and then on a busy machine) is not a
// test's failure: it is run once more, in a new browser of its engine, and counted from that run.
// If its browser dies again, it fails. Both runs are named in the summary.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { failedTests } from './failures.mjs';

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {(command: string, args: string[], env?: Record<string, string>) => Promise<{ code: number, output: string }>} Run */

const ENGINE_NAMES = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

/** The closing line of test/support/count-reporter.mjs. */
function wtrCounts(output) {
  const m = [...output.matchAll(/^wtr: (\d+) passed, (\d+) failed, (\d+) skipped/gm)].at(-1);
  return m ? { passed: +m[1], failed: +m[2], skipped: +m[3] } : undefined;
}

/**
 * @param {Run} run  runs a command in the project's root, with `env` over process.env
 * @param {string[]} engines  e.g. ["chromium", "webkit"]
 * @param {{ root: string, files?: string[], say?: (message: string) => void }} options  `files`: only these
 * @returns {Promise<{ name: string, code: number, counts: Counts | undefined, failed: string[] }[]>} one
 *   entry per run; `failed`: the tests that failed in it, by name
 */
export async function browserTests(run, engines, { root, files = [], say = () => {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-chat-wtr-'));
  const list = join(dir, 'cut-short.json');
  try {
    const fileArgs = files.length ? ['--files', ...files] : [];
    const first = await run('npx', ['web-test-runner', ...fileArgs], { WTR_BROWSERS: engines.join(','), WTR_CRASHED: list });
    let cutShort = [];
    try {
      cutShort = JSON.parse(readFileSync(list, 'utf8'));
    } catch {
      // no list: the run ended before its reporter did (counted as a failure below)
    }
    const counts = wtrCounts(first.output);
    const named = cutShort.map(({ engine, file }) => `${relative(root, file)} in ${ENGINE_NAMES[engine] ?? engine}`);
    // wtr exits 1 for a file cut short; what counts is whether anything else failed.
    const code = counts && cutShort.length && counts.failed === 0 ? 0 : first.code;
    const runs = [{ name: `browsers${named.length ? ` (cut short when the browser died: ${named.join(', ')})` : ''}`, code, counts, failed: failedTests(first.output) }];
    for (const engine of [...new Set(cutShort.map((c) => c.engine))]) {
      const again = cutShort.filter((c) => c.engine === engine).map((c) => relative(root, c.file));
      say(`browser tests cut short when ${ENGINE_NAMES[engine] ?? engine} died, run again in a new browser: ${again.join(', ')}`);
      const second = await run('npx', ['web-test-runner', '--files', ...again], { WTR_BROWSERS: engine, WTR_CRASHED: '' });
      runs.push({ name: `browsers run again in ${ENGINE_NAMES[engine] ?? engine} (${again.join(', ')})`, code: second.code, counts: wtrCounts(second.output), failed: failedTests(second.output) });
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A {@link Run} for tests of the test runner: runs in `root` without echoing, `env` (then the
 * call's) over process.env without NODE_TEST_CONTEXT (a node:test run started in a test file is
 * otherwise taken for a child of that file's run, and skips its files).
 * @param {string} root
 * @param {Record<string, string>} [env]
 * @returns {Run}
 */
export const quietRun = (root, env = {}) => (command, args, callEnv = {}) => new Promise((resolve) => {
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const child = spawn(command, args, { cwd: root, env: { ...outer, ...callEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  child.on('close', (code) => resolve({ code: code ?? 1, output }));
});
