/** The tests a suite's output says failed, by name (node:test's spec reporter, wtr's and Playwright's closing lines). */
export declare function failedTests(output: string): string[];
