import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentResponseItem } from '../protocol/types.js';
import { typingElsewhere } from '../view/typing-elsewhere.js';
import { plainText } from '../views/plain-text.js';

/**
 * Set once the teaser's time is over for this visitor, on any page of the site: they have seen it,
 * dismissed it, opened the chat, or have a conversation. It never shows again, and the shell no
 * longer loads the rest of the widget for it (its teaserDue reads the same key).
 */
export const TEASER_SEEN_KEY = 'agent-chat:teaser-seen';
/** Keys pressed this recently (ms) mean the visitor is typing: the teaser waits. */
const TYPING_QUIET = 2000;
/** How often a waiting teaser looks again whether the visitor still types (ms). */
const RECHECK = 1000;

export interface NudgeOptions {
  /** The site's teaser text (`teaser`), or none. */
  teaser: () => string | undefined;
  /** Seconds after the page loaded before the teaser may show (`teaser-delay`). */
  delay: () => number;
  /** Whether a nudge may show now: launcher mode, panel closed. */
  allowed: () => boolean;
  /** The element itself: keys pressed inside it are not "typing elsewhere". */
  element: () => HTMLElement;
  /** Whether the visitor has a conversation already (on any page or tab): they know where the chat is. */
  started: () => boolean;
}

/** What shows next to the closed launcher: a reply's first line, or the teaser. */
export interface Nudge {
  kind: 'preview' | 'teaser';
  text: string;
}

/** A reply as one line: the first of its plain text. */
export const previewText = (item: AgentResponseItem) => plainText(item).trim().split('\n')[0];

/** The shell's teaserDue (not imported: see there). */
const due = () => {
  try {
    return !localStorage.getItem(TEASER_SEEN_KEY);
  } catch {
    return false; // no storage: "once per visitor" cannot be kept, so never
  }
};

/** The teaser's time is over for this visitor (see TEASER_SEEN_KEY). */
const over = () => {
  try {
    localStorage.setItem(TEASER_SEEN_KEY, '1');
  } catch {
    // nothing to remember it in
  }
};

/**
 * The launcher's nudges while the panel is closed:
 * - a **preview** of the newest reply that arrived meanwhile (until opened or dismissed);
 * - the site's **teaser**, once per visitor, `delay` seconds after the page loaded, never to a
 *   visitor who has a conversation, and never while the visitor is typing elsewhere on the page (it
 *   waits until they stop).
 */
export class NudgeController implements ReactiveController {
  #preview?: string;
  #teaser: 'waiting' | 'shown' | 'done' = 'waiting';
  #timer?: ReturnType<typeof setTimeout>;
  #lastKey = -Infinity;
  readonly #host: ReactiveControllerHost;
  readonly #options: NudgeOptions;

  constructor(host: ReactiveControllerHost, options: NudgeOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostConnected() {
    if (this.#teaser !== 'waiting' || !this.#options.teaser() || !due()) return;
    addEventListener('keydown', this.#handleKey, true); // (capturing: a key the page stops still counts)
    this.#check();
  }

  hostDisconnected() {
    clearTimeout(this.#timer);
    removeEventListener('keydown', this.#handleKey, true);
  }

  /** What shows now, if anything. */
  get current(): Nudge | undefined {
    if (!this.#options.allowed()) return undefined;
    if (this.#preview) return { kind: 'preview', text: this.#preview };
    const teaser = this.#options.teaser();
    return this.#teaser === 'shown' && teaser ? { kind: 'teaser', text: teaser } : undefined;
  }

  /** A reply arrived while the panel was closed. */
  preview(item: AgentResponseItem) {
    this.#preview = previewText(item) || undefined;
    this.#host.requestUpdate();
  }

  /** Dismissed, or the panel opened: the preview goes, and the teaser for good (on every page). */
  dismiss() {
    this.#preview = undefined;
    if (this.#teaser !== 'done') {
      this.hostDisconnected();
      over();
    }
    this.#teaser = 'done';
    this.#host.requestUpdate();
  }

  readonly #handleKey = (event: KeyboardEvent) => {
    // (Its path, not `contains`: a key pressed in the widget's shadow root is not inside the element for `contains`.)
    if (!event.composedPath().includes(this.#options.element())) this.#lastKey = performance.now();
  };

  /**
   * Shows the teaser when due, unless the visitor is typing or cannot see it (then looks again
   * shortly): the element hidden by the site (`hidden`), or the page in the background. Shown there,
   * it was remembered as seen, and a visitor who left that page never saw it.
   */
  readonly #check = () => {
    clearTimeout(this.#timer);
    // From when the visitor came to the page: in a prerendered one, its activationStart (0 while
    // prerendered, and the page hidden meanwhile, so the teaser waits; Chromium only).
    const wait = this.#options.delay() * 1000 - performance.now() + ((performance.getEntriesByType('navigation')[0] as { activationStart?: number } | undefined)?.activationStart || 0);
    if (wait > 0) return void (this.#timer = setTimeout(this.#check, wait));
    const element = this.#options.element();
    const notNow = typingElsewhere(element) || performance.now() - this.#lastKey < TYPING_QUIET || element.hidden || document.hidden;
    if (notNow) return void (this.#timer = setTimeout(this.#check, RECHECK));
    removeEventListener('keydown', this.#handleKey, true);
    // Inline or already open: not now (another page may). Chatted before (here or on another page):
    // the visitor knows the chat, there is nothing to invite them to, on any page.
    if (!this.#options.allowed()) return void (this.#teaser = 'done');
    this.#teaser = this.#options.started() ? 'done' : 'shown';
    over();
    this.#host.requestUpdate();
  };
}
