import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { Marked as PrebuiltMarked } from 'marked';
import { PEDANTIC_DECLARATIONS, markedSource, markedSources, withoutPedantic } from '../../scripts/marked-source.mjs';
import { HOSTILE } from '../support/hostile-payloads.js';
import { LONG_REPLY } from '../support/long-reply.js';
import { prng } from '../support/prng.js';

// The widget's marked is built from the source its package ships, without the pedantic grammar
// (scripts/marked-source.mjs): for the widget's options it must parse exactly as the prebuilt one.
const OPTIONS = { async: false, gfm: true, breaks: true } as const;

/** Markdown where the pedantic grammar differs from GFM's, or that reads the branches it cut. */
const EDGES = [
  'Heading\n=======\n\nSub\n---\n\ntext', '#Not a heading in GFM', '# Heading #\n\n###### six', '**foo:**bar and __foo:__bar', '_foo:_bar *a*b* **(x)**',
  '***strong em*** and ___both___ a***b***c', '**"quoted"** *(paren)* ~~gone~~ ~one~', 'a\\\nb  \nc', '* a\n* b\n\n  continued\n* c',
  '1. one\n2) two\n10. ten\n   - nested\n     - deeper', '- [ ] task\n- [x] done', '    indented code\n\n```js\nfenced\n```\n~~~\ntilde\n~~~',
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

describe('marked without its pedantic grammar (scripts/marked-source.mjs)', () => {
  it('parses exactly as the prebuilt marked for the widget\'s options: edge cases, hostile payloads, a long reply and 3,000 seeded random replies', async () => {
    const { Marked } = (await import(pathToFileURL(markedSource()).href)) as typeof import('marked');
    const shipped = new Marked(OPTIONS);
    const prebuilt = new PrebuiltMarked(OPTIONS);
    for (const text of [...EDGES, ...HOSTILE, LONG_REPLY]) assert.equal(shipped.parse(text), prebuilt.parse(text), text);
    const random = prng(20261125);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 24) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      assert.equal(shipped.parse(text), prebuilt.parse(text), `${JSON.stringify(text)} (#${i})`);
    }
  });

  it('really has no pedantic grammar: the option no longer changes anything', async () => {
    const { Marked } = (await import(pathToFileURL(markedSource()).href)) as typeof import('marked');
    const text = '#Heading\n\n**foo:**bar';
    assert.notEqual(new PrebuiltMarked({ async: false, pedantic: true }).parse(text), new PrebuiltMarked({ async: false }).parse(text));
    assert.equal(new Marked({ async: false, pedantic: true }).parse(text), new Marked({ async: false }).parse(text));
  });

  it('cuts the declarations named, the options read and the two exports, and leaves the other modules as they are', () => {
    const sources = markedSources();
    const rules = withoutPedantic(sources['rules.ts'], 'rules.ts');
    for (const name of PEDANTIC_DECLARATIONS) assert.doesNotMatch(rules, new RegExp(`\\bconst ${name}\\b`));
    assert.doesNotMatch(rules, /pedantic: (block|inline)Pedantic/);
    assert.ok(rules.length < sources['rules.ts'].length - 3000, 'the grammar is a few kilobytes of source');
    for (const file of ['Tokenizer.ts', 'Lexer.ts']) assert.doesNotMatch(withoutPedantic(sources[file], file), /options\.pedantic/, file);
    for (const file of ['Instance.ts', 'Parser.ts', 'Renderer.ts', 'helpers.ts']) assert.equal(withoutPedantic(sources[file], file), sources[file], file);
  });

  it('refuses a release whose source differs where it cuts, so it is looked at before it ships', () => {
    const sources = markedSources();
    const rules = sources['rules.ts'];
    assert.throws(() => withoutPedantic(`${rules}\nconst linkPedantic = /x/;\n`, 'rules.ts'), /declares .*linkPedantic/);
    assert.throws(() => withoutPedantic(rules.replace('const inlinePedantic', 'const inlineLoose'), 'rules.ts'), /still names|declares/);
    assert.throws(() => withoutPedantic(rules.replace('  pedantic: blockPedantic,\n', '  loose: blockPedantic,\n'), 'rules.ts'), /no longer exports|still names/);
    assert.throws(() => withoutPedantic(sources['Lexer.ts'].replaceAll('this.options.pedantic', 'this.pedantic'), 'Lexer.ts'), /no longer reads/);
  });
});
