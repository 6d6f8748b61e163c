// Types for test/support/browser-suite.mjs (the browser part of `npm test`).
export interface Counts { passed: number; failed: number; skipped: number }
export type Run = (command: string, args: string[], env?: Record<string, string>) => Promise<{ code: number; output: string }>;
/** Runs the browser tests; a file cut short because its browser died runs once more in a new browser. */
export declare function browserTests(
  run: Run,
  engines: string[],
  options: { root: string; files?: string[]; say?: (message: string) => void },
): Promise<{ name: string; code: number; counts: Counts | undefined; failed: string[] }[]>;
/** A Run for tests of the test runner: in `root`, not echoed, `env` over the call's, without NODE_TEST_CONTEXT. */
export declare function quietRun(root: string, env?: Record<string, string>): Run;
