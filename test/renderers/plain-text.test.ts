import { expect } from '@open-wc/testing';
import { renderMarkdown } from '../../src/renderers/sanitize.js';
import { needsMarkdown, plainFragment } from '../../src/renderers/text-renderer.js';
import { prng } from '../support/prng.js';

// A plain reply is drawn without marked and DOMPurify (a chunk of their own, which it does not wait for):
// that is only right if, for every text `needsMarkdown` lets through, the result is the one marked
// and DOMPurify give. Checked here over hand-picked texts and a seeded random sample.

const toHtml = (fragment: DocumentFragment) => {
  const div = document.createElement('div');
  div.append(fragment);
  return div.innerHTML;
};

const SEED = Number(new URLSearchParams(location.search).get('seed') ?? 20261123);

// Pieces agents' plain text is made of, and every character markdown gives a meaning to.
const PIECES = [
  'Hello', 'world', 'Καλημέρα', 'Grüße', 'مرحبا', '你好', '😀', 'e\u0301', ' ', ' ', ' ', '  ', '\u00a0', '\u2003',
  '\n', '\n', '\n\n', '\n\n\n', '\n \n', '.', ',', ';', ':', '!', '?', "'", '"', '(', ')', '/', '%', '$', '€', '=', '+', '-',
  '--', '---', '===', '1.', '2)', '10.', '42', '3.14', '*', '_', '`', '~', '#', '>', '<', '&', '&amp;', '|', '[', ']', '\\',
  '@', 'www.', 'https://example.com', 'a@b.co', '\t', '\r', '\u0000', '\u200b', '\u2028', '    ', 'script', 'x:y',
];

describe('plain text without marked', () => {
  it('hand-picked texts: those passed as plain render as marked + DOMPurify render them', () => {
    const plain = [
      'Hello!', "I'm the demo agent. How can I help?", 'line one\nline two', 'para one\n\npara two', 'a\n\n\n\nb', '\nleading newline',
      'trailing newline\n', 'Price: 12.50 € (incl. VAT) - 30% off!', 'well-kept, e.g. this; and "quoted" text?', 'Καλημέρα σας', 'מה שלומך?',
      'x = 1 + 2', '2 items left', '100% sure', 'a\u00a0b', 'emoji 😀 here',
    ];
    for (const text of plain) {
      expect(needsMarkdown(text), JSON.stringify(text)).to.equal(false);
      expect(toHtml(plainFragment(text)), JSON.stringify(text)).to.equal(toHtml(renderMarkdown(text)));
    }
    const markdown = [
      '**bold**', '_em_', '`code`', '# Heading', '- item', '* item', '+ item', '1. first', '2) second', '> quote', 'a | b\n--|--\n1 | 2',
      'Title\n===', 'Title\n---', '    code', '\tcode', 'line  \nbreak', 'https://example.com', 'www.example.com', 'mail a@b.co',
      '&amp;', 'a\\*b', '~~gone~~', '[link](https://example.com)', '<b>x</b>', ' leading space', '\u00a0leading nbsp', 'a\r\nb',
    ];
    for (const text of markdown) expect(needsMarkdown(text), JSON.stringify(text)).to.equal(true);
  });

  it('a run of 200,000 blank lines between two paragraphs (a language model caught in a loop): two paragraphs, as marked gives, drawn at once', () => {
    // Looking for the end from each line break of the run took the square of its length: ~40 s
    // here, past the test's timeout.
    const text = `Sure!${'\n'.repeat(200_000)}Here you go.`;
    expect(needsMarkdown(text)).to.equal(false);
    expect(toHtml(plainFragment(text))).to.equal('<p>Sure!</p>\n<p>Here you go.</p>\n');
    expect(toHtml(plainFragment(text))).to.equal(toHtml(renderMarkdown(text)));
  });

  it(`random texts (seed ${SEED}): every one passed as plain renders as marked + DOMPurify render it`, () => {
    const random = prng(SEED);
    let plain = 0;
    for (let i = 0; i < 4000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      if (needsMarkdown(text)) continue;
      plain++;
      expect(toHtml(plainFragment(text)), `${JSON.stringify(text)} (seed ${SEED}, #${i})`).to.equal(toHtml(renderMarkdown(text)));
    }
    expect(plain, 'enough of the sample was plain to say something').to.be.above(300);
  });
});
