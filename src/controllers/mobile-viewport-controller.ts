import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Below this width the open panel covers the whole viewport (matches the sheet's media query). */
const SMALL = '(max-width: 480px)';

/**
 * While the panel covers a phone's screen: the page behind it does not scroll (restored on close),
 * and the panel follows the visual viewport, which shrinks when the on-screen keyboard opens (the
 * layout viewport, and so `100dvh`, does not in every browser), so the input stays visible.
 */
export class MobileViewportController implements ReactiveController {
  /** The element whose `--_viewport-height` the sheet reads. */
  readonly #host: HTMLElement;
  readonly #active: () => boolean;
  #savedOverflow?: string;

  constructor(host: ReactiveControllerHost, element: HTMLElement, active: () => boolean) {
    this.#host = element;
    this.#active = active;
    host.addController(this);
  }

  hostUpdated() {
    const on = this.#active() && matchMedia(SMALL).matches;
    if (on === (this.#savedOverflow !== undefined)) return;
    if (on) this.#lock();
    else this.#release();
  }

  hostDisconnected() {
    this.#release();
  }

  #lock() {
    const root = document.documentElement;
    this.#savedOverflow = root.style.overflow;
    root.style.overflow = 'hidden';
    visualViewport?.addEventListener('resize', this.#fit);
    this.#fit();
  }

  #release() {
    if (this.#savedOverflow === undefined) return;
    document.documentElement.style.overflow = this.#savedOverflow;
    this.#savedOverflow = undefined;
    visualViewport?.removeEventListener('resize', this.#fit);
    this.#host.style.removeProperty('--_viewport-height');
  }

  // CSSOM writes are allowed under a strict style-src (unlike style attributes in markup).
  readonly #fit = () => {
    if (visualViewport) this.#host.style.setProperty('--_viewport-height', `${visualViewport.height}px`);
  };
}
