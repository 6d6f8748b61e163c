import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// <agent-chat> is a custom element, not a Vue component: the compiler leaves it to the browser.
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'agent-chat' } } })],
});
