import { html, nothing, type TemplateResult } from 'lit';
import type { Strings } from '../i18n/strings.js';

export interface PanelView {
  strings: Strings;
  /** Launcher mode: a dialog with a close button; inline: a region. */
  launcher: boolean;
  hidden: boolean;
  header: TemplateResult;
  composer: TemplateResult;
  typing: boolean;
  offline: boolean;
  error?: { text: string; onRetry?: () => void };
  onKeydown: (event: KeyboardEvent) => void;
}

/** The chat window: header, log (messages are rendered into `.messages` by the log controller), composer. */
export const renderPanel = (view: PanelView) => html`
  <section part="panel" class="panel" id="panel" ?hidden=${view.hidden} aria-labelledby="title"
    role=${view.launcher ? 'dialog' : 'region'} @keydown=${view.onKeydown}>
    ${view.header}
    <div part="log" class="log" role="log" aria-labelledby="title" tabindex="0">
      <div class="messages"></div>
      ${view.typing
        ? html`<div part="typing" class="typing"><span class="visually-hidden">${view.strings.typing}</span>
            <span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span></div>`
        : nothing}
    </div>
    ${view.offline ? html`<div part="notice" class="notice" role="status">${view.strings.offline}</div>` : nothing}
    ${view.error
      ? html`<div part="error" class="error" role="alert"><p>${view.error.text}</p>${view.error.onRetry
          ? html`<button part="retry-button" class="retry" type="button" @click=${view.error.onRetry}>${view.strings.retry}</button>`
          : nothing}</div>`
      : nothing}
    ${view.composer}
  </section>
`;
