import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface SpeechControllerOptions {
  /** BCP 47-ish language of the conversation ("EL", "de-AT"); picks the voice. */
  language: () => string | undefined;
  /** Injectable for tests; defaults to the page's `speechSynthesis` when it has one. */
  synthesis?: () => SpeechSynthesis | undefined;
}

const defaultSynthesis = () => (typeof speechSynthesis === 'undefined' ? undefined : speechSynthesis);

/** Speaks agent replies through the Web Speech API, in order; silent where there is none. */
export class SpeechController implements ReactiveController {
  readonly #options: SpeechControllerOptions;

  constructor(host: ReactiveControllerHost, options: SpeechControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  get supported(): boolean {
    return this.#synthesis() !== undefined && typeof SpeechSynthesisUtterance !== 'undefined';
  }

  hostConnected() {}

  hostDisconnected() {
    this.stop();
  }

  /** Queues each text as one utterance; the engine speaks them in order. */
  speak(texts: readonly string[]) {
    const synthesis = this.#synthesis();
    if (!synthesis || !this.supported) return;
    const lang = (this.#options.language() ?? '').toLowerCase();
    const voice = lang ? synthesis.getVoices().find((v) => v.lang.toLowerCase().startsWith(lang.split(/[-_]/)[0])) : undefined;
    for (const text of texts) {
      if (!text.trim()) continue;
      const utterance = new SpeechSynthesisUtterance(text);
      if (lang) utterance.lang = voice?.lang ?? lang;
      if (voice) utterance.voice = voice;
      synthesis.speak(utterance);
    }
  }

  stop() {
    this.#synthesis()?.cancel();
  }

  #synthesis(): SpeechSynthesis | undefined {
    return (this.#options.synthesis ?? defaultSynthesis)();
  }
}
