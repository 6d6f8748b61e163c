// Browser tests for <agent-chat>. Engines: WTR_BROWSERS=chromium,firefox,webkit (default chromium);
// `npm test` picks every engine installed on the machine. See test/support/browsers.mjs.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { selectedBrowsers } from './test/support/browsers.mjs';
import { numberFrom } from './test/support/env.mjs';
import { countReporter } from './test/support/count-reporter.mjs';
import { crashBrowser } from './test/support/crash-browser.mjs';
import { flakyNetwork } from './test/support/flaky-network.mjs';
import { heldImages } from './test/support/held-images.mjs';
import { asShipped } from './scripts/dompurify-source.mjs';
import { asValues, isLocaleTable } from './scripts/locale-values.mjs';
import { markedSource } from './scripts/marked-source.mjs';

/** The DOMPurify that ships: compiled from its package's source without what the widget never uses, as vite.config.ts builds it. */
const dompurifyFromSource = {
  name: 'dompurify-from-its-source',
  resolveImport({ source }) {
    return source === 'dompurify' ? '/node_modules/dompurify/src/purify.ts' : undefined;
  },
  transform(context) {
    if (context.path.includes('/node_modules/dompurify/src/')) return { body: asShipped(context.body, context.path) };
    return undefined;
  },
};

/** The other languages' UI text as it ships: values only, in the English table's key order, as vite.config.ts builds it. */
const localeTablesAsValues = {
  name: 'locale-tables-as-values',
  transform(context) {
    if (isLocaleTable(context.path)) return { body: asValues(context.body, context.path) };
    return undefined;
  },
};

/** The marked that ships: compiled from its package's source without what the widget never uses, as vite.config.ts builds it. */
const MARKED_SOURCE = `/${relative(fileURLToPath(new URL('.', import.meta.url)), markedSource())}`;
const markedFromSource = {
  name: 'marked-from-its-source',
  resolveImport({ source }) {
    return source === 'marked' ? MARKED_SOURCE : undefined;
  },
};

// The browsers run as a visitor far from UTC would (India's +5:30, not a whole hour): a date or
// time taken from UTC where the visitor's was meant shows in the tests (a file named for tomorrow).
process.env.TZ ??= 'Asia/Kolkata';

export default {
  files: ['test/**/*.test.ts', '!test/server/**', '!test/bundle/**', '!test/e2e/**', '!test/tabs/**'],
  nodeResolve: true,
  // /flaky/<run>/: dist/ over a connection that drops the view once (test/shell.test.ts);
  // /held-image/<id>.svg: a picture that comes when the test releases it (test/journeys/in-sight*.test.ts).
  middleware: [flakyNetwork, heldImages],
  // tsconfig carries experimentalDecorators; a fixed target keeps WebKitGTK's odd UA from
  // switching off down-levelling.
  // crashBrowser: only with WTR_CRASH_BROWSER set (test/bundle/browser-crash.test.ts).
  plugins: [crashBrowser(), dompurifyFromSource, localeTablesAsValues, markedFromSource, esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: selectedBrowsers(),
  reporters: [defaultReporter(), countReporter()],
  testFramework: { config: { timeout: 10000 } },
  // A failed assertion's element reaches the report as text, not as a run that never finishes
  // (test/support/clonable-failures.ts). The page is otherwise @web/test-runner's own.
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><head></head><body><script type="module" src="/test/support/clonable-failures.ts"></script><script type="module" src="${testFramework}"></script></body></html>`,
  browserStartTimeout: 60000,
  // WTR_FINISH_TIMEOUT: a test of the runner itself (test/bundle/summary.test.ts) fails sooner.
  testsFinishTimeout: numberFrom('WTR_FINISH_TIMEOUT', 300000, { min: 1000 }),
};
