// Prints one plain closing line: "playwright: N passed, N failed, N skipped", after a line per
// skipped test naming it and why ("playwright skipped: <title> # <reason>") and a line per failed
// one ("playwright failed: <file:line> › <title>: <error>"), which `npm test` names in its summary.
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class CountReporter implements Reporter {
  private final = new Map<string, string>();
  private reasons = new Map<string, string>();
  private failures = new Map<string, string>();

  onTestEnd(test: TestCase, result: TestResult) {
    this.final.set(test.id, test.outcome()); // the last retry wins
    const where = `${test.location.file.split('/test/e2e/').at(-1)}:${test.location.line}`;
    const error = (result.error?.message ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 200);
    if (test.outcome() === 'unexpected') this.failures.set(test.id, `${where} › ${test.title}: ${error}`);
    else this.failures.delete(test.id);
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
    for (const name of this.failures.values()) console.log(`playwright failed: ${name}`);
    console.log(`\nplaywright: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }

  printsToStdio() {
    return false;
  }
}
