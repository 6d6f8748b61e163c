import { expect } from '@open-wc/testing';
import { adding, applied, changingMessage, greeted, sent, settling, untagging } from '../../src/conversation/changes.js';
import { newConversation, STORED_MESSAGES_LIMIT, type AgentMessage, type ChatMessage, type Conversation, type UserMessage } from '../../src/conversation/transcript.js';

const user = (id: string, at: number, status: UserMessage['status'] = 'sent'): UserMessage =>
  ({ kind: 'user', id, at, text: id, status, request: { text: id } });
const agent = (id: string, at: number, tag?: string): AgentMessage => ({ kind: 'agent', id, at, item: { type: 'text', text: id }, ...(tag !== undefined && { tag }) });
const ids = (c: Conversation) => c.messages.map((m) => m.id).join(' ');
const withMessages = (...messages: ChatMessage[]): Conversation => ({ ...newConversation(0), messages });

// Each change is made again on top of another tab's write (ConversationController's #lost): it has
// to mean the same on a conversation that has moved on since it was first made.
describe('conversation changes', () => {
  const addingTable: [string, Conversation, ChatMessage[], string | undefined, string][] = [
    ['adds at the end', withMessages(user('a', 1)), [agent('b', 2)], 'a', 'a b'],
    ['a message already there is not added twice (made again)', withMessages(user('a', 1), agent('b', 2)), [agent('b', 2)], 'a', 'a b'],
    ['after its predecessor, among what another tab added meanwhile, in the order made', withMessages(user('a', 1), user('x', 2), user('z', 4)), [user('m', 3)], 'a', 'a x m z'],
    ['a predecessor gone (another tab trimmed it): at the end, in order', withMessages(user('x', 2)), [user('m', 3)], 'gone', 'x m'],
    ['several, kept together in their order', withMessages(user('a', 1)), [agent('b', 2), agent('c', 2)], 'a', 'a b c'],
    ['before what another tab added after its predecessor later than it was made', withMessages(user('a', 1), user('x', 5)), [user('m', 3)], 'a', 'a m x'],
    ['after what another tab added in the same millisecond', withMessages(user('a', 1), user('x', 3)), [user('m', 3)], 'a', 'a x m'],
    ['after its predecessor wherever it is, even with a time earlier than the messages before it (the clock set back)', withMessages(user('a', 1), user('p', 4), user('x', 5)), [user('m', 3)], 'p', 'a p m x'],
    ['several with a time earlier than their predecessor\'s (the clock set back): together, after it, in their order', withMessages(user('a', 1), user('p', 4)), [agent('b', 3), agent('c', 3)], 'p', 'a p b c'],
  ];
  for (const [what, conversation, messages, after, expected] of addingTable) {
    it(`adding: ${what}`, () => expect(ids(adding(messages, after)(conversation))).to.equal(expected));
  }

  it('adding: past the limit the oldest leave, but never a message still to be sent', () => {
    const full = withMessages(...Array.from({ length: STORED_MESSAGES_LIMIT }, (_, i) => agent(`m${i}`, i)));
    expect(adding([agent('new', 1e6)])(full).messages.map((m) => m.id).slice(0, 1), 'the oldest left').to.deep.equal(['m1']);
    const waiting = withMessages(user('w', 0, 'sending'), ...Array.from({ length: STORED_MESSAGES_LIMIT - 1 }, (_, i) => agent(`m${i}`, i + 1)));
    const after = adding([agent('new', 1e6)])(waiting);
    expect(after.messages[0].id, 'the message still to be sent stays').to.equal('w');
    expect(after.messages.length).to.equal(STORED_MESSAGES_LIMIT + 1);
    // Waiting further in: the ones before it leave, it and all after it stay.
    const deeper = withMessages(...Array.from({ length: 5 }, (_, i) => agent(`old${i}`, i)), user('w', 5, 'sending'), ...Array.from({ length: STORED_MESSAGES_LIMIT }, (_, i) => agent(`m${i}`, i + 6)));
    const trimmed = adding([agent('new', 1e6)])(deeper).messages;
    expect([trimmed[0].id, trimmed.length], 'from the message still to be sent on').to.deep.equal(['w', STORED_MESSAGES_LIMIT + 2]);
  });

  const tagged = withMessages(user('a', 1), agent('b', 2, 'feedback-down'));
  const unchangedTable: [string, (c: Conversation) => Conversation, Conversation][] = [
    ['settling a request not held', settling('nope'), tagged],
    ['settling a request not held, others held', settling('nope'), { ...tagged, held: [{ id: 'p1', at: 1, message: { payload: { type: 'node', data: 'x' } } }] }],
    ['untagging with no tag waiting', untagging(['feedback-up']), withMessages(user('a', 1), agent('b', 2))],
    ['untagging a session past again', untagging(), withMessages(user('a', 1), agent('b', 2, ''))],
    ['untagging tags no rating carries', untagging(['feedback-up']), tagged],
    ['changing a message that is not there', changingMessage('nope', 'user', sent), tagged],
    ['changing a message of another kind', changingMessage('a', 'agent', (m) => ({ ...m, rating: 'up' })), tagged],
  ];
  for (const [what, change, conversation] of unchangedTable) {
    it(`leaves the conversation itself (no write) when there is nothing to change: ${what}`, () => {
      expect(change(conversation)).to.equal(conversation);
    });
  }

  it('untagging takes off the tags that reached the agent; or, the agent\'s session another conversation\'s, marks every reply of a session past', () => {
    const conversation = withMessages(agent('a', 1, 'feedback-up'), agent('b', 2, 'feedback-down'), agent('c', 3), user('d', 4));
    expect(untagging(['feedback-up'])(conversation).messages.map((m) => (m as AgentMessage).tag)).to.deep.equal([undefined, 'feedback-down', undefined, undefined]);
    // Empty: waiting for nothing (ratingTags), and a rating made later adds none (ConversationController.rate).
    expect(untagging()(conversation).messages.map((m) => (m as AgentMessage).tag)).to.deep.equal(['', '', '', undefined]);
  });

  it('settling drops only the request named', () => {
    const held = [1, 2].map((n) => ({ id: `p${n}`, at: n, message: { payload: { type: 'node' as const, data: 'x' } } }));
    expect(settling('p1')({ ...newConversation(0), held }).held!.map((h) => h.id)).to.deep.equal(['p2']);
    expect(settling('p1')({ ...newConversation(0), held: held.slice(0, 1) }).held, 'the only one held').to.deep.equal([]);
  });

  it('changingMessage changes the message of that id and kind only', () => {
    const failed = (id: string) => ({ ...user(id, 1, 'failed'), error: 'x' });
    const conversation = withMessages(failed('a'), failed('b'), agent('b', 2));
    const changed = changingMessage('b', 'user', sent)(conversation);
    expect(changed.messages.map((m) => (m.kind === 'user' ? m.status : 'agent'))).to.deep.equal(['failed', 'sent', 'agent']);
    expect(changed.messages[2], 'the agent\'s message of that id, as it was').to.equal(conversation.messages[2]);
    const rated = changingMessage('b', 'agent', (m) => ({ ...m, rating: 'up' as const }))(conversation);
    expect(rated.messages.map((m) => (m.kind === 'agent' ? m.rating : m.status))).to.deep.equal(['failed', 'failed', 'up']);
    expect(rated.messages.slice(0, 2), 'the visitor\'s messages, as they were').to.deep.equal(conversation.messages.slice(0, 2));
    expect(rated.messages[1]).to.equal(conversation.messages[1]);
  });

  it('sent: a delivered message keeps no error and no sending tab', () => {
    const failed: UserMessage = { ...user('a', 1, 'failed'), error: 'x', by: 'tab' };
    expect(sent(failed)).to.deep.equal({ ...user('a', 1), status: 'sent' });
  });

  it('applied makes the changes in order, the same again on a conversation that moved on', () => {
    const changes = [adding([user('q', 3)], 'a'), greeted, changingMessage('q', 'user', sent)];
    const theirs = withMessages(user('a', 1), agent('r', 2));
    const once = applied(changes, theirs);
    expect(ids(once)).to.equal('a r q');
    expect(once.greeted).to.equal(true);
    expect(applied(changes, once), 'made twice: the same').to.deep.equal(once);
  });
});
