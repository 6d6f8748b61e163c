// The UI text of other languages than English (src/i18n/de.ts, el.ts, …) ships as its values only,
// in the order of the English table's keys, which the widget already has (the chunk makes its table
// again from them when it runs). Each table's chunk named every key again, where
// gzip has nothing to repeat them from: 873 → 651 bytes gzipped for German, 1,158 → 879 for Greek,
// measured. The tables are written, read and type-checked as objects; only what ships changes.
// The widget's build (vite.config.ts) and its browser tests (web-test-runner.config.mjs) both use
// it, so the tests run the tables that ship. The Node build (esbuild, for server-side rendering)
// keeps the objects as written.
import { readFileSync } from 'node:fs';

/** A table's entries: one per line, `  key: value,`. */
const ENTRY = /^ {2}(\w+): (.*),$/;
const TABLE_START = 'export const strings: Strings = {';

/**
 * The keys of the table that starts with the line `start` in `code`, in order, and where its
 * entries are (line indexes); throws unless each line up to its closing `};` is one entry.
 * @param {string[]} lines
 * @param {string} start
 * @param {string} path for the error
 */
function entriesOf(lines, start, path) {
  const first = lines.indexOf(start) + 1;
  const end = lines.indexOf('};', first);
  if (first === 0 || end < 0) throw new Error(`${path}: no table "${start} … };": check scripts/locale-values.mjs`);
  const keys = lines.slice(first, end).map((line, i) => {
    const entry = ENTRY.exec(line);
    if (!entry) throw new Error(`${path}:${first + i + 1}: a table has one entry per line, "  key: value,": ${line.trim()}`);
    return entry[1];
  });
  return { first, end, keys };
}

/** The English table's keys, in order: the order the other tables ship their values in. */
export const ENGLISH_KEYS = (() => {
  const path = new URL('../src/i18n/strings.ts', import.meta.url);
  return entriesOf(readFileSync(path, 'utf8').split('\n'), 'const en: Strings = {', path.pathname).keys;
})();

/** Whether `path` is a table of another language than English (src/i18n/<language>.ts). */
export const isLocaleTable = (path) => /\/src\/i18n\/(?!strings\.ts$)[a-z]{2,3}\.ts$/.test(path);

/**
 * A language's table module as it ships: its values in an array, in the order of the English
 * table's keys, each on the line its entry was on (so every line stays where it was, and the build's
 * source map can map each line to itself), made back into the table (an object) when it runs. Throws unless the table has exactly the English keys, in
 * their order, one entry per line.
 * @param {string} code the module's TypeScript
 * @param {string} path the module's path
 * @returns {string}
 */
export function asValues(code, path) {
  const lines = code.split('\n');
  const { first, end, keys } = entriesOf(lines, TABLE_START, path);
  if (keys.join() !== ENGLISH_KEYS.join()) {
    let at = 0;
    while (keys[at] === ENGLISH_KEYS[at]) at++;
    const name = (key) => (key ? `"${key}"` : 'nothing');
    throw new Error(`${path}: its keys must be the English table's, in its order (src/i18n/strings.ts): entry ${at + 1} is ${name(keys[at])} where ${name(ENGLISH_KEYS[at])} is expected`);
  }
  return [
    ...lines.slice(0, first - 1),
    // Made back into the table when the chunk runs, from the English table's keys (the same order).
    "import { STRINGS } from './strings.js'; export const strings = ((values: unknown[]) => "
      + 'Object.fromEntries(Object.keys(STRINGS.en).map((key, i) => [key, values[i]])) as unknown as Strings)([',
    ...lines.slice(first, end).map((line) => `  ${ENTRY.exec(line)[2]},`),
    ']);',
    ...lines.slice(end + 1),
  ].join('\n');
}
