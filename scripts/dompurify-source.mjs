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
//
// Left out too are the methods the widget never calls (`setConfig`, `clearConfig`, `isValidAttribute`,
// `removeHook`, `removeHooks`, `removeAllHooks`): each configures or reads the instance for later
// calls, and the widget's instance is private to src/renderers/sanitize.ts, which calls
// `sanitize` with its configuration and `addHook` once. −194 bytes gzipped for DOMPurify alone,
// measured; with `setConfig` gone, what it set is never set, and the minifier drops what read it.
//
// And the options the widget's configuration leaves at their default, false, stay false: the
// assignments that read them from a configuration are left out (`SAFE_FOR_TEMPLATES`,
// `WHOLE_DOCUMENT`, `RETURN_TRUSTED_TYPE`, `FORCE_BODY`, `SANITIZE_NAMED_PROPS`, `IN_PLACE`,
// `ALLOW_UNKNOWN_PROTOCOLS`, `USE_PROFILES`), so each is a constant the minifier folds, and the code
// that only runs with one of them set goes: −1,288 bytes gzipped, measured. Other options it does
// not name read as unset where the configuration is read (`TRUSTED_TYPES_POLICY`, `ADD_TAGS`,
// `ADD_ATTR`, `ADD_FORBID_CONTENTS`, `PARSER_MEDIA_TYPE`, `NAMESPACE`, `ALLOWED_URI_REGEXP`):
// −280 bytes. PURIFY_CONFIG may name none of them (test/renderers/sanitize-lists.test.ts checks it,
// and that the result cleans as the prebuilt DOMPurify).
//
// And its regular expressions are taken by name: `src/purify.ts` destructured the namespace object
// of `src/regexp.ts`, which the bundler then builds (an object, a helper, and every expression of
// the module, those of the template options fixed false too); each `seal()` there is marked pure,
// so that the expressions nothing reads are left out: −379 bytes gzipped, measured.
//
// And the lists it empties are no longer spread into its sets (withoutEmptySpreads, −58), and each
// helper `src/utils.ts` makes of a built-in's method is marked pure (withPureHelpers, −26): the
// helpers of the methods cut above went, but their reads of the built-ins stayed. And its stand-ins
// for `Object.freeze`, `Object.seal`, `Reflect.apply` and `Reflect.construct`, made where a browser
// lacks them, are left out (withoutStandIns, −41): every browser that runs the es2022 build has them.
//
// The release is pinned (package.json), and a new one is looked at before it is taken. 3.5.0 (22
// November 2026), looked at on 2 December: its changes harden sanitizing in place (IN_PLACE), a
// sanitize() called from a hook while another runs, SAFE_FOR_TEMPLATES, comments, and markup that is
// serialized and parsed again (void and text-only elements holding children). The widget does none
// of these: a string in, a fragment out (never serialized), comments and those elements not in its
// tag list, hooks that never sanitize. With the widget's configuration it cleaned the hostile payloads
// and 50,000 seeded random markups (HTML, SVG, MathML, comments, NUL, void and text-only elements,
// tables, through marked or not) exactly as this build of 3.4.18 does; it would cost the markdown
// chunk +366 bytes gzipped (built and measured): not taken.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FIXED_OPTIONS, UNSET_OPTIONS, UNUSED_METHODS } from './dompurify-options.mjs';

export { FIXED_OPTIONS, UNSET_OPTIONS, UNUSED_METHODS };

const root = new URL('../node_modules/dompurify/', import.meta.url);

/** The absolute path of DOMPurify's source entry. */
export const DOMPURIFY_SOURCE = fileURLToPath(new URL('src/purify.ts', root));

const VERSION_DECLARATION = /^declare const VERSION: string;$/gm;
const VERSION_SET = /^ {2}DOMPurify\.version = VERSION;$/gm;

/**
 * What is left of a cut: its line breaks, so that every line after it stays where it was and the
 * build's source map can map each line to itself (lineMap).
 * @param {string} text
 */
const linesOf = (text) => text.replace(/[^\n]/g, '');

