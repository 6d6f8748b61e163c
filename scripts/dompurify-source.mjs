// DOMPurify, compiled from the TypeScript source its package ships (`dompurify/src`, the same release)
// rather than its prebuilt ES file, which is compiled for old browsers (Babel's helpers, spread and
// class shims) that the widget's es2022 build does not need: 11,217 → 10,602 bytes gzipped, measured.
// The widget's build (vite.config.ts) and its browser tests (web-test-runner.config.mjs) both use it,
// so the tests run the DOMPurify that ships.
//
// Its built-in allowlists (every HTML, SVG and MathML tag and attribute it knows: `src/tags.ts`,
// `src/attrs.ts`) are left out, all but `#text`: 26,526 → 24,077 bytes gzipped for the markdown
// chunk. The widget's purifier (src/renderers/sanitize.ts) passes its own ALLOWED_TAGS and
// ALLOWED_ATTR and no USE_PROFILES, so it never reads the HTML lists; the SVG and MathML ones serve
// one more purpose, the namespace checks, which with them empty reject every SVG and MathML element
// (stricter: none of them is allowed anyway, and none of the allowed tags is an SVG- or MathML-only
// name). test/renderers/sanitize-lists.test.ts shows it cleans exactly as the prebuilt DOMPurify for
// the widget's configuration; test/bundle/dompurify-source.test.ts that a release changing the lists
// stops the build.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../node_modules/dompurify/', import.meta.url);

/** The absolute path of DOMPurify's source entry. */
export const DOMPURIFY_SOURCE = fileURLToPath(new URL('src/purify.ts', root));

const VERSION_DECLARATION = /^declare const VERSION: string;$/m;

/**
 * The source with its release in `VERSION`, as DOMPurify's own build puts it in. Throws if the
 * source no longer declares it, so a new release that changes its build is noticed at once.
 * @param {string} code
 * @returns {string}
 */
export function withVersion(code) {
  if (!VERSION_DECLARATION.test(code)) throw new Error(`${DOMPURIFY_SOURCE} no longer declares VERSION: check how DOMPurify's build makes it`);
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  return code.replace(VERSION_DECLARATION, `const VERSION = ${JSON.stringify(version)};`);
}

/** The lists each file declares (`export const <name> = freeze([...]);`), all emptied but `text`. */
const DEFAULT_LISTS = {
  'tags.ts': ['html', 'svg', 'svgFilters', 'svgDisallowed', 'mathMl', 'mathMlDisallowed'],
  'attrs.ts': ['html', 'svg', 'mathMl', 'xml'],
};

const LIST = /^export const (\w+) = freeze\(\[[\s\S]*?\](?: as const)?\);$/gm;

/**
 * DOMPurify's `src/tags.ts` or `src/attrs.ts` with its built-in allowlists empty (see above); any
 * other module as it is. Throws if a file no longer declares exactly the lists named above, so a new
 * release that adds or renames one is looked at before it ships.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withoutDefaultLists(code, path) {
  const file = Object.keys(DEFAULT_LISTS).find((name) => path.endsWith(`/dompurify/src/${name}`));
  if (!file) return code;
  const found = [];
  const emptied = code.replace(LIST, (list, name) => {
    if (name === 'text') return list;
    found.push(name);
    return `export const ${name} = freeze([] as const);`;
  });
  if (found.join() !== DEFAULT_LISTS[file].join()) {
    throw new Error(`dompurify/src/${file} declares ${found.join(', ')} (expected ${DEFAULT_LISTS[file].join(', ')}): check scripts/dompurify-source.mjs`);
  }
  return emptied;
}
