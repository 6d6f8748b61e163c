import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { Marked as PrebuiltMarked, Tokenizer as PrebuiltTokenizer } from 'marked';
import { DEFAULTS_NEVER_READ, ENTRY, FOLDED, GFM_REPLACED, INSTANCE_ALIASES, NORMAL_ONLY_DECLARATIONS, PEDANTIC_DECLARATIONS, PEDANTIC_ONLY_RULES, evaluateRules, markedSource, markedSources, withLiteralRules, withRendererLookup, withoutUnusedParts } from '../../scripts/marked-source.mjs';
import { HOSTILE } from '../support/hostile-payloads.js';
import { LONG_REPLY } from '../support/long-reply.js';
import { prng } from '../support/prng.js';
import { MARKED_OPTIONS, markdownToHtml, taskBox } from '../../src/renderers/sanitize.js';

// The block rules each text ran, counted from the start: the widget's parser reads them once, when
// it is made (here, in node, it runs the prebuilt marked's lexer, parser and tokenizer).
const ran = new Map<string, number>();
const tokenizerRules = PrebuiltTokenizer.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const rule of ['blockquote', 'html', 'table', 'lheading', 'code', 'fences', 'heading', 'hr', 'list', 'def', 'paragraph']) {
  const own = tokenizerRules[rule];
  tokenizerRules[rule] = function (this: unknown, ...args: unknown[]) {
    ran.set(rule, (ran.get(rule) ?? 0) + 1);
    return own.apply(this, args);
  };
}

// The widget's marked is built from the source its package ships, without the pedantic grammar and
// what use() takes but tokenizer and renderer overrides (scripts/marked-source.mjs): for the
// widget's options and its tokenizer overrides, it must parse exactly as the prebuilt one.

/** The `Marked` class the widget ships (from node_modules/.cache, written by the build's own script). */
const shippedMarked = async () => ((await import(pathToFileURL(markedSource()).href)) as typeof import('marked')).Marked;

/** Markdown where the pedantic grammar differs from GFM's, or that reads the branches it cut. */
const EDGES = [
  'Heading\n=======\n\nSub\n---\n\ntext', '#Not a heading in GFM', '# Heading #\n\n###### six', '**foo:**bar and __foo:__bar', '_foo:_bar *a*b* **(x)**',
  '***strong em*** and ___both___ a***b***c', '**"quoted"** *(paren)* ~~gone~~ ~one~', 'a\\\nb  \nc', '* a\n* b\n\n  continued\n* c',
  '1. one\n2) two\n10. ten\n   - nested\n     - deeper', '- [ ] task\n- [x] done', '1. [x] loose\n\n2. [ ] task list\n\n   with more', '    indented code\n\n```js\nfenced\n```\n~~~\ntilde\n~~~',
  '> quote\nlazy line\n> > nested', '<div>\n*html block*\n</div>\n\n<span>inline</span> *x*', '[link](https://x.example "title") [ref][r]\n\n[r]: https://r.example \'t\'',
  '[angle](<https://x.example/a b>) [bad](<https://x.example) ![img](https://x.example/i.png "t")', 'https://auto.example www.example.com a@b.example <https://x.example>',
  '| a | b |\n|:-|-:|\n| 1 | 2 |\n| 3 |', 'hr\n***\n- - -\n___', 'line\n    not code after a paragraph', '+ plus\n\n+ loose', '`code` ``a ` b`` `` ` ``',
  '&amp; &copy; &#35; &#x22; \\* \\_', 'setext after list\n- a\n---', 'x <!-- comment --> y', '<!-- block comment -->\n\ntext', '# [heading link](https://h.example)',
];

/** Pieces the random replies are made of: marks at line starts, inline marks, and text. */
const PIECES = [
  '\n', '\n\n', '# ', '## ', '> ', '- ', '* ', '+ ', '1. ', '2) ', '    ', '```', '~~~', '---', '===', '***', '| a | b |', '|---|---|', '**', '__', '*', '_', '~~', '`',
  '[', '](', ')', ']', '![', '<', '>', '<b>', '</b>', '<div>', '</div>', 'https://x.example/p?q=1', 'www.example.com', 'word', 'two words', 'ünïcödé', '(', '"', ':', '\\', '  \n', '&amp;',
];

