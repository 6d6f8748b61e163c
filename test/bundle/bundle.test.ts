// What `npm run build` ships: size budgets, both script formats and their chunks, types, the SSR
// entries, the manifest.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BUDGETS, browserFiles, reachable, sizes, staticClosure, staticImports } from '../support/size.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

describe('bundle', () => {
  const measured = sizes();
  for (const [name, what] of [['shell', 'the shell (each script format)'], ['firstOpen', 'the shell and what opening, greeting and a text and a buttons reply need'], ['firstOpenMarkdown', 'everything a first open loads (the markdown chunk too, asked for once the view has painted)'], ['all', 'every chunk'], ['engine', 'agent-chat/engine alone (a site drawing its own UI)']] as const) {
    it(`${what}: at most ${BUDGETS[name].toLocaleString('en')} bytes min+gzip`, () => {
      assert.ok(measured[name] <= BUDGETS[name], `${measured[name]} bytes gzipped, budget ${BUDGETS[name]} (npm run size)`);
    });
  }

  it('the view and its chunks never import the shell (a classic-script page has its own copy of it)', () => {
    for (const file of browserFiles().filter((f) => f !== 'agent-chat.js')) {
      assert.ok(!staticImports(file).includes('agent-chat.js'), `${file} imports the shell`);
    }
    assert.deepEqual(staticImports('agent-chat.js'), [], 'the shell imports nothing at load');
    assert.match(readFileSync(`${dist}agent-chat.js`, 'utf8'), /import\(["'`]\.\/agent-chat-view\.js["'`]\)/, 'the shell loads the view next to itself');
    assert.match(readFileSync(`${dist}agent-chat.iife.js`, 'utf8'), /agent-chat-view\.js/, 'the classic script loads the same view');
  });

  it('"all" counts every file the widget may load, and those are the widget\'s files in dist/', () => {
    // Followed from the shell through every import, static or when it runs: a file the widget
    // loads is counted even where browserFiles() would leave it out (the standalone engine).
    assert.deepEqual([...reachable('agent-chat.js')].sort(), browserFiles().sort());
  });

  it('the engine comes in the view\'s file: no widget file asks for the standalone engine', () => {
    // One file for the two compresses better and takes one request; dist/agent-chat-engine.js is
    // built on its own for a site that draws its own UI.
    for (const file of [...browserFiles(), 'agent-chat.iife.js']) {
      assert.ok(!/agent-chat-engine|engine-chunks/.test(readFileSync(`${dist}${file}`, 'utf8')), `${file} names the standalone engine`);
    }
    assert.ok(/new BroadcastChannel\(/.test(readFileSync(`${dist}agent-chat-view.js`, 'utf8')), 'the view has the engine in it (its tabs\' channel)');
    assert.deepEqual(staticImports('agent-chat-view.js'), [], 'the view imports nothing at load');
  });

  it('marked and DOMPurify are in the markdown chunk only, which the first open does not import', () => {
    const markdown = browserFiles().filter((file) => /DOMPurify|marked/i.test(readFileSync(`${dist}${file}`, 'utf8')));
    assert.deepEqual(markdown.map((file) => file.replace(/-[\w-]+\.js$/, '.js')), ['chunks/markdown.js'], 'which files hold marked or DOMPurify');
    assert.ok(!sizes().firstOpenFiles.includes(markdown[0]), 'the first open does not import it');
    assert.match(readFileSync(`${dist}agent-chat-view.js`, 'utf8'), /import\(["'`]\.\/chunks\/markdown-[\w-]+\.js["'`]\)/, 'the view loads it when needed');
  });

  it('registers the element in both script formats (the build keeps that side effect)', () => {
    for (const file of ['agent-chat.js', 'agent-chat.iife.js', 'agent-chat.node.js']) {
      assert.match(readFileSync(`${dist}${file}`, 'utf8'), /customElements\.define\(\s*["'`]agent-chat["'`]/, file);
    }
  });

  it('the engine (agent-chat/engine) loads no Lit and no markdown: a site can draw its own UI on it alone', () => {
    const closure = [...staticClosure('agent-chat-engine.js')];
    assert.ok(!closure.includes('agent-chat-view.js'), 'the engine does not import the view');
    for (const file of closure) {
      assert.doesNotMatch(readFileSync(`${dist}${file}`, 'utf8'), /_\$litType\$|DOMPurify|marked/i, `${file} has no Lit, DOMPurify or marked`);
    }
  });

  it('ships the ES module, the classic script, type declarations and the CLI', () => {
    for (const file of ['agent-chat.js', 'agent-chat.iife.js', 'agent-chat-view.js', 'agent-chat-view.node.js', 'agent-chat-engine.js', 'agent-chat-engine.node.js', 'types/engine/index.d.ts', 'types/index.d.ts', 'types/renderers/index.d.ts', 'server/cli.js', 'server/proxy.js', 'custom-elements.json']) {
      assert.ok(existsSync(`${dist}${file}`), `dist/${file}`);
    }
    for (const file of browserFiles()) {
      assert.doesNotMatch(readFileSync(`${dist}${file}`, 'utf8'), /from\s*["'](lit|marked|dompurify)/, `dependencies are bundled (${file})`);
    }
  });

  it('imports without throwing where there is no DOM (server-side rendering)', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    // The package's own name resolves through "exports" → the "node" condition. A variable
    // specifier keeps the type-check independent of a build having run.
    const packageName = 'agent-chat';
    const entry = await import(packageName);
    assert.equal(typeof entry.AgentChat, 'function');
    const renderers = await import(`${packageName}/renderers`);
    assert.equal(typeof renderers.defaultRenderers.with, 'function');
  });

  it('documents every part, custom property, event and attribute in custom-elements.json', async () => {
    const manifest = JSON.parse(readFileSync(`${dist}custom-elements.json`, 'utf8'));
    const element = manifest.modules.flatMap((m: { declarations?: unknown[] }) => m.declarations ?? [])
      .find((d: { tagName?: string }) => d.tagName === 'agent-chat');
    assert.ok(element, 'agent-chat declared');
    const names = (list: { name: string }[]) => list.map((x) => x.name);
    const parts = names(element.cssParts);
    for (const part of ['launcher', 'panel', 'header', 'log', 'message', 'bubble', 'buttons', 'button', 'carousel', 'card', 'composer', 'input', 'send-button']) {
      assert.ok(parts.includes(part), `part ${part}`);
    }
    assert.ok(names(element.cssProperties).every((p: string) => p.startsWith('--agent-chat-')), 'prefixed custom properties');
    assert.ok(element.cssProperties.length >= 15, 'custom properties listed');
    assert.deepEqual(names(element.events).sort(), ['agent-chat-error', 'agent-chat-feedback', 'agent-chat-hide', 'agent-chat-response', 'agent-chat-send', 'agent-chat-show']);
    for (const attribute of ['proxy-url', 'open', 'greeting', 'language', 'mode', 'tts', 'agent-title', 'agent-subtitle', 'agent-avatar', 'user-name', 'user-email', 'session-timeout', 'include-metadata', 'keep-choices', 'feedback', 'teaser', 'teaser-delay']) {
      assert.ok(names(element.attributes).includes(attribute), `attribute ${attribute}`);
    }
    const { isPublicMember } = await import('../support/api-tables.mjs');
    const publicMembers = element.members.filter(isPublicMember);
    assert.ok(publicMembers.length >= 20, `public properties and methods listed (${publicMembers.length})`);
    for (const member of publicMembers) assert.ok(member.description, `${member.name} has a description`);
  });
});

describe('README', () => {
  it('has API tables that match custom-elements.json (run `npm run docs` after changing the JSDoc)', async () => {
    const { readmeWithTables } = await import('../support/api-tables.mjs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const manifest = JSON.parse(readFileSync(`${dist}custom-elements.json`, 'utf8'));
    assert.equal(readme, readmeWithTables(readme, manifest));
    for (const row of ['| `proxy-url` | `proxyUrl` |', '| `strings` |', '| `show()` |', '| `mic-button` |', '| `--agent-chat-accent-color` |']) {
      assert.ok(readme.includes(row), `README table row ${row}`);
    }
  });

  it('keeps its promises: the snippets match what the code and the tested entries do', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = (marker: string) => readme.split('```').find((b) => b.includes(marker)) ?? '';
    // e.detail.nodesIds is only there with include-metadata.
    const metadata = block('nodesIds');
    assert.match(metadata, /includeMetadata = true|include-metadata/, 'the nodesIds example asks for metadata');
    // Workers pass settings per request in env (no free variables in the edge snippet), and ctx, for waitUntil.
    const worker = readFileSync(new URL('../server/runtimes/worker.js', import.meta.url), 'utf8');
    const edge = block('readProxyEnv(env)');
    for (const line of ['fetch(request, env, ctx) {', 'proxy ??= createProxy(readProxyEnv(env));', 'return proxy(request, env, ctx);']) {
      assert.ok(edge.includes(line) && worker.includes(line), `README and the tested worker both say ${line}`);
    }
    assert.doesNotMatch(readme, /your-cdn\.example/, 'no placeholder CDN');
    assert.match(readme, /DEMO_FLOW/, 'the exported DEMO_FLOW is documented');
    assert.match(readme, /debugRoutes: true/, 'the debug route is documented as opt-in');
  });
});
