import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';

/** A problem shown in words, with an optional live detail (a countdown) and an action. */
export interface Problem {
  /** Announced once (the container is role=alert). */
  text: string;
  /** Changes while shown (e.g. "retrying in 12 s"): `aria-live=off`, so it is not re-announced. */
  detail?: string;
  onRetry?: () => void;
}

export interface PanelView {
  strings: Strings;
  /** Launcher mode: a dialog with a close button; inline: a region. */
  launcher: boolean;
  /** Closed: hidden, and inert as it fades out (WebKit let Tab into it, and the focus went with it). */
  hidden: boolean;
  /** Opening and closing fade and slide (under 200 ms; not with reduced motion). */
  animated: boolean;
  header: TemplateResult;
  composer: TemplateResult;
  /** Shows the typing line when truthy: a request is with the agent, or its reply waits to be drawn. */
  typing: unknown;
  offline: boolean;
  /** The greeting did not go through: shown where it would appear, at the top of the log. */
  greeting?: Problem;
  /** A problem that concerns no message (dictation, a postback without a title). */
  error?: Problem;
  /** Replies below the visible part of the log the visitor has not scrolled to yet. */
  unread: number;
  /** The visitor just started a new conversation: "Undo" takes it back (for a few seconds). */
  onUndo?: () => void;
  /** Older messages not in the DOM: the control that brings them back. */
  earlier: boolean;
  onEarlier: () => void;
  onJump: () => void;
  onKeydown: (event: KeyboardEvent) => void;
}

const renderProblem = (problem: Problem, strings: Strings) => html`<div part="error" class="error" role="alert">
  <p><span dir="auto">${problem.text}${problem.detail ? html`${' — '}<span aria-live="off">${problem.detail}</span>` : nothing}</span></p>${problem.onRetry
    ? html`<button part="retry-button" class="retry" @click=${problem.onRetry}>${strings.retry}</button>`
    : nothing}</div>`;

/** The chat window: header, log (messages are rendered into `.messages` by the log controller), composer. */
export const renderPanel = (view: PanelView) => html`
  <section part="panel" class=${view.animated ? 'panel animated' : 'panel'} id="panel" ?hidden=${view.hidden} aria-labelledby="title"
    role=${view.launcher ? 'dialog' : 'region'} ?inert=${view.hidden} @keydown=${view.onKeydown}>
    ${view.header}
    <div part="log" class="log" role="log" aria-labelledby="title" tabindex="0">
      ${view.greeting ? renderProblem(view.greeting, view.strings) : nothing}
      ${view.earlier
        ? html`<button part="earlier-button" class="retry earlier" @click=${view.onEarlier}>${view.strings.earlierMessages}</button>`
        : nothing}
      <div class="messages"></div>
      ${view.typing
        ? html`<div part="typing" class="typing"><i></i><i></i><i></i>
            <span dir="auto">${view.strings.typing}</span></div>`
        : nothing}
      ${view.unread
        ? html`<button part="new-messages-button" class="jump" @click=${view.onJump}>${view.strings.newMessages(view.unread)} ↓</button>`
        : nothing}
    </div>
    ${view.offline ? html`<div part="notice" class="notice" role="status"><span dir="auto">${view.strings.offline}</span></div>` : nothing}
    ${view.onUndo
      ? html`<div part="notice" class="notice" role="status"><span dir="auto">${view.strings.restarted}</span><button part="undo-button" class="retry" @click=${view.onUndo}>${view.strings.undo}</button></div>`
      : nothing}
    ${view.error ? renderProblem(view.error, view.strings) : nothing}
    ${view.composer}
  </section>
`;
