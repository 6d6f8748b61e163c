// Browser tests for <agent-chat>. Engines: WTR_BROWSERS=chromium,firefox,webkit (default chromium);
// `npm test` picks every engine installed on the machine. See test/support/browsers.mjs.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { selectedBrowsers } from './test/support/browsers.mjs';
import { countReporter } from './test/support/count-reporter.mjs';
import { flakyNetwork } from './test/support/flaky-network.mjs';

export default {
  files: ['test/**/*.test.ts', '!test/server/**', '!test/bundle/**', '!test/e2e/**'],
  nodeResolve: true,
  // /flaky/<run>/: dist/ over a connection that drops the view once (test/shell.test.ts).
  middleware: [flakyNetwork],
  // tsconfig carries experimentalDecorators; a fixed target keeps WebKitGTK's odd UA from
  // switching off down-levelling.
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: selectedBrowsers(),
  reporters: [defaultReporter(), countReporter()],
  testFramework: { config: { timeout: 10000 } },
  browserStartTimeout: 60000,
  testsFinishTimeout: 300000,
};
