// Prints one plain closing line: "playwright: N passed, N failed, N skipped".
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class CountReporter implements Reporter {
  private final = new Map<string, string>();

  onTestEnd(test: TestCase, _result: TestResult) {
    this.final.set(test.id, test.outcome()); // the last retry wins
  }

  onEnd() {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const outcome of this.final.values()) {
      if (outcome === 'skipped') skipped++;
      else if (outcome === 'unexpected') failed++;
      else passed++;
    }
    console.log(`\nplaywright: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  printsToStdio() {
    return false;
  }
}
