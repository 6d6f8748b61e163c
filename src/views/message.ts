import { html, nothing } from 'lit/html.js';
import type { AgentMessage, ChatMessage, Rating, UserMessage } from '../conversation/transcript.js';
import { icon, ICONS } from './icons.js';
import type { RenderContext, RendererRegistry } from '../renderers/registry.js';
import type { MessageTime } from './message-time.js';

/**
 * Where a visitor's pending message stands, in the visitor's terms: `in-flight` (the typing
 * indicator says it), `queued` behind the one in flight (or sent by another tab), `retrying` at a
 * time, or `offline`.
 */
export type PendingView = { kind: 'in-flight' | 'queued' | 'offline' } | {
  kind: 'retrying';
  /** Until the next try; 0 behind what is retried first (the greeting, or an earlier message), which has the "Retry now". */
  seconds: number;
};

export interface MessageContext extends RenderContext {
  renderers: RendererRegistry;
  pendingOf: (id: string) => PendingView;
  onRetry: () => void;
  onDiscard: (id: string) => void;
  /** Sends a message again that got no answer in time (see ChatSession.sendAgain). */
  onSendAgain: (id: string) => void;
  /** The agent's name, said (not shown) at the head of each group of its replies, as "You" at the visitor's. */
  agent: string;
  /** The day and time `message` shows (see messageTime). */
  timeOf: (message: ChatMessage) => MessageTime;
  /** With `feedback`: rates a reply (thumbs up or down). */
  onRate?: (message: AgentMessage, rating: Rating) => void;
  /** What the visitor answered to this reply, once they have (see RenderContext.answered). */
  answerOf: (message: ChatMessage) => { text: string } | undefined;
}

function renderStatus(message: UserMessage, context: MessageContext) {
  if (message.status === 'sent') return nothing;
  const { strings } = context;
  const discard = html`<button part="discard-button" class="retry" @click=${() => context.onDiscard(message.id)}>${strings.discard}</button>`;
  if (message.status === 'failed') {
    // A failure retrying cannot fix ends here (a 4xx): say why, once, and offer Discard. So does no
    // answer in time (retryable), where the agent may have the message: sent again if the visitor asks.
    return html`<div part="message-status message-status--failed" class="status problem" role="alert">
      <span dir="auto">${message.retryable ? message.error : `${strings.notDelivered}${message.error ? ` — ${message.error}` : ''}`}</span>
      ${message.retryable ? html`<button part="retry-button" class="retry" @click=${() => context.onSendAgain(message.id)}>${strings.retry}</button>` : nothing}
      ${discard}</div>`;
  }
  const pending = context.pendingOf(message.id);
  if (pending.kind === 'in-flight') return nothing;
  // (In the live log, the countdown, drawn again each second, is not read out again each time.)
  if (pending.kind === 'queued') return html`<div part="message-status message-status--sending" class="status"><span dir="auto">${strings.sending}</span></div>`;
  return html`<div part="message-status message-status--waiting" class="status problem">
    ${pending.kind !== 'retrying'
      ? html`<span dir="auto">${strings.waitingForConnection}</span>`
      : pending.seconds
        ? html`<span dir="auto">${strings.notDeliveredYet} — <span aria-live="off">${strings.retryingIn(pending.seconds)}</span></span>
          <button part="retry-button" class="retry" @click=${context.onRetry}>${strings.retry}</button>`
        : html`<span dir="auto">${strings.notDeliveredYet}</span>`}
    ${discard}</div>`;
}

/** One transcript entry: the visitor's words, or one agent reply through the renderer registry; above it, the day where it changes and the time where a group starts. */
export function renderMessage(message: ChatMessage, context: MessageContext) {
  const { day, time, iso } = context.timeOf(message);
  // dir=auto: "3:08 PM" and "Monday, 16 November" keep their order on a right-to-left page.
  const separator = day ? html`<div part="day" class="day" dir="auto">${day}</div>` : nothing;
  // Who wrote the group, for assistive technology: the eye has the bubbles' side and colour.
  const stamp = time ? html`<span class="visually-hidden">${message.kind === 'user' ? context.strings.you : context.agent}</span><time part="time" class="time" datetime=${iso} dir="auto">${time}</time>` : nothing;
  if (message.kind === 'user') {
    return html`${separator}<div part="message message--user" class="message user" data-status=${message.status}>
      ${stamp}
      <div part="bubble bubble--user" class="bubble user" dir="auto">${message.text}</div>
      ${renderStatus(message, context)}
    </div>`;
  }
  return html`${separator}<div part="message message--agent" class="message agent" data-type=${message.item.type}>
    ${stamp}
    ${context.renderers.render(message.item, { ...context, answered: context.answerOf(message) })}
    ${context.onRate && message.item.type === 'text' ? renderFeedback(message, context.onRate, context.strings) : nothing}
  </div>`;
}

/** Thumbs up and down under a text reply (the agent's answers; prompts and carousels are not rated); once rated, the chosen one stays, with thanks (announced). */
function renderFeedback(message: AgentMessage, onRate: (message: AgentMessage, rating: Rating) => void, strings: MessageContext['strings']) {
  const thumb = (rating: Rating, label: string) => message.rating && message.rating !== rating
    ? nothing
    : html`<button part="feedback-button feedback-button--${rating}" class="icon-button" aria-label=${label} title=${label}
        aria-pressed=${message.rating === rating} ?disabled=${!!message.rating} @click=${() => onRate(message, rating)}>${icon(ICONS.thumbUp, 16)}</button>`;
  return html`<div part="feedback" class="feedback">
    ${thumb('up', strings.helpful)}${thumb('down', strings.notHelpful)}
    <span role="status" dir="auto">${message.rating ? strings.feedbackThanks : ''}</span>
  </div>`;
}
