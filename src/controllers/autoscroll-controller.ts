import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How close to the bottom (px) still counts as "reading the newest messages". */
const PINNED_SLACK = 48;

/**
 * Keeps the log scrolled to the newest message, unless the visitor scrolled up to read: then new
 * messages do not pull the view away until they scroll back down.
 */
export class AutoscrollController implements ReactiveController {
  #scroller?: HTMLElement;
  #pinned = true;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected() {
    this.#scroller?.addEventListener('scroll', this.#handleScroll, { passive: true });
  }

  hostDisconnected() {
    this.#scroller?.removeEventListener('scroll', this.#handleScroll);
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
  }

  /** Hands over the scrolling element (again after each render; a no-op when unchanged). */
  readonly attach = (element?: Element) => {
    if (element === this.#scroller || !(element instanceof HTMLElement)) return;
    this.#scroller?.removeEventListener('scroll', this.#handleScroll);
    this.#scroller = element;
    element.addEventListener('scroll', this.#handleScroll, { passive: true });
  };

  /**
   * Call after content was added at the bottom. The scroll waits for the next frame: reading
   * `scrollHeight` forces a layout, and one per frame is enough however many messages arrived.
   */
  follow() {
    if (!this.#pinned || this.#frame !== undefined) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = undefined;
      if (!this.#pinned || !this.#scroller) return;
      this.#scroller.scrollTop = this.#scroller.scrollHeight;
      this.#ownScrollTop = this.#scroller.scrollTop;
    });
  }

  #frame?: number;

  // Where our own scroll left the log. Its scroll event comes later, maybe after more content
  // arrived; measured then it would look like the visitor scrolled up.
  #ownScrollTop?: number;

  readonly #handleScroll = () => {
    const s = this.#scroller!;
    if (s.scrollTop === this.#ownScrollTop) {
      this.#pinned = true; // at the bottom we scrolled to (also when the visitor comes back to it)
      return;
    }
    this.#pinned = s.scrollHeight - s.scrollTop - s.clientHeight <= PINNED_SLACK;
  };
}
