// marked, compiled from the TypeScript source its package ships (the `sourcesContent` of
// `marked/lib/marked.esm.js.map`, the same release) instead of its prebuilt ES file, with three
// things the widget never uses left out:
//
// - the pedantic grammar (the original Markdown.pl's rules, `pedantic: true`): its rule sets and the
//   branches that read the option. The widget's parser (src/renderers/sanitize.ts) is GFM with line
//   breaks and never pedantic;
// - what `use()` takes but `tokenizer` and `renderer` overrides: "addon" extensions (new block and
//   inline tokenizers and renderers), hooks and `walkTokens`, and the branches of the lexer, the
//   parser and `parse()` that run them (given to `use()`, they are ignored). The widget overrides
//   built-in tokenizers only (`use({ tokenizer })`); and `parse()`'s asynchronous mode (`async:
//   true`), as the widget parses synchronously;
// - the options it never sets read as their values (`gfm`, `breaks`, … see FOLDED), and so left
//   out of the default options (DEFAULTS_NEVER_READ);
// - the rule sets as marked composes them when it loads (rules.ts: each grammar rule a pattern with
//   placeholders that `edit().replace()` fills with others, some eighty replacements): the sets
//   are composed here, once, and written as regular expression literals (withLiteralRules), the same
//   patterns with the same flags, shared where marked shares one (−533 bytes gzipped in the markdown
//   chunk, measured on 2 December: a composed pattern compresses better than the code that composes
//   it, and no pattern is composed when the chunk loads). Where marked asks the browser whether it has
//   lookbehind (three patterns), the answer is yes: every browser that runs the widget has it (the
//   shell needs constructable style sheets in shadow roots: Chromium 73, Firefox 101, Safari 16.4;
//   lookbehind: Chromium 62, Firefox 78, Safari 16.4), so the question and the patterns without
//   lookbehind are left out (−97 bytes gzipped, measured on 5 December);
// - the parser's two switches on a token's type (a case for each type, each calling the renderer's
//   method of that type) as the method looked up by the type (withRendererLookup: −123 bytes gzipped,
//   measured on 5 December);
// - the default instance and the `marked()` function (`src/marked.ts`), and the `Marked` class
//   (`src/Instance.ts`: the options and extensions `use()` merges, `parse()`'s checks): the widget
//   runs marked's lexer and parser itself, so the entry is a file of this script's (ENTRY) that
//   exports what it reads, `Lexer`, `Parser`, `Renderer`, `Tokenizer` and `getDefaults`, under the names the
//   package exports them by. It exports `Marked` too, for the tests that compare the widget's
//   parsing with it; the widget never imports it, so its build leaves the class out (−625 bytes
//   gzipped, measured on 26 November). The class loses the aliases an instance carries
//   (`marked.Lexer`, `marked.Hooks`, …) and the branches above all the same, for those tests.
//
// 14,995 → 13,209 bytes gzipped for marked alone with the class (esbuild and terser, measured),
// and sixteen regular expressions fewer made when the chunk loads. The widget's build (vite.config.ts) and its
// browser tests (web-test-runner.config.mjs) both use it, so the tests run the marked that ships.
// test/bundle/marked-source.test.ts shows it parses exactly as the prebuilt marked for the widget's
// options, and that a release whose source differs where this file cuts stops the build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { transformSync } from 'esbuild';

const root = new URL('../node_modules/marked/', import.meta.url);

/** The declarations of rules.ts that make the pedantic grammar, and nothing else. */
export const PEDANTIC_DECLARATIONS = [
  'blockPedantic',
  'emStrongLDelimPedanticCore',
  'emStrongLDelimPedantic',
  'emStrongRDelimAstPedanticCore',
  'emStrongRDelimAstPedantic',
  'emStrongRDelimUndPedanticCore',
  'emStrongRDelimUndPedantic',
  'inlinePedantic',
].sort();