/**
 * A source map from `code`, cut by asShipped, to the module it was cut from: each line to the same
 * line (asShipped keeps every line where it was).
 * @param {string} code
 * @param {string} path the module's path
 */
export function lineMap(code, path) {
  const lines = code.split('\n').length;
  // Line 1 column 0 → source 0, line 0, column 0; each next line one line further ("AACA").
  return { version: 3, sources: [path], names: [], mappings: ['AAAA', ...Array(lines - 1).fill('AACA')].join(';') };
}

/**
 * `code` without each statement `pattern` matches whose first group is one of `names`; throws unless
 * exactly those were found. The names must be sorted.
 * @param {string} code
 * @param {RegExp} pattern a global pattern whose first group is the statement's name
 * @param {string[]} names
 * @param {string} what what the statements are, for the error
 * @returns {string}
 */
function withoutStatements(code, pattern, names, what) {
  const removed = [];
  const cut = code.replace(pattern, (statement, name) => {
    if (!names.includes(name)) return statement;
    removed.push(name);
    return linesOf(statement);
  });
  if (removed.sort().join() !== names.join()) {
    throw new Error(`dompurify/src/purify.ts: ${what} ${removed.join(', ')} (expected ${names.join(', ')}): check scripts/dompurify-source.mjs`);
  }
  return cut;
}

/**
 * DOMPurify's `src/purify.ts` reading the options named in UNSET_OPTIONS as unset: `cfg.NAME` is
 * `undefined` and `objectHasOwnProperty(cfg, 'NAME')` false. Throws unless each is read so, and
 * never assigned, so a new release is looked at before it ships.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withUnsetOptions(code, path) {
  if (!path.endsWith('/dompurify/src/purify.ts')) return code;
  return UNSET_OPTIONS.reduce((folded, name) => {
    const read = new RegExp(`\\bcfg\\.${name}\\b(?!\\s*=[^=])`, 'g');
    const has = new RegExp(`\\bobjectHasOwnProperty\\(cfg, '${name}'\\)`, 'g');
    if (!read.test(folded) || new RegExp(`\\bcfg\\.${name}\\s*=[^=]`).test(folded)) {
      throw new Error(`dompurify/src/purify.ts no longer reads cfg.${name}, or assigns it: check scripts/dompurify-source.mjs`);
    }
    return folded.replace(read, 'undefined').replace(has, 'false');
  }, code);
}

/** How `_parseConfig` sets each of them: one statement, from its `cfg`. */
const FIXED_OPTION_ASSIGNMENT = /^ {4}(\w+) =(?: cfg\.\1 \|\| false;[^\n]*| objectHasOwnProperty\(cfg, '\1'\)\n[^;]*?: false;)\n/gm;

/**
 * DOMPurify's `src/purify.ts` with the options named in FIXED_OPTIONS kept at their declared value,
 * false: the one statement of `_parseConfig` that sets each is left out. Throws unless each is
 * declared `false`, set by exactly one such statement and by nothing else, so a new release is
 * looked at before it ships.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withFixedOptions(code, path) {
  if (!path.endsWith('/dompurify/src/purify.ts')) return code;
  const cut = withoutStatements(code, FIXED_OPTION_ASSIGNMENT, FIXED_OPTIONS, 'sets from the configuration');
  const declaration = (name) => new RegExp(`^ {2}let ${name}(?:: [\\w |]+)? = false;$`, 'm');
  const setElsewhere = (name) => new RegExp(`\\b${name}\\s*=[^=]`).test(cut.replace(declaration(name), ''));
  const problems = FIXED_OPTIONS.filter((name) => !declaration(name).test(cut) || setElsewhere(name));
  if (problems.length) throw new Error(`dompurify/src/purify.ts: not declared false or set elsewhere: ${problems.join(', ')}: check scripts/dompurify-source.mjs`);
  return cut;
}

const METHOD = /^ {2}DOMPurify\.(\w+) = function\b[\s\S]*?\n {2}\};\n/gm;

/**
 * DOMPurify's `src/purify.ts` without the methods named in UNUSED_METHODS (each runs from
 * `  DOMPurify.NAME = function` to the first `  };` line); any other module as it is. Throws if the
 * source no longer declares each of them so, or still names one after, so a new release is looked
 * at before it ships.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withoutUnusedMethods(code, path) {
  if (!path.endsWith('/dompurify/src/purify.ts')) return code;
  const cut = withoutStatements(code, METHOD, UNUSED_METHODS, 'declares');
  const left = cut.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').match(new RegExp(`\\.(${UNUSED_METHODS.join('|')})\\b`, 'g'));
  if (left) throw new Error(`dompurify/src/purify.ts still names ${left.join(', ')}: check scripts/dompurify-source.mjs`);
  return cut;
}

/**
 * The source without its release: `DOMPurify.version`, which DOMPurify's own build fills in from
 * `VERSION`, is not set, and `VERSION` not declared. Nothing reads it: the widget's instance is
 * private to src/renderers/sanitize.ts (−13 bytes gzipped, measured on 6 December). Each line is
 * left empty, not taken out. Throws unless both stand there once, as written, so a release that
 * changes its build is looked at before it ships.
 * @param {string} code
 * @returns {string}
 */
