import { expect } from '@open-wc/testing';
import { isPostback, isTagOperations, readEventError, readEventResult, toResponseItem } from '../../src/protocol/guards.js';

describe('protocol guards', () => {
  const postbacks: [unknown, boolean][] = [
    [{ type: 'node', data: 'greeting' }, true],
    [{ type: 'intent', data: 'pricing' }, true],
    [{ type: 'action', data: { actions: [] } }, true],
    [{ type: 'node', data: '' }, false],
    [{ type: 'action', data: 'x' }, false],
    [{ type: 'action', data: {} }, false],
    [{ type: 'action', data: { actions: 'x' } }, false],
    [{ type: 'url', data: 'x' }, false],
    [{ type: 'node', data: 42 }, false],
    [{ type: 'intent', data: ['pricing'] }, false],
    [{ type: 'url', data: { actions: [] } }, false],
    [{ data: { actions: [] } }, false],
    ['node', false],
    [null, false],
    [undefined, false],
  ];
  for (const [value, expected] of postbacks) it(`isPostback ${JSON.stringify(value)} → ${expected}`, () => expect(isPostback(value)).to.equal(expected));

  // Session tags waiting in storage are read back through it (storage a page's script may have written).
  const tagOperations: [unknown, boolean][] = [
    [{}, true],
    [{ add: ['vip'] }, true],
    [{ remove: ['new'] }, true],
    [{ add: ['vip'], remove: [] }, true],
    [{ add: 'vip' }, false],
    [{ add: [1] }, false],
    [{ add: ['vip'], remove: null }, false],
    [null, false],
    [['vip'], false],
  ];
  for (const [value, expected] of tagOperations) it(`isTagOperations ${JSON.stringify(value)} → ${expected}`, () => expect(isTagOperations(value)).to.equal(expected));

  it('toResponseItem keeps objects and neutralises anything else', () => {
    expect(toResponseItem({ type: 'text', options: ['a'], altText: 'a', id: 'TX_1' })).to.deep.equal({ type: 'text', options: ['a'], altText: 'a', id: 'TX_1' });
    expect(toResponseItem({ type: 5, altText: 7 })).to.deep.equal({ type: 'invalid' });
    expect(toResponseItem('text')).to.deep.equal({ type: 'invalid' });
    expect(toResponseItem({ type: 'text', text: 'a', id: 42 }), 'an id that is not a string: none').to.deep.equal({ type: 'text', text: 'a' });
  });

  it('readEventResult reads ok bodies and drops malformed optional arrays', () => {
    expect(readEventResult({ status: 'ok', result: { responses: [], nodesIds: ['a'], responsesIds: [1] } })).to.deep.equal({ responses: [], nodesIds: ['a'] });
    expect(readEventResult({ status: 'ok', result: { responses: 'x' } })).to.deep.equal({ responses: [] });
    expect(readEventResult({ status: 'error', error: 'x' })).to.equal(undefined);
    expect(readEventError({ status: 'error', error: 'x' })).to.equal('x');
    expect(readEventError({ status: 'ok' })).to.equal(undefined);
  });

  it('readEventResult and readEventError read nothing from a body that is not theirs', () => {
    for (const body of [null, 'ok', [], { status: 'ok' }, { status: 'ok', result: 5 }, { status: 'error', result: { responses: [] } }, { result: { responses: [] } }]) {
      expect(readEventResult(body), JSON.stringify(body)).to.equal(undefined);
    }
    for (const body of [null, 'error', { status: 'ok', error: 'x' }, { status: 'error', error: 5 }, { error: 'x' }]) {
      expect(readEventError(body), JSON.stringify(body)).to.equal(undefined);
    }
  });
});
