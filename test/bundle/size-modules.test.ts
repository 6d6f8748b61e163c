// `npm run size -- --modules`: each first-open file split into its modules, read through the build's
// source maps, so that a decision about what the first open carries starts from measured bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moduleCosts, moduleName } from '../support/size-modules.mjs';
import { gzipBytes, sizes } from '../support/size.mjs';

describe('size by module', () => {
  it('names a library by its package and our code by its path', () => {
    assert.equal(moduleName('../node_modules/lit-html/lit-html.js'), 'lit-html');
    assert.equal(moduleName('../node_modules/dompurify/src/purify.ts'), 'dompurify');
    assert.equal(moduleName('../node_modules/.cache/agent-chat-marked/18.2.1-2f8dd00dfc53/Lexer.ts'), 'marked');
    assert.equal(moduleName('../node_modules/@lit/reactive-element/reactive-element.js'), '@lit/reactive-element');
    assert.equal(moduleName('../src/view/chat-view.ts'), 'src/view/chat-view.ts');
  });

  it('splits each file a first open loads into the modules it was built from, each costing less than the file', () => {
    const measured = sizes();
    const markdown = measured.firstOpenMarkdownFiles.find((file) => file.startsWith('chunks/markdown-'))!;
    const [[first], [second]] = moduleCosts(markdown);
    assert.deepEqual([first, second].sort(), ['dompurify', 'marked'], 'the markdown chunk is mostly its two libraries');
    const view = moduleCosts('agent-chat-view.js');
    const names = view.map(([module]) => module);
    for (const module of ['lit-html', 'src/view/chat-view.ts', 'src/engine/chat-session.ts', 'src/view/styles.ts']) assert.ok(names.includes(module), module);
    assert.ok(!names.some((module) => /marked|dompurify/.test(module)), 'the libraries of markdown are not in the view');
    for (const [module, cost] of view) assert.ok(cost < gzipBytes('agent-chat-view.js'), `${module}: ${cost}`);
  });
});
