import { render, type TemplateResult } from 'lit/html.js';
import type { ReactiveControllerHost } from 'lit';
import type { ChatMessage } from '../conversation/transcript.js';

export interface MessageLogControllerOptions {
  renderMessage: (message: ChatMessage) => TemplateResult;
  /** Called after `messages` were added at the end; `first` is the element of the first of them. */
  onAppended: (first: HTMLElement, messages: readonly ChatMessage[]) => void;
  /** Called after everything was redrawn (a restored or new conversation). */
  onReset: () => void;
  /** Loads what drawing `messages` needs (lazy renderers); undefined when nothing is missing. */
  prepare?: (messages: readonly ChatMessage[]) => Promise<unknown> | undefined;
  /** Whether the oldest entries may leave the DOM now (the visitor reads the newest ones). */
  canTrim: () => boolean;
  /** The count of entries not shown changed (the "earlier messages" control). */
  onHiddenChange: () => void;
  /** The id of the oldest message the transcript keeps: the log drops those before it. */
  oldest: () => string | undefined;
}

/** Entries kept in the DOM while the visitor reads the newest: the browser's layout and paint work per message, and the memory, stay those of a short conversation. */
const SHOWN = 100;
/** Trimmed in batches, not one entry per message. */
const SLACK = 10;
/** Entries kept at most while nothing the visitor did calls for a trim (see `#trim`). */
const MOST = 2 * SHOWN;
/** Entries "earlier messages" brings back at a time. */
const PAGE = 50;

/**
 * Renders the transcript into the log element one message at a time. Each message gets its own
 * container, rendered once when it arrives and again only if that message changes (e.g. its
 * delivery status), so adding a message costs the same with 10 or 10,000 before it: the element's
 * own template never lists the messages, and nothing re-diffs the whole log. Only the newest
 * entries are in the DOM (about {@link SHOWN}, at most {@link MOST}); the older ones stay in the
 * transcript and come back a page at a time (`showEarlier()`). It holds what the transcript holds
 * (the newest 500 messages, from its oldest on). It needs none of the host's lifecycle hooks, so it
 * does not register as a Lit controller.
 */
export class MessageLogController {
  #element?: HTMLElement;
  #messages: ChatMessage[] = [];
  /** How many messages the log holds (shown or not). */
  get size() {
    return this.#messages.length;
  }

  /** How many of the oldest messages are not in the DOM. */
  hidden = 0;
  readonly #containers = new Map<string, HTMLElement>();
  /** `this` for event listeners in the rendered templates; drawn again once what waited is drawn (see `queue`). */
  readonly #host: ReactiveControllerHost;
  readonly #options: MessageLogControllerOptions;

  constructor(host: ReactiveControllerHost, options: MessageLogControllerOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** Hands over the log element; a new element gets every message rendered into it. */
  readonly attach = (element?: Element) => {
    if (element === this.#element || !(element instanceof HTMLElement)) return;
    this.#element = element;
    this.#mountAll();
  };

  /** Replaces everything shown (a restored or new conversation): the newest entries. */
  reset(messages: readonly ChatMessage[]) {
    this.#messages = [...messages];
    this.#setHidden(Math.max(0, messages.length - SHOWN));
    this.#inOrder(messages.slice(this.hidden), false, () => this.#mountAll());
  }

  /** Brings back a page of the entries before the oldest shown, keeping in view what was. */
  showEarlier() {
    if (!this.hidden) return; // (none: a second click before the control went, a scroll)
    const from = Math.max(0, this.hidden - PAGE);
    const earlier = this.#messages.slice(from, this.hidden);
    this.#setHidden(from);
    this.#inOrder(earlier, false, () => this.#keepInView(() => {
      const fragment = document.createDocumentFragment();
      const present = new Map(this.#messages.map((m) => [m.id, m]));
      for (const { id } of earlier) if (present.has(id)) fragment.append(this.#mount(present.get(id)!));
      this.#quietly().prepend(fragment);
    }));
  }

  /**
   * Runs `change` (entries added or removed above the view) without moving what is in view, at
   * once. (The autoscroll controller keeps what a visitor reads in place as the log's content
   * changes size, as the browser tells it, but not where the view is above every entry, at the
   * log's top; and left to it, the oldest entries leaving moved what was read down by their height
   * in Firefox once, in a run of the whole suite: not traced.)
   */
  #keepInView(change: () => void) {
    // (Called with entries drawn: the list is there, and its parent, the log, scrolls.)
    const scroller = this.#element!.parentElement!;
    const height = scroller.scrollHeight;
    change();
    scroller.scrollTop += scroller.scrollHeight - height;
  }

