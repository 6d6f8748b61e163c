import { html, nothing, type TemplateResult } from 'lit/html.js';
import type { AgentResponseItem, Postback } from '../protocol/types.js';
import type { Strings } from '../i18n/strings.js';
import { safeLinkUrl } from './url.js';

/** What a click inside a rendered reply asks the widget to do. */
export type ChatAction =
  | { kind: 'postback'; title: string; payload: Postback }
  | { kind: 'text'; text: string };

export interface RenderContext {
  strings: Strings;
  /** Base for relative links: the host page's URL. */
  baseUrl: string;
  onAction(action: ChatAction): void;
  /**
   * The visitor has answered this reply (a message of theirs follows it): its choices are shown as
   * answered, the one whose title they sent marked as chosen, none clickable. Unset while it is the
   * latest turn, and always with `keep-choices`.
   */
  answered?: { text: string };
}

/**
 * Renders one response type. `accepts` validates the item's fields; when it says no (or `render`
 * throws) the registry shows the item's `altText` instead.
 */
export interface Renderer<T extends AgentResponseItem = AgentResponseItem> {
  accepts(item: AgentResponseItem): item is T;
  render(item: T, context: RenderContext): TemplateResult;
  /**
   * Loads what drawing `item` needs (a chunk of code), or undefined when it is there. While it
   * loads, the registry draws the item's `altText`; the message log waits for it instead.
   */
  prepare?(item: AgentResponseItem): Promise<void> | undefined;
}

/**
 * A renderer whose code is a chunk of its own, loaded when a reply of its type first arrives (see
 * `RendererRegistry.prepare`); until then, and if it fails to load, the reply shows its `altText`.
 */
export function lazyRenderer(load: () => Promise<Renderer>): Renderer {
  let loaded: Renderer | undefined;
  let loading: Promise<void> | undefined;
  return {
    accepts: (item): item is AgentResponseItem => loaded?.accepts(item) ?? false,
    render: (item, context) => loaded!.render(item, context),
    prepare: () => (loaded ? undefined : (loading ??= load().then((renderer) => void (loaded = renderer), () => void (loading = undefined)))),
  };
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

  /** Loads the lazy renderers `items` need; undefined when they are all there (render at once). */
  prepare(items: readonly AgentResponseItem[]): Promise<unknown> | undefined {
    const loads = items.flatMap((item) => this.#renderers.get(item.type)?.prepare?.(item) ?? []);
    return loads.length ? Promise.all(loads) : undefined;
  }

  /** Renders `item`, falling back to its escaped `altText`, or a neutral notice without one. */
  render(item: AgentResponseItem, context: RenderContext): TemplateResult {
    const { type } = item;
    const renderer = this.#renderers.get(type);
    // A renderer whose code is not loaded yet (see prepare()): its altText, without a warning.
    if (renderer?.prepare?.(item)) return renderFallback(item, context);
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

/**
 * Plain text with its web addresses as links (the markdown allowlist: a URL `safeLinkUrl` refuses
 * stays text; punctuation after an address is not part of it). Lit escapes interpolated text, so nothing in it can become markup.
 */
const linkified = (text: string, base: string) => text.split(/(https?:\/\/[^\s<>"]*[^\s<>".,;:!?')\]])/).map((part, i) => {
  const href = i % 2 ? safeLinkUrl(part, base) : undefined;
  return href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${part}</a>` : part;
});

/** An item's altText, web addresses linked, or a neutral notice without one. */
export function renderFallback(item: AgentResponseItem, context: RenderContext): TemplateResult {
  const text = typeof item.altText === 'string' && item.altText.trim() ? item.altText : undefined;
  return text
    ? html`<div part="bubble bubble--agent bubble--fallback" class="bubble agent" dir="auto">${linkified(text, context.baseUrl)}</div>`
    : html`<div part="bubble bubble--agent bubble--notice" class="bubble agent notice">${context.strings.unsupportedMessage}</div>`;
}

export const optional = <T>(value: T | undefined | null, render: (value: T) => unknown) =>
  value === undefined || value === null || value === '' ? nothing : render(value);
