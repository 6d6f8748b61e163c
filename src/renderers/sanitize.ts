/**
 * The only place where untrusted text becomes HTML. Agent markdown is parsed by marked's lexer and
 * parser with options of its own and cleaned by a private DOMPurify instance (hooks on it cannot affect a DOMPurify the
 * host page uses), with a minimal tag list and the URL allowlist of `url.ts` applied to every link
 * and image. The result is a DocumentFragment that Lit renders as nodes, so no HTML string is
 * ever assigned through `innerHTML` by this widget (it works under Trusted Types with the
 * `dompurify` policy, which DOMPurify creates for its own parsing). Both libraries are built from
 * their source without parts the widget never uses (scripts/dompurify-source.mjs,
 * scripts/marked-source.mjs): marked here parses synchronously (no `pedantic`, extensions, hooks or
 * `walkTokens`), through its `Lexer` and `Parser` rather than a `Marked` instance, whose code (the
 * options and extensions `use()` merges, −625 bytes gzipped) the build then leaves out; and
 * PURIFY_CONFIG names none of the options listed there.
 */
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { Lexer, Parser, Renderer, Tokenizer, type MarkedOptions } from 'marked';
import { safeImageUrl, safeLinkUrl } from './url.js';

/**
 * What survives: a minimal tag list, six attributes. Named here, never DOMPurify's defaults: the
 * build leaves its built-in lists out (scripts/dompurify-source.mjs). `start` keeps the number an
 * ordered list begins at: steps a language model writes with a paragraph between them are lists of
 * their own to marked (`<ol start="2">`), and each was numbered from 1 again. `align` keeps a table's
 * columns as the reply aligns them (marked's `<td align="right">`); on any other element it goes (below).
 * `sub` and `sup`, which markdown has no syntax for, as language models write them in HTML: without
 * them, "mc<sup>2</sup>" read "mc2" and "CO<sub>2</sub>" "CO2".
 */
export const PURIFY_CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [
    'a', 'b', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i',
    'img', 'li', 'ol', 'p', 'pre', 's', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
  ],
  ALLOWED_ATTR: ['href', 'src', 'alt', 'title', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

// Created on first use, not at import: importing the module must work without a DOM (SSR).
let purifier: DOMPurify | undefined;
let markedOptions: MarkedOptions | undefined;

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  const instance = createDOMPurify(window);
  // (Called for the elements only: DOMPurify ends the attributes' work before it for a node without
  // any, which text and comments are.)
  instance.addHook('afterSanitizeAttributes', (currentNode) => {
    const node = currentNode as Element;
    const base = document.baseURI;
    // A cell's only: a picture or a table set to float out of its bubble (`<img align="left">`).
    if (!/^t[hd]$/.test(node.localName)) node.removeAttribute('align');
    if (node.localName === 'a') {
      const href = safeLinkUrl(node.getAttribute('href'), base);
      if (href) {
        node.setAttribute('href', href);
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('href');
      }
    } else if (node.localName === 'img') {
      const src = safeImageUrl(node.getAttribute('src'), base);
      if (src) {
        node.setAttribute('src', src);
        node.setAttribute('loading', 'lazy');
        node.setAttribute('referrerpolicy', 'no-referrer');
      } else {
        node.removeAttribute('src');
      }
    }
  });
  purifier = instance;
  return instance;
}

/**
 * Block rules marked tries at every block, which cannot match a text without their mark: skipped
 * (no token) without running their regular expressions. V8 compiles a regular expression that runs
 * more than once to machine code, and these are big: a set-text heading's ~220 KB, a quote's ~85 KB,
 * a table's ~80 KB, HTML's ~50 KB (measured; ~430 KB of the page's heap for as long as it lives,
 * for replies that have none of them). With the mark there, marked's own rule decides (`false`).
 * The other rules' marks (indented and fenced code, heading, rule, list, link definition) save
 * their machine code and their optimised tokenizers: 70 KB of the heap at 50 and at 2,000 messages
 * (the bench, 27 November). Each is what its rule's expression must begin with (rules.ts); a
 * set-text heading's, the line under its text, which ends its paragraph: looked for up to the
 * first empty line only, in the same pass (in the whole rest of the text at each block, it made a
 * reply of 20,000 short paragraphs take 650 ms to parse, marked alone 30; a line of white space,
 * which ends a paragraph too, is looked past: that only runs marked's rule more often).
 */
