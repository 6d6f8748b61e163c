import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DOMPURIFY_SOURCE, FIXED_OPTIONS, UNSET_OPTIONS, UNUSED_METHODS, asShipped, lineMap, withExpressionsByName, withoutRemovedRecords, withoutVersion, withFixedOptions, withPureExpressions, withPureHelpers, withUnsetOptions, withoutDefaultLists, withoutEmptySpreads, withoutStandIns, withoutUnusedMethods } from '../../scripts/dompurify-source.mjs';

const source = (file: string) => {
  const path = join(dirname(DOMPURIFY_SOURCE), file);
  return { path, code: readFileSync(path, 'utf8') };
};

describe('DOMPurify without its built-in lists (scripts/dompurify-source.mjs)', () => {
  it('empties every list of tags.ts and attrs.ts but #text, and leaves the rest of the module', () => {
    for (const file of ['tags.ts', 'attrs.ts']) {
      const { path, code } = source(file);
      const emptied = withoutDefaultLists(code, path);
      const lists = [...emptied.matchAll(/^export const (\w+) = (freeze\()?(\[[^\]]*\])/gm)].map(([, name, frozen, list]) => `${name} ${frozen ?? ''}${list}`);
      assert.ok(lists.length >= 4, `${file}: ${lists.join('; ')}`);
      // Emptied, a plain array: no call of freeze that the minifier must keep for a list nothing reads.
      for (const list of lists) assert.match(list, /^(\w+ \[\]|text freeze\(\['#text'\])$/, file);
      const withoutLists = (text: string) => text.replace(/^export const \w+ = (freeze\()?\[[\s\S]*?\](?: as const)?\)?;\n*/gm, '');
      assert.equal(withoutLists(emptied), withoutLists(code), `${file}: only the lists change`);
    }
  });

  it('refuses a release whose lists differ (one added, one renamed), so it is looked at before it ships', () => {
    const { path, code } = source('tags.ts');
    assert.throws(() => withoutDefaultLists(`${code}\nexport const svgExtra = freeze(['x'] as const);\n`, path), /tags\.ts declares .*svgExtra/);
    assert.throws(() => withoutDefaultLists(code.replace('export const mathMl =', 'export const mathML ='), path), /tags\.ts declares .*mathML/);
  });

  it('leaves any other module as it is', () => {
    const { path, code } = source('purify.ts');
    assert.equal(withoutDefaultLists(code, path), code);
  });

  it('purify.ts no longer spreads the emptied lists (the sets they went into are as they were: empty but #text), and keeps its lines', () => {
    const { path, code } = source('purify.ts');
    const cut = withoutEmptySpreads(code, path);
    assert.deepEqual([...cut.matchAll(/\.\.\.(TAGS|ATTRS)\.(\w+)/g)].map(([spread]) => spread), ['...TAGS.text']);
    assert.equal(cut.split('\n').length, code.split('\n').length);
    assert.match(cut, /const DEFAULT_ALLOWED_TAGS = addToSet\(\{\}, \[\n+ {4}\.\.\.TAGS\.text,\n {2}\]\);/);
    assert.match(cut, /const ALL_MATHML_TAGS = addToSet\(\{\}, \[\n+ {2}\]\);/);
    assert.deepEqual([...asShipped(code, path).matchAll(/\.\.\.(TAGS|ATTRS)\.(\w+)/g)].map(([spread]) => spread), ['...TAGS.text'], 'asShipped has it');
    assert.throws(() => withoutEmptySpreads(code.replace('    ...TAGS.html,\n', '    ...TAGS.html,\n    ...TAGS.custom,\n'), path), /spreads TAGS\.custom, which is not emptied/);
    assert.throws(() => withoutEmptySpreads(code.replaceAll('    ...ATTRS.xml,\n', ''), path), /expected the ten emptied lists/);
  });
});

describe('DOMPurify without the methods the widget never calls (scripts/dompurify-source.mjs)', () => {
  const { path, code } = source('purify.ts');

  it('cuts each named method whole, from its assignment to its closing line, and nothing else', () => {
    const cut = withoutUnusedMethods(code, path);
    for (const name of UNUSED_METHODS) assert.doesNotMatch(cut, new RegExp(`DOMPurify\\.${name} =`), name);
    for (const name of ['sanitize', 'addHook']) assert.match(cut, new RegExp(`DOMPurify\\.${name} = function`), name);
    const methods = (text: string) => text.match(/^ {2}DOMPurify\.\w+ = /gm)?.length ?? 0;
    assert.equal(methods(code) - methods(cut), UNUSED_METHODS.length, 'one assignment less for each');
    assert.ok(code.length - cut.length < 4_000, `${code.length - cut.length} characters cut: the six methods, not what follows them`);
  });

  it('refuses a release that renames one, adds a use of one or moves one, so it is looked at before it ships', () => {
    assert.throws(() => withoutUnusedMethods(code.replace('DOMPurify.clearConfig = function', 'DOMPurify.resetConfig = function'), path), /declares .*expected/);
    assert.throws(() => withoutUnusedMethods(code.replace('  return DOMPurify;\n}', '  DOMPurify.setConfig({});\n  return DOMPurify;\n}'), path), /still names \.setConfig/);
    assert.throws(() => withoutUnusedMethods(code.replace('  DOMPurify.removeHooks = function', '    DOMPurify.removeHooks = function'), path), /declares .*expected/);
  });

  it('leaves any other module as it is', () => {
    const other = source('utils.ts');
    assert.equal(withoutUnusedMethods(other.code, other.path), other.code);
  });
});

describe('DOMPurify with the options the widget leaves at false fixed (scripts/dompurify-source.mjs)', () => {
  const { path, code } = source('purify.ts');

  it('leaves out the one statement that sets each from the configuration, and nothing else', () => {
    const cut = withFixedOptions(code, path);
    for (const name of FIXED_OPTIONS) {
      assert.match(code, new RegExp(`^ {4}${name} =`, 'm'), `the release sets ${name}`);
      assert.doesNotMatch(cut, new RegExp(`(?<!let )\\b${name} =[^=]`), `${name} is only declared`);
      assert.match(cut, new RegExp(`^ {2}let ${name}\\b.* = false;$`, 'm'), `${name} is declared false`);
    }
    const removed = code.split('\n').filter((line) => !cut.split('\n').includes(line));
    // One line for each, but USE_PROFILES's statement, which runs over five.
    assert.equal(removed.length, FIXED_OPTIONS.length - 1 + 5, removed.join('\n'));
  });

  it('refuses a release that sets one elsewhere, declares one true, or sets it another way', () => {
    assert.throws(() => withFixedOptions(code.replace('    if (RETURN_DOM_FRAGMENT) {', '    if (cfg.X) { IN_PLACE = true; }\n    if (RETURN_DOM_FRAGMENT) {'), path), /set elsewhere: IN_PLACE/);
    assert.throws(() => withFixedOptions(code.replace('  let FORCE_BODY = false;', '  let FORCE_BODY = true;'), path), /declared false .*FORCE_BODY/);
    assert.throws(() => withFixedOptions(code.replace('WHOLE_DOCUMENT = cfg.WHOLE_DOCUMENT || false;', 'WHOLE_DOCUMENT = Boolean(cfg.WHOLE_DOCUMENT);'), path), /expected/);
  });

  it('purify.ts without its release: DOMPurify.version not set, VERSION not declared, on their lines; refuses a release that makes it otherwise', () => {
    const cut = withoutVersion(code);
    assert.equal(cut.split('\n').length, code.split('\n').length, 'as many lines');
    const [before, after] = [code.split('\n'), cut.split('\n')];
    assert.deepEqual(before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]])), [['declare const VERSION: string;', ''], ['  DOMPurify.version = VERSION;', '']]);
    assert.doesNotMatch(cut, /\bVERSION\b/);
    assert.throws(() => withoutVersion(code.replace('  DOMPurify.version = VERSION;', '  DOMPurify.version = `${VERSION}`;')), /no longer declares VERSION and sets DOMPurify\.version from it once/);
    assert.throws(() => withoutVersion(code.replace('declare const VERSION: string;', 'const VERSION = "3";')), /no longer declares VERSION/);
  });

  it('purify.ts without its record of what it removed: not pushed to, not set, on their lines; refuses a release that reads it elsewhere or keeps it otherwise', () => {
    const cut = withoutRemovedRecords(code);
    assert.equal(cut.split('\n').length, code.split('\n').length, 'as many lines');
    const [before, after] = [code.split('\n'), cut.split('\n')];
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [line.trim()]));
    assert.deepEqual(changed.filter((line) => line.includes('DOMPurify.removed')), ['DOMPurify.removed = [];', 'arrayPush(DOMPurify.removed, { element: node });', 'arrayPush(DOMPurify.removed, {', 'arrayPush(DOMPurify.removed, { element: currentNode.cloneNode() });', 'DOMPurify.removed = [];']);
    assert.ok(after.every((line, i) => line === before[i] || line === ''), 'each line cut left empty');
    assert.throws(() => withoutRemovedRecords(code.replace('    return DOMPurify;\n', '    if (DOMPurify.removed.length) {}\n    return DOMPurify;\n')), /read by \(DOMPurify\.removed arrayForEach\(DOMPurify\.removed, arrayPop\(DOMPurify\.removed\) \(expected/);
    assert.throws(() => withoutRemovedRecords(code.replace('arrayPush(DOMPurify.removed, { element: node });', 'DOMPurify.removed.push({ element: node });')), /recorded 2 times \(expected 3\)/);
    assert.throws(() => withoutRemovedRecords(code.replace('  DOMPurify.removed = [];', '  DOMPurify.removed = new Array();')), /reset 1 \(expected 2\)/);
  });

  it('asShipped: purify.ts with every cut, tags.ts and attrs.ts without lists, utils.ts with its helpers pure and without its stand-ins for built-ins', () => {
    const shipped = asShipped(code, path);
    assert.doesNotMatch(shipped, /^declare const VERSION|DOMPurify\.version =/m);
    assert.doesNotMatch(shipped, /arrayPush\(DOMPurify\.removed|DOMPurify\.removed = /);
    assert.doesNotMatch(shipped, /DOMPurify\.setConfig =|\bIN_PLACE = cfg/);
    assert.equal(asShipped(source('tags.ts').code, source('tags.ts').path), withoutDefaultLists(source('tags.ts').code, source('tags.ts').path));
    assert.equal(asShipped(source('utils.ts').code, source('utils.ts').path), withoutStandIns(withPureHelpers(source('utils.ts').code, source('utils.ts').path), source('utils.ts').path));
  });

  it('asShipped keeps every line where it was, so its line-to-line map holds (the build warned of a broken source map, and mapped nothing of DOMPurify)', () => {
    for (const file of ['purify.ts', 'tags.ts', 'attrs.ts', 'regexp.ts', 'utils.ts']) {
      const { path, code: original } = source(file);
      const shipped = asShipped(original, path);
      const [before, after] = [original.split('\n'), shipped.split('\n')];
      assert.equal(after.length, before.length, `${file}: as many lines`);
      // What is left on a line is what was there or a cut of it: nothing (a statement left out), an
      // option read as unset, or a declaration that keeps its name (a list emptied, the release).
      const readAsUnset = (line: string) => line.replace(/\bcfg\.\w+/g, 'undefined').replace(/objectHasOwnProperty\(cfg, '\w+'\)/g, 'false');
      const keepsName = (line: string, was: string) => was.split(/\W+/).filter((w) => w.length > 3).some((w) => line.includes(w));
      const moved = after.filter((line, i) => line.trim() && line !== before[i] && line !== readAsUnset(before[i]) && !keepsName(line, before[i]));
      assert.deepEqual(moved, [], `${file}: lines that came from elsewhere`);
      const { mappings, sources } = lineMap(shipped, path);
      assert.deepEqual(sources, [path]);
      assert.equal(mappings.split(';').length, after.length, `${file}: one mapping per line`);
    }
  });
});

