// End-to-end tests: Playwright drives Debian's Chromium (Playwright's own on a laptop, after
// `npx playwright install chromium`) against the real demo: the reference agent behind the proxy.
// Run after `npm run build` (npm test does both).
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_TOKEN } from './e2e-token.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));
const PORT = Number(process.env.E2E_PORT ?? 4179);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  forbidOnly: !!process.env.CI,
  workers: 1,
  reporter: [['list'], ['./count-reporter.ts']],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'retain-on-failure' },
  outputDir: '../../test-results',
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: CHROMIUM
          ? { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] }
          : {},
      },
    },
  ],
  webServer: {
    command: 'npx tsx demo/start.ts',
    cwd: '../..',
    env: { PORT: String(PORT), QUIET: '1', REFERENCE_AGENT_TOKEN: E2E_TOKEN },
    url: `http://127.0.0.1:${PORT}/chat`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
