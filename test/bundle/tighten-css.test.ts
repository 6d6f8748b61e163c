import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { tightenCss, withTightCss } from '../../scripts/tighten-css.mjs';

describe('the style sheets without the spaces lightningcss leaves (scripts/tighten-css.mjs)', () => {
  it('drops the spaces after commas and around * and /, and keeps those around + and - and in strings', () => {
    assert.equal(
      tightenCss('a{--x:var(--y, calc(.2 + .76 * var(--d)) 0);b:color-mix(in oklab, red, blue 7%);c:0 / 24px local, 1px;d:rgb(0 0 0 / .18)}'),
      'a{--x:var(--y,calc(.2 + .76*var(--d)) 0);b:color-mix(in oklab,red,blue 7%);c:0/24px local,1px;d:rgb(0 0 0/.18)}',
    );
    assert.equal(tightenCss('a:before{content:", / * "}b{c:calc(1px - 2 * 3px)}'), 'a:before{content:", / * "}b{c:calc(1px - 2*3px)}');
    assert.throws(() => tightenCss('a{content:"x}'), /a string that does not end/);
    // In selectors a space before * is a combinator: `.launcher *` (what is inside it) stays.
    assert.equal(tightenCss('.launcher *{a:b}:is(.x, .y) *{--_d:clamp(0, (1 - l) * 9, 1)}@supports (color:light-dark(red, red)){p{q:r}}'),
      '.launcher *{a:b}:is(.x, .y) *{--_d:clamp(0,(1 - l)*9,1)}@supports (color:light-dark(red, red)){p{q:r}}');
  });

  it('tightens the css`` literals a module assigns, not the tag named in its comments, and refuses one with ${}', () => {
    const code = '// A tag named `css` so that `x, y`\nexport const sheet = css`a{b:var(--c, 1px)}`;';
    assert.equal(withTightCss(code), '// A tag named `css` so that `x, y`\nexport const sheet = css`a{b:var(--c,1px)}`;');
    assert.throws(() => withTightCss('const s = css`a{b:${x}}`;'), /with \$\{\} in it/);
  });

  it('the built sheets have none of those spaces left in their values, and their selectors keep theirs', () => {
    // A combinator of each sheet's that a space before * or after , would lose.
    const selectors = { 'agent-chat.js': '.launcher *{', 'agent-chat-view.js': '.bubble :not(pre)>code{' };
    for (const [file, selector] of Object.entries(selectors)) {
      const built = readFileSync(new URL(`../../dist/${file}`, import.meta.url), 'utf8');
      const sheet = built.match(/`([^`]*:host[^`]*)`/)![1];
      const values = sheet.replace(/[^{};]*\{/g, '{'); // without selectors and preludes
      assert.doesNotMatch(values, /, | \* | \/ /, file);
      assert.ok(sheet.includes(selector), `${file}: ${selector} as written`);
      assert.match(sheet, /calc\([^)]* \+ /, `${file}: calc() keeps its spaces around +`);
    }
  });
});
