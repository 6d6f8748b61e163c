/** The engine's public types: what a session is given, and what it tells (see ChatSession). */
import type { ChatMessage } from '../conversation/transcript.js';
import type { AgentChatErrorDetail, AgentChatResponseDetail } from '../events.js';
import type { Strings } from '../i18n/strings.js';
import type { ClientEventRequest } from '../protocol/types.js';

/** Everything a conversation needs to know; read again at each use, so a change applies to the next request. */
export interface ChatSessionOptions {
  /** Where requests go: the proxy that holds the agent's token (resolved against the page's URL). */
  proxyUrl: string;
  /** The flow node that starts a conversation (default `greeting`). */
  greeting?: string;
  /** Conversation language ("EN", "EL", …), sent with every request. */
  language?: string;
  userName?: string;
  userEmail?: string;
  /** Minutes of inactivity after which a stored conversation is archived (0 or unset: never); never while a message waits to be sent. */
  sessionTimeout?: number;
  /** Ask for `responsesIds` / `nodesIds`. */
  includeMetadata?: boolean;
  /** Ask for `responsesStrippedMarkdownText` (what text-to-speech reads). */
  includeSpeech?: boolean;
  /** The words for failures kept in the transcript (default: English, or the language's table once loaded). */
  strings?: Partial<Strings>;
}

/** How a message the visitor sent stands while it is not delivered. */
export type Pending = { kind: 'in-flight' | 'queued' | 'offline' } | { kind: 'retrying'; at: number };

/** What changed, for whoever shows the conversation. */
export type SessionChange =
  /** Everything: a new, restored or restarted conversation (redraw `messages`). */
  | { kind: 'reset' }
  /** Another tab changed the conversation: `messages` usually extends what is shown. */
  | { kind: 'synced' }
  | { kind: 'added'; messages: readonly ChatMessage[]; speech?: readonly string[] }
  | { kind: 'updated'; message: ChatMessage }
  | { kind: 'removed'; id: string }
  /** A failure that concerns no message (a postback without a title). */
  | { kind: 'failure'; text: string }
  /** The visitor has seen the conversation up to `readAt` in another tab (its news there can go). */
  | { kind: 'read' }
  /** The delivery state: `delivery`, `pendingOf()`, `greetingProblem` may read differently. */
  | { kind: 'state' };

/** The session's events: `agent-chat-send` (cancelable), `agent-chat-response`, `agent-chat-error`. */
export type SessionEvent =
  | { type: 'send'; detail: ClientEventRequest }
  | { type: 'response'; detail: AgentChatResponseDetail }
  | { type: 'error'; detail: AgentChatErrorDetail };

export interface ChatSessionHooks {
  /**
   * Fires an event; returns false when it was cancelled. By default a `CustomEvent` named
   * `agent-chat-<type>` is dispatched on the session; `<agent-chat>` fires its own event classes.
   */
  emit?: (event: SessionEvent) => boolean;
}
