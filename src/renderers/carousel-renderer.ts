import { html } from 'lit/html.js';
import { isRecord } from '../protocol/guards.js';
import type { AgentResponseItem } from '../protocol/types.js';
import { isChoiceList, renderChoice, type Choice } from './choice.js';
import { optional, type RenderContext, type Renderer } from './registry.js';
import { safeImageUrl, safeLinkUrl } from './url.js';

export interface Card {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  imageAlt?: string;
  url?: string;
  buttons?: Choice[];
}

export interface CarouselItem extends AgentResponseItem {
  type: 'carousel';
  cards: Card[];
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

function isCard(value: unknown): value is Card {
  return (
    isRecord(value) &&
    typeof value.title === 'string' &&
    value.title.trim() !== '' &&
    optionalString(value.subtitle) &&
    optionalString(value.imageUrl) &&
    optionalString(value.imageAlt) &&
    optionalString(value.url) &&
    (value.buttons === undefined || isChoiceList(value.buttons))
  );
}

function renderCard(card: Card, context: RenderContext) {
  const image = safeImageUrl(card.imageUrl, context.baseUrl);
  const link = safeLinkUrl(card.url, context.baseUrl);
  const title = link
    ? html`<a href=${link} target="_blank" rel="noopener noreferrer">${card.title}</a>`
    : card.title;
  return html`
    <li part="card" class="card" dir="auto">
      ${optional(image, (src) => html`<img part="card-image" src=${src} alt=${card.imageAlt ?? ''} loading="lazy" referrerpolicy="no-referrer" />`)}
      <div part="card-title" class="card-title">${title}</div>
      ${optional(card.subtitle, (subtitle) => html`<div part="card-subtitle" class="card-subtitle">${subtitle}</div>`)}
      ${optional(card.buttons?.length ? card.buttons : undefined, (buttons) => html`
        <div part="buttons" class="buttons">${buttons.map((choice) => renderChoice(choice, context))}</div>`)}
    </li>
  `;
}

/** `carousel`: a horizontally scrollable list of cards. */
export const carouselRenderer: Renderer<CarouselItem> = {
  accepts: (item): item is CarouselItem => Array.isArray(item.cards) && item.cards.length > 0 && item.cards.every(isCard),
  render: (item, context) => html`
    <ul part="carousel" class="carousel" tabindex="0" aria-label=${item.altText ?? ''}>
      ${item.cards.map((card) => renderCard(card, context))}
    </ul>
  `,
};