  #setHidden(count: number) {
    if (count === this.hidden) return;
    this.hidden = count;
    this.#options.onHiddenChange();
  }

  /**
   * While the visitor reads the newest, the oldest shown entries leave the DOM (in batches). That
   * moves every entry below them: a layout shift, which counts against the host page's score unless
   * it follows the visitor's input. So entries leave with the visitor's own message (drawn in the
   * task of their Enter or click), and otherwise only past {@link MOST} (an agent's many replies at
   * once), not each time a reply arrives.
   */
  #trim(added: readonly ChatMessage[]) {
    const size = this.#containers.size;
    if (size <= SHOWN + SLACK || (size <= MOST && !added.some((m) => m.kind === 'user')) || !this.#options.canTrim()) return;
    const shown = this.#messages.slice(this.hidden).filter((m) => this.#containers.has(m.id));
    for (const message of shown.slice(0, shown.length - SHOWN)) {
      this.#containers.get(message.id)!.remove();
      this.#containers.delete(message.id);
    }
    this.#setHidden(this.#messages.lastIndexOf(shown[shown.length - SHOWN]));
  }

  append(...messages: ChatMessage[]) {
    this.#messages.push(...messages);
    this.#dropBefore(this.#options.oldest());
    this.#inOrder(messages, true, () => {
      // Removed while its renderer loaded, or drawn by a reset meanwhile: not again.
      // Each as it is now (its status may have changed while it waited), unless it was removed or a
      // reset drew it meanwhile. By id from the end, where new messages are.
      const shown = messages.map((m) => this.#messages[this.#indexOf(m.id)]).filter((m) => m && !this.#containers.has(m.id));
      if (!this.#element || !shown.length) return;
      const fragment = document.createDocumentFragment();
      for (const message of shown) fragment.append(this.#mount(message));
      this.#element.append(fragment);
      this.#trim(shown);
      // A batch longer than the window: its first entries left at once; the first still shown leads.
      const first = shown.find((m) => this.#containers.has(m.id))!;
      this.#options.onAppended(this.#containers.get(first.id)!, shown);
    });
  }

  /** From the end: what changes (a status, a discard) is nearly always among the newest. */
  #indexOf(id: string) {
    return this.#messages.findLastIndex((m) => m.id === id);
  }

  /**
   * Set while messages wait to be drawn for what they need (the markdown chunk): a reply has come
   * and is not shown yet (or a conversation restored), so the view keeps its typing line (on a slow
   * connection the greeting came a second before the chunk, and the panel stood empty between the
   * two). The host is drawn again once they are.
   */
  queue?: Promise<void>;

  /**
   * Draws at once when nothing is missing and nothing waits; otherwise after what `messages` need
   * has loaded (or failed to: then they show their altText), behind what waits already, so the
   * log keeps the transcript's order. What is `news` (new messages, put at the end) also waits
   * for the list to be live again, if it was just drawn anew (see `#quietly`): put in it then, a
   * reply would never be read out (a reload mid-send, whose answer came as the page drew the
   * conversation it restored).
   */
  #inOrder(messages: readonly ChatMessage[], news: boolean, draw: () => void) {
    const missing = this.#options.prepare?.(messages);
    if (!missing && !this.queue && !(news && this.#live())) return draw();
    const queued: Promise<void> = (this.queue ?? Promise.resolve()).then(() => missing).catch(() => undefined).then(() => (news ? this.#live() : undefined)).then(() => {
      if (this.queue === queued) this.queue = undefined;
      draw();
      this.#host.requestUpdate();
    });
    this.queue = queued;
  }

  update(message: ChatMessage) {
    const index = this.#indexOf(message.id);
    if (index >= 0) this.#messages[index] = message;
    const container = this.#containers.get(message.id);
    if (container) render(this.#options.renderMessage(message), container, { host: this.#host });
  }

  /**
   * Shows `messages` as changed elsewhere (another tab): when they extend what is shown, only the
   * new and the changed entries are rendered; otherwise everything is.
   */
  sync(messages: readonly ChatMessage[]) {
    // The oldest left that conversation (the transcript keeps the newest): here too.
    this.#dropBefore(messages[0]?.id);
    const shown = this.#messages;
    if (messages.length < shown.length || shown.some((m, i) => m.id !== messages[i].id)) return this.reset(messages);
    shown.forEach((m, i) => {
      const now = messages[i];
      if (m.kind === 'user' && now.kind === 'user' ? m.status !== now.status || m.error !== now.error : m.kind === 'agent' && now.kind === 'agent' && m.rating !== now.rating) {
        this.update(now);
      }
    });
    if (messages.length > shown.length) this.append(...messages.slice(shown.length));
  }

  /**
   * The messages before `id` leave the log (not shown, unless the visitor brought back that many);
   * none if the log has no `id`.
   */
  #dropBefore(id?: string) {
    const dropped = this.#messages.slice(0, Math.max(0, this.#messages.findIndex((m) => m.id === id)));
    const drop = () => dropped.forEach((m) => this.remove(m.id));
    // Shown only when the visitor brought back the oldest entries, to read them: they stay in view.
    if (dropped.some((m) => this.#containers.has(m.id))) this.#keepInView(drop);
    else drop();
  }

  remove(id: string) {
    const index = this.#indexOf(id);
    if (index >= 0 && index < this.hidden) this.#setHidden(this.hidden - 1);
    this.#messages = this.#messages.filter((m) => m.id !== id);
    this.#containers.get(id)?.remove();
    this.#containers.delete(id);
  }

  #mountAll() {
    this.#containers.clear();
    if (!this.#element) return;
    const shown = this.#messages.slice(this.hidden);
    // (Nothing to draw, a new conversation: live at once, for its greeting.)
    (shown[0] ? this.#quietly() : this.#element).replaceChildren(...shown.map((m) => this.#mount(m)));
    this.#options.onReset();
  }

  /**
   * The list, not live until the browser has taken up what is put in it now: the log is a live
   * region (`role="log"`), and entries put in all at once (a conversation drawn anew: a page's
   * restored conversation once its markdown has loaded, an Undo, another language's text; earlier
   * entries brought back) are not news, which a screen reader would read out one after another.
   * (Its accessibility tree is updated with the next frame: live again after it.)
   */
  #quietly() {
    // (Called once the list is there: a conversation drawn into it, or earlier entries brought back in it.)
    const list = this.#element!;
    list.setAttribute('aria-live', 'off');
    let end!: () => void;
    const quiet = (this.#quiet = new Promise((resolve) => (end = resolve)));
    requestAnimationFrame(() => setTimeout(() => {
      if (quiet === this.#quiet) list.removeAttribute('aria-live'), (this.#quiet = undefined);
      end();
    }));
    return list;
  }

  /** Settles when the list is not live, once it is again. */
  #quiet?: Promise<void>;

  /**
   * Once the list is live again; none while it is, or while the page is hidden (its frames, which
   * end the quiet, wait until it is shown; a screen reader reads the page in front).
   */
  #live(): Promise<void> | undefined {
    return document.hidden ? undefined : this.#quiet?.then(() => this.#live());
  }

  #mount(message: ChatMessage): HTMLElement {
    const container = document.createElement('div');
    container.className = 'entry';
    render(this.#options.renderMessage(message), container, { host: this.#host });
    this.#containers.set(message.id, container);
    return container;
  }
}