export function withoutVersion(code) {
  if ((code.match(VERSION_DECLARATION) ?? []).length !== 1 || (code.match(VERSION_SET) ?? []).length !== 1) {
    throw new Error(`${DOMPURIFY_SOURCE} no longer declares VERSION and sets DOMPurify.version from it once: check how DOMPurify's build makes it`);
  }
  return code.replace(VERSION_DECLARATION, '').replace(VERSION_SET, '');
}

/**
 * The lists each file declares (`export const <name> = freeze([...]);`), all emptied but `text`,
 * each a plain empty array: a call of `freeze`, which the minifier must keep, left six `freeze([])`
 * in the chunk for lists nothing reads (−15 bytes gzipped, measured on 6 December).
 */
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
    return `export const ${name} = [] as const;${linesOf(list)}`;
  });
  if (found.join() !== DEFAULT_LISTS[file].join()) {
    throw new Error(`dompurify/src/${file} declares ${found.join(', ')} (expected ${DEFAULT_LISTS[file].join(', ')}): check scripts/dompurify-source.mjs`);
  }
  return emptied;
}

/** Where purify.ts spreads a list of tags.ts or attrs.ts into a set: `    ...TAGS.html,`. */
const SPREAD = /^ {4}\.\.\.(TAGS|ATTRS)\.(\w+),\n/gm;

/**
 * DOMPurify's `src/purify.ts` without its spreads of the lists withoutDefaultLists empties (into
 * its default sets and the namespace checks' sets of every SVG and MathML tag): spreading an empty
 * list adds nothing, and without them the bundler leaves the lists out (−58 bytes gzipped). Throws
 * unless each of those lists is spread at least once, and no other list but `TAGS.text` is.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withoutEmptySpreads(code, path) {
  if (!path.endsWith('/dompurify/src/purify.ts')) return code;
  const spread = new Set();
  const cut = code.replace(SPREAD, (line, module, name) => {
    if (module === 'TAGS' && name === 'text') return line;
    if (!DEFAULT_LISTS[module === 'TAGS' ? 'tags.ts' : 'attrs.ts'].includes(name)) {
      throw new Error(`dompurify/src/purify.ts spreads ${module}.${name}, which is not emptied: check scripts/dompurify-source.mjs`);
    }
    spread.add(`${module}.${name}`);
    return '\n';
  });
  if (spread.size !== 10) throw new Error(`dompurify/src/purify.ts spreads ${[...spread].join(', ')} (expected the ten emptied lists): check scripts/dompurify-source.mjs`);
  return cut;
}

/** A statement that takes regular expressions out of the module's namespace object: `const { A, B } = EXPRESSIONS;`. */
const FROM_EXPRESSIONS = /^( {2})(const|let) \{([\w\s,]*)\} = EXPRESSIONS;$/gm;

