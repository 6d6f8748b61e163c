import { html, nothing } from 'lit/html.js';
import type { Nudge } from '../controllers/nudge-controller.js';
import type { Strings } from '../i18n/strings.js';
import { icon, ICONS } from './icons.js';

/** Next to the closed launcher: a reply's first line or the site's teaser; a click opens the chat. */
export const renderNudge = (nudge: Nudge | undefined, strings: Strings, onOpen: () => void, onDismiss: () => void) => nudge
  ? html`<div part=${nudge.kind} class="nudge">
      <button class="nudge-text" dir="auto" aria-controls="panel" @click=${onOpen}><span>${nudge.text}</span></button>
      <button part="dismiss-button" class="icon-button" aria-label=${strings.dismiss} @click=${onDismiss}>${icon(ICONS.close, 16)}</button>
    </div>`
  : nothing;
