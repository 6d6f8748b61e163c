import { render, type TemplateResult } from 'lit/html.js';
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Lit's update cycle without LitElement (the element is the shell's, which has no Lit): controllers,
 * batched updates with the changed properties, `willUpdate` → render → `updated`. Changes made in
 * `willUpdate` join the current update; changes made in `updated` schedule the next one. Controllers
 * are told of connects, disconnects and `hostUpdated`, not `hostUpdate` (none of the view's has one).
 */
export abstract class ViewHost implements ReactiveControllerHost {
  readonly #controllers = new Set<ReactiveController>();
  #changed = new Map<PropertyKey, unknown>();
  #pending?: Promise<boolean>;
  #connected?: boolean;

  /** Where `render()`'s template goes. */
  protected abstract readonly renderTarget: HTMLElement;
  protected abstract render(): TemplateResult;
  protected willUpdate(_changed: Map<PropertyKey, unknown>) {}
  protected updated(_changed: Map<PropertyKey, unknown>) {}

  addController(controller: ReactiveController) {
    this.#controllers.add(controller);
    if (this.#connected) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController) {
    this.#controllers.delete(controller);
  }

  /** Records the change; the update runs in a microtask, and (as Lit's) not before the first connect. */
  requestUpdate(name?: PropertyKey, old?: unknown) {
    if (name && !this.#changed.has(name)) this.#changed.set(name, old);
    if (this.#connected) this.#pending ??= Promise.resolve().then(() => this.#update());
  }

  /** Resolves when no update is pending, also after updates that `updated()` asked for. */
  get updateComplete(): Promise<boolean> {
    return this.#pending ? this.#pending.then(() => this.updateComplete) : Promise.resolve(true);
  }

  connect() {
    this.#connected = true;
    this.#controllers.forEach((c) => c.hostConnected?.());
    this.requestUpdate();
  }

  disconnect() {
    this.#connected = false;
    this.#controllers.forEach((c) => c.hostDisconnected?.());
  }

  #update() {
    const changed = this.#changed;
    this.willUpdate(changed);
    this.#changed = new Map();
    this.#pending = undefined;
    render(this.render(), this.renderTarget, { host: this });
    this.#controllers.forEach((c) => c.hostUpdated?.());
    this.updated(changed);
    return true;
  }
}