/** The source files marked's map holds, by file name (`Instance.ts`, `rules.ts`, …). */
export function markedSources() {
  const map = JSON.parse(readFileSync(new URL('lib/marked.esm.js.map', root), 'utf8'));
  if (!Array.isArray(map.sourcesContent) || map.sourcesContent.length !== map.sources.length) {
    throw new Error('marked/lib/marked.esm.js.map no longer carries its sources: check scripts/marked-source.mjs');
  }
  return Object.fromEntries(map.sources.map((path, i) => [path.split('/').pop(), map.sourcesContent[i]]));
}

/**
 * What each file reads of the options (and of the packs `use()` takes) that the widget never sets,
 * and the value it reads as: the default (`pedantic` and `async` false, as the widget's parser is
 * synchronous; `extensions`, `hooks`, `walkTokens` null), or a pack's missing key (undefined). The
 * widget's parser passes options and a pack with `tokenizer` overrides only (src/renderers/sanitize.ts).
 */
export const FOLDED = {
  'Tokenizer.ts': { 'this.options.pedantic': 'false', 'this.options.gfm': 'true' },
  'Lexer.ts': {
    'this.options.pedantic': 'false', 'this.options.extensions': 'null', 'this.options.gfm': 'true', 'this.options.breaks': 'true',
    'this.options.hooks': 'null', 'this.options.silent': 'false',
  },
  'Parser.ts': { 'this.options.extensions': 'null', 'this.options.silent': 'false' },
  'Instance.ts': {
    'this.defaults.async': 'false', 'this.defaults.extensions': 'null', 'this.defaults.hooks': 'null', 'this.defaults.walkTokens': 'null',
    'opt.async': 'false', 'opt.hooks': 'null', 'opt.walkTokens': 'null',
    'pack.extensions': 'undefined', 'pack.hooks': 'undefined', 'pack.walkTokens': 'undefined',
  },
};

/**
 * The rules of the plain CommonMark sets (rules.ts `blockNormal`, `inlineNormal`) that the GFM ones
 * (`blockGfm`, and `inlineGfm` under `inlineBreaks`) replace with their own: the widget's lexer only
 * ever takes the GFM sets with line breaks (`gfm` and `breaks` read as true), so these are never read.
 * Each becomes marked's `noopTest`, and its declaration goes (NORMAL_ONLY_DECLARATIONS): −115 bytes
 * gzipped, and four regular expressions fewer built when the chunk loads.
 */
export const GFM_REPLACED = {
  blockNormal: { by: 'blockGfm', rules: ['lheading', 'paragraph'] },
  inlineNormal: { by: 'inlineGfm', rules: ['emStrongLDelim', 'emStrongRDelimAst', 'text'] },
};

/** What only those rules used: the declarations of rules.ts cut with them. */
export const NORMAL_ONLY_DECLARATIONS = ['lheading', 'paragraph', 'emStrongLDelim', 'emStrongRDelimAst', 'inlineText'];

/**
 * The keys of marked's default options (defaults.ts `_getDefaults()`) that no file of the widget's
 * marked reads any more, every read of them being FOLDED (or, in the tests' `Marked`, read where
 * missing means the default: `opt.silent`, an unset `hooks`' `options.async`): left out of the
 * object, which the widget spreads under its options (src/renderers/sanitize.ts), so only
 * `renderer` and `tokenizer` stay (−85 bytes gzipped, measured).
 */
export const DEFAULTS_NEVER_READ = ['async', 'breaks', 'extensions', 'gfm', 'hooks', 'pedantic', 'silent', 'walkTokens'];

/** The class aliases a `Marked` instance carries (`marked.Lexer`, …), which the widget never reads. */
export const INSTANCE_ALIASES = ['Parser', 'Renderer', 'TextRenderer', 'Lexer', 'Tokenizer', 'Hooks'];

/** The rules of `other` (rules.ts) that only the pedantic grammar reads, or nothing does (`outputLinkReplace`). */
export const PEDANTIC_ONLY_RULES = ['outputLinkReplace', 'listReplaceNesting', 'pedanticHrefTitle', 'spaceLine', 'pedanticHeadingBeginRegex'];

