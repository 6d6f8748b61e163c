import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AgentChat } from '../agent-chat.component.js';

/** The close requests a page can listen to (WICG's CloseWatcher: Chromium), not yet in TypeScript's DOM types. */
interface CloseWatcher {
  onclose: (() => void) | null;
  destroy(): void;
}

/**
 * While the panel covers the screen (a phone, a short window; not while the element is `hidden`):
 * the page behind it does not scroll, nor is it pulled to refresh (a drag down on the panel's header
 * reloaded the page; both restored on close), Tab and Shift+Tab stay inside the panel (nothing
 * behind it is visible to go to), a screen reader is told so too (the dialog is `aria-modal`: its
 * reading cursor went on into the page behind it), and the panel follows the visual viewport, which shrinks when the on-screen keyboard opens
 * (the layout viewport, and so `100dvh`, does not in every browser), so the input stays visible.
 * Android's back button (or gesture) closes it, as it does a full-screen view of an app, instead of
 * leaving the page: a close watcher, where the browser has them (Chromium), not the site's history.
 */
export class MobileViewportController implements ReactiveController {
  /** The element whose `--_viewport-height` the sheet reads. */
  readonly #host: AgentChat;
  /** Whether the panel covers the screen now (the view's: open, in launcher mode, in a small window). */
  readonly #active: () => boolean | undefined;
  /** The page's own inline `overflow` and `overscroll-behavior` while the panel covers it (restored on close). */
  #saved?: [string, string];
  #watcher?: CloseWatcher;

  constructor(host: ReactiveControllerHost, element: AgentChat, active: () => boolean | undefined) {
    this.#host = element;
    this.#active = active;
    host.addController(this);
    // Hidden by the site (`hidden`: a page of a single-page site without the chat), the panel covers
    // nothing: the page scrolled no more, and Android's back button went to the hidden panel.
    new MutationObserver(() => this.hostUpdated()).observe(element, { attributeFilter: ['hidden'] });
  }

  hostUpdated() {
    const on = this.#active() && !this.#host.hidden && this.#host.isConnected;
    if (on === !!this.#saved) return;
    if (on) this.#lock();
    else this.#release();
  }

  hostDisconnected() {
    this.#release();
  }

  #lock() {
    const { style } = document.documentElement;
    const Watcher = (globalThis as { CloseWatcher?: new () => CloseWatcher }).CloseWatcher;
    this.#saved = [style.overflow, style.overscrollBehavior];
    [style.overflow, style.overscrollBehavior] = ['hidden', 'none'];
    if (Watcher) (this.#watcher = new Watcher()).onclose = () => this.#host.hide();
    this.#host.addEventListener('keydown', this.#trapFocus);
    visualViewport?.addEventListener('resize', this.#fit);
    this.#fit();
    this.#modal(true);
  }

  #release() {
    if (!this.#saved) return;
    const { style } = document.documentElement;
    [style.overflow, style.overscrollBehavior] = this.#saved;
    this.#saved = undefined;
    this.#watcher?.destroy();
    this.#host.removeEventListener('keydown', this.#trapFocus);
    visualViewport?.removeEventListener('resize', this.#fit);
    this.#host.style.removeProperty('--_viewport-height');
    this.#modal(false);
  }

  #modal(on: boolean) {
    this.#host.shadowRoot?.querySelector('[part~=panel]')?.setAttribute('aria-modal', `${on}`);
  }

  /** Tab from the panel's last control goes to its first, Shift+Tab from the first to the last. */
  readonly #trapFocus = (event: KeyboardEvent) => {
    const panel = this.#host.shadowRoot?.querySelector('[part~=panel]');
    if (event.key !== 'Tab' || !panel) return;
    const stops = [...panel.querySelectorAll<HTMLElement>('button:not([disabled]),textarea,a[href],[tabindex="0"]')];
    const current = this.#host.shadowRoot!.activeElement;
    const [first, last] = [stops[0], stops.at(-1)];
    const to = event.shiftKey ? (current === first || !panel.contains(current) ? last : undefined) : current === last ? first : undefined;
    if (!to) return;
    event.preventDefault();
    to.focus();
  };

  // CSSOM writes are allowed under a strict style-src (unlike style attributes in markup). In the
  // chat's own pixels: a site's CSS zoom on it multiplies the length (at 1.25 the panel was a
  // quarter taller than the screen, the composer below it); WebKit, without `currentCSSZoom`, as is.
  readonly #fit = () => {
    if (visualViewport) this.#host.style.setProperty('--_viewport-height', `${visualViewport.height / (this.#host.currentCSSZoom || 1)}px`);
  };
}
