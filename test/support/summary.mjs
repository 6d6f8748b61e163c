// The closing lines of `npm test`: one line per suite, then the tests that failed and what was
// skipped (by name), then the one line "N passed, N failed[, N skipped]".

/**
 * @param {string[]} suites  e.g. ["node: 73 passed, 0 failed"]
 * @param {{passed: number, failed: number, skipped: number}} totals
 * @param {{name: string, why: string}[]} skippedParts  what did not run at all (a browser engine,
 *   a suite whose server is missing), each counted as one skipped and named with the reason
 * @param {string[]} failed  the tests that failed, by name (test/support/failures.mjs), a line each
 * @returns {string}
 */
export function summary(suites, totals, skippedParts = [], failed = []) {
  const lines = ['', ...suites];
  if (failed.length) lines.push('', 'failed:', ...failed.map((name) => `  ${name}`));
  if (skippedParts.length) lines.push('', `skipped: ${skippedParts.map((e) => `${e.name} (${e.why})`).join('; ')}`);
  const skipped = totals.skipped + skippedParts.length;
  lines.push('', `${totals.passed} passed, ${totals.failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return lines.join('\n');
}
