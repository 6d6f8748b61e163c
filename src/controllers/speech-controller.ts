import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface SpeechControllerOptions {
  /**
   * BCP 47-ish language of the conversation ("EL", "de-AT"). Each utterance carries it and the
   * browser picks a voice for that language where it has one (Web Speech API: the default voice
   * "SHOULD support the current language"), as Chromium, Firefox and Safari do.
   */
  language: () => string | undefined;
}

/** Read at use, not at load, so a stand-in installed later (tests) is used. */
const pageSynthesis = () => globalThis.speechSynthesis as SpeechSynthesis | undefined;

/** Speaks agent replies through the Web Speech API, in order; silent where there is none. */
export class SpeechController implements ReactiveController {
  readonly #options: SpeechControllerOptions;

  constructor(host: ReactiveControllerHost, options: SpeechControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  hostDisconnected() {
    this.stop();
  }

  /** Queues each text as one utterance; the engine speaks them in order. */
  speak(texts: readonly string[]) {
    const synthesis = pageSynthesis();
    if (!synthesis || !globalThis.SpeechSynthesisUtterance) return;
    const lang = (this.#options.language() ?? '').toLowerCase();
    for (const text of texts) {
      if (!text.trim()) continue;
      const utterance = new SpeechSynthesisUtterance(text);
      if (lang) utterance.lang = lang;
      synthesis.speak(utterance);
    }
  }

  stop() {
    pageSynthesis()?.cancel();
  }
}
