import { html, nothing } from 'lit';
import type { Strings } from '../i18n/strings.js';
import { icon, ICONS } from './icons.js';

export interface LauncherView {
  open: boolean;
  strings: Strings;
  /** Replies that arrived while the panel was closed. */
  unread: number;
  onToggle: () => void;
}

/** The round floating button that opens and closes the panel, with a badge counting unseen replies. */
export const renderLauncher = ({ open, strings, unread, onToggle }: LauncherView) => html`
  <button part="launcher" class="launcher" type="button" aria-controls="panel" aria-expanded=${open ? 'true' : 'false'}
    aria-label=${open ? strings.closeChat : unread ? `${strings.openChat} (${strings.newMessages(unread)})` : strings.openChat} @click=${onToggle}>
    ${icon(open ? ICONS.close : ICONS.chat, 26)}
    ${unread ? html`<span part="badge" class="badge" aria-hidden="true">${unread}</span>` : nothing}
  </button>
  <span class="visually-hidden" role="status">${unread ? strings.newMessages(unread) : ''}</span>
`;
