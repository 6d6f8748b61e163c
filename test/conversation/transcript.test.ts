import { expect } from '@open-wc/testing';
import { mergeTags, withoutTags } from '../../src/conversation/tags.js';
import { isConversation, isExpired, newConversation, type ChatMessage } from '../../src/conversation/transcript.js';

const user = (id: string, status: 'sending' | 'sent' | 'failed' = 'sent'): ChatMessage =>
  ({ kind: 'user', id, at: 1, text: id, status, request: { text: id } });

describe('transcript', () => {
  const guardTable: [string, unknown, boolean][] = [
    ['a new conversation', newConversation(5), true],
    ['one with messages', { ...newConversation(1), messages: [user('a'), { kind: 'agent', id: 'b', at: 2, item: { type: 'text' } }] }, true],
    ['null', null, false],
    ['a missing field', { startedAt: 1, updatedAt: 1, messages: [] }, false],
    ['a held postback', { ...newConversation(1), held: [{ id: 'p', at: 1, message: { payload: { type: 'node', data: 'x' } } }] }, true],
    ['held that is not a list', { ...newConversation(1), held: { id: 'p' } }, false],
  ];
  for (const [what, value, expected] of guardTable) {
    it(`isConversation: ${what} → ${expected}`, () => expect(isConversation(value)).to.equal(expected));
  }

  it('isConversation: a message that is not one (corrupt) is left out, the rest of the conversation kept', () => {
    const agent = { kind: 'agent', id: 'b', at: 2, item: { type: 'text' } };
    const stored = { ...newConversation(1), messages: [user('a'), { kind: 'system', id: 'x', at: 1 }, agent, { ...user('c'), status: 'lost' }, 'junk', null, user('d')] };
    expect(isConversation(stored)).to.equal(true);
    expect(stored.messages).to.deep.equal([user('a'), agent, user('d')]);
  });

  it('isConversation: a message whose time is not one a date can hold (corrupt) is left out, the rest kept', () => {
    const agent = { kind: 'agent', id: 'b', at: 2, item: { type: 'text' } };
    const stored = { ...newConversation(1), messages: [user('a'), { ...agent, id: 'far', at: 1e21 }, agent, { ...user('c'), at: '5' }, { ...user('e'), at: -8.64e15 - 1 }, { ...user('last'), at: 8.64e15 }, user('d')] };
    expect(isConversation(stored)).to.equal(true);
    expect(stored.messages, 'the last time a date can hold is one').to.deep.equal([user('a'), agent, { ...user('last'), at: 8.64e15 }, user('d')]);
  });

  it('isConversation: a held request that is not one (without its message, corrupt) is left out, the others kept', () => {
    const postback = { id: 'p', at: 1, message: { payload: { type: 'node', data: 'x' } } };
    const stored = { ...newConversation(1), held: [{ id: 'q', at: 1 }, postback, 7] };
    expect(isConversation(stored)).to.equal(true);
    expect(stored.held).to.deep.equal([postback]);
  });

  const expiryTable: [number, number, boolean][] = [
    [0, 10 * 60_000, false],
    [30, 29 * 60_000, false],
    [30, 30 * 60_000, false], // idle exactly as long as the timeout: not yet over
    [30, 30 * 60_000 + 1, true],
    [30, 31 * 60_000, true],
  ];
  for (const [timeout, idle, expected] of expiryTable) {
    it(`isExpired: timeout ${timeout} min, idle ${idle / 60_000} min → ${expected}`, () => {
      expect(isExpired(newConversation(0), timeout, idle)).to.equal(expected);
    });
  }
  const waitingTable: [string, Partial<ReturnType<typeof newConversation>>, boolean][] = [
    ['every message sent', { messages: [user('a'), user('b', 'failed')] }, true],
    ['a message still to be sent', { messages: [user('a'), user('b', 'sending')] }, false],
    ['a postback still to be sent', { held: [{ id: 'p', at: 1, message: { payload: { type: 'node', data: 'x' } } }] }, false],
    ['nothing held', { held: [] }, true],
  ];
  for (const [what, parts, expected] of waitingTable) {
    it(`isExpired, idle past the timeout: ${what} → ${expected}`, () => {
      expect(isExpired({ ...newConversation(0), ...parts }, 30, 31 * 60_000)).to.equal(expected);
    });
  }
});

describe('mergeTags', () => {
  const table: [Parameters<typeof mergeTags>[0], Parameters<typeof mergeTags>[1], ReturnType<typeof mergeTags>][] = [
    [undefined, { add: ['a'] }, { add: ['a'] }],
    [{ add: ['a'] }, { add: ['b'], remove: ['c'] }, { add: ['a', 'b'], remove: ['c'] }],
    [{ add: ['a'] }, { remove: ['a'] }, { remove: ['a'] }],
    [{ remove: ['a'] }, { add: ['a'] }, { add: ['a'] }],
    [undefined, {}, undefined],
  ];
  for (const [pending, next, expected] of table) {
    it(`${JSON.stringify(pending)} + ${JSON.stringify(next)} → ${JSON.stringify(expected)}`, () => {
      expect(mergeTags(pending, next)).to.deep.equal(expected);
    });
  }
});

describe('withoutTags', () => {
  const table: [Parameters<typeof withoutTags>[0], Parameters<typeof withoutTags>[1], ReturnType<typeof withoutTags>][] = [
    [{ add: ['a'] }, { add: ['a'] }, undefined],
    [{ add: ['a', 'b'], remove: ['c'] }, { add: ['a'], remove: ['c'] }, { add: ['b'] }],
    // Made since the request: the opposite operation on a tag it carried still waits.
    [{ remove: ['a'] }, { add: ['a'] }, { remove: ['a'] }],
    [undefined, { add: ['a'] }, undefined],
  ];
  for (const [pending, sent, expected] of table) {
    it(`${JSON.stringify(pending)} − ${JSON.stringify(sent)} → ${JSON.stringify(expected)}`, () => {
      expect(withoutTags(pending, sent)).to.deep.equal(expected);
    });
  }
});
