import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { DOMPURIFY_SOURCE, asShipped, lineMap } from './scripts/dompurify-source.mjs';
import { isLitHtml, withoutGlobalHooks } from './scripts/lit-html-hooks.mjs';
import { asValues, isLocaleTable } from './scripts/locale-values.mjs';
import { markedSource } from './scripts/marked-source.mjs';
import { withTightCss } from './scripts/tighten-css.mjs';

/**
 * Builds the widget for a script tag, in three passes (`vite build`, `vite build --mode iife`,
 * `vite build --mode engine`):
 * - ES modules: dist/agent-chat.js, the shell (the element, its API and the launcher, ~4 KB), which
 *   imports dist/agent-chat-view.js (the panel and the engine under it; also the public
 *   `agent-chat/renderers`) when first needed; the view imports the feature chunks in dist/chunks/
 *   (carousel, dictation, speech, …) when first needed. Lit, marked and DOMPurify are bundled in.
 *   Every import is relative, so a CDN path works as is.
 * - dist/agent-chat.iife.js, a classic script: the same shell, which imports the ES view from its
 *   own URL (src/shell/load-view.iife.ts).
 * - dist/agent-chat-engine.js, `agent-chat/engine` alone (no Lit, no rendering), for a site that
 *   draws its own UI (its language tables in dist/engine-chunks/). A build of its own: a widget page
 *   never loads it, as the view has the engine in it. As a file the view imported (a chunk shared by
 *   two entries) it cost every first open ~780 bytes gzipped: the view and the engine compress
 *   better as one file than as two (the same names, the same calls), and the shell asked for both.
 * The server side and the SSR entry are built by esbuild (package.json "build:server",
 * "build:node"); demo/ is served as is.
 */
/** Modules that stay out of the core chunk: the shell's own, and the features loaded when first needed. */
const SHELL_OR_LAZY = /\/src\/(index|agent-chat|agent-chat\.component|events|shell\/[\w.-]+|renderers\/(carousel-renderer|markdown|sanitize)|controllers\/((dictation|speech|mobile-viewport)-controller|voice)|views\/(transcript-file|nudge)|view\/nudge-feature|controllers\/nudge-controller|i18n\/(el|de))\.ts$/;

/** Libraries only a lazy chunk uses: marked (built from its source in node_modules/.cache) and DOMPurify, for replies with markdown. */
const LAZY_LIBRARIES = /\/node_modules\/(marked|dompurify|\.cache\/agent-chat-marked)\//;

