import { render, type TemplateResult } from 'lit/html.js';
import type { ChatMessage } from '../conversation/transcript.js';

export interface MessageLogControllerOptions {
  renderMessage: (message: ChatMessage) => TemplateResult;
  /** Called after `messages` were added at the end; `first` is the element of the first of them. */
  onAppended: (first: HTMLElement, messages: readonly ChatMessage[]) => void;
  /** Called after everything was redrawn (a restored or new conversation). */
  onReset: () => void;
  /** Loads what drawing `messages` needs (lazy renderers); undefined when nothing is missing. */
  prepare?: (messages: readonly ChatMessage[]) => Promise<unknown> | undefined;
}

/**
 * Renders the transcript into the log element one message at a time. Each message gets its own
 * container, rendered once when it arrives and again only if that message changes (e.g. its
 * delivery status), so adding a message costs the same with 10 or 10,000 before it: the element's
 * own template never lists the messages, and nothing re-diffs the whole log. It needs none of the
 * host's lifecycle hooks, so it does not register as a Lit controller.
 */
export class MessageLogController {
  #element?: HTMLElement;
  #messages: ChatMessage[] = [];
  readonly #containers = new Map<string, HTMLElement>();
  /** `this` for event listeners in the rendered templates. */
  readonly #host: object;
  readonly #options: MessageLogControllerOptions;

  constructor(host: object, options: MessageLogControllerOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** Hands over the log element; a new element gets every message rendered into it. */
  readonly attach = (element?: Element) => {
    if (element === this.#element || !(element instanceof HTMLElement)) return;
    this.#element = element;
    this.#mountAll();
  };

  /** Replaces everything shown (a restored or new conversation). */
  reset(messages: readonly ChatMessage[]) {
    this.#messages = [...messages];
    this.#inOrder(messages, () => this.#mountAll());
  }

  append(...messages: ChatMessage[]) {
    this.#messages.push(...messages);
    this.#inOrder(messages, () => {
      // Removed while its renderer loaded, or drawn by a reset meanwhile: not again.
      const shown = messages.filter((m) => this.#messages.includes(m) && !this.#containers.has(m.id));
      if (!this.#element || !shown.length) return;
      const fragment = document.createDocumentFragment();
      for (const message of shown) fragment.append(this.#mount(message));
      this.#element.append(fragment);
      this.#options.onAppended(this.#containers.get(shown[0].id)!, shown);
    });
  }

  #queue?: Promise<void>;

  /**
   * Draws at once when nothing is missing and nothing waits; otherwise after what `messages` need
   * has loaded (or failed to: then they show their altText), behind what waits already, so the
   * log keeps the transcript's order.
   */
  #inOrder(messages: readonly ChatMessage[], draw: () => void) {
    const missing = this.#options.prepare?.(messages);
    if (!missing && !this.#queue) return draw();
    const queued: Promise<void> = (this.#queue ?? Promise.resolve()).then(() => missing).catch(() => undefined).then(() => {
      if (this.#queue === queued) this.#queue = undefined;
      draw();
    });
    this.#queue = queued;
  }

  update(message: ChatMessage) {
    const index = this.#messages.findIndex((m) => m.id === message.id);
    if (index >= 0) this.#messages[index] = message;
    const container = this.#containers.get(message.id);
    if (container) render(this.#options.renderMessage(message), container, { host: this.#host });
  }

  /**
   * Shows `messages` as changed elsewhere (another tab): when they extend what is shown, only the
   * new and the changed entries are rendered; otherwise everything is.
   */
  sync(messages: readonly ChatMessage[]) {
    const shown = this.#messages;
    if (messages.length < shown.length || shown.some((m, i) => m.id !== messages[i].id)) return this.reset(messages);
    shown.forEach((m, i) => {
      if (m.kind === 'user' && messages[i].kind === 'user' && (m.status !== messages[i].status || m.error !== (messages[i] as typeof m).error)) {
        this.update(messages[i]);
      }
    });
    if (messages.length > shown.length) this.append(...messages.slice(shown.length));
  }

  remove(id: string) {
    this.#messages = this.#messages.filter((m) => m.id !== id);
    this.#containers.get(id)?.remove();
    this.#containers.delete(id);
  }

  #mountAll() {
    this.#containers.clear();
    if (!this.#element) return;
    this.#element.replaceChildren(...this.#messages.map((m) => this.#mount(m)));
    this.#options.onReset();
  }

  #mount(message: ChatMessage): HTMLElement {
    const container = document.createElement('div');
    container.className = 'entry';
    render(this.#options.renderMessage(message), container, { host: this.#host });
    this.#containers.set(message.id, container);
    return container;
  }
}
