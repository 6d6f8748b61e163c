import { html, nothing, type TemplateResult } from 'lit/html.js';
import { icon, ICONS } from '../views/icons.js';
import { isPostback, isRecord } from '../protocol/guards.js';
import type { Postback } from '../protocol/types.js';
import type { RenderContext } from './registry.js';
import { safeLinkUrl } from './url.js';

/** A button as sent by an agent: a postback, a link, or (title only) a text reply. */
export interface Choice {
  title: string;
  payload?: Postback;
  url?: string;
}

/** A choice needs a non-empty title; a payload or url, when present, must be well-formed. */
export function isChoice(value: unknown): value is Choice {
  if (!isRecord(value) || typeof value.title !== 'string' || !value.title.trim()) return false;
  if (value.payload !== undefined && !isPostback(value.payload)) return false;
  return value.url === undefined || typeof value.url === 'string';
}

export const isChoiceList = (value: unknown): value is Choice[] => Array.isArray(value) && value.every(isChoice);

/**
 * One choice as a control. Links whose URL fails the allowlist are dropped: the item still shows
 * its other choices.
 */
export function renderChoice(choice: Choice, context: RenderContext): TemplateResult | undefined {
  if (choice.url !== undefined && choice.payload === undefined) {
    const href = safeLinkUrl(choice.url, context.baseUrl);
    if (!href) return undefined;
    return html`<a part="button button--link" class="choice" dir="auto" href=${href} target="_blank" rel="noopener noreferrer">${choice.title}</a>`;
  }
  if (context.answered) {
    // An earlier turn: nothing here fits the conversation any more, so nothing invites a click.
    const chosen = choice.title === context.answered.text;
    return html`<button part=${chosen ? 'button button--chosen' : 'button button--answered'} class=${chosen ? 'choice chosen' : 'choice answered'}
      dir="auto" disabled aria-pressed=${chosen}>${chosen ? icon(ICONS.check) : nothing}${choice.title}</button>`;
  }
  const onClick = () =>
    context.onAction(
      choice.payload ? { kind: 'postback', title: choice.title, payload: choice.payload } : { kind: 'text', text: choice.title },
    );
  return html`<button part="button" class="choice" dir="auto" @click=${onClick}>${choice.title}</button>`;
}
