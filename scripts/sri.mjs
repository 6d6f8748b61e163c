// `npm run sri` (also run by `npm run build`): the Subresource Integrity hash of each file a page
// loads from a CDN, and the snippet to paste, pinned to this version.
//
// The script tag's `integrity` covers the shell only: the rest of the widget (the view, marked and
// DOMPurify, the features' chunks) comes by `import()` from next to it, which no attribute covers.
// An import map's `integrity` section does (HTML's "resolve a module integrity metadata"; Chromium
// 127, Firefox 138, Safari 18): the browser refuses any of those files whose bytes are not the ones
// built here, and none of its code runs. The snippet therefore starts with one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { reachable } from './imports.mjs';

const root = new URL('../', import.meta.url);
const { name, version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
/** The files a page names in its script tag: the ES module shell and the classic script. */
export const PUBLISHED = ['dist/agent-chat.js', 'dist/agent-chat.iife.js'];

/** Where the CDN at `cdn` (jsDelivr's layout by default) serves `path` of this version. */
const cdnUrl = (cdn, path) => `${cdn}/${name}@${version}/${path}`;

/** `sha384-…` of a file's bytes, as the `integrity` attribute wants it. */
export const integrityOf = (path) => `sha384-${createHash('sha384').update(readFileSync(new URL(path, root))).digest('base64')}`;

/**
 * Under dist/: every file either shell may load after it (both load the same view and chunks, from
 * next to themselves); with `'engine'`, `agent-chat/engine` (which a site's own module imports,
 * so no script tag vouches for it) and its chunks.
 */
export const loadedFiles = (entry = 'widget') => (entry === 'engine'
  ? [...reachable('agent-chat-engine.js')]
  : [...reachable('agent-chat.js')].filter((file) => file !== 'agent-chat.js')).map((file) => `dist/${file}`);

/** The import map that makes the browser check each of those files: `{ integrity: { url: hash } }`. */
export const importMap = (cdn = 'https://cdn.jsdelivr.net/npm', entry = 'widget') =>
  ({ integrity: Object.fromEntries(loadedFiles(entry).map((path) => [cdnUrl(cdn, path), integrityOf(path)])) });

/** The snippets to paste (the ES module's, the classic script's): the import map, then the script tag. */
export function snippets(cdn = 'https://cdn.jsdelivr.net/npm') {
  const map = `<script type="importmap">\n${JSON.stringify(importMap(cdn), null, 2)}\n</script>`;
  const tag = (path, module) =>
    `${map}\n<script${module ? ' type="module"' : ''} src="${cdnUrl(cdn, path)}"\n        integrity="${integrityOf(path)}" crossorigin="anonymous"></script>`;
  return [tag(PUBLISHED[0], true), tag(PUBLISHED[1], false)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of new Set([...PUBLISHED, ...loadedFiles(), ...loadedFiles('engine')])) console.log(`${path}: ${integrityOf(path)}`);
  console.log(`\n${snippets().join('\n\n')}`);
  console.log(`\nFor agent-chat/engine imported from the CDN by the site's own code, this import map first:\n<script type="importmap">\n${JSON.stringify(importMap(undefined, 'engine'), null, 2)}\n</script>`);
}
