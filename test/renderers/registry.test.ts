import { expect } from '@open-wc/testing';
import { nothing, render } from 'lit';
import { stringsFor } from '../../src/i18n/strings.js';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { buttonsRenderer } from '../../src/renderers/buttons-renderer.js';
import { optional, RendererRegistry, type Renderer } from '../../src/renderers/registry.js';
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

/** What a renderer is drawn with: English, links relative to this page, actions going nowhere. */
const context = { strings: stringsFor('en', {}), baseUrl: location.href, onAction: () => {} };

describe('the registry\'s fallback for a reply it cannot draw', () => {
  const registry = new RendererRegistry([['buttons', buttonsRenderer as unknown as Renderer]]);
  const drawn = (item: AgentResponseItem) => {
    const box = document.createElement('div');
    render(registry.render(item, context), box);
    return box.querySelector('[part~="bubble"]')!;
  };

  it('shows the altText, in its own direction (dir=auto), and tells the site\'s developer once per type, not once per reply', () => {
    const warn = console.warn;
    const warnings: unknown[][] = [];
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const broken = { type: 'buttons', buttons: [] } as AgentResponseItem;
      const bubble = drawn({ ...broken, altText: 'Pick a plan?' });
      expect(bubble.textContent).to.equal('Pick a plan?');
      expect(bubble.getAttribute('dir'), '"Pick a plan?" keeps its question mark at its end on a right-to-left page').to.equal('auto');
      drawn({ ...broken, altText: 'Pick again?' });
      expect(warnings.map(String), 'one warning for the type').to.have.length(1);
      expect(String(warnings[0]), 'naming it').to.contain('"buttons"');
    } finally {
      console.warn = warn;
    }
  });

  it('without a usable altText (none, or only spaces), a notice that the reply cannot be shown, not an empty bubble', () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      for (const altText of [undefined, '   \n ']) {
        const bubble = drawn({ type: 'buttons', buttons: [], ...(altText === undefined ? {} : { altText }) } as AgentResponseItem);
        expect(bubble.getAttribute('part'), JSON.stringify(altText)).to.contain('bubble--notice');
        expect(bubble.textContent, JSON.stringify(altText)).to.equal(context.strings.unsupportedMessage);
      }
    } finally {
      console.warn = warn;
    }
  });
});

describe('a buttons reply\'s choices, to assistive technology', () => {
  const group = (item: AgentResponseItem) => {
    const box = document.createElement('div');
    render(buttonsRenderer.render(item as never, context), box);
    return box.querySelector('[part~="buttons"]')!;
  };

  it('are a group named by the prompt, or by the altText where the reply has no prompt', () => {
    const prompted = group({ type: 'buttons', text: 'Which plan?', buttons: [{ title: 'S' }, { title: 'M' }] });
    expect(prompted.getAttribute('role')).to.equal('group');
    expect(prompted.getAttribute('aria-label')).to.equal('Which plan?');
    const bare = group({ type: 'buttons', altText: 'Choose a size: S or M', options: ['S', 'M'] });
    expect(bare.getAttribute('role')).to.equal('group');
    expect(bare.getAttribute('aria-label')).to.equal('Choose a size: S or M');
  });
});
