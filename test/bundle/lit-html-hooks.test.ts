import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isLitHtml, withoutGlobalHooks } from '../../scripts/lit-html-hooks.mjs';

const litHtml = readFileSync(new URL('../../node_modules/lit-html/lit-html.js', import.meta.url), 'utf8');
const view = readFileSync(new URL('../../dist/agent-chat-view.js', import.meta.url), 'utf8');

describe('lit-html without its global hooks (scripts/lit-html-hooks.mjs)', () => {
  it('cuts the hand-over to litHtmlPolyfillSupport and the litHtmlVersions entry, and nothing else', () => {
    assert.match(litHtml, /litHtmlPolyfillSupport/);
    const cut = withoutGlobalHooks(litHtml);
    assert.doesNotMatch(cut, /litHtmlPolyfillSupport|litHtmlVersions/);
    assert.ok(litHtml.length - cut.length < 100, `${litHtml.length - cut.length} characters cut`);
    // The module around them stays whole: it still parses, and still exports what it did.
    assert.deepEqual([...cut.matchAll(/export\{([^}]*)\}/g)].map((m) => m[1]), [...litHtml.matchAll(/export\{([^}]*)\}/g)].map((m) => m[1]));
    assert.doesNotThrow(() => new Function(cut.replace(/import[^;]*;|export\{[^}]*\};?/g, '')));
  });

  it('the view the build wrote has neither (the end-to-end tests run its templates)', () => {
    assert.doesNotMatch(view, /litHtmlPolyfillSupport|litHtmlVersions/);
  });

  it('refuses a release whose last statements differ, so it is looked at before it ships', () => {
    assert.throws(() => withoutGlobalHooks(litHtml.replace('litHtmlVersions', 'litVersions')), /check scripts\/lit-html-hooks\.mjs/);
    assert.throws(() => withoutGlobalHooks(`${litHtml}\n${litHtml}`), /check scripts\/lit-html-hooks\.mjs/);
    assert.ok(isLitHtml('/x/node_modules/lit-html/lit-html.js'));
    assert.ok(!isLitHtml('/x/node_modules/lit-html/development/lit-html.js'));
  });
});
