import { html } from 'lit';
import type { Strings } from '../i18n/strings.js';
import { icon, ICONS } from './icons.js';

export interface LauncherView {
  open: boolean;
  strings: Strings;
  onToggle: () => void;
}

/** The round floating button that opens and closes the panel. */
export const renderLauncher = ({ open, strings, onToggle }: LauncherView) => html`
  <button part="launcher" class="launcher" type="button" aria-controls="panel" aria-expanded=${open ? 'true' : 'false'}
    aria-label=${open ? strings.closeChat : strings.openChat} @click=${onToggle}>
    ${icon(open ? ICONS.close : ICONS.chat, 26)}
  </button>
`;