describe('marked without its pedantic grammar and what use() takes but tokenizer and renderer (scripts/marked-source.mjs)', () => {
  it('parses exactly as the prebuilt marked for the widget\'s options: edge cases, hostile payloads, a long reply and 3,000 seeded random replies', async () => {
    const Marked = await shippedMarked();
    const shipped = new Marked(MARKED_OPTIONS);
    const prebuilt = new PrebuiltMarked(MARKED_OPTIONS);
    for (const text of [...EDGES, ...HOSTILE, LONG_REPLY]) assert.equal(shipped.parse(text), prebuilt.parse(text), text);
    const random = prng(20261125);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      assert.equal(shipped.parse(text), prebuilt.parse(text), `${JSON.stringify(text)} (#${i})`);
    }
  });

  it('the widget\'s parsing (marked\'s lexer and parser with its tokenizer, no `Marked`) gives exactly what `Marked` gives for its options, task boxes as text', () => {
    const prebuilt = new PrebuiltMarked(MARKED_OPTIONS).use({ renderer: { checkbox: taskBox } });
    for (const text of [...EDGES, ...HOSTILE, LONG_REPLY]) assert.equal(markdownToHtml(text), prebuilt.parse(text), text);
    const random = prng(20261126);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      assert.equal(markdownToHtml(text), prebuilt.parse(text), `${JSON.stringify(text)} (#${i})`);
    }
  });

  it('…but for a run of more than 100 spaces, cut to 100 (marked\'s time grows with the square of a run: a reply ending in 100,000 spaces held the page for seconds)', () => {
    const prebuilt = new PrebuiltMarked(MARKED_OPTIONS).use({ renderer: { checkbox: taskBox } });
    const run = (n: number) => ' '.repeat(n);
    const cases = [
      [`a${run(100_000)}b`, `a${run(100)}b`],
      [`Here it is:${run(100_000)}\n**done**`, `Here it is:${run(100)}\n**done**`],
      [`\`\`\`\nx${run(150)}y\n${run(101)}z\n\`\`\``, `\`\`\`\nx${run(100)}y\n${run(100)}z\n\`\`\``],
      [`| a${run(300)}| b |\n|---|---|\n| 1 | 2${run(3000)}|`, `| a${run(100)}| b |\n|---|---|\n| 1 | 2${run(100)}|`],
    ];
    for (const [text, as] of cases) assert.equal(markdownToHtml(text), prebuilt.parse(as), JSON.stringify(as));
    assert.equal(markdownToHtml(`a${run(100)}b`), `<p>a${run(100)}b</p>\n`, '100 spaces kept');
    assert.equal(markdownToHtml(`a${run(99)}\t${run(99)}b`), `<p>a${run(99)}\t${run(99)}b</p>\n`, 'a run is of spaces only');
  });

  it('…and skips the block rules but the paragraph\'s where their mark is missing (which the comparison cannot tell)', () => {
    ran.clear();
    markdownToHtml('Plain words\nand a second line.\n\nA paragraph: with a colon, *emphasis* and https://x.example.');
    assert.deepEqual(Object.fromEntries(ran), { paragraph: 2 });
    ran.clear();
    markdownToHtml('> a quote\n\n<div>html</div>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nHeading\n---\n\n    code\n\n```\nfenced\n```\n\n# h\n\n***\n\n- item\n\n[r]: https://r.example');
    for (const rule of ['blockquote', 'html', 'table', 'lheading', 'code', 'fences', 'heading', 'hr', 'list', 'def']) assert.ok(ran.get(rule), rule);
  });

  it('…and looks for a set-text heading\'s underline in the paragraph it would end only, not in the rest of the text (at each paragraph: 20,000 short ones took 650 ms)', () => {
    ran.clear();
    assert.equal(markdownToHtml('Intro.\n\nHeading\n---\n\nMore.'), '<p>Intro.</p>\n<h2>Heading</h2>\n<p>More.</p>\n');
    assert.equal(ran.get('lheading'), 1, 'marked\'s rule run for the underlined paragraph only');
    ran.clear();
    markdownToHtml(`${'A paragraph.\n\n'.repeat(500)}Heading\n===`);
    assert.equal(ran.get('lheading'), 1);
    ran.clear();
    assert.equal(markdownToHtml('One paragraph\n \nand another, under a line of spaces\n==='), '<p>One paragraph</p>\n<h1>and another, under a line of spaces</h1>\n');
    assert.equal(ran.get('lheading'), 2, 'looked past a line of white space: marked\'s rule run for the paragraph before it too');
  });

  it('the entry exports what the widget imports of marked, by the package\'s names', async () => {
    const shipped = await import(pathToFileURL(markedSource()).href);
    const prebuilt = await import('marked');
    const names = [...ENTRY.matchAll(/(?:as (\w+)|\{ (\w+)) \}/g)].map((m) => m[1] ?? m[2]);
    assert.deepEqual(names, ['Lexer', 'Parser', 'Renderer', 'Tokenizer', 'getDefaults', 'Marked']);
    for (const name of names) {
      assert.equal(typeof shipped[name], 'function', name);
      assert.equal(typeof (prebuilt as Record<string, unknown>)[name], 'function', name);
    }
  });

  it('really has none of what use() takes but tokenizer and renderer: hooks and walkTokens are ignored, a renderer override still works', async () => {
    const Marked = await shippedMarked();
    const renderer = { renderer: { strong: () => 'STRONG' } };
    assert.equal(new Marked(MARKED_OPTIONS).use(renderer).parse('a **b**'), new PrebuiltMarked(MARKED_OPTIONS).use(renderer).parse('a **b**'));
    const packs = [
      { hooks: { postprocess: (html: string) => html.toUpperCase() } },
      { walkTokens: (token: { type: string; text?: string }) => void (token.type === 'text' && (token.text = 'walked')) },
    ];
    for (const pack of packs) {
      assert.notEqual(new PrebuiltMarked(MARKED_OPTIONS).use(pack).parse('a **b**'), '<p>a <strong>b</strong></p>\n', Object.keys(pack)[0]);
      assert.equal(new Marked(MARKED_OPTIONS).use(pack).parse('a **b**'), '<p>a <strong>b</strong></p>\n', Object.keys(pack)[0]);
    }
  });

  it('really has no addon extensions: one registered does nothing', async () => {
    const Marked = await shippedMarked();
    const extension = { extensions: [{ name: 'shout', level: 'inline' as const, start: (src: string) => src.indexOf('!!'), tokenizer: (src: string) => (src.startsWith('!!') ? { type: 'shout', raw: '!!' } : undefined), renderer: () => 'SHOUT' }] };
    assert.equal(new PrebuiltMarked(MARKED_OPTIONS).use(extension).parse('a !! b'), '<p>a SHOUT b</p>\n');
    assert.equal(new Marked(MARKED_OPTIONS).use(extension).parse('a !! b'), '<p>a !! b</p>\n');
  });

  it('an instance carries none of the class aliases it leaves out', async () => {
    const Marked = await shippedMarked();
    const shipped = new Marked(MARKED_OPTIONS) as unknown as Record<string, unknown>;
    const prebuilt = new PrebuiltMarked(MARKED_OPTIONS) as unknown as Record<string, unknown>;
    for (const name of INSTANCE_ALIASES) {
      assert.equal(shipped[name], undefined, name);
      assert.equal(typeof prebuilt[name], 'function', name);
    }
  });

  it('parses synchronously only: async: true no longer makes parse() return a promise', async () => {
    const Marked = await shippedMarked();
    assert.ok(new PrebuiltMarked({ async: true }).parse('*a*') instanceof Promise);
    assert.equal(new Marked({ async: true }).parse('*a*'), new PrebuiltMarked({ async: false }).parse('*a*'));
  });

  it('really has no pedantic grammar: the option no longer changes anything', async () => {
    const Marked = await shippedMarked();
    const text = '#Heading\n\n**foo:**bar';
    assert.notEqual(new PrebuiltMarked({ async: false, pedantic: true }).parse(text), new PrebuiltMarked({ async: false }).parse(text));
    assert.equal(new Marked({ async: false, pedantic: true }).parse(text), new Marked({ async: false }).parse(text));
  });

  it('parses GFM with line breaks only: `gfm: false` and `breaks: false` no longer change anything', async () => {
    const Marked = await shippedMarked();
    const text = 'line one\nline two ~~gone~~ https://x.example\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSet-text\n---';
    for (const options of [{ gfm: false }, { breaks: false }, { gfm: false, breaks: false }]) {
      assert.notEqual(new PrebuiltMarked({ async: false, ...options }).parse(text), new PrebuiltMarked(MARKED_OPTIONS).parse(text), JSON.stringify(options));
      assert.equal(new Marked({ async: false, ...options }).parse(text), new PrebuiltMarked(MARKED_OPTIONS).parse(text), JSON.stringify(options));
    }
  });

  it('cuts the rules of the plain sets that the GFM sets replace, and the declarations only they used', () => {
    const sources = markedSources();
    const rules = withoutUnusedParts(sources['rules.ts'], 'rules.ts');
    for (const name of NORMAL_ONLY_DECLARATIONS) {
      assert.match(sources['rules.ts'], new RegExp(`^const ${name} = `, 'm'), name);
      assert.doesNotMatch(rules, new RegExp(`^const ${name} = `, 'm'), name);
    }
    for (const [set, { rules: members }] of Object.entries(GFM_REPLACED)) {
      const literal = rules.match(new RegExp(`^const ${set} = \\{\\n[\\s\\S]*?\\n\\};`, 'm'))![0];
      for (const name of members) assert.match(literal, new RegExp(`^ {2}${name}: noopTest,$`, 'm'), `${set}.${name}`);
    }
    assert.throws(() => withoutUnusedParts(sources['rules.ts'].replace(/^ {2}lheading: lheadingGfm,\n/m, ''), 'rules.ts'), /blockGfm no longer replaces lheading/);
    assert.throws(() => withoutUnusedParts(sources['rules.ts'].replace(/^ {2}lheading,\n/m, '  lheading: lheadingNormal,\n  lheading,\n'), 'rules.ts'), /blockNormal no longer holds lheading on one line/);
    assert.throws(() => withoutUnusedParts(sources['rules.ts'].replace('const emStrongLDelim = edit', 'let emStrongLDelim = edit'), 'rules.ts'), /no longer declares emStrongLDelim in one statement/);
    assert.throws(() => withoutUnusedParts(sources['rules.ts'].replace('const inlineNormal = {', 'const inlineCommonMark = {'), 'rules.ts'), /no longer declares inlineNormal/);
  });

  it('writes the rule sets as the regular expressions marked composes where the browser has lookbehind (every browser that runs the widget): the same patterns and flags, noopTest and shared where marked has them', () => {
    const composed = withoutUnusedParts(markedSources()['rules.ts'], 'rules.ts');
    const literal = withLiteralRules(composed);
    assert.doesNotMatch(literal.slice(literal.indexOf('// The grammar, composed')), /\bedit\(/, 'nothing composed when the chunk loads');
    assert.doesNotMatch(literal, /supportsLookbehind/, 'no test of the browser for lookbehind');
    const withLookbehind = (['block', 'inline'] as const).flatMap((group) => Object.entries(evaluateRules(composed, true)[group]).flatMap(([set, all]) => Object.entries(all).filter(([key, rule]) => String(rule) !== String(evaluateRules(composed, false)[group][set][key])).map(([key]) => `${group}.${set}.${key}`)));
    assert.deepEqual(withLookbehind, ['inline.normal.blockSkip', 'inline.gfm.blockSkip', 'inline.gfm.text', 'inline.breaks.blockSkip', 'inline.breaks.text'], 'the patterns that differ where the browser has lookbehind (blockSkip, the two GFM sets\' text)');
    const marked = evaluateRules(composed, true);
    const shipped = evaluateRules(literal);
    const rules = (exports: typeof marked) => (['block', 'inline'] as const).flatMap((group) => Object.entries(exports[group]).flatMap(([set, all]) => Object.entries(all).map(([key, rule]) => [`${group}.${set}.${key}`, rule] as const)));
    const theirs = rules(marked);
    const ours = rules(shipped);
    assert.deepEqual(ours.map(([path]) => path), theirs.map(([path]) => path), 'the same sets and keys, in order');
    ours.forEach(([path, rule], i) => {
      const their = theirs[i][1];
      if (their instanceof RegExp) assert.ok(rule instanceof RegExp && rule.source === their.source && rule.flags === their.flags, `${path}: ${rule} for ${their}`);
      else assert.ok(!(rule instanceof RegExp) && rule.exec('x') === null, `${path} never matches`);
    });
    const sharing = (all: typeof ours) => all.map(([, rule]) => all.findIndex(([, other]) => other === rule));
    assert.deepEqual(sharing(ours), sharing(theirs), 'one RegExp where marked has one');
    assert.deepEqual(Object.keys(shipped.other), Object.keys(marked.other), 'other as it is');
    assert.ok(String(evaluateRules(literal).inline.breaks.text).includes('(?<![^\\s*_~(])www\\.'), 'with lookbehind, whatever the question would have answered: text stops at a www. only after a space or a mark');
    assert.throws(() => withLiteralRules(composed.replace('\nexport interface Rules ', '\nexport type Rules = ')), /no longer has the `Rules` interface once/);
    assert.throws(() => withLiteralRules(composed.replace('const _tag = ', 'let _tag = ')), /no longer declares `_tag` once/);
    assert.throws(() => withLiteralRules(composed.replace('\nconst blockCode = ', '\nexport const extra = 1;\nconst blockCode = ')), /exports only `block` and `inline`/);
    assert.throws(() => withLiteralRules(composed.replace("((a = '') => {", '(() => {')), /no longer tests for lookbehind/);
    assert.throws(() => withLiteralRules(composed.replace('  text: blockText,\n', '  text: blockText,\n  extra: { exec: () => [] },\n')), /block\.normal\.extra is not a regular expression/);
  });

  it('hands each token to the renderer\'s method of its type by looking it up, not by a switch: the same calls, and a type it does not know still refused', async () => {
    const parser = withRendererLookup(withoutUnusedParts(markedSources()['Parser.ts'], 'Parser.ts'));
    assert.doesNotMatch(parser, /switch \(token\.type\)/);
    assert.match(parser, /^const rendered1 = \['space', 'hr', 'heading', 'code', 'table', 'blockquote', 'list', 'checkbox', 'html', 'def', 'paragraph', 'text'\];$/m);
    assert.match(parser, /^const rendered2 = \['escape', 'html', 'link', 'image', 'checkbox', 'strong', 'em', 'codespan', 'br', 'del', 'text'\];$/m);
    assert.match(parser, /\[token\.type === 'escape' \? 'text' : token\.type\]\(token\)/, 'an escape drawn as text, as its case did');
    const { Parser } = await import(pathToFileURL(markedSource()).href);
    const { Parser: PrebuiltParser } = await import('marked');
    for (const tokens of [[{ type: 'listitem', raw: '', text: '' }], [{ type: 'constructor', raw: '' }]]) {
      assert.throws(() => PrebuiltParser.parse(tokens as never), { message: `Token with "${tokens[0].type}" type was not found.` });
      assert.throws(() => Parser.parse(tokens), { message: `Token with "${tokens[0].type}" type was not found.` }, 'a method of the renderer that is no token type is not called');
      assert.throws(() => Parser.parseInline(tokens), { message: `Token with "${tokens[0].type}" type was not found.` });
    }
    const switched = markedSources()['Parser.ts'];
    assert.throws(() => withRendererLookup(switched.replace("out += this.renderer.hr(token);", "out += this.renderer.hr(token) + '\\n';")), /does more than call the renderer's method/);
    assert.throws(() => withRendererLookup(switched.replace("case 'del': {", "case 'del': {\n          seen++;")), /does more than call the renderer's method/);
    assert.throws(() => withRendererLookup(switched.replace(/switch \(token\.type\) \{/, 'switch (token.kind) {')), /has 1 switches on token\.type, not 2/);
    assert.throws(() => withRendererLookup(switched.replace('export class _Parser', 'export class Parser')), /no longer declares `export class _Parser`/);
  });

  it('leaves out of the default options those no file reads any more, and nothing else', async () => {
    const { getDefaults } = await import(pathToFileURL(markedSource()).href);
    const prebuilt = (await import('marked')).getDefaults();
    assert.deepEqual(Object.keys(getDefaults()), Object.keys(prebuilt).filter((key) => !DEFAULTS_NEVER_READ.includes(key)));
    assert.deepEqual(Object.keys(getDefaults()), ['renderer', 'tokenizer']);
    const sources = markedSources();
    for (const [file, code] of Object.entries(sources)) {
      if (file === 'Instance.ts') continue; // the tests' Marked: \`opt.silent\`, and \`options.async\` of hooks it never has
      const cut = withoutUnusedParts(code, file);
      for (const key of DEFAULTS_NEVER_READ) assert.doesNotMatch(cut, new RegExp(`\\b(options|defaults)\\??\\.${key}\\b`), `${file} reads ${key}`);
    }
    assert.throws(() => withoutUnusedParts(sources['defaults.ts'].replace('    silent: false,\n', '    silent: !!0,\n'), 'defaults.ts'), /no longer declares silent/);
  });

  it('cuts the declarations named, the options read and the two exports, and leaves the other modules as they are', () => {
    const sources = markedSources();
    const rules = withoutUnusedParts(sources['rules.ts'], 'rules.ts');
    for (const name of PEDANTIC_DECLARATIONS) assert.doesNotMatch(rules, new RegExp(`\\bconst ${name}\\b`));
    assert.doesNotMatch(rules, /pedantic: (block|inline)Pedantic/);
    assert.ok(rules.length < sources['rules.ts'].length - 3000, 'the grammar is a few kilobytes of source');
    for (const [file, folded] of Object.entries(FOLDED)) {
      const cut = withoutUnusedParts(sources[file], file);
      for (const expression of Object.keys(folded)) {
        const read = new RegExp(`(?<![\\w$.])${expression.replaceAll('.', '\\.')}\\b`);
        assert.match(sources[file], read, `${file} reads ${expression}`);
        assert.doesNotMatch(cut, read, `${file}: ${expression}`);
      }
    }
    for (const name of PEDANTIC_ONLY_RULES) assert.doesNotMatch(rules, new RegExp(`^ {2}${name}:`, 'm'), name);
    const instance = withoutUnusedParts(sources['Instance.ts'], 'Instance.ts');
    for (const name of INSTANCE_ALIASES) assert.doesNotMatch(instance, new RegExp(`^ {2}${name} =`, 'm'), name);
    for (const file of ['Renderer.ts', 'TextRenderer.ts', 'Hooks.ts', 'helpers.ts']) assert.equal(withoutUnusedParts(sources[file], file), sources[file], file);
  });

  it('refuses a release whose source differs where it cuts, so it is looked at before it ships', () => {
    const sources = markedSources();
    const rules = sources['rules.ts'];
    assert.throws(() => withoutUnusedParts(`${rules}\nconst linkPedantic = /x/;\n`, 'rules.ts'), /declares .*linkPedantic/);
    assert.throws(() => withoutUnusedParts(rules.replace('const inlinePedantic', 'const inlineLoose'), 'rules.ts'), /still names|declares/);
    assert.throws(() => withoutUnusedParts(rules.replace('  pedantic: blockPedantic,\n', '  loose: blockPedantic,\n'), 'rules.ts'), /no longer exports|still names/);
    assert.throws(() => withoutUnusedParts(sources['Lexer.ts'].replaceAll('this.options.pedantic', 'this.pedantic'), 'Lexer.ts'), /no longer reads this\.options\.pedantic/);
    assert.throws(() => withoutUnusedParts(sources['Parser.ts'].replaceAll('this.options.extensions', 'this.extensions'), 'Parser.ts'), /no longer reads this\.options\.extensions/);
    assert.throws(() => withoutUnusedParts(sources['Instance.ts'].replace('const opt = {', 'opt.hooks = null;\n    const opt = {'), 'Instance.ts'), /opt\.hooks, or assigns it/);
    assert.throws(() => withoutUnusedParts(sources['Instance.ts'].replace(/^ {2}Hooks = .*$/m, '  Hooks = makeHooks();'), 'Instance.ts'), /no longer declares Hooks/);
    assert.throws(() => withoutUnusedParts(rules.replace(/^ {2}spaceLine: .*$/m, '  spaceLine:\n    /^ +$/gm,'), 'rules.ts'), /no longer declares spaceLine/);
  });
});
