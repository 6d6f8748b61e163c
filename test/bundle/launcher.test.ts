// `agent-chat/launcher` (dist/server/launcher.js), as a server imports it from the package: the launcher as HTML for the host
// page, and the CSP source for its style. (How it looks next to the shell's own launcher, and under
// a strict CSP, is tested in the browsers: test/shell.test.ts, test/e2e/demo.spec.ts.)
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

// The built file the package exports as `agent-chat/launcher` (typed from its source).
const { launcherSnippet, launcherStyleHash } = await import(`${new URL('../../dist/server/launcher.js', import.meta.url)}`) as typeof import('../../src/shell/launcher-snippet.js');

describe('agent-chat/launcher', () => {
  it('renders a declarative shadow root with the launcher, labelled in the language asked for', () => {
    const html = launcherSnippet();
    assert.match(html, /^<template shadowrootmode="open"><style>:host\{/);
    assert.match(html, /<button part="launcher" class="launcher" type="button" aria-controls="panel" aria-expanded="false" aria-label="Open chat" inert>/);
    assert.match(html, /<\/template>$/);
    assert.match(launcherSnippet({ language: 'el' }), /aria-label="Άνοιγμα συνομιλίας"/);
    assert.match(launcherSnippet({ label: 'Ask "us" <now> & then' }), /aria-label="Ask &quot;us&quot; &lt;now> &amp; then"/);
  });

  it('gives the sha256 of its style as a style-src source', async () => {
    const style = /<style>([^<]*)<\/style>/.exec(launcherSnippet())![1];
    assert.ok(!style.includes('/*') && !/\s{2}/.test(style), 'minified');
    assert.equal(await launcherStyleHash(), `'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('dist/launcher.html is the snippet, for pasting', () => {
    assert.equal(readFileSync(new URL('../../dist/launcher.html', import.meta.url), 'utf8'), `${launcherSnippet()}\n`);
  });
});
