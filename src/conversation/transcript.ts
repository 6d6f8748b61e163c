import { isRecord } from '../protocol/guards.js';
import type { AgentResponseItem, EventMessage } from '../protocol/types.js';

/** Delivery state of a message the user sent. */
export type MessageStatus = 'sending' | 'sent' | 'failed';

export interface UserMessage {
  kind: 'user';
  id: string;
  at: number;
  /** What the log shows: the typed text, or the title of the button that was clicked. */
  text: string;
  status: MessageStatus;
  /** Why delivery failed, in the visitor's language. */
  error?: string;
  /** After a failure: whether sending it again could help (not after a 4xx). */
  retryable?: boolean;
  /** What is (re)sent: kept so a failed message can be retried, even after a reload. */
  request: EventMessage;
  /** The tab (page) that made it, until it is sent: only that tab sends it while it is open. */
  by?: string;
}

export interface AgentMessage {
  kind: 'agent';
  id: string;
  at: number;
  item: AgentResponseItem;
  /** The visitor's rating of this reply (with `feedback`). */
  rating?: Rating;
  /**
   * The session tag of that rating, until a request of this conversation carries it to the agent (see
   * ChatSession.rate); empty once the agent's session is another conversation's (untagging).
   */
  tag?: string;
}

/** Thumbs up or down. */
export type Rating = 'up' | 'down';

export type ChatMessage = UserMessage | AgentMessage;

/** A request with no message in the transcript (the greeting, a postback without a title), kept until it is delivered. */
export interface HeldRequest {
  id: string;
  at: number;
  message: EventMessage;
  /** The greeting (while anything is held, no tab greets: see ChatSession.greet). */
  greeting?: boolean;
  /** The tab (page) that made it: only that tab sends it while it is open. */
  by?: string;
}

export interface Conversation {
  startedAt: number;
  updatedAt: number;
  /** The agent answered a request of it (the greeting, or a message sent first): a reload restores instead of greeting again, and `session-timeout` applies. */
  greeted: boolean;
  messages: ChatMessage[];
  /** Requests without a message that wait for delivery, oldest first: a reload or another tab sends them. */
  held?: HeldRequest[];
}

/**
 * A conversation keeps its newest this many messages, in the page as in storage: what a page holds is
 * what a reload restores (and what another tab shows), and a long conversation's memory stops growing.
 */
export const STORED_MESSAGES_LIMIT = 500;

/** A visitor's message still to be sent (the outbox: a reload or another tab sends it if this page cannot). */
export const isWaiting = (m: ChatMessage): m is UserMessage => m.kind === 'user' && m.status === 'sending';

export const newConversation = (now: number): Conversation => ({ startedAt: now, updatedAt: now, greeted: false, messages: [] });

function isChatMessage(value: unknown): value is ChatMessage {
  // Its time one a date can hold (±8.64e15 ms): a bigger number shown as a time throws.
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.at !== 'number' || !(Math.abs(value.at) <= 8.64e15)) return false;
  if (value.kind === 'agent') return isRecord(value.item) && typeof value.item.type === 'string';
  return (
    value.kind === 'user' &&
    typeof value.text === 'string' &&
    (value.status === 'sending' || value.status === 'sent' || value.status === 'failed') &&
    isRecord(value.request)
  );
}

/**
 * Guard for what storage hands back: anything else is treated as corrupt and discarded. A message
 * or a held request in it that is not one (corrupt) is left out, and the rest of the conversation kept.
 */
export function isConversation(value: unknown): value is Conversation {
  return (
    isRecord(value) &&
    typeof value.startedAt === 'number' &&
    typeof value.updatedAt === 'number' &&
    typeof value.greeted === 'boolean' &&
    Array.isArray(value.messages) &&
    !!(value.messages = value.messages.filter(isChatMessage)) &&
    (value.held === undefined || (Array.isArray(value.held) && !!(value.held = value.held.filter((h) => isRecord(h) && typeof h.id === 'string' && isRecord(h.message)))))
  );
}

/**
 * A conversation idle for longer than `timeoutMinutes` (0 or less: never) is over, unless something
 * in it still waits to be sent: the visitor waits for that answer (put away with the conversation,
 * a question typed while the agent was down would be lost without a word).
 */
export function isExpired(conversation: Conversation, timeoutMinutes: number, now: number): boolean {
  return timeoutMinutes > 0 && now - conversation.updatedAt > timeoutMinutes * 60_000 && !conversation.held?.[0] &&
    !conversation.messages.some(isWaiting);
}
