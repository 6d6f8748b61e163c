import { html } from 'lit/html.js';
import type { AgentResponseItem } from '../protocol/types.js';
import type { Renderer } from './registry.js';

export interface TextItem extends AgentResponseItem {
  type: 'text';
  options: string[];
}

/**
 * What marked might read as more than paragraphs and line breaks: markup characters anywhere (also
 * `&` entities, `\` escapes and what GFM turns into links: `@`, `www.`, `://`), a line that starts
 * with space, `-`, `+`, `=` or a number and `.`/`)` (lists, headings, code), or one that ends with
 * space; and control characters. Text without any of these renders the same without marked (tested
 * against marked), so a plain reply needs neither marked nor DOMPurify.
 */
// eslint-disable-next-line no-control-regex
const MARKUP = /[\\`*_~[\]<>&|#@\0-\x09\x0b-\x1f\x7f]|www\.|:\/\/|^[^\S\n]|[^\S\n]$|^(?:[-+=]|\d+[.)])/m;

/** Whether `text` needs the markdown chunk to be rendered. */
export const needsMarkdown = (text: string) => MARKUP.test(text);

/**
 * Text that {@link needsMarkdown} passes, as marked and DOMPurify would render it: a paragraph
 * per run of lines between blank lines, a `<br>` between lines. Text nodes only, so nothing in it
 * can become markup. (Its only white space at either end is line breaks, which `trim` takes off in
 * one pass; `/\n+$/` looked for the end from each line break of a run, and a run of 40,000 blank
 * lines between two paragraphs, a language model caught in a loop, held the page for 1.5 s.)
 */
export function plainFragment(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const paragraph of text.trim().split(/\n\n+/)) {
    if (!paragraph) continue;
    const p = document.createElement('p');
    paragraph.split('\n').forEach((line, i) => p.append(...(i ? [document.createElement('br'), line] : [line])));
    fragment.append(p, '\n');
  }
  return fragment;
}

let markdown: typeof import('./markdown.js') | undefined;
let loading: Promise<void> | undefined;

/** Loads the markdown chunk once (again after a failure, which leaves replies with their altText). */
const load = () => (loading ??= import('./markdown.js').then((module) => void (markdown = module), () => void (loading = undefined)));

/** Starts loading the markdown chunk ahead of a reply (the view has painted, the visitor sends). */
export const preloadMarkdown = () => void (markdown || load());

/** The markdown renderer for a site's own renderers: marked + DOMPurify with the widget's allowlists, as a fragment of nodes. */
export const loadMarkdown = () => import('./markdown.js').then((module) => module.renderMarkdown);

const options = (item: AgentResponseItem) => (item as TextItem).options;

/**
 * `text`: one bubble per string of `options`, markdown rendered and sanitised, code blocks with a
 * copy button. Plain text is drawn at once; a reply with markdown waits for the markdown chunk
 * (`prepare`), or shows its altText if it cannot load.
 */
export const textRenderer: Renderer<TextItem> = {
  accepts: (item): item is TextItem =>
    Array.isArray(item.options) && item.options.length > 0 && item.options.every((o) => typeof o === 'string'),
  prepare: (item) => (markdown || !Array.isArray(options(item)) || !options(item).some((o) => typeof o === 'string' && needsMarkdown(o)) ? undefined : load()),
  render: (item, context) => html`${item.options.map(
    (text) => html`<div part="bubble bubble--agent" class="bubble agent markdown" dir="auto">${needsMarkdown(text) ? markdown!.markdownFragment(text, context.strings) : plainFragment(text)}</div>`,
  )}`,
};
