// `npm test`: every suite, on a fresh machine, ending with one line "N passed, N failed".
//   It ends naming each test that failed (CI shows only the end of what a run printed).
//   1. finds the browsers (installs Debian's when run as root with apt-get, says what to do otherwise)
//   2. type-checks and builds (the end-to-end, CLI and bundle tests use dist/)
//   3. server and bundle tests (node:test), browser tests (@web/test-runner, every engine found; a
//      file cut short because its browser died is run once more in a new one: browser-suite.mjs),
//      two real tabs in Firefox and WebKit, Back to a page, a reload as an answer arrives, the CDN
//      snippet and a nonce-based CSP in every engine (test/tabs),
//      end-to-end tests (Playwright + Chromium against the demo)
// Engines: WTR_BROWSERS=chromium,firefox,webkit picks them explicitly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { summary } from './support/summary.mjs';
import { failedTests } from './support/failures.mjs';
import { browserTests } from './support/browser-suite.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const say = (message) => console.log(`\n▶ agent-chat tests: ${message}`);
const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/${name}`));
const firstExisting = (...paths) => paths.find((p) => p && existsSync(p));

function playwrightChromium() {
  try {
    const cache = `${process.env.HOME}/.cache/ms-playwright`;
    return readdirSync(cache).some((d) => d.startsWith('chromium')) ? 'playwright' : undefined;
  } catch {
    return undefined;
  }
}

const engines = {
  chromium: () => firstExisting(process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium') ?? playwrightChromium(),
  firefox: () => firstExisting(process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'),
  webkit: () => (onPath('WebKitWebDriver') && onPath('Xvfb') ? 'webkitgtk' : undefined),
};
const DEBIAN_PACKAGES = { chromium: ['chromium'], firefox: ['firefox-esr'], webkit: ['webkit2gtk-driver', 'xvfb'] };
// Not a browser, but installed the same way: the Redis rate-limit tests start a redis-server.
const SERVERS = { 'redis-server': ['redis-server'] };

function ensureBrowsers() {
  const wanted = (process.env.WTR_BROWSERS ?? 'chromium,firefox,webkit').split(',').map((s) => s.trim()).filter(Boolean);
  let missing = wanted.filter((name) => !engines[name]?.());
  const missingServers = Object.keys(SERVERS).filter((name) => !onPath(name));
  const canApt = process.getuid?.() === 0 && onPath('apt-get');
  if ((missing.length || missingServers.length) && canApt) {
    const packages = [...missing.flatMap((name) => DEBIAN_PACKAGES[name] ?? []), ...missingServers.flatMap((name) => SERVERS[name]), 'fonts-liberation'];
    say(`installing ${[...missing, ...missingServers].join(', ')} with apt-get (${packages.join(' ')})`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
    missing = wanted.filter((name) => !engines[name]?.());
  }
  if (missing.includes('chromium')) {
    console.error([
      '',
      'agent-chat tests need Chromium, and none was found. Any one of these fixes it:',
      '  Debian/Ubuntu:  sudo apt-get install -y chromium   (then npm test again)',
      '  elsewhere:      npx playwright install chromium',
      '  or point CHROME_PATH at an installed Chrome/Chromium binary.',
      '',
    ].join('\n'));
    return undefined;
  }
  for (const name of missing) {
    say(`${name} is not installed, so its browser tests are skipped (Debian: apt-get install ${DEBIAN_PACKAGES[name].join(' ')}; or npx playwright install ${name})`);
    skippedParts.push({ name: `browser tests in ${name}`, why: 'not installed' });
  }
  return wanted.filter((name) => !missing.includes(name));
}

/** Runs a command, echoing its output, and resolves with the exit code and everything it printed. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const relay = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', relay(process.stdout));
    child.stderr.on('data', relay(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
    child.on('error', (error) => resolve({ code: 1, output: String(error) }));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** What could not run at all (a browser engine, a suite whose server is missing), named in the summary. */
const skippedParts = [];
const results = [];
/** The tests that failed, by name (CI shows only the end of a run's output). */
const failedNames = [];

/**
 * Adds a suite's counts and the names of its failed tests; a suite that failed without reporting
 * counts (it crashed) is one failure.
 */
function count(suite, code, counts, failed = []) {
  failedNames.push(...failed);
  if (!counts || (code !== 0 && counts.failed === 0)) counts = { passed: counts?.passed ?? 0, failed: (counts?.failed ?? 0) + 1, skipped: counts?.skipped ?? 0 };
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  results.push(`${suite}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
}

const lastMatch = (output, regex) => [...output.matchAll(regex)].at(-1);

const browsers = ensureBrowsers();
if (!browsers) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

