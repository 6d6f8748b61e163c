/**
 * Markdown replies, a chunk of their own (marked and DOMPurify are most of the panel's bytes), so
 * that neither the panel nor a plain reply waits for it: asked for once the view has painted,
 * when a reply needs it, or when the visitor sends (see text-renderer.ts, chat-view.ts).
 */
import type { Strings } from '../i18n/strings.js';
import { renderMarkdown } from './sanitize.js';

export { renderMarkdown };

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

/**
 * Each table of sanitised markdown in a box of its own that scrolls sideways (`.table`), so that the
 * table keeps its width (up to a cap, see the view's styles) instead of being squeezed to the
 * bubble's, where every cell broke at each space.
 */
export function boxTables(fragment: DocumentFragment): DocumentFragment {
  for (const table of fragment.querySelectorAll('table')) {
    const box = document.createElement('div');
    box.className = 'table';
    table.replaceWith(box);
    box.append(table);
  }
  return fragment;
}

/** Markdown → sanitised nodes, code blocks with a copy button, tables in a box that scrolls. */
export const markdownFragment = (text: string, strings: Strings) => boxTables(addCopyButtons(renderMarkdown(text), strings));
