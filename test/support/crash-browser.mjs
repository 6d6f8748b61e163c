// For the test of a browser that dies while a file runs (test/bundle/browser-crash.test.ts): the
// server command "crash-browser" kills the calling page's browser (WebKit: the MiniBrowser that its
// WebKitWebDriver started), as a crash under load would. WTR_CRASH_BROWSER=<marker file>: once (the
// marker is written then); WTR_CRASH_BROWSER=always: each time. Without it, nothing is killed.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** The processes whose parent is `pid` (from /proc: field 4 of stat, after the name in parentheses). */
function childrenOf(pid) {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false; // it ended while we looked
    }
  }).map(Number);
}

/** @returns {import('@web/test-runner').TestRunnerPlugin} */
export function crashBrowser() {
  return {
    name: 'crash-browser',
    executeCommand({ command, session }) {
      // WTR_LOSE_DRIVER set: "lose-driver" kills the calling page's WebKitWebDriver, not its browser:
      // the page's results still reach the runner, and closing the page after them fails, as when
      // the driver stops answering (a CI run: UND_ERR_HEADERS_TIMEOUT as the page was closed).
      if (command === 'lose-driver') {
        const driver = session.browser.driverProcess;
        if (!process.env.WTR_LOSE_DRIVER || !driver) return false;
        driver.kill('SIGKILL');
        return true;
      }
      if (command !== 'crash-browser') return undefined;
      const mode = process.env.WTR_CRASH_BROWSER;
      const driver = session.browser.driverProcess;
      if (!mode || !driver || (mode !== 'always' && existsSync(mode))) return false;
      if (mode !== 'always') writeFileSync(mode, session.testFile);
      for (const pid of childrenOf(driver.pid)) process.kill(pid, 'SIGKILL');
      return true;
    },
  };
}
