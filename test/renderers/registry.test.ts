import { expect } from '@open-wc/testing';
import { nothing } from 'lit';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { buttonsRenderer } from '../../src/renderers/buttons-renderer.js';
import { optional, type Renderer } from '../../src/renderers/registry.js';
import { textRenderer } from '../../src/renderers/text-renderer.js';

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

// What each renderer takes; anything else shows the reply's altText (the registry's fallback).
describe('the text and buttons renderers accept well-formed items only', () => {
  const table: [string, Pick<Renderer, 'accepts'>, AgentResponseItem, boolean][] = [
    ['text: texts', textRenderer, { type: 'text', options: ['Hi', '**there**'] }, true],
    ['text: no texts', textRenderer, { type: 'text', options: [] }, false],
    ['text: a text that is not a list', textRenderer, { type: 'text', options: 'Hi' as never }, false],
    ['text: a text that is not a string', textRenderer, { type: 'text', options: ['Hi', 5] }, false],
    ['buttons: choices', buttonsRenderer, { type: 'buttons', text: 'Pick', buttons: [{ title: 'a' }] }, true],
    ['buttons: no choices', buttonsRenderer, { type: 'buttons', text: 'Pick', buttons: [] }, false],
    ['buttons: choices as texts', buttonsRenderer, { type: 'buttons', options: ['a', 'b'] }, true],
    ['buttons: no texts', buttonsRenderer, { type: 'buttons', options: [] }, false],
    ['buttons: texts not a list', buttonsRenderer, { type: 'buttons', options: 'a' as never }, false],
    ['buttons: a blank text', buttonsRenderer, { type: 'buttons', options: ['a', '  '] }, false],
    ['buttons: a text that is not a string', buttonsRenderer, { type: 'buttons', options: ['a', 5] }, false],
    ['buttons: a prompt that is not a string', buttonsRenderer, { type: 'buttons', text: 5 as never, buttons: [{ title: 'a' }] }, false],
  ];
  for (const [what, renderer, item, expected] of table) it(`${what} → ${expected}`, () => expect(renderer.accepts(item)).to.equal(expected));
});
