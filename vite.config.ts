import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';
import { defineConfig } from 'vite';

// Builds the widget for a script tag: dist/agent-chat.js (ES module) and dist/agent-chat.iife.js
// (classic script), each with lit, marked and DOMPurify bundled in. The server side and the SSR
// entry are built by esbuild (package.json "build:server", "build:node"); demo/ is served as is.
export default defineConfig({
  publicDir: false,
  plugins: [
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
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: false,
    // Two minifiers, because each finds what the other misses (`npm run size`, measured: rolldown's
    // alone 45,396 bytes gzipped, terser's alone 45,589, both 44,993). Vite leaves ES-format library
    // output unminified for downstream bundlers; this file is also what a script tag loads, so the
    // ES build is minified like the classic one.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rolldownOptions: { output: { minify: true, comments: false } },
    lib: {
      entry: 'src/index.ts',
      name: 'AgentChat',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'agent-chat.js' : 'agent-chat.iife.js'),
    },
  },
});