export default defineConfig(({ mode }) => ({
  publicDir: false,
  plugins: [
    // The classic script loads the view from its own URL, not through a bundled dynamic import.
    {
      name: 'agent-chat:classic-script-loads-view-from-its-url',
      enforce: 'pre' as const,
      resolveId(source: string, importer?: string) {
        if (mode !== 'iife' || source !== './shell/load-view.js' || !importer?.endsWith('/src/agent-chat.component.ts')) return null;
        return fileURLToPath(new URL('./src/shell/load-view.iife.ts', import.meta.url));
      },
    },
    // DOMPurify from the source its package ships, compiled for es2022, without its built-in
    // allowlists, which the widget's purifier never reads, the methods it never calls, and the code
    // of options its configuration leaves unset (scripts/dompurify-source.mjs).
    {
      name: 'agent-chat:dompurify-from-its-source',
      enforce: 'pre' as const,
      resolveId(source: string, importer?: string) {
        return source === 'dompurify' && importer?.includes('/src/') && !importer.includes('/node_modules/') ? DOMPURIFY_SOURCE : null;
      },
      transform(code: string, id: string) {
        if (!id.includes('/node_modules/dompurify/src/')) return undefined;
        const shipped = asShipped(code, id);
        return { code: shipped, map: lineMap(shipped, id) };
      },
    },
    // marked from the source its package ships, without what the widget never uses: the pedantic
    // grammar, extensions, hooks, the asynchronous mode, the default instance (scripts/marked-source.mjs).
    {
      name: 'agent-chat:marked-from-its-source',
      enforce: 'pre' as const,
      resolveId(source: string, importer?: string) {
        return source === 'marked' && importer?.includes('/src/') && !importer.includes('/node_modules/') ? markedSource() : null;
      },
    },
    // lit-html without its hand-over to lit's polyfill-support script and its entry in the page's
    // list of lit versions, neither of which the widget's templates need (scripts/lit-html-hooks.mjs).
    {
      name: 'agent-chat:lit-html-without-global-hooks',
      enforce: 'pre' as const,
      transform(code: string, id: string) {
        return isLitHtml(id) ? { code: withoutGlobalHooks(code), map: null } : undefined;
      },
    },
    // The other languages' UI text as values only, in the English table's key order (scripts/locale-values.mjs).
    {
      name: 'agent-chat:locale-tables-as-values',
      enforce: 'pre' as const,
      transform(code: string, id: string) {
        if (!isLocaleTable(id)) return undefined;
        const shipped = asValues(code, id);
        return { code: shipped, map: lineMap(shipped, id) };
      },
    },
    // package.json's `sideEffects` lists the shipped files only; building from source, the module
    // that registers the element must keep its side effect (else the bundle defines nothing).
    {
      name: 'agent-chat:registration-is-a-side-effect',
      transform(code, id) {
        if (id.endsWith('/src/agent-chat.ts')) return { code, map: null, moduleSideEffects: true }; // the code as it is: its map too
        return undefined;
      },
    },
    // Lit keeps html`` and css`` literals as written, indentation and all: the Lit team's plugin
    // minifies them (html-minifier-next, lightningcss) before TypeScript is stripped. Boolean
    // attributes collapsed (`disabled="disabled"` → `disabled`) and class names sorted (the same
    // order in every template compresses better): −3 bytes gzipped in all; sorting the attributes
    // instead cost 14.
    {
      ...minifyHtmlLiterals({ include: ['src/**/*.ts'], failOnError: true, options: { minifyOptions: { removeAttributeQuotes: true, collapseBooleanAttributes: true, sortClassName: true } } }),
      enforce: 'pre',
    },
    // Then the spaces lightningcss leaves in values that hold a var() (scripts/tighten-css.mjs).
    {
      name: 'agent-chat:tight-css',
      enforce: 'pre' as const,
      transform(code: string, id: string) {
        if (!/\/src\/(shell|view)\/styles\.ts$/.test(id)) return undefined;
        return { code: withTightCss(code), map: null };
      },
    },
  ],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: mode !== 'iife' && mode !== 'engine', // the later passes add to what the first wrote
    // Maps are written for our own tools (profiles, `npm run look`) but not published (package.json
    // `files`), so the shipped files do not point at them: the comment would send a visitor's
    // devtools to a missing file, and it cost every file ~40 bytes gzipped (~450 in all, 31 in the shell).
    sourcemap: 'hidden',
    reportCompressedSize: false,
    // Two minifiers, because each finds what the other misses (`npm run size`, measured: rolldown's
    // alone 45,396 bytes gzipped, terser's alone 45,589, both 44,993). Vite leaves ES-format library
    // output unminified for downstream bundlers; this file is also what a script tag loads, so the
    // ES build is minified like the classic one.
    minify: 'terser',
    // pure_getters: reading a property has no side effect worth keeping when its value goes unused
    // (no code here reads one for its effect, as `el.offsetHeight;` forcing a layout would): −34
    // bytes gzipped in all. unsafe_proto: `String.prototype.trim` read as `''.trim` (the same
    // function: DOMPurify takes built-ins' methods so as it loads), −3. passes: 3 and terser's
    // `module` and `unsafe_arrows` gain nothing; `unsafe_comps` (−13) turns `!(a < b)` into `a >= b`,
    // which a NaN tells apart. inline: 1 (only functions without arguments inlined) and sequences:
    // false (statements not joined by commas) compress better here: −17 in all, −5 in the shell
    // (measured on 5 December; each alone −8 and −4); module and toplevel gain nothing in the ES
    // files and would drop the classic script's global.
    terserOptions: { compress: { passes: 2, pure_getters: true, unsafe_proto: true, inline: 1, sequences: false }, format: { comments: false } },
    // allow-extension: the view entry may export what its lazy chunks import from it, instead of
    // splitting those modules into more small shared chunks (each costs a request and gzip overhead).
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output: {
        // The classic script's global (window.AgentChat) a plain object: no Symbol.toStringTag "Module" on it (−18 bytes gzipped).
        generatedCode: { symbols: false },
        minify: true, comments: false, chunkFileNames: mode === 'engine' ? 'engine-chunks/[name]-[hash].js' : 'chunks/[name]-[hash].js',
        // Everything the first open needs in one chunk (the view entry re-exports from it): left
        // alone, the bundler splits off a small chunk for each module a lazy chunk shares with the
        // view, and each file costs a request and its own gzip overhead. The classic script is one
        // file (it loads the ES build's chunks next to itself).
        codeSplitting: mode === 'iife' ? false : {
          groups: [
            { name: 'agent-chat-core', test: (id: string) => !SHELL_OR_LAZY.test(id) && !LAZY_LIBRARIES.test(id), priority: 1 },
          ],
        },
      },
    },
    lib: mode === 'iife'
      ? { entry: 'src/index.ts', name: 'AgentChat', formats: ['iife' as const], fileName: () => 'agent-chat.iife.js' }
      : {
          entry: (mode === 'engine'
            ? { 'agent-chat-engine': 'src/engine/index.ts' }
            : { 'agent-chat': 'src/index.ts', 'agent-chat-view': 'src/view/index.ts' }) as Record<string, string>,
          formats: ['es' as const],
          fileName: (_format: string, name: string) => `${name}.js`,
        },
  },
}));
