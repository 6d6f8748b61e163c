import type { AgentMessage, ChatMessage } from '../conversation/transcript.js';

// Lookups on the transcript for drawing one entry. They search from the end, where the log draws
// (a new message, the last turn), so the cost per message does not grow with the conversation.

/** The entry before `message` (it decides whether a new group or day starts). */
export function previousOf(messages: readonly ChatMessage[], message: ChatMessage): ChatMessage | undefined {
  const index = messages.findLastIndex((m) => m.id === message.id);
  return index > 0 ? messages[index - 1] : undefined;
}

/** The visitor's first message after the agent's `message`: what answered it (its choices are then answered). */
export function answerOf(messages: readonly ChatMessage[], message: ChatMessage): { text: string } | undefined {
  for (let i = messages.findLastIndex((m) => m.id === message.id) + 1; i > 0 && i < messages.length; i++) {
    const next = messages[i];
    if (next.kind === 'user') return { text: next.text };
  }
  return undefined;
}

/**
 * The replies whose choices may have changed state: each turn before a visitor's message from index
 * `from` on, and the last turn. Text replies have no choices and are left out (drawing markdown
 * again would cost the send path).
 */
export function turnsBefore(messages: readonly ChatMessage[], from: number): AgentMessage[] {
  const found: AgentMessage[] = [];
  for (let end = Math.max(from, 0); end <= messages.length; end++) {
    if (end < messages.length && messages[end].kind !== 'user') continue;
    for (let i = end - 1; i >= 0; i--) {
      const message = messages[i];
      if (message.kind === 'user') break;
      if (message.item.type !== 'text') found.push(message);
    }
  }
  return found;
}
