import { transform } from 'lightningcss';
import { defineConfig, type Plugin } from 'vite';

/**
 * Lit keeps `css` template literals as written, indentation and all; minify the ones in
 * `*.styles.ts` with lightningcss at build time. Only literals without `${}` are touched.
 */
function minifyLitCss(): Plugin {
  return {
    name: 'minify-lit-css',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.styles.ts')) return undefined;
      const minified = code.replace(/css`([^`$]*)`/g, (_match, source: string) => {
        const { code: css } = transform({ filename: id, code: Buffer.from(source), minify: true });
        return `css\`${css.toString()}\``;
      });
      // Only the inside of one literal changes: no map keeps the original lines for the rest.
      return { code: minified, map: null };
    },
  };
}

// Builds the widget for a script tag: dist/agent-chat.js (ES module) and dist/agent-chat.iife.js
// (classic script), each with lit, marked and DOMPurify bundled in. The server side and the SSR
// entry are built by esbuild (package.json "build:server", "build:node"); demo/ is served as is.
export default defineConfig({
  publicDir: false,
  plugins: [minifyLitCss()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    minify: true,
    sourcemap: true,
    reportCompressedSize: false,
    // Vite leaves ES-format library output unminified and annotated (for downstream bundlers);
    // this file is also what a script tag loads, so minify it like the classic one.
    rolldownOptions: { output: { minify: true, comments: false } },
    lib: {
      entry: 'src/index.ts',
      name: 'AgentChat',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'agent-chat.js' : 'agent-chat.iife.js'),
    },
  },
});
