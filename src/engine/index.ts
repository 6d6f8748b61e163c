/**
 * `agent-chat/engine`: the conversation without UI, for a site that draws its own (no Lit, no DOM
 * rendering). `<agent-chat>` is drawn on the same engine.
 */
export { ChatSession, createChatSession } from './chat-session.js';
export type { ChatMessage, ChatSessionHooks, ChatSessionOptions, Conversation, DeliveryState, Pending, SessionChange, SessionEvent } from './chat-session.js';
