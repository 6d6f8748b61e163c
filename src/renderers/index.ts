import { buttonsRenderer } from './buttons-renderer.js';
import { carouselRenderer } from './carousel-renderer.js';
import { RendererRegistry } from './registry.js';
import { textRenderer } from './text-renderer.js';

export { RendererRegistry, renderFallback, type ChatAction, type RenderContext, type Renderer } from './registry.js';
export { renderMarkdown } from './sanitize.js';
export { safeImageUrl, safeLinkUrl } from './url.js';

/** The renderers every widget starts with: `text`, `buttons`, `carousel`. */
export const defaultRenderers = new RendererRegistry([
  ['text', textRenderer],
  ['buttons', buttonsRenderer],
  ['carousel', carouselRenderer],
]);
