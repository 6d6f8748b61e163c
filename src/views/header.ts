import { html, nothing } from 'lit';
import type { Strings } from '../i18n/strings.js';
import { closeIcon } from './launcher.js';

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

const restartIcon = html`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M12 5V2L7 6l5 4V7a5 5 0 1 1-5 5H5a7 7 0 1 0 7-7z"/></svg>`;
const speakerIcon = (on: boolean) => html`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M4 9v6h4l5 4V5L8 9H4z"/>
  ${on
    ? html`<path fill="currentColor" d="M16 8.5a4.5 4.5 0 0 1 0 7l-1.2-1.4a2.7 2.7 0 0 0 0-4.2z"/>`
    : html`<path fill="currentColor" d="m15 9.4 1.4-1.4 2.1 2.1 2.1-2.1L22 9.4 19.9 11.5 22 13.6l-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z"/>`}</svg>`;

/** Title and the panel's controls. */
export const renderHeader = (view: HeaderView) => html`
  <header part="header" class="header">
    <h2 part="title" class="title" id="title">${view.title}</h2>
    ${view.speech
      ? html`<button part="header-button tts-toggle" class="icon-button" type="button" aria-pressed=${view.speech.on ? 'true' : 'false'}
          aria-label=${view.strings.speechOn} title=${view.speech.on ? view.strings.speechOff : view.strings.speechOn}
          @click=${view.onToggleSpeech}>${speakerIcon(view.speech.on)}</button>`
      : nothing}
    <button part="header-button restart-button" class="icon-button" type="button" aria-label=${view.strings.restart}
      title=${view.strings.restart} @click=${view.onRestart}>${restartIcon}</button>
    ${view.closable
      ? html`<button part="header-button close-button" class="icon-button" type="button" aria-label=${view.strings.closeChat}
          title=${view.strings.closeChat} @click=${view.onClose}>${closeIcon}</button>`
      : nothing}
  </header>
`;
