import { expect } from '@open-wc/testing';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { plainText } from '../../src/views/plain-text.js';

// A reply as plain text: what the downloaded transcript and the launcher's preview show of it.
describe('plainText', () => {
  const table: [string, AgentResponseItem, string][] = [
    ['its altText (plain by contract)', { type: 'text', options: ['**Hi**'], altText: 'Hi' }, 'Hi'],
    ['a blank altText: its texts, one a line', { type: 'text', options: ['one', 7, 'two'], altText: '  ' }, 'one\ntwo'],
    ['no altText: its texts', { type: 'text', options: ['one'] }, 'one'],
    ['an altText that is not a string: its texts', { type: 'text', options: ['one'], altText: 5 as never }, 'one'],
    ['no texts: its text (a buttons reply)', { type: 'buttons', text: 'Pick one' }, 'Pick one'],
    ['a text that is not a string: nothing', { type: 'buttons', text: 5 as never }, ''],
    ['nothing to show: nothing', { type: 'card' }, ''],
  ];
  for (const [what, item, expected] of table) it(what, () => expect(plainText(item)).to.equal(expected));
});
