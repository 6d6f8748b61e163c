import { html, nothing } from 'lit';
import type { ChatMessage, UserMessage } from '../conversation/transcript.js';
import type { RenderContext, RendererRegistry } from '../renderers/registry.js';

export interface MessageContext extends RenderContext {
  renderers: RendererRegistry;
  onRetry: (id: string) => void;
  onDiscard: (id: string) => void;
}

function renderStatus(message: UserMessage, context: MessageContext) {
  if (message.status === 'sent') return nothing;
  const { strings } = context;
  if (message.status === 'sending') return html`<div part="message-status message-status--sending" class="status">${strings.sending}</div>`;
  return html`<div part="message-status message-status--failed" class="status">
    ${strings.notDelivered}${message.error ? ` — ${message.error}` : ''}
    ${message.retryable === false
      ? nothing
      : html`<button part="retry-button" class="retry" type="button" @click=${() => context.onRetry(message.id)}>${strings.retry}</button>`}
    <button part="discard-button" class="retry" type="button" @click=${() => context.onDiscard(message.id)}>${strings.discard}</button>
  </div>`;
}

/** One transcript entry: the visitor's words, or one agent reply through the renderer registry. */
export function renderMessage(message: ChatMessage, context: MessageContext) {
  if (message.kind === 'user') {
    return html`<div part="message message--user" class="message user" data-status=${message.status}>
      <div part="bubble bubble--user" class="bubble user">${message.text}</div>
      ${renderStatus(message, context)}
    </div>`;
  }
  return html`<div part="message message--agent" class="message agent" data-type=${message.item.type}>
    ${context.renderers.render(message.item, context)}
  </div>`;
}
