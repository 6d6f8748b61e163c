import { buttonsRenderer } from './buttons-renderer.js';
import { lazyRenderer, RendererRegistry } from './registry.js';
import { textRenderer } from './text-renderer.js';

export { lazyRenderer, RendererRegistry, renderFallback, type ChatAction, type RenderContext, type Renderer } from './registry.js';
export { loadMarkdown } from './text-renderer.js';
export { safeImageUrl, safeLinkUrl } from './url.js';

/** The renderers every widget starts with: `text`, `buttons`, `carousel` (its own chunk, loaded with the first carousel). */
export const defaultRenderers = new RendererRegistry([
  ['text', textRenderer],
  ['buttons', buttonsRenderer],
  ['carousel', lazyRenderer(() => import('./carousel-renderer.js').then((m) => m.carouselRenderer))],
]);
