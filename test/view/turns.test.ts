import { expect } from '@open-wc/testing';
import type { ChatMessage } from '../../src/conversation/transcript.js';
import { answerOf, previousOf, turnsBefore } from '../../src/view/turns.js';

const agent = (id: string, type = 'buttons'): ChatMessage => ({ kind: 'agent', id, at: 0, item: { type } });
const user = (id: string, text = id): ChatMessage => ({ kind: 'user', id, at: 0, text, status: 'sent', request: { text } });

describe('turns of a transcript', () => {
  const messages = [agent('g-text', 'text'), agent('g-choices'), user('u1', 'Pricing'), agent('r1', 'text'), agent('r1-choices'), agent('r1-cards', 'carousel')];

  it('finds the entry before a message, none before the first or for an unknown one', () => {
    expect(previousOf(messages, messages[2])!.id).to.equal('g-choices');
    expect(previousOf(messages, messages[0])).to.equal(undefined);
    expect(previousOf(messages, agent('nowhere'))).to.equal(undefined);
  });

  it("finds the visitor's answer to a reply: their next message, if any", () => {
    expect(answerOf(messages, messages[1])).to.deep.equal({ text: 'Pricing' });
    expect(answerOf(messages, messages[0]), 'a turn answered as a whole').to.deep.equal({ text: 'Pricing' });
    expect(answerOf(messages, messages[4]), 'the last turn').to.equal(undefined);
    expect(answerOf(messages, agent('nowhere'))).to.equal(undefined);
  });

  it('lists the replies with choices of the turns a new answer concerns, text replies left out', () => {
    expect(turnsBefore(messages, 2).map((m) => m.id), 'the answer at 2: the turn before it, and the last turn').to.deep.equal(['g-choices', 'r1-cards', 'r1-choices']);
    expect(turnsBefore(messages, messages.length).map((m) => m.id), 'only the last turn').to.deep.equal(['r1-cards', 'r1-choices']);
    expect(turnsBefore([], 0)).to.deep.equal([]);
  });
});
