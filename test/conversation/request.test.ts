import { expect } from '@open-wc/testing';
import { buildRequest } from '../../src/conversation/request.js';
import { TAG_LIMIT } from '../../src/protocol/types.js';

// The body of one request (CONTRACT §3), as it goes on the wire: what JSON keeps of it.
const wire = (...args: Parameters<typeof buildRequest>) => {
  const { timestamp, ...body } = JSON.parse(JSON.stringify(buildRequest(...args)));
  expect(timestamp, 'a time').to.be.a('number');
  return body;
};

describe('buildRequest', () => {
  const message = { text: 'Hello' };

  it('carries the message and the sender, and nothing the session did not set', () => {
    expect(wire(message, {}, 's-1')).to.deep.equal({ message, sender: { id: 's-1' } });
    // Not even a key without a value: the request is also agent-chat-send's detail, which a site's code reads.
    const { timestamp, ...request } = buildRequest(message, {}, 's-1');
    expect(Object.keys(request), 'the request as agent-chat-send gives it').to.deep.equal(['message', 'sender']);
    expect(Object.keys(request.sender!)).to.deep.equal(['id']);
  });

  it('names the visitor, says the language and asks for what the options ask, each alone', () => {
    expect(wire(message, { userName: 'Ada' }, 's-1').sender).to.deep.equal({ id: 's-1', name: 'Ada' });
    expect(wire(message, { userEmail: 'ada@example.com' }, 's-1').sender).to.deep.equal({ id: 's-1', email: 'ada@example.com' });
    expect(wire(message, { language: 'EL' }, 's-1').language).to.equal('EL');
    expect(wire(message, { includeMetadata: true }, 's-1').options).to.deep.equal({ includeMetadata: true });
    expect(wire(message, { includeSpeech: true }, 's-1').options).to.deep.equal({ includeStrippedMarkdownTextResponses: true });
    expect(wire(message, { includeMetadata: true, includeSpeech: true }, 's-1').options).to.deep.equal({ includeMetadata: true, includeStrippedMarkdownTextResponses: true });
    expect(wire(message, { includeMetadata: false, includeSpeech: false }, 's-1'), 'options off: none').to.not.have.property('options');
  });

  it(`carries at most ${TAG_LIMIT} tags of each operation (the rest wait for the next request)`, () => {
    const tags = Array.from({ length: TAG_LIMIT + 5 }, (_, i) => `t${i}`);
    const { tagOperations } = wire(message, {}, 's-1', { add: tags, remove: ['old'] });
    expect(tagOperations).to.deep.equal({ add: tags.slice(0, TAG_LIMIT), remove: ['old'] });
    expect(wire(message, {}, 's-1', { remove: tags }).tagOperations, 'removals alone').to.deep.equal({ remove: tags.slice(0, TAG_LIMIT) });
    expect(wire(message, {}, 's-1', { add: ['new'] }).tagOperations, 'additions alone').to.deep.equal({ add: ['new'] });
  });
});
