import { html } from 'lit/html.js';
import type { AgentResponseItem } from '../protocol/types.js';
import type { Renderer } from './registry.js';
import { renderMarkdown } from './sanitize.js';

export interface TextItem extends AgentResponseItem {
  type: 'text';
  options: string[];
}

/** `text`: one bubble per string of `options`, markdown rendered and sanitised. */
export const textRenderer: Renderer<TextItem> = {
  accepts: (item): item is TextItem =>
    Array.isArray(item.options) && item.options.length > 0 && item.options.every((o) => typeof o === 'string'),
  render: (item) => html`${item.options.map(
    (text) => html`<div part="bubble bubble--agent" class="bubble agent markdown" dir="auto">${renderMarkdown(text)}</div>`,
  )}`,
};
