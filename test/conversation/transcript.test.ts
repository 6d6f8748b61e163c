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

  // Each field a message needs, wrong in one message only: that message is left out, the rest kept.
  const agentMessage = { kind: 'agent', id: 'b', at: 2, item: { type: 'text' } };
  const corruptTable: [string, unknown][] = [
    ['an id that is not a string', { ...user('x'), id: 7 }],
    ["an agent's reply whose type is not a string", { ...agentMessage, id: 'y', item: { type: 5 } }],
    ["an agent's reply that is not an object", { ...agentMessage, id: 'y', item: 'text' }],
    ['a kind that is neither, with all of a visitor\'s message', { ...user('x'), kind: 'system' }],
    ['a text that is not a string', { ...user('x'), text: 5 }],
    ['a request that is not an object', { ...user('x'), request: 'hi' }],
  ];
  for (const [what, corrupt] of corruptTable) {
    it(`isConversation: a message with ${what} is left out, the rest kept`, () => {
      const stored = { ...newConversation(1), messages: [user('a', 'sending'), corrupt, agentMessage, user('f', 'failed')] };
      expect(isConversation(stored)).to.equal(true);
      expect(stored.messages, 'still to be sent, answered, and failed: each status kept').to.deep.equal([user('a', 'sending'), agentMessage, user('f', 'failed')]);
    });
  }

  for (const field of ['startedAt', 'updatedAt'] as const) {
    it(`isConversation: ${field} that is not a number → false`, () => {
      expect(isConversation({ ...newConversation(1), [field]: '1' })).to.equal(false);
    });
  }

  it('isConversation: a held request whose id is not a string, or that has none, or null, is left out', () => {
    const postback = { id: 'p', at: 1, message: { payload: { type: 'node', data: 'x' } } };
    const stored = { ...newConversation(1), held: [{ ...postback, id: 3 }, postback, { at: 1, message: postback.message }, null] };
    expect(isConversation(stored)).to.equal(true);
    expect(stored.held).to.deep.equal([postback]);
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
  it('isExpired counts the time since the last change, on a clock of today (not since 1970)', () => {
    const updatedAt = Date.UTC(2026, 11, 6, 12);
    const conversation = { ...newConversation(updatedAt - 3_600_000), updatedAt };
    expect(isExpired(conversation, 30, updatedAt + 29 * 60_000), '29 minutes idle').to.equal(false);
    expect(isExpired(conversation, 30, updatedAt + 31 * 60_000), '31 minutes idle').to.equal(true);
  });
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
