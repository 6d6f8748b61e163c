import { html } from 'lit';
import type { Strings } from '../i18n/strings.js';

export interface LauncherView {
  open: boolean;
  strings: Strings;
  onToggle: () => void;
}

const chatIcon = html`<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>`;
const closeIcon = html`<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"/></svg>`;

/** The round floating button that opens and closes the panel. */
export const renderLauncher = ({ open, strings, onToggle }: LauncherView) => html`
  <button part="launcher" class="launcher" type="button" aria-controls="panel" aria-expanded=${open ? 'true' : 'false'}
    aria-label=${open ? strings.closeChat : strings.openChat} @click=${onToggle}>
    ${open ? closeIcon : chatIcon}
  </button>
`;

export { closeIcon };
