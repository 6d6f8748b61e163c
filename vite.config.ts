import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds the widget for a script tag, in two passes (`vite build`, then `vite build --mode iife`):
 * - ES modules: dist/agent-chat.js, the shell (the element, its API and the launcher, ~4 KB), which
 *   imports dist/agent-chat-view.js (the engine and the panel) when first needed; the view imports
 *   dist/agent-chat-renderers.js (also the public `agent-chat/renderers` entry) and dist/chunks/*.
 *   Lit, marked and DOMPurify are bundled in. Every import is relative, so a CDN path works as is.
 * - dist/agent-chat.iife.js, a classic script: the same shell, which imports the ES view from its
 *   own URL (src/shell/load-view.iife.ts).
 * The server side and the SSR entry are built by esbuild (package.json "build:server",
 * "build:node"); demo/ is served as is.
 */
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
    // package.json's `sideEffects` lists the shipped files only; building from source, the module
    // that registers the element must keep its side effect (else the bundle defines nothing).
    {
      name: 'agent-chat:registration-is-a-side-effect',
      transform(code, id) {
        if (id.endsWith('/src/agent-chat.ts')) return { code, moduleSideEffects: true };
        return undefined;
      },
    },
    // Lit keeps html`` and css`` literals as written, indentation and all: the Lit team's plugin
    // minifies them (html-minifier-next, lightningcss) before TypeScript is stripped.
    {
      ...minifyHtmlLiterals({ include: ['src/**/*.ts'], failOnError: true, options: { minifyOptions: { removeAttributeQuotes: true } } }),
      enforce: 'pre',
    },
  ],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: mode !== 'iife',
    sourcemap: true,
    reportCompressedSize: false,
    // Two minifiers, because each finds what the other misses (`npm run size`, measured: rolldown's
    // alone 45,396 bytes gzipped, terser's alone 45,589, both 44,993). Vite leaves ES-format library
    // output unminified for downstream bundlers; this file is also what a script tag loads, so the
    // ES build is minified like the classic one.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    // allow-extension: the view entry may export what its lazy chunks import from it, instead of
    // splitting those modules into more small shared chunks (each costs a request and gzip overhead).
    rolldownOptions: { preserveEntrySignatures: 'allow-extension', output: { minify: true, comments: false, chunkFileNames: 'chunks/[name]-[hash].js' } },
    lib: mode === 'iife'
      ? { entry: 'src/index.ts', name: 'AgentChat', formats: ['iife' as const], fileName: () => 'agent-chat.iife.js' }
      : {
          entry: { 'agent-chat': 'src/index.ts', 'agent-chat-view': 'src/view/index.ts' },
          formats: ['es' as const],
          fileName: (_format: string, name: string) => `${name}.js`,
        },
  },
}));
