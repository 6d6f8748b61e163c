// The closing lines of `npm test`: one line per suite, then what was skipped (by name), then the
// one line "N passed, N failed[, N skipped]".

/**
 * @param {string[]} suites  e.g. ["node: 73 passed, 0 failed"]
 * @param {{passed: number, failed: number, skipped: number}} totals
 * @param {{name: string, why: string}[]} skippedEngines  browser engines whose tests did not run
 * @returns {string}
 */
export function summary(suites, totals, skippedEngines = []) {
  const lines = ['', ...suites];
  if (skippedEngines.length) {
    lines.push('', `skipped: the browser tests in ${skippedEngines.map((e) => `${e.name} (${e.why})`).join(', ')}`);
  }
  const skipped = totals.skipped + skippedEngines.length;
  lines.push('', `${totals.passed} passed, ${totals.failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return lines.join('\n');
}
