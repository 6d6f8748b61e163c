/**
 * Public entry, the shell a script tag loads: registers `<agent-chat>` and exports its class, events
 * and types. The renderer API is `agent-chat/renderers` (it brings Lit, marked and DOMPurify, which
 * the shell leaves for the moment a visitor opens the chat).
 */
export { AgentChat } from './agent-chat.js';
export * from './events.js';
export type { ChatAction, RenderContext, Renderer, RendererRegistry } from './renderers/index.js';
export type { Strings } from './i18n/strings.js';
export type { LoadPolicy } from './shell/when-to-load.js';
export type * from './protocol/types.js';
