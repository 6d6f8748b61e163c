// Prints one plain closing line: "playwright: N passed, N failed, N skipped", after a line per
// skipped test naming it and why ("playwright skipped: <title> # <reason>").
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class CountReporter implements Reporter {
  private final = new Map<string, string>();
  private reasons = new Map<string, string>();

  onTestEnd(test: TestCase, _result: TestResult) {
    this.final.set(test.id, test.outcome()); // the last retry wins
    const skip = test.annotations.find((a) => a.type === 'skip');
    if (test.outcome() === 'skipped') this.reasons.set(test.title, skip?.description ?? 'skipped');
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
    for (const [title, why] of this.reasons) console.log(`playwright skipped: ${title} # ${why}`);
    console.log(`\nplaywright: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  printsToStdio() {
    return false;
  }
}
