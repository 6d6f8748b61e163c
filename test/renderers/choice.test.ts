import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { stringsFor } from '../../src/i18n/strings.js';
import { isChoice, isChoiceList, renderChoice } from '../../src/renderers/choice.js';

// A guard of what an agent sends: it answers, it never throws (a renderer that threw would show the
// reply's altText all the same, but say the renderer failed rather than the reply).
describe('isChoice', () => {
  const table: [unknown, boolean][] = [
    [{ title: 'Pricing', payload: { type: 'node', data: 'pricing' } }, true],
    [{ title: 'Docs', url: 'https://example.com/docs' }, true],
    [{ title: 'Just a title' }, true],
    [null, false],
    ['Pricing', false],
    [{ title: 5 }, false],
    [{ title: '   ' }, false],
    [{ title: 'Bad payload', payload: { type: 'url', data: 'x' } }, false],
    [{ title: 'Bad url', url: 5 }, false],
  ];
  for (const [value, expected] of table) it(`${JSON.stringify(value)} → ${expected}`, () => expect(isChoice(value)).to.equal(expected));

  it('isChoiceList: a list of choices, each one', () => {
    expect(isChoiceList([{ title: 'a' }, { title: 'b' }])).to.equal(true);
    expect(isChoiceList([{ title: 'a' }, null])).to.equal(false);
    expect(isChoiceList({ title: 'a' })).to.equal(false);
  });
});

describe('a choice of an earlier turn, answered', () => {
  const drawn = (title: string) => {
    const box = document.createElement('div');
    render(renderChoice({ title }, { strings: stringsFor('en', {}), baseUrl: location.href, onAction: () => {}, answered: { text: 'Pricing' } }), box);
    return box.querySelector('button')!;
  };

  it('the one the visitor chose is marked with a check they can see (and pressed, for assistive technology); the others are not', () => {
    const chosen = drawn('Pricing');
    const other = drawn('Sales');
    expect(!!chosen.querySelector('svg'), 'a check on the chosen one').to.equal(true);
    expect(chosen.getAttribute('aria-pressed')).to.equal('true');
    expect(!!other.querySelector('svg'), 'none on the others').to.equal(false);
    expect(other.getAttribute('aria-pressed')).to.equal('false');
  });
});
