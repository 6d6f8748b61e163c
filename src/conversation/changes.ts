/**
 * The changes a conversation undergoes, as functions of it: ConversationController makes them, and
 * makes them again on top of another tab's write that was made without them (see its #lost), so each
 * is written to mean the same on a conversation that has moved on (a message already there is not
 * added twice, a request no longer held is not settled again). Pure: no storage, no DOM.
 */
import { isWaiting, STORED_MESSAGES_LIMIT, type ChatMessage, type Conversation, type UserMessage } from './transcript.js';

/** A change of the conversation, made again on another tab's write where that tab had not heard of it. */
export type Change = (conversation: Conversation) => Conversation;

/** `conversation` with `changes` made, in order. */
export const applied = (changes: Change[], conversation: Conversation) => changes.reduce((c, change) => change(c), conversation);

/** A visitor's message as delivered: no tab sends it again, so whose it was (`by`) goes, and any error. */
export const sent = ({ by, error, ...m }: UserMessage): UserMessage => ({ ...m, status: 'sent' });

// Each is made by the ConversationController method named for it (and, for a reply to a
// conversation put away, on the archive: see its answerArchived).

/**
 * Adds after the message `after` (the last when it was added; the end without one): at the end,
 * the only way a conversation grows. Made again on another tab's write, a message it
 * already has is not added twice, and one goes after its predecessor, among what the other tab
 * added meanwhile in the order they were made (two tabs' messages in the order the visitor wrote
 * them). Past {@link STORED_MESSAGES_LIMIT}, the oldest leave, but never a message still to be
 * sent (the outbox): only a reply of hundreds of items could reach one.
 */
export const adding = (messages: ChatMessage[], after?: string): Change => (c) => {
  const all = [...c.messages];
  let at = all.findIndex((m) => m.id === after) + 1 || all.length;
  for (const m of messages) {
    if (all.some((had) => had.id === m.id)) continue;
    while (all[at]?.at <= m.at) at++;
    all.splice(at++, 0, m);
  }
  const sending = all.findIndex(isWaiting);
  return { ...c, messages: all.slice(-Math.max(STORED_MESSAGES_LIMIT, sending < 0 ? 0 : all.length - sending)) };
};

/** Done with the held request `id` (nothing if it is not held). */
export const settling = (id: string): Change => (c) => (c.held?.some((h) => h.id === id) ? { ...c, held: c.held.filter((h) => h.id !== id) } : c);

export const greeted: Change = (c) => ({ ...c, greeted: true });

/**
 * The rating tags among `sent` reached the agent: they wait no longer. Without `sent`, the agent's
 * session is another conversation's: every reply so far is of a session past, its rating's tag
 * dropped, and one rated later tags nothing (`tag` empty: see ConversationController.rate).
 */
export const untagging = (sent?: string[]): Change => (c) => {
  const done = (m: ChatMessage) => m.kind === 'agent' && (sent ? sent.includes(m.tag!) : m.tag !== '');
  return c.messages.some(done) ? { ...c, messages: c.messages.map((m) => (done(m) ? { ...m, tag: sent ? undefined : '' } : m)) } : c;
};

/** Changes the message `id` of `kind` (nothing if there is none). */
export const changingMessage = <K extends ChatMessage['kind']>(id: string, kind: K, change: (m: Extract<ChatMessage, { kind: K }>) => Extract<ChatMessage, { kind: K }>): Change => (c) =>
  c.messages.some((m) => m.id === id && m.kind === kind)
    ? { ...c, messages: c.messages.map((m) => (m.id === id && m.kind === kind ? change(m as Extract<ChatMessage, { kind: K }>) : m)) }
    : c;
