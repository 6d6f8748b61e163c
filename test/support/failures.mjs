// The tests a suite's output says failed, by name, for `npm test`'s closing lines: CI shows only
// the end of what a run printed, so a test that fails once in many runs must be named there.
// Three reporters: node:test's spec reporter ("failing tests:", each "test at <file:line>" then
// "✖ <name> (… ms)"), and this project's closing lines of @web/test-runner ("wtr failed: …",
// test/support/count-reporter.mjs) and Playwright ("playwright failed: …", test/e2e/count-reporter.ts).

/**
 * @param {string} output  everything a suite printed
 * @returns {string[]}  e.g. ["proxy › answers 400 (test/server/proxy.test.ts:12:3)", "Chromium test/engine/x.test.ts › y: …"]
 */
export function failedTests(output) {
  const names = [];
  const section = output.lastIndexOf('✖ failing tests:');
  if (section >= 0) {
    for (const [, where, name] of output.slice(section).matchAll(/^test at (.+?)\r?\n✖ (.+?) \([\d.]+ms\)\r?$/gm)) names.push(`${name} (${where})`);
  }
  for (const [, name] of output.matchAll(/^(?:wtr|playwright) failed: (.+?)\r?$/gm)) names.push(name);
  return [...new Set(names)];
}