/** Removes each of `names`, a line `  NAME…` of `code` (`  NAME = …;` or `  NAME: …,`); throws unless each stands there once. */
function withoutLines(code, file, names, line) {
  return names.reduce((cut, name) => {
    const pattern = line(name);
    if ((cut.match(pattern) ?? []).length !== 1) throw new Error(`marked's ${file} no longer declares ${name} on one line: check scripts/marked-source.mjs`);
    return cut.replace(pattern, '');
  }, code);
}

/** `expression` wherever it is read whole (not `x.opt.hooks`, not `opt.hooksX`). */
const reads = (expression) => new RegExp(`(?<![\\w$.])${expression.replaceAll('.', '\\.')}\\b(?!\\s*=[^=])`, 'g');

/**
 * One of marked's source files without what the widget never uses (see above): Instance.ts loses
 * the INSTANCE_ALIASES; defaults.ts the DEFAULTS_NEVER_READ; the expressions in FOLDED read as their values (the minifier drops the
 * branches they guarded); rules.ts loses the PEDANTIC_ONLY_RULES of `other`, the pedantic rule sets
 * and the declarations only they use (each runs from `const NAME` to the next blank line). Throws
 * where the source is not as expected (an expression no longer read, or assigned; a line not
 * found once), so a new release is looked at before it ships.
 * @param {string} code
 * @param {string} file the file's name (`rules.ts`)
 * @returns {string}
 */
export function withoutUnusedParts(code, file) {
  if (file === 'Instance.ts') code = withoutLines(code, file, INSTANCE_ALIASES, (name) => new RegExp(`^ {2}${name} = _${name}(?:<[\\w, ]+>)?;\\n`, 'gm'));
  if (file === 'defaults.ts') return withoutLines(code, file, DEFAULTS_NEVER_READ, (name) => new RegExp(`^ {4}${name}: (?:false|true|null),\\n`, 'gm'));
  if (FOLDED[file]) {
    return Object.entries(FOLDED[file]).reduce((folded, [expression, value]) => {
      const assigned = new RegExp(`(?<![\\w$.])${expression.replaceAll('.', '\\.')}\\s*=[^=]`);
      if (!reads(expression).test(folded) || assigned.test(folded)) {
        throw new Error(`marked's ${file} no longer reads ${expression}, or assigns it: check scripts/marked-source.mjs`);
      }
      return folded.replace(reads(expression), value);
    }, code);
  }
  if (file !== 'rules.ts') return code;
  const removed = [];
  const rules = withoutNormalOnlyRules(withoutLines(code, file, PEDANTIC_ONLY_RULES, (name) => new RegExp(`^ {2}${name}: [^\\n]*,\\n`, 'gm')));
  let cut = rules.replace(/^const (\w*Pedantic\w*)\b[\s\S]*?\n(?=[ \t]*\n)/gm, (declaration, name) => {
    if (!/;[ \t]*(\/\/[^\n]*)?\n$/.test(declaration)) throw new Error(`marked's rules.ts: ${name} does not end before a blank line: check scripts/marked-source.mjs`);
    removed.push(name);
    return '';
  });
  const exported = [/^ {2}pedantic: blockPedantic,\n/m, /^ {2}pedantic: inlinePedantic,\n/m];
  for (const line of exported) {
    if (!line.test(cut)) throw new Error(`marked's rules.ts no longer exports ${line.source}: check scripts/marked-source.mjs`);
    cut = cut.replace(line, '');
  }
  const left = cut.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').match(/\b\w*Pedantic\w*\b/g);
  if (removed.sort().join() !== PEDANTIC_DECLARATIONS.join() || left) {
    throw new Error(`marked's rules.ts declares ${removed.join(', ')}${left ? ` and still names ${left.join(', ')}` : ''} (expected ${PEDANTIC_DECLARATIONS.join(', ')}): check scripts/marked-source.mjs`);
  }
  return cut;
}

