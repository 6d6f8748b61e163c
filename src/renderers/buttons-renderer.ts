import { html } from 'lit/html.js';
import type { AgentResponseItem } from '../protocol/types.js';
import { isChoiceList, renderChoice, type Choice } from './choice.js';
import { optional, type Renderer } from './registry.js';

export interface ButtonsItem extends AgentResponseItem {
  type: 'buttons';
  text?: string;
  buttons?: Choice[];
  /** Tolerated shorthand: plain strings, each sent back as text. */
  options?: string[];
}

const choicesOf = (item: ButtonsItem): Choice[] => item.buttons ?? (item.options ?? []).map((title) => ({ title }));

/** `buttons`: an optional prompt and a row of choices. */
export const buttonsRenderer: Renderer<ButtonsItem> = {
  accepts: (item): item is ButtonsItem => {
    if (item.text !== undefined && typeof item.text !== 'string') return false;
    if (item.buttons !== undefined) return isChoiceList(item.buttons) && item.buttons.length > 0;
    return (
      Array.isArray(item.options) && item.options.length > 0 && item.options.every((o) => typeof o === 'string' && o.trim() !== '')
    );
  },
  render: (item, context) => html`
    ${optional(item.text, (text) => html`<div part="bubble bubble--agent" class="bubble agent" dir="auto">${text}</div>`)}
    <div part="buttons" class="buttons" role="group" aria-label=${item.text ?? item.altText ?? ''}>
      ${choicesOf(item).map((choice) => renderChoice(choice, context))}
    </div>
  `,
};
