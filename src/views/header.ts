import { html, nothing } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';
import { icon, ICONS } from './icons.js';

export interface HeaderView {
  title: string;
  /** A line under the title (`agent-subtitle`). */
  subtitle?: string;
  /** The agent's picture, already allowlisted; unset (or after it failed to load): the title's initials. */
  avatar?: string;
  strings: Strings;
  /** Show the close button (launcher mode). */
  closable: boolean;
  /** Show the speech toggle (`tts`), and whether speech is on. */
  speech?: { on: boolean };
  onClose: () => void;
  onRestart: () => void;
  onToggleSpeech: () => void;
  onDownload: () => void;
  onAvatarError: () => void;
}

/** "Support Team" → "ST", "Ava" → "A": the avatar without a picture. */
export const initials = (title: string) => title.trim().split(/\s+/).slice(0, 2).map((word) => [...word][0] ?? '').join('').toLocaleUpperCase();

const iconButton = (part: string, label: string, path: string, onClick: () => void) => html`<button part="header-button ${part}" class="icon-button"
  aria-label=${label} title=${label} @click=${onClick}>${icon(path)}</button>`;

/** Who the visitor talks to (picture or initials, name, subtitle) and the panel's controls. */
export const renderHeader = (view: HeaderView) => html`
  <div part="header" class="header">
    <span part="avatar" class="avatar" aria-hidden="true">${view.avatar
      ? html`<img src=${view.avatar} alt="" @error=${view.onAvatarError} />`
      : initials(view.title)}</span>
    <div class="heading">
      <h2 part="title" class="title" id="title" dir="auto">${view.title}</h2>
      ${view.subtitle ? html`<p part="subtitle" class="subtitle" dir="auto">${view.subtitle}</p>` : nothing}
    </div>
    ${view.speech
      ? html`<button part="header-button tts-toggle" class="icon-button" aria-pressed=${view.speech.on}
          aria-label=${view.strings.speech} title=${view.strings.speech}
          @click=${view.onToggleSpeech}>${icon(view.speech.on ? ICONS.speakerOn : ICONS.speakerOff)}</button>`
      : nothing}
    ${iconButton('download-button', view.strings.downloadTranscript, ICONS.download, view.onDownload)}
    ${iconButton('restart-button', view.strings.restart, ICONS.restart, view.onRestart)}
    ${view.closable ? iconButton('close-button', view.strings.closeChat, ICONS.close, view.onClose) : nothing}
  </div>
`;
