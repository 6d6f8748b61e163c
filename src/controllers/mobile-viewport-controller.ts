import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * While the panel covers the screen (a phone, a short window): the page behind it does not scroll,
 * nor is it pulled to refresh (a drag down on the panel's header reloaded the page; both restored
 * on close), Tab and Shift+Tab stay inside the panel (nothing behind it is visible to go
 * to), and the panel follows the visual viewport, which shrinks when the on-screen keyboard opens
 * (the layout viewport, and so `100dvh`, does not in every browser), so the input stays visible.
 */
export class MobileViewportController implements ReactiveController {
  /** The element whose `--_viewport-height` the sheet reads. */
  readonly #host: HTMLElement;
  /** Whether the panel covers the screen now (the view's: open, in launcher mode, in a small window). */
  readonly #active: () => boolean;
  #savedOverflow?: string;
  #savedOverscroll?: string;

  constructor(host: ReactiveControllerHost, element: HTMLElement, active: () => boolean) {
    this.#host = element;
    this.#active = active;
    host.addController(this);
  }

  hostUpdated() {
    const on = this.#active();
    if (on === (this.#savedOverflow !== undefined)) return;
    if (on) this.#lock();
    else this.#release();
  }

  hostDisconnected() {
    this.#release();
  }

  #lock() {
    const { style } = document.documentElement;
    this.#savedOverflow = style.overflow;
    this.#savedOverscroll = style.overscrollBehavior;
    style.overflow = 'hidden';
    style.overscrollBehavior = 'none';
    this.#host.addEventListener('keydown', this.#trapFocus);
    visualViewport?.addEventListener('resize', this.#fit);
    this.#fit();
  }

  #release() {
    if (this.#savedOverflow === undefined) return;
    const { style } = document.documentElement;
    style.overflow = this.#savedOverflow;
    style.overscrollBehavior = this.#savedOverscroll!;
    this.#savedOverflow = undefined;
    this.#host.removeEventListener('keydown', this.#trapFocus);
    visualViewport?.removeEventListener('resize', this.#fit);
    this.#host.style.removeProperty('--_viewport-height');
  }

  /** Tab from the panel's last control goes to its first, Shift+Tab from the first to the last. */
  readonly #trapFocus = (event: KeyboardEvent) => {
    const panel = this.#host.shadowRoot?.querySelector('[part~="panel"]');
    if (event.key !== 'Tab' || !panel) return;
    const stops = [...panel.querySelectorAll<HTMLElement>('button:not([disabled]), textarea, a[href], [tabindex="0"]')];
    const current = this.#host.shadowRoot!.activeElement;
    const [first, last] = [stops[0], stops.at(-1)];
    const to = event.shiftKey ? (current === first || !panel.contains(current) ? last : undefined) : current === last ? first : undefined;
    if (!to) return;
    event.preventDefault();
    to.focus();
  };

  // CSSOM writes are allowed under a strict style-src (unlike style attributes in markup).
  readonly #fit = () => {
    if (visualViewport) this.#host.style.setProperty('--_viewport-height', `${visualViewport.height}px`);
  };
}