/**
 * rules.ts with the GFM_REPLACED members of the plain sets as `noopTest` and the
 * NORMAL_ONLY_DECLARATIONS gone (each a line `const NAME = …` and the lines `  .method(…)` after it,
 * ending with a `;`). Throws unless the GFM set still gives each its own value (`  NAME: …`), each
 * stands once in its plain set (`  NAME,` or `  NAME: VALUE,`), and each declaration once.
 */
function withoutNormalOnlyRules(code) {
  const literal = (set) => {
    const found = code.match(new RegExp(`^const ${set}(?:: [^=\\n]*)? = \\{\\n[\\s\\S]*?\\n\\};\\n`, 'm'));
    if (!found) throw new Error(`marked's rules.ts no longer declares ${set} as an object: check scripts/marked-source.mjs`);
    return found[0];
  };
  for (const [set, { by, rules }] of Object.entries(GFM_REPLACED)) {
    const gfm = literal(by);
    const replaced = rules.reduce((cut, name) => {
      if (!new RegExp(`^ {2}${name}: `, 'm').test(gfm)) throw new Error(`marked's ${by} no longer replaces ${name}: check scripts/marked-source.mjs`);
      const member = new RegExp(`^ {2}${name}(?:: \\w+)?,\\n`, 'gm');
      if ((cut.match(member) ?? []).length !== 1) throw new Error(`marked's ${set} no longer holds ${name} on one line: check scripts/marked-source.mjs`);
      return cut.replace(member, `  ${name}: noopTest,\n`);
    }, literal(set));
    code = code.replace(literal(set), replaced);
  }
  return NORMAL_ONLY_DECLARATIONS.reduce((cut, name) => {
    const declaration = new RegExp(`^const ${name} = [^\\n]*\\n(?: {2}\\.[^\\n]*\\n)*`, 'gm');
    const found = cut.match(declaration) ?? [];
    if (found.length !== 1 || !/;\n$/.test(found[0])) throw new Error(`marked's rules.ts no longer declares ${name} in one statement: check scripts/marked-source.mjs`);
    return cut.replace(declaration, '');
  }, code);
}

/**
 * Parser.ts with each `switch (token.type)` that only hands a token to the renderer's method of its
 * type (`case 'hr': { out += this.renderer.hr(token); break; }`, twenty-three cases in two loops)
 * written as that method looked up by the type: the types kept in a list, which the token's type must
 * be in (else the switch's `default`, as it is: marked's "Token with … type was not found."), and
 * the few whose method has another name (`escape`, drawn by `text`) named. The same calls, on the
 * same renderer (−123 bytes gzipped in the markdown chunk, measured on 5 December). Throws where a switch is not laid out
 * so, so a new release is looked at.
 * @param {string} code Parser.ts
 * @returns {string}
 */
export function withRendererLookup(code) {
  let switches = 0;
  const lists = [];
  const done = code.replace(/^( +)switch \(token\.type\) \{\n([\s\S]*?)\n\1 {2}default: \{\n([\s\S]*?)\n\1 {2}\}\n\1\}\n/gm, (all, indent, body, fallback) => {
    const CASE = /^ +case '(\w+)': \{\n +out \+= ((?:this\.)?renderer)\.(\w+)\(token\);\n +break;\n +\}$/gm;
    const cases = [...body.matchAll(CASE)];
    if (!cases.length || body.replace(CASE, '').trim() || new Set(cases.map((c) => c[2])).size !== 1) {
      throw new Error("marked's Parser.ts has a switch on token.type that does more than call the renderer's method: check scripts/marked-source.mjs");
    }
    const method = cases.filter(([, type, , name]) => type !== name).reduce((other, [, type, , name]) => `token.type === '${type}' ? '${name}' : ${other}`, 'token.type');
    switches++;
    lists.push(`const rendered${switches} = [${cases.map((c) => `'${c[1]}'`).join(', ')}];\n`);
    return `${indent}if (!rendered${switches}.includes(token.type)) {\n${fallback}\n${indent}}\n${indent}out += (${cases[0][2]} as any)[${method}](token);\n`;
  });
  if (switches !== 2) throw new Error(`marked's Parser.ts has ${switches} switches on token.type, not 2: check scripts/marked-source.mjs`);
  const parser = done.indexOf('\nexport class _Parser');
  if (parser < 0) throw new Error("marked's Parser.ts no longer declares `export class _Parser`: check scripts/marked-source.mjs");
  return `${done.slice(0, parser)}\n/** The token types each loop hands to the renderer (scripts/marked-source.mjs, withRendererLookup). */\n${lists.join('')}${done.slice(parser)}`;
}

