import { html, nothing } from 'lit';
import type { ChatMessage, UserMessage } from '../conversation/transcript.js';
import type { RenderContext, RendererRegistry } from '../renderers/registry.js';

export interface MessageContext extends RenderContext {
  renderers: RendererRegistry;
}

function renderStatus(message: UserMessage, context: MessageContext) {
  if (message.status === 'sent') return nothing;
  const text = message.status === 'sending' ? context.strings.sending : `${context.strings.notDelivered}${message.error ? ` — ${message.error}` : ''}`;
  return html`<div part="message-status message-status--${message.status}" class="status">${text}</div>`;
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
