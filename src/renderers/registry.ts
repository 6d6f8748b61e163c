import { html, nothing, type TemplateResult } from 'lit';
import type { AgentResponseItem, Postback } from '../protocol/types.js';
import type { Strings } from '../i18n/strings.js';

/** What a click inside a rendered reply asks the widget to do. */
export type ChatAction =
  | { kind: 'postback'; title: string; payload: Postback }
  | { kind: 'text'; text: string };

export interface RenderContext {
  strings: Strings;
  /** Base for relative links: the host page's URL. */
  baseUrl: string;
  onAction(action: ChatAction): void;
}

/**
 * Renders one response type. `accepts` validates the item's fields; when it says no (or `render`
 * throws) the registry shows the item's `altText` instead.
 */
export interface Renderer<T extends AgentResponseItem = AgentResponseItem> {
  accepts(item: AgentResponseItem): item is T;
  render(item: T, context: RenderContext): TemplateResult;
}

/**
 * An immutable map from response `type` to renderer. Extend it with `with()`, which returns a
 * copy, so two widgets on one page can render differently:
 * `chat.renderers = defaultRenderers.with('image', imageRenderer)`.
 */
export class RendererRegistry {
  readonly #renderers: ReadonlyMap<string, Renderer>;
  readonly #warned = new Set<string>();

  constructor(entries: Iterable<readonly [string, Renderer]> = []) {
    this.#renderers = new Map(entries);
  }

  /** A copy of this registry with `type` rendered by `renderer`. */
  with<T extends AgentResponseItem>(type: string, renderer: Renderer<T>): RendererRegistry {
    return new RendererRegistry([...this.#renderers, [type, renderer as unknown as Renderer]]);
  }

  has(type: string): boolean {
    return this.#renderers.has(type);
  }

  /** Renders `item`, falling back to its escaped `altText`, or a neutral notice without one. */
  render(item: AgentResponseItem, context: RenderContext): TemplateResult {
    const { type } = item;
    const renderer = this.#renderers.get(type);
    if (renderer) {
      try {
        if (renderer.accepts(item)) return renderer.render(item, context);
        this.#warnOnce(type);
      } catch (error) {
        this.#warnOnce(type, error);
      }
    }
    return renderFallback(item, context);
  }

  #warnOnce(type: string, error?: unknown) {
    if (this.#warned.has(type)) return;
    this.#warned.add(type);
    console.warn(`agent-chat: "${type}" item not rendered (${error ?? 'invalid fields'}); showing its altText`);
  }
}

/** Lit escapes interpolated text, so an altText cannot inject markup. */
export function renderFallback(item: AgentResponseItem, context: RenderContext): TemplateResult {
  const text = typeof item.altText === 'string' && item.altText.trim() ? item.altText : undefined;
  return text
    ? html`<div part="bubble bubble--agent bubble--fallback" class="bubble agent">${text}</div>`
    : html`<div part="bubble bubble--agent bubble--notice" class="bubble agent notice">${context.strings.unsupportedMessage}</div>`;
}

export const optional = <T>(value: T | undefined | null, render: (value: T) => unknown) =>
  value === undefined || value === null || value === '' ? nothing : render(value);