describe('DOMPurify reading the other options the widget does not name as unset (scripts/dompurify-source.mjs)', () => {
  const { path, code } = source('purify.ts');

  it('reads cfg.NAME as undefined and objectHasOwnProperty(cfg, NAME) as false, for each named', () => {
    const cut = withUnsetOptions(code, path);
    for (const name of UNSET_OPTIONS) {
      assert.match(code, new RegExp(`\\bcfg\\.${name}\\b`), `the release reads ${name}`);
      assert.doesNotMatch(cut, new RegExp(`\\bcfg\\.${name}\\b|objectHasOwnProperty\\(cfg, '${name}'\\)`), name);
    }
    assert.match(cut, /\bcfg\.ALLOWED_TAGS\b|'ALLOWED_TAGS'/, 'what the widget names is still read');
  });

  it('refuses a release that no longer reads one, or assigns it', () => {
    assert.throws(() => withUnsetOptions(code.replaceAll('cfg.NAMESPACE', 'cfg.namespace'), path), /no longer reads cfg\.NAMESPACE/);
    assert.throws(() => withUnsetOptions(code.replace('    /* Shield configuration object from prototype pollution */', '    cfg.ADD_TAGS = [];\n    /* Shield configuration object from prototype pollution */'), path), /cfg\.ADD_TAGS, or assigns it/);
  });
});