/**
 * DOMPurify's `src/purify.ts` taking each regular expression of `src/regexp.ts` by its name
 * (`const A = EXPRESSIONS.A`) where it destructured the module's namespace object (`const { A, B }
 * = EXPRESSIONS`): the bundler resolves `EXPRESSIONS.A` to the module's binding, but a namespace
 * object that is destructured it builds (an object and a helper), and it holds every expression of
 * the module, those the widget's configuration never runs too (the template ones, with
 * SAFE_FOR_TEMPLATES fixed false). Throws unless there are such statements and the namespace is
 * then used by member only, so a new release is looked at before it ships.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withExpressionsByName(code, path) {
  if (!path.endsWith('/dompurify/src/purify.ts')) return code;
  let found = 0;
  const cut = code.replace(FROM_EXPRESSIONS, (statement, indent, kind, list) => {
    found++;
    const names = list.split(',').map((name) => name.trim()).filter(Boolean);
    return `${indent}${kind} ${names.map((name) => `${name} = EXPRESSIONS.${name}`).join(', ')};${linesOf(statement)}`;
  });
  const whole = cut.match(/\bEXPRESSIONS\b(?!\.\w)/g) ?? [];
  if (!found || whole.length !== 1 || !/^import \* as EXPRESSIONS from '\.\/regexp\.js';$/m.test(cut)) {
    throw new Error('dompurify/src/purify.ts no longer destructures EXPRESSIONS, or uses it whole elsewhere: check scripts/dompurify-source.mjs');
  }
  return cut;
}

const SEALED = /^export const (\w+) = seal\(/gm;

/**
 * DOMPurify's `src/regexp.ts` with each expression's `seal()` marked pure, so that the bundler
 * leaves out those nothing reads (see withExpressionsByName); `Object.seal` of a new regular
 * expression changes nothing outside it. Throws unless the module declares its expressions so.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withPureExpressions(code, path) {
  if (!path.endsWith('/dompurify/src/regexp.ts')) return code;
  const marked = code.replace(SEALED, 'export const $1 = /* @__PURE__ */ seal(');
  if (marked === code || /^export const \w+ = (?!\/\* @__PURE__ \*\/ seal\()/m.test(marked)) {
    throw new Error('dompurify/src/regexp.ts no longer declares each expression as seal(...): check scripts/dompurify-source.mjs');
  }
  return marked;
}

const HELPER = /^(const \w+ =|\s+typeof \w+ === 'undefined' \? null :) (unapply|unconstruct)\(/gm;

/**
 * DOMPurify's `src/utils.ts` with each helper it makes of a built-in's method (`unapply(Array.prototype.pop)`,
 * `unconstruct(Set)`) marked pure, so that the bundler leaves out those that nothing reads once the
 * methods the widget never calls are cut, with their reads of the built-ins (`Array.prototype.pop`,
 * which the minifier kept): making such a helper only makes a function. Throws unless the module
 * still declares its helpers so.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withPureHelpers(code, path) {
  if (!path.endsWith('/dompurify/src/utils.ts')) return code;
  let found = 0;
  const marked = code.replace(HELPER, (start, declaration, helper) => {
    found++;
    return `${declaration} /* @__PURE__ */ ${helper}(`;
  });
  if (found < 15) throw new Error(`dompurify/src/utils.ts declares ${found} helpers by unapply() or unconstruct() (expected 15 or more): check scripts/dompurify-source.mjs`);
  return marked;
}

/** `if (!freeze) { freeze = function … }` and the like: a stand-in for a built-in the browser lacks. */
const STAND_IN = /^if \(!(\w+)\) \{\n {2}\1 = function\b[\s\S]*?\n {2}\};\n\}\n/gm;
const STAND_INS = ['apply', 'construct', 'freeze', 'seal'];
const REFLECT = "let { apply, construct } = typeof Reflect !== 'undefined' && Reflect;";

/**
 * DOMPurify's `src/utils.ts` without its stand-ins for `Object.freeze`, `Object.seal`,
 * `Reflect.apply` and `Reflect.construct` where a browser lacks them (ES5-era ones), nor its check
 * that `Reflect` is there: every browser that runs the widget's es2022 build has all four.
 * Throws unless the module makes those four stand-ins and reads `Reflect` so.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function withoutStandIns(code, path) {
  if (!path.endsWith('/dompurify/src/utils.ts')) return code;
  const removed = [];
  const cut = code.replace(STAND_IN, (statement, name) => (removed.push(name), linesOf(statement)));
  if (removed.sort().join() !== STAND_INS.join() || !cut.includes(REFLECT)) {
    throw new Error(`dompurify/src/utils.ts makes stand-ins for ${removed.join(', ')} (expected ${STAND_INS.join(', ')}), or no longer reads Reflect as expected: check scripts/dompurify-source.mjs`);
  }
  return cut.replace(REFLECT, 'let { apply, construct } = Reflect;');
}

const REMOVED_RECORD = /^ *arrayPush\(DOMPurify\.removed, \{[^}]*\}\);$/gm;
const REMOVED_RESET = /^ *DOMPurify\.removed = \[\];$/gm;
/** What reads the records: in-place sanitizing and a named property made again, both fixed off (FIXED_OPTIONS). */
const REMOVED_READS = ['arrayForEach(DOMPurify.removed,', 'arrayPop(DOMPurify.removed)'];

/**
 * The source without its record of what it removed (`DOMPurify.removed`, a list of each element and
 * attribute taken out, for a caller to read after `sanitize`): not pushed to, not set. The widget's
 * instance is private to src/renderers/sanitize.ts, which never reads it, and the only reads left,
 * of in-place sanitizing and of a named property made again, run with options fixed off (−40 bytes
 * gzipped, measured on 6 December). Each line is left empty. Throws unless the three records, the
 * two resets and those two reads are all there is of it, so a release that reads it elsewhere is
 * looked at before it ships.
 * @param {string} code
 * @returns {string}
 */
export function withoutRemovedRecords(code) {
  const uncommented = code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (comment) => linesOf(comment));
  const [records, resets] = [uncommented.match(REMOVED_RECORD) ?? [], uncommented.match(REMOVED_RESET) ?? []];
  const cut = uncommented.replace(REMOVED_RECORD, linesOf).replace(REMOVED_RESET, '');
  const reads = cut.match(/\w*\(?DOMPurify\.removed\b[,)]?/g) ?? [];
  if (records.length !== 3 || resets.length !== 2 || reads.join() !== REMOVED_READS.join()) {
    throw new Error(`${DOMPURIFY_SOURCE}: DOMPurify.removed recorded ${records.length} times (expected 3), reset ${resets.length} (expected 2), read by ${reads.join(' ') || 'nothing'} (expected ${REMOVED_READS.join(' ')}): check scripts/dompurify-source.mjs`);
  }
  return code.replace(REMOVED_RECORD, linesOf).replace(REMOVED_RESET, '');
}

/**
 * A module of DOMPurify's source as the widget ships it: `src/purify.ts` without its release
 * (withoutVersion) and its record of what it removed (withoutRemovedRecords), without the methods
 * the widget never calls, with the options it leaves at false fixed
 * and the others it does not name read as unset, not spreading the lists it empties; `src/tags.ts`
 * and `src/attrs.ts` without those lists; `src/utils.ts` with its helpers pure and without its
 * stand-ins for built-ins (withoutStandIns); any other module as
 * it is. Every line stays where it was (what is cut leaves its line breaks), so lineMap maps the
 * result to its source.
 * @param {string} code
 * @param {string} path the module's path
 * @returns {string}
 */
export function asShipped(code, path) {
  if (path.endsWith('/dompurify/src/purify.ts')) return withoutEmptySpreads(withExpressionsByName(withUnsetOptions(withFixedOptions(withoutUnusedMethods(withoutRemovedRecords(withoutVersion(code)), path), path), path), path), path);
  return withoutStandIns(withPureHelpers(withPureExpressions(withoutDefaultLists(code, path), path), path), path);
}
