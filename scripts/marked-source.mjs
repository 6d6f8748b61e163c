// marked, compiled from the TypeScript source its package ships (the `sourcesContent` of
// `marked/lib/marked.esm.js.map`, the same release) instead of its prebuilt ES file, with two things
// the widget never uses left out:
//
// - the pedantic grammar (the original Markdown.pl's rules, `pedantic: true`): its rule sets and the
//   branches that read the option. The widget's parser (src/renderers/sanitize.ts) is GFM with line
//   breaks and never pedantic;
// - the default instance and the `marked()` function (`src/marked.ts`): the widget makes its own
//   `Marked`, so the entry is `src/Instance.ts`, which only declares the class.
//
// 14,995 → 14,295 bytes gzipped for marked alone (esbuild and terser, measured; 803 less in the
// widget's markdown chunk), and eleven regular expressions fewer made when the chunk loads. The
// widget's build (vite.config.ts) and its browser tests (web-test-runner.config.mjs) both use it,
// so the tests run the marked that ships. test/bundle/marked-source.test.ts shows it parses exactly
// as the prebuilt marked for the widget's options, and that a release whose source differs where
// this file cuts stops the build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../node_modules/marked/', import.meta.url);

/** The declarations of rules.ts that make the pedantic grammar, and nothing else. */
export const PEDANTIC_DECLARATIONS = [
  'blockPedantic',
  'emStrongLDelimPedanticCore',
  'emStrongLDelimPedantic',
  'emStrongRDelimAstPedanticCore',
  'emStrongRDelimAstPedantic',
  'emStrongRDelimUndPedanticCore',
  'emStrongRDelimUndPedantic',
  'inlinePedantic',
].sort();

/** The source files marked's map holds, by file name (`Instance.ts`, `rules.ts`, …). */
export function markedSources() {
  const map = JSON.parse(readFileSync(new URL('lib/marked.esm.js.map', root), 'utf8'));
  if (!Array.isArray(map.sourcesContent) || map.sourcesContent.length !== map.sources.length) {
    throw new Error('marked/lib/marked.esm.js.map no longer carries its sources: check scripts/marked-source.mjs');
  }
  return Object.fromEntries(map.sources.map((path, i) => [path.split('/').pop(), map.sourcesContent[i]]));
}

const READS_PEDANTIC = /\bthis\.options\.pedantic\b/g;

/**
 * One of marked's source files without the pedantic grammar: `this.options.pedantic` reads `false`
 * (Tokenizer.ts, Lexer.ts: the minifier drops the branches), and rules.ts loses the pedantic rule
 * sets and the declarations only they use (each runs from `const NAME` to the next blank line).
 * Throws where the source is not as expected, so a new release is looked at before it ships.
 * @param {string} code
 * @param {string} file the file's name (`rules.ts`)
 * @returns {string}
 */
export function withoutPedantic(code, file) {
  if (file === 'Tokenizer.ts' || file === 'Lexer.ts') {
    if (!code.match(READS_PEDANTIC)) throw new Error(`marked's ${file} no longer reads this.options.pedantic: check scripts/marked-source.mjs`);
    return code.replace(READS_PEDANTIC, 'false');
  }
  if (file !== 'rules.ts') return code;
  const removed = [];
  let cut = code.replace(/^const (\w*Pedantic\w*)\b[\s\S]*?\n(?=[ \t]*\n)/gm, (declaration, name) => {
    if (!/;[ \t]*(\/\/[^\n]*)?\n$/.test(declaration)) throw new Error(`marked's rules.ts: ${name} does not end before a blank line: check scripts/marked-source.mjs`);
    removed.push(name);
    return '';
  });
  const exported = [/^ {2}pedantic: blockPedantic,\n/m, /^ {2}pedantic: inlinePedantic,\n/m];
  for (const line of exported) {
    if (!line.test(cut)) throw new Error(`marked's rules.ts no longer exports ${line.source}: check scripts/marked-source.mjs`);
    cut = cut.replace(line, '');
  }
  const left = cut.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').match(/\b\w*Pedantic\w*\b/g);
  if (removed.sort().join() !== PEDANTIC_DECLARATIONS.join() || left) {
    throw new Error(`marked's rules.ts declares ${removed.join(', ')}${left ? ` and still names ${left.join(', ')}` : ''} (expected ${PEDANTIC_DECLARATIONS.join(', ')}): check scripts/marked-source.mjs`);
  }
  return cut;
}

/**
 * Writes marked's source, without the pedantic grammar, to node_modules/.cache (once per release of
 * marked and version of this file) and returns the absolute path of its entry, `Instance.ts` (the `Marked` class).
 * @returns {string}
 */
export function markedSource() {
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const cuts = createHash('sha256').update(readFileSync(new URL(import.meta.url))).digest('hex').slice(0, 12);
  const dir = new URL(`../node_modules/.cache/agent-chat-marked/${version}-${cuts}/`, import.meta.url);
  const entry = new URL('Instance.ts', dir);
  // The files are written before the marker, so a build cut off halfway writes them again.
  const done = new URL('.written', dir);
  if (!existsSync(done)) {
    mkdirSync(dir, { recursive: true });
    for (const [file, code] of Object.entries(markedSources())) writeFileSync(new URL(file, dir), withoutPedantic(code, file));
    if (!existsSync(entry)) throw new Error('marked/lib/marked.esm.js.map has no Instance.ts: check scripts/marked-source.mjs');
    writeFileSync(done, '');
  }
  return fileURLToPath(entry);
}
