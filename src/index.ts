/** Public entry: registers `<agent-chat>` and exports its class, events, types and renderer API. */
export { AgentChat } from './agent-chat.js';
export * from './events.js';
export { defaultRenderers, RendererRegistry, renderFallback, renderMarkdown, safeImageUrl, safeLinkUrl } from './renderers/index.js';
export type { ChatAction, RenderContext, Renderer } from './renderers/index.js';
export type { Strings } from './i18n/strings.js';
export type * from './protocol/types.js';
