/**
 * Markdown replies, a chunk of their own (marked and DOMPurify are most of the panel's bytes), so
 * that neither the panel nor a plain reply waits for it: asked for once the view has painted,
 * when a reply needs it, or when the visitor sends (see text-renderer.ts, chat-view.ts).
 */
import type { Strings } from '../i18n/strings.js';
import { renderMarkdown } from './sanitize.js';

export { renderMarkdown };

/**
 * Each code block and table of sanitised markdown (built as nodes, after sanitising) in a box of its
 * own. A table's (`.table`) scrolls sideways (a Tab stop, as a code block is), so that the table
 * keeps its width (up to a cap, see the view's styles) instead of being squeezed to the bubble's,
 * where every cell broke at each space. A code block's (`.code`) has a copy button above it: it puts
 * the code on the clipboard and says "Copied" (announced), or that it could not.
 */
export function boxBlocks(fragment: DocumentFragment, strings: Strings): DocumentFragment {
  for (const block of fragment.querySelectorAll('pre,table')) {
    const box = document.createElement('div');
    block.replaceWith(box);
    box.append(block);
    // What scrolls sideways when wide is a stop of the Tab key (whether it is wide or not: it is
    // made before any layout), so that a keyboard can scroll it (Safari makes no scrolling box
    // focusable by itself): the table's box, the code block itself.
    if (block.localName === 'table') {
      box.className = 'table';
      box.tabIndex = 0;
      continue;
    }
    (block as HTMLElement).tabIndex = 0;
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
      Promise.resolve().then(() => navigator.clipboard.writeText((block.textContent ?? '').replace(/\n$/, ''))).then(
        () => (button.textContent = said(strings.copied)),
        () => said(strings.copyFailed),
      );
    });
    box.prepend(button);
    box.append(status);
  }
  return fragment;
}

/** Markdown → sanitised nodes, code blocks with a copy button, tables in a box that scrolls. */
export const markdownFragment = (text: string, strings: Strings) => boxBlocks(renderMarkdown(text), strings);