say('type-checking and building');
const typecheck = await run('npx', ['tsc', '-p', '.']);
count('typecheck', typecheck.code, { passed: typecheck.code === 0 ? 1 : 0, failed: typecheck.code === 0 ? 0 : 1, skipped: 0 });
const build = await run('npm', ['run', 'build']);
count('build', build.code, { passed: build.code === 0 ? 1 : 0, failed: build.code === 0 ? 0 : 1, skipped: 0 });

if (build.code === 0) {
  say('server and bundle tests (node:test, real HTTP on 127.0.0.1)');
  const serverFiles = ['server', 'bundle'].flatMap((dir) =>
    readdirSync(`${root}test/${dir}`).filter((f) => f.endsWith('.test.ts')).map((f) => `test/${dir}/${f}`));
  const server = await run('node', ['--import', 'tsx', '--test', '--test-reporter=spec', ...serverFiles]);
  const pass = lastMatch(server.output, /^ℹ pass (\d+)/gm);
  const fail = lastMatch(server.output, /^ℹ fail (\d+)/gm);
  const skip = lastMatch(server.output, /^ℹ skipped (\d+)/gm);
  // A skipped suite counts no tests: name it from the reporter's line "﹣ name (… ms) # reason".
  for (const [, name, why] of server.output.matchAll(/^﹣ (.+?) \([\d.]+ms\) # (.+)$/gm)) skippedParts.push({ name, why });
  count('node', server.code, pass && fail ? { passed: +pass[1], failed: +fail[1], skipped: +(skip?.[1] ?? 0) } : undefined, failedTests(server.output));

  say(`browser tests in ${browsers.join(', ')} (@web/test-runner)`);
  for (const { name, code, counts, failed } of await browserTests(run, browsers, { root, say })) count(name, code, counts, failed);

  // The two-tab scenarios Playwright runs in Chromium (test/e2e/tabs.spec.ts), in Firefox and WebKit;
  // a visitor's Back to a page of the site, in each engine's real back/forward navigation; and in
  // each engine, a reload as the proxy's answer arrives, the CDN snippet's import map refusing
  // changed files, a nonce-based strict CSP, and the real proxy on another origin than the page.
  const tabEngines = browsers.filter((name) => name !== 'chromium');
  {
    say(`two real tabs in ${tabEngines.join(', ') || 'no engine'}, Back to a page, a reload mid-answer, the CDN snippet, a nonce-based CSP and the proxy on another origin in ${browsers.join(', ')} (node:test, Playwright, puppeteer-core and WebdriverIO)`);
    const tabs = await run('node', ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/tabs/engines.test.ts', 'test/tabs/back-forward.test.ts', 'test/tabs/reload-mid-answer.test.ts', 'test/tabs/cdn-integrity.test.ts', 'test/tabs/nonce-csp.test.ts', 'test/tabs/cross-origin-proxy.test.ts'],
      { TAB_ENGINES: tabEngines.join(','), BACK_ENGINES: browsers.join(','), RELOAD_ENGINES: browsers.join(','), CDN_ENGINES: browsers.join(','), CSP_ENGINES: browsers.join(','), PROXY_ENGINES: browsers.join(',') });
    const pass = lastMatch(tabs.output, /^ℹ pass (\d+)/gm);
    const fail = lastMatch(tabs.output, /^ℹ fail (\d+)/gm);
    for (const [, name, why] of tabs.output.matchAll(/^﹣ (.+?) \([\d.]+ms\) # (.+)$/gm)) skippedParts.push({ name, why });
    count('tabs', tabs.code, pass && fail ? { passed: +pass[1], failed: +fail[1], skipped: 0 } : undefined, failedTests(tabs.output));
  }

  say('end-to-end tests (Playwright + Chromium against the demo: reference agent behind the proxy)');
  const e2e = await run('npx', ['playwright', 'test', '-c', 'test/e2e/playwright.config.ts'], { CI: 'true' });
  const pw = lastMatch(e2e.output, /^playwright: (\d+) passed, (\d+) failed, (\d+) skipped/gm);
  // Named in the summary (the count above already has them as skipped).
  const pwSkips = [...e2e.output.matchAll(/^playwright skipped: (.+?) # (.+)$/gm)];
  if (pwSkips.length) results.push(`e2e skipped: ${pwSkips.map(([, title, why]) => `${title} (${why})`).join('; ')}`);
  count('e2e', e2e.code, pw ? { passed: +pw[1], failed: +pw[2], skipped: +pw[3] } : undefined, failedTests(e2e.output));
}

console.log(summary(results, totals, skippedParts, failedNames));
process.exit(totals.failed ? 1 : 0);