/** rules.ts's test of the browser's regular expressions for lookbehind, which both sets of literals keep. */
const LOOKBEHIND_TEST = /^const supportsLookbehind = \(\(a = ''\) => \{\n[\s\S]*?\n\}\)\(\);\n/m;

/**
 * What rules.ts exports when it runs, with its lookbehind test answered `lookbehind`: compiled
 * (esbuild strips its types) and run in this process, so its patterns are this realm's RegExps.
 * Without `lookbehind`, the rules as shipped (withLiteralRules), which ask nothing.
 * @param {string} code rules.ts
 * @param {boolean} [lookbehind]
 * @returns {{ other: object, block: Record<string, Record<string, RegExp | { exec(text: string): null }>>, inline: Record<string, Record<string, RegExp | { exec(text: string): null }>> }} (noopTest where a rule never matches)
 */
export function evaluateRules(code, lookbehind) {
  if (lookbehind === undefined ? /\bsupportsLookbehind\b/.test(code) : (code.match(new RegExp(LOOKBEHIND_TEST.source, 'gm')) ?? []).length !== 1) {
    throw new Error("marked's rules.ts no longer tests for lookbehind as before: check scripts/marked-source.mjs");
  }
  const js = transformSync(code.replace(LOOKBEHIND_TEST, `const supportsLookbehind = ${lookbehind};\n`), { loader: 'ts', format: 'cjs' }).code;
  const module = { exports: {} };
  vm.runInThisContext(`(function (exports, module) {${js}\n})`, { filename: 'marked/src/rules.ts' })(module.exports, module);
  return module.exports;
}

/** marked's `noopTest`: a rule that never matches (an object with `exec` only, not a RegExp). */
const isNoop = (rule) => !(rule instanceof RegExp) && Object.keys(rule).join() === 'exec' && rule.exec('') === null;

/**
 * rules.ts with its `block` and `inline` sets written as the regular expressions marked composes
 * (see the top of this file): what comes before the grammar (`noopTest` and `other`, which is
 * literals and functions already) stays as it is, but for the lookbehind test, `_tag` too (a
 * function of `other` reads it); each pattern the sets hold is a `const` (one for each RegExp marked
 * makes, so what marked shares stays shared), written as a literal, as marked makes it where the
 * browser has lookbehind. Throws where rules.ts is not laid out as expected, so a new release is
 * looked at.
 * @param {string} code rules.ts, without what the widget never uses (withoutUnusedParts)
 * @returns {string}
 */
