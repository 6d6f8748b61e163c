// `npm run sri` (also run by `npm run build`): the Subresource Integrity hash of each file a page
// loads from a CDN, and the snippet to paste, pinned to this version.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { name, version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
export const PUBLISHED = ['dist/agent-chat.js', 'dist/agent-chat.iife.js'];

/** `sha384-…` of a file's bytes, as the `integrity` attribute wants it. */
export const integrityOf = (path) => `sha384-${createHash('sha384').update(readFileSync(new URL(path, root))).digest('base64')}`;

export function snippets(cdn = 'https://cdn.jsdelivr.net/npm') {
  const url = (path) => `${cdn}/${name}@${version}/${path}`;
  return [
    `<script type="module" src="${url(PUBLISHED[0])}"\n        integrity="${integrityOf(PUBLISHED[0])}" crossorigin="anonymous"></script>`,
    `<script src="${url(PUBLISHED[1])}"\n        integrity="${integrityOf(PUBLISHED[1])}" crossorigin="anonymous"></script>`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of PUBLISHED) console.log(`${path}: ${integrityOf(path)}`);
  console.log(`\n${snippets().join('\n')}`);
}
