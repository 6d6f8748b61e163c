import { html, nothing } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';
import { icon, ICONS } from './icons.js';

export interface HeaderView {
  title: string;
  strings: Strings;
  /** Show the close button (launcher mode). */
  closable: boolean;
  /** Show the speech toggle (`tts`), and whether speech is on. */
  speech?: { on: boolean };
  onClose: () => void;
  onRestart: () => void;
  onToggleSpeech: () => void;
}

/** Title and the panel's controls. */
export const renderHeader = (view: HeaderView) => html`
  <header part="header" class="header">
    <h2 part="title" class="title" id="title">${view.title}</h2>
    ${view.speech
      ? html`<button part="header-button tts-toggle" class="icon-button" type="button" aria-pressed=${view.speech.on ? 'true' : 'false'}
          aria-label=${view.strings.speech} title=${view.strings.speech}
          @click=${view.onToggleSpeech}>${icon(view.speech.on ? ICONS.speakerOn : ICONS.speakerOff)}</button>`
      : nothing}
    <button part="header-button restart-button" class="icon-button" type="button" aria-label=${view.strings.restart}
      title=${view.strings.restart} @click=${view.onRestart}>${icon(ICONS.restart)}</button>
    ${view.closable
      ? html`<button part="header-button close-button" class="icon-button" type="button" aria-label=${view.strings.closeChat}
          @click=${view.onClose}>${icon(ICONS.close)}</button>`
      : nothing}
  </header>
`;