export function withLiteralRules(code) {
  const once = (marker, what) => {
    const at = code.indexOf(marker);
    if (at < 0 || code.indexOf(marker, at + 1) >= 0) throw new Error(`marked's rules.ts no longer has ${what} once: check scripts/marked-source.mjs`);
    return at;
  };
  const grammar = once('\nconst newline = ', 'the block grammar after `other`');
  const exported = once('\nexport const block = ', 'the export of `block`');
  const rulesType = once('\nexport interface Rules ', 'the `Rules` interface');
  const composing = code.slice(grammar, exported);
  const tag = composing.match(/\nconst _tag = [^;]*;\n/g);
  if (tag?.length !== 1 || /^export /m.test(composing) || code.slice(exported, rulesType).match(/^export /gm).length !== 2) {
    throw new Error("marked's rules.ts no longer declares `_tag` once and exports only `block` and `inline` after `other`: check scripts/marked-source.mjs");
  }
  // With lookbehind: every browser that runs the widget has it (see the top of this file).
  const found = evaluateRules(code, true);
  /** Each RegExp of the sets → the name of its `const`. */
  const names = new Map();
  const declarations = [];
  const literal = (rule, path) => {
    if (isNoop(rule)) return 'noopTest';
    if (!(rule instanceof RegExp)) throw new Error(`marked's ${path} is not a regular expression: check scripts/marked-source.mjs`);
    if (names.has(rule)) return names.get(rule);
    const name = path.replaceAll('.', '_');
    names.set(rule, name);
    declarations.push(`const ${name} = /${rule.source}/${rule.flags};\n`);
    return name;
  };
  const sets = (group) => `{\n${Object.entries(found[group]).map(([set, rules]) => `  ${set}: {\n${Object.entries(rules).map(([key, rule]) => `    ${key}: ${literal(rule, `${group}.${set}.${key}`)},\n`).join('')}  },\n`).join('')}}`;
  const block = sets('block');
  const inline = sets('inline');
  const before = code.slice(0, grammar).replace(LOOKBEHIND_TEST, '');
  if (/\bsupportsLookbehind\b/.test(before)) throw new Error("marked's rules.ts reads its lookbehind test before the grammar: check scripts/marked-source.mjs");
  return `${before}\n// The grammar, composed by scripts/marked-source.mjs (withLiteralRules).${tag[0]}${declarations.join('')}
export const block = ${block};

export const inline = ${inline};

type BlockKeys = keyof typeof block.normal;
type InlineKeys = keyof typeof inline.normal;
${code.slice(rulesType)}`;
}

/** The entry (`parts.ts`): what the widget imports of marked, by the package's names, and `Marked` for the tests. */
export const ENTRY = `export { _Lexer as Lexer } from './Lexer.ts';
export { _Parser as Parser } from './Parser.ts';
export { _Renderer as Renderer } from './Renderer.ts';
export { _Tokenizer as Tokenizer } from './Tokenizer.ts';
export { _getDefaults as getDefaults } from './defaults.ts';
export { Marked } from './Instance.ts';
`;

/**
 * Writes marked's source, without what the widget never uses, to node_modules/.cache (once per
 * release of marked and version of this file) and returns the absolute path of its entry,
 * `parts.ts` (ENTRY).
 * @returns {string}
 */
export function markedSource() {
  return (written ??= writeMarkedSource());
}

/** The entry markedSource() wrote, once per process (the build resolves `marked` at each import of it). */
let written;

function writeMarkedSource() {
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const cuts = createHash('sha256').update(readFileSync(new URL(import.meta.url))).digest('hex').slice(0, 12);
  const dir = new URL(`../node_modules/.cache/agent-chat-marked/${version}-${cuts}/`, import.meta.url);
  const entry = new URL('parts.ts', dir);
  // The files are written before the marker, so a build cut off halfway writes them again.
  const done = new URL('.written', dir);
  if (!existsSync(done)) {
    mkdirSync(dir, { recursive: true });
    for (const [file, code] of Object.entries(markedSources())) {
      const cut = withoutUnusedParts(code, file);
      writeFileSync(new URL(file, dir), file === 'rules.ts' ? withLiteralRules(cut) : file === 'Parser.ts' ? withRendererLookup(cut) : cut);
    }
    for (const [, file] of ENTRY.matchAll(/from '\.\/(\w+\.ts)'/g)) {
      if (!existsSync(new URL(file, dir))) throw new Error(`marked/lib/marked.esm.js.map has no ${file}: check scripts/marked-source.mjs`);
    }
    writeFileSync(entry, ENTRY);
    writeFileSync(done, '');
  }
  return fileURLToPath(entry);
}
