import { expect } from '@open-wc/testing';
import createDOMPurify from 'dompurify';
import { Marked } from 'marked';
import { FIXED_OPTIONS, UNSET_OPTIONS, UNUSED_METHODS } from '../../scripts/dompurify-options.mjs';
import { MARKED_OPTIONS, PURIFY_CONFIG } from '../../src/renderers/sanitize.js';
import { HOSTILE } from '../support/hostile-payloads.js';
import { prng } from '../support/prng.js';

// The widget's DOMPurify is built without its built-in allowlists (scripts/dompurify-source.mjs):
// for the widget's configuration it must clean exactly as the DOMPurify its package ships prebuilt.
const PREBUILT = '/node_modules/dompurify/dist/purify.es.mjs';

/** Every element of a cleaned fragment as namespace and name, then its markup. */
const shape = (fragment: DocumentFragment) => {
  const elements = [...fragment.querySelectorAll('*')].map((element) => `${element.namespaceURI} ${element.localName}`);
  const div = document.createElement('div');
  div.append(fragment);
  return { elements, html: div.innerHTML };
};

describe('the shipped DOMPurify, without its built-in lists', () => {
  let shipped: ReturnType<typeof createDOMPurify>;
  let prebuilt: ReturnType<typeof createDOMPurify>;
  before(async () => {
    const { default: create } = (await import(PREBUILT)) as typeof import('dompurify');
    shipped = createDOMPurify(window);
    prebuilt = create(window);
  });

  const foreign = [
    '<svg><a href="https://x.example/">svg link</a></svg>',
    '<math><mi>x</mi><mtext><b>bold</b></mtext></math>',
    '<svg><foreignObject><p>in</p></foreignObject></svg>',
    '<math><annotation-xml encoding="text/html"><p>x</p></annotation-xml></math>',
    '<svg><title><a href="https://x.example/">t</a></title></svg>',
    '<table><tr><td><svg><a>x</a></svg></td></tr></table>',
  ];

  it('cleans the hostile payloads and SVG and MathML exactly as the prebuilt DOMPurify does, for the widget\'s configuration', () => {
    const marked = new Marked(MARKED_OPTIONS);
    for (const dirty of [...HOSTILE, ...foreign].flatMap((text) => [text, marked.parse(text) as string])) {
      expect(shape(shipped.sanitize(dirty, PURIFY_CONFIG)), dirty).to.deep.equal(shape(prebuilt.sanitize(dirty, PURIFY_CONFIG)));
    }
  });

  it('…and so for seeded random markup mixing HTML, SVG and MathML', () => {
    const pieces = [
      '<svg>', '</svg>', '<math>', '</math>', '<mtext>', '<mi>', '<mglyph>', '<annotation-xml encoding="text/html">', '<foreignObject>',
      '<desc>', '<title>', '<style>', '</style>', '<a href="https://x.example/">', '</a>', '<img src=x alt=y>', '<p>', '</p>', '<b>',
      '<table>', '<tr>', '<td>', '<pre>', '<code>', '<form>', '</form>', '<template>', '<!--', '-->', 'text', '<br>', '<h1>', '<ul><li>',
      // What the options the shipped DOMPurify fixes or reads as unset act on (scripts/dompurify-source.mjs):
      // aria- and data- attributes, templates, documents, named properties, other protocols, custom elements.
      '<p aria-label="a" data-x="1">', '<b data-href="javascript:x()" aria-hidden="true">', '{{ secret }}', '${x}', '<% y %>', '<html>', '<body>',
      '<img name="cookie" id="body" src=x>', '<a href="foo:bar">', '<a href="tel:1">', '<x-foo is="y">', '<u>', '<?xml-stylesheet x?>', '<![CDATA[c]]>',
    ];
    const random = prng(20261125);
    for (let i = 0; i < 2000; i++) {
      const dirty = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      expect(shape(shipped.sanitize(dirty, PURIFY_CONFIG)), `${dirty} (#${i})`).to.deep.equal(shape(prebuilt.sanitize(dirty, PURIFY_CONFIG)));
    }
  });

  it('is given none of the options it keeps at false or reads as unset (scripts/dompurify-source.mjs FIXED_OPTIONS, UNSET_OPTIONS), which the prebuilt one honours', () => {
    for (const name of [...FIXED_OPTIONS, ...UNSET_OPTIONS]) {
      expect(PURIFY_CONFIG, name).not.to.have.property(name);
    }
    const templated = '<p>{{ secret }} <b>x</b></p>';
    const html = (fragment: DocumentFragment) => shape(fragment).html;
    expect(html(prebuilt.sanitize(templated, { ...PURIFY_CONFIG, SAFE_FOR_TEMPLATES: true })), 'the prebuilt one blanks templates').to.not.include('secret');
    expect(html(shipped.sanitize(templated, { ...PURIFY_CONFIG, SAFE_FOR_TEMPLATES: true })), 'the shipped one keeps them: the option is fixed false').to.include('secret');
    expect(html(shipped.sanitize(templated, PURIFY_CONFIG))).to.equal(html(prebuilt.sanitize(templated, PURIFY_CONFIG)));
    const added = '<u>underlined</u>';
    expect(html(prebuilt.sanitize(added, { ...PURIFY_CONFIG, ADD_TAGS: ['u'] })), 'the prebuilt one adds tags').to.equal(added);
    expect(html(shipped.sanitize(added, { ...PURIFY_CONFIG, ADD_TAGS: ['u'] })), 'the shipped one reads ADD_TAGS as unset').to.equal('underlined');
  });

  it('has no methods the widget never calls (setConfig, isValidAttribute, removeHook, …), and cleans without them', () => {
    for (const name of UNUSED_METHODS) {
      expect((shipped as unknown as Record<string, unknown>)[name], name).to.equal(undefined);
      expect((prebuilt as unknown as Record<string, unknown>)[name], `the prebuilt one has ${name}`).to.be.a('function');
    }
    expect(shipped.sanitize('<b onclick="x()">b</b>', PURIFY_CONFIG).firstChild?.nodeName).to.equal('B');
  });

  it('really has none (~2.4 KB gzipped): without a list of its own, it keeps text only', () => {
    const dirty = '<p title="t"><b>bold</b> <svg><circle r="1"/></svg><math><mi>x</mi></math></p>';
    expect(shipped.sanitize(dirty)).to.equal('bold ');
    expect(prebuilt.sanitize(dirty), 'the prebuilt one keeps them').to.equal('<p title="t"><b>bold</b> <svg><circle r="1"></circle></svg><math><mi>x</mi></math></p>');
  });
});