describe('DOMPurify taking its regular expressions by name (scripts/dompurify-source.mjs)', () => {
  const { path, code } = source('purify.ts');
  const regexp = source('regexp.ts');

  it('takes each destructured expression by member, on the line it was on; the namespace object is then used by member only', () => {
    const cut = withExpressionsByName(code, path);
    assert.match(code, /\} = EXPRESSIONS;/, 'the release destructures it');
    assert.doesNotMatch(cut, /\} = EXPRESSIONS;/);
    for (const name of ['MUSTACHE_EXPR', 'DATA_ATTR', 'CUSTOM_ELEMENT', 'IS_ALLOWED_URI']) assert.match(cut, new RegExp(`\\b${name} = EXPRESSIONS\\.${name}\\b`), name);
    assert.match(cut, /^ {2}let IS_ALLOWED_URI = EXPRESSIONS\.IS_ALLOWED_URI;$/m, 'a `let` stays a `let` (the configuration may replace it)');
    assert.equal(cut.split('\n').length, code.split('\n').length, 'as many lines');
    assert.deepEqual(cut.match(/\bEXPRESSIONS\b(?!\.\w)/g), ['EXPRESSIONS'], 'the import is the one use that is not a member');
  });

  it('refuses a release that uses the namespace object whole, or no longer destructures it, so it is looked at before it ships', () => {
    assert.throws(() => withExpressionsByName(code.replace('  return DOMPurify;\n}', '  console.log(EXPRESSIONS);\n  return DOMPurify;\n}'), path), /uses it whole/);
    assert.throws(() => withExpressionsByName(code.replace(/\} = EXPRESSIONS;/g, '} = { ...EXPRESSIONS };'), path), /no longer destructures/);
    assert.equal(withExpressionsByName(regexp.code, regexp.path), regexp.code, 'any other module as it is');
  });

  it("marks each expression's seal() pure, so that those nothing reads are left out; refuses a module that declares one otherwise", () => {
    const marked = withPureExpressions(regexp.code, regexp.path);
    const declared = regexp.code.match(/^export const \w+/gm)!.length;
    assert.equal(marked.match(/^export const \w+ = \/\* @__PURE__ \*\/ seal\(/gm)?.length, declared, 'every one');
    assert.throws(() => withPureExpressions(regexp.code.replace('export const DOCTYPE_NAME = seal(', 'export const DOCTYPE_NAME = freeze('), regexp.path), /no longer declares/);
    assert.equal(withPureExpressions(code, path), code, 'any other module as it is');
  });

  it("marks each helper utils.ts makes of a built-in's method pure, so that those nothing reads are left out with their reads of the built-ins", () => {
    const utils = source('utils.ts');
    const marked = withPureHelpers(utils.code, utils.path);
    const made = utils.code.match(/\b(unapply|unconstruct)\((Array|Set|String|Number|Boolean|BigInt|Symbol|Object|TypeError)\b/g)!.length;
    assert.equal(marked.match(/\/\* @__PURE__ \*\/ (unapply|unconstruct)\(/g)?.length, made, 'every one');
    assert.equal(marked.replaceAll('/* @__PURE__ */ ', ''), utils.code, 'nothing else');
    assert.throws(() => withPureHelpers(utils.code.replaceAll('= unapply(', '= uncurryThis('), utils.path), /expected 15 or more/);
    assert.equal(withPureHelpers(code, path), code, 'any other module as it is');
    const dist = new URL('../../dist/chunks/', import.meta.url);
    const [file] = readdirSync(dist).filter((name) => name.startsWith('markdown-') && name.endsWith('.js'));
    const chunk = readFileSync(new URL(file, dist), 'utf8');
    for (const unused of ['Array.prototype.lastIndexOf', 'Array.prototype.pop', 'Array.prototype.splice', 'Set.prototype.has']) assert.ok(!chunk.includes(unused), unused);
  });

  it("leaves out utils.ts's stand-ins for Object.freeze, Object.seal, Reflect.apply and Reflect.construct (every browser the es2022 build runs in has them), on their lines, and nothing else; refuses a release that makes them otherwise", () => {
    const utils = source('utils.ts');
    const cut = withoutStandIns(utils.code, utils.path);
    assert.equal(cut.split('\n').length, utils.code.split('\n').length, 'as many lines');
    const [before, after] = [utils.code.split('\n'), cut.split('\n')];
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    assert.ok(changed.every(([, now]) => now === '' || now === 'let { apply, construct } = Reflect;'), JSON.stringify(changed));
    assert.deepEqual(changed.filter(([was]) => /^if \(!/.test(was)).map(([was]) => was), ['if (!freeze) {', 'if (!seal) {', 'if (!apply) {', 'if (!construct) {']);
    assert.throws(() => withoutStandIns(utils.code.replace('if (!seal) {', 'if (!Object.seal) {'), utils.path), /stand-ins for apply, construct, freeze \(expected apply, construct, freeze, seal\)/);
    assert.throws(() => withoutStandIns(utils.code.replace("typeof Reflect !== 'undefined' && Reflect", 'Reflect'), utils.path), /no longer reads Reflect/);
    assert.equal(withoutStandIns(code, path), code, 'any other module as it is');
    const dist = new URL('../../dist/chunks/', import.meta.url);
    const [file] = readdirSync(dist).filter((name) => name.startsWith('markdown-') && name.endsWith('.js'));
    assert.doesNotMatch(readFileSync(new URL(file, dist), 'utf8'), /typeof Reflect|\|\|=function/, 'none in the markdown chunk');
  });

  it('the markdown chunk builds no namespace object for them, has none of the template expressions its configuration never runs, no frozen empty list, no release and no record of what it removed', () => {
    const dist = new URL('../../dist/chunks/', import.meta.url);
    const [file] = readdirSync(dist).filter((name) => name.startsWith('markdown-') && name.endsWith('.js'));
    const chunk = readFileSync(new URL(file, dist), 'utf8');
    assert.doesNotMatch(chunk, /toStringTag/, 'no namespace object (the bundler makes one with Symbol.toStringTag)');
    assert.ok(!chunk.includes('<%[\\w\\W]'), 'no ERB expression');
    assert.ok(chunk.includes('^aria-'), 'the expressions it uses are there');
    assert.doesNotMatch(chunk, /\(\[\]\)/, 'no call on an empty list (freeze of a list emptied)');
    assert.ok(!chunk.includes(JSON.parse(readFileSync(new URL('../../node_modules/dompurify/package.json', import.meta.url), 'utf8')).version), 'no release');
    assert.doesNotMatch(chunk, /\.removed\b/, 'no record of what it removed (what read it, options fixed off, left out with it)');
  });
});