const BLOCK_MARKS = {
  blockquote: /^ {0,3}>/,
  html: /^ {0,3}</,
  table: /^[^\n]*\n[^\n]*[|:]/,
  lheading: { test: (src: string) => !!/\n(?:\n|( {0,3}(?:=+|-+)[ \t]*(?:\n|$)))/.exec(src)?.[1] },
  code: /^ {0,3}[ \t]/,
  fences: /^ {0,3}[`~]{3}/,
  heading: /^ {0,3}#/,
  hr: /^ {0,3}[-_*]/,
  list: /^ {0,3}[-*+\d]/,
  def: /^ {0,3}\[/,
};

/** The widget's markdown: GFM with line breaks, parsed synchronously (what scripts/marked-source.mjs keeps of marked). */
export const MARKED_OPTIONS = { async: false, gfm: true, breaks: true } as const;

/**
 * A task list's box (`- [x] done`, `- [ ] to do`) as text, ☑ or ☐: marked makes it an `<input>`,
 * which the purifier drops (kept, an agent's markup could put a field in its bubble), and done and
 * to do read alike.
 */
export const taskBox = ({ checked }: { checked?: boolean }) => (checked ? '☑ ' : '☐ ');

/**
 * marked's options for the widget: MARKED_OPTIONS, a tokenizer whose rules of BLOCK_MARKS are
 * skipped where their mark is missing (with the mark, marked's own rule decides), and a renderer
 * that draws task boxes as text (taskBox). Not marked's
 * default options under them: the prebuilt marked (Node's tests, the server-side rendering) reads a
 * missing one as its default, and the marked the widget ships reads only `tokenizer` and `renderer`.
 */
function getMarkedOptions(): MarkedOptions {
  if (markedOptions) return markedOptions;
  const tokenizer = new Tokenizer() as unknown as Record<string, (src: string) => unknown>;
  for (const [rule, mark] of Object.entries(BLOCK_MARKS)) {
    const own = tokenizer[rule];
    tokenizer[rule] = (src) => (mark.test(src) ? own.call(tokenizer, src) : undefined);
  }
  const renderer = new Renderer();
  renderer.checkbox = taskBox;
  return (markedOptions = { ...MARKED_OPTIONS, tokenizer: tokenizer as never, renderer });
}

/**
 * Markdown → HTML, not yet sanitised: what `new Marked(MARKED_OPTIONS, { renderer: { checkbox: taskBox } }).parse(markdown)`
 * gives, with each run of more than 100 spaces cut to 100. With line breaks on, marked's inline text rule looks
 * ahead over the rest of a run of spaces from each of its spaces, so its time grows with the square
 * of the run: a reply that ends in 40,000 spaces (a language model caught in a loop) held the page
 * for 1.3 s, 100,000 for several seconds (marked 18.3 alike). Outside code the browser shows a run
 * of spaces as one; only a code block shows fewer of them.
 */
export function markdownToHtml(markdown: string): string {
  // A copy for each text, as `Marked#parse` makes: the parser puts a renderer of its own in it.
  const options = { ...getMarkedOptions() };
  return Parser.parse(Lexer.lex(markdown.replace(/( {100}) +/g, '$1'), options), options);
}

/**
 * Sanitises an HTML string into a fragment owned by this document. DOMPurify's is its parser's
 * (a document of its own for each text), and stays so once its nodes are drawn: a fragment drawn
 * by Lit, which keeps it as the value it drew, kept that whole document alive for as long as the
 * message was in the log (one for each markdown reply on the page). Throws a TypeError where
 * DOMPurify gives back null (markup with a `<frameset>` before any content): `adoptNode` takes no
 * null, and the caller's renderer falls back as for any error (see renderMarkdown).
 */
export function sanitizeHtml(dirty: string): DocumentFragment {
  return document.adoptNode(getPurifier().sanitize(dirty, PURIFY_CONFIG));
}

/**
 * Markdown → sanitised DOM, ready to render as a Lit child value. Throws only for a text nested
 * deeper than the call stack allows (thousands of quotes in quotes: marked recurses at each level;
 * a RangeError, Firefox's InternalError), and for one with a `<frameset>` before any content (the
 * HTML parser puts it in place of the body, and DOMPurify gives back null), which the widget's
 * renderer registry shows as the reply's altText, as a site's renderer should. Each message is
 * rendered once, when it arrives (see MessageLogController), so this runs once per message.
 */
export function renderMarkdown(markdown: string): DocumentFragment {
  return sanitizeHtml(markdownToHtml(markdown));
}
