import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Two pages: index.html renders in the browser; ssr.html is rendered at build time (prerender.mjs)
// and hydrated.
export default defineConfig({
  plugins: [react()],
  build: { rolldownOptions: { input: { main: 'index.html', ssr: 'ssr.html' } } },
});
