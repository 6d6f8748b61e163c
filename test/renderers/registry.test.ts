import { expect } from '@open-wc/testing';
import { nothing } from 'lit';
import { optional } from '../../src/renderers/registry.js';

describe('optional (a renderer\'s optional field)', () => {
  const render = (value: unknown) => `drawn ${String(value)}`;
  // (`nothing` is a symbol, which the test runner cannot send back in a failure: compared by name.)
  const named = (result: unknown) => (result === nothing ? 'nothing' : result);
  const table: [unknown, string][] = [
    [undefined, 'nothing'],
    [null, 'nothing'],
    ['', 'nothing'],
    ['Title', 'drawn Title'],
    [0, 'drawn 0'],
  ];
  for (const [value, expected] of table) it(`${JSON.stringify(value) ?? 'undefined'} → ${expected}`, () => expect(named(optional(value, render))).to.equal(expected));
});
