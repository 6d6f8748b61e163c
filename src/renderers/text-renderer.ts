import { html } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';
import type { AgentResponseItem } from '../protocol/types.js';
import type { Renderer } from './registry.js';
import { renderMarkdown } from './sanitize.js';

export interface TextItem extends AgentResponseItem {
  type: 'text';
  options: string[];
}

/**
 * A copy button above each code block of sanitised markdown (built as nodes, after sanitising):
 * it puts the code on the clipboard and says "Copied" (announced), or that it could not.
 */
export function addCopyButtons(fragment: DocumentFragment, strings: Strings): DocumentFragment {
  for (const pre of fragment.querySelectorAll('pre')) {
    const box = document.createElement('div');
    const button = document.createElement('button');
    const status = document.createElement('span');
    box.className = 'code';
    button.type = 'button';
    button.className = 'copy';
    button.setAttribute('part', 'copy-button');
    button.textContent = strings.copy;
    status.className = 'visually-hidden';
    status.setAttribute('role', 'status');
    button.addEventListener('click', () => {
      const said = (text: string) => (status.textContent = text);
      // The code as written (markdown ends a block with a newline). No clipboard (an insecure page)
      // fails like a refusal.
      Promise.resolve().then(() => navigator.clipboard.writeText((pre.textContent ?? '').replace(/\n$/, ''))).then(
        () => (button.textContent = said(strings.copied)),
        () => said(strings.copyFailed),
      );
    });
    pre.replaceWith(box);
    box.append(button, pre, status);
  }
  return fragment;
}

/** `text`: one bubble per string of `options`, markdown rendered and sanitised, code blocks with a copy button. */
export const textRenderer: Renderer<TextItem> = {
  accepts: (item): item is TextItem =>
    Array.isArray(item.options) && item.options.length > 0 && item.options.every((o) => typeof o === 'string'),
  render: (item, context) => html`${item.options.map(
    (text) => html`<div part="bubble bubble--agent" class="bubble agent markdown" dir="auto">${addCopyButtons(renderMarkdown(text), context.strings)}</div>`,
  )}`,
};
