import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { recognitionConstructor, type Recognition } from './recognition.js';

export interface DictationControllerOptions {
  /** BCP 47-ish language of the conversation ("EL", "de-AT"); unset, the recogniser uses the page's. */
  language: () => string | undefined;
  /** The whole draft, each time more is heard: what was typed before, then the words so far. */
  onDraft: (draft: string) => void;
  /** Recognition failed in a way the visitor should know about (no microphone, permission denied). */
  onFailure: () => void;
}

/** Not failures: the visitor said nothing, or the widget stopped listening itself. */
const UNREMARKABLE_ERRORS = ['no-speech', 'aborted'];

/** Fills the composer from the microphone through the Web Speech API; absent where the browser has none. */
export class DictationController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #options: DictationControllerOptions;
  #recognition?: Recognition;

  constructor(host: ReactiveControllerHost, options: DictationControllerOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get listening(): boolean {
    return this.#recognition !== undefined;
  }

  hostDisconnected() {
    this.cancel();
  }

  /** Starts listening after `draft`; when already listening, stops and keeps what was heard. */
  toggle(draft: string) {
    if (this.#recognition) return this.#recognition.stop();
    const Recognition = recognitionConstructor();
    if (!Recognition) return;
    const recognition = new Recognition();
    const before = draft.trim() ? `${draft.trimEnd()} ` : '';
    const language = this.#options.language();
    if (language) recognition.lang = language.toLowerCase();
    recognition.interimResults = true;
    // Each event carries every result so far, interim ones included: rebuild the draft from all of them.
    recognition.onresult = ({ results }) => {
      if (this.#recognition === recognition) this.#options.onDraft(before + Array.from(results, (r) => r[0].transcript).join(''));
    };
    recognition.onerror = ({ error }) => {
      if (!UNREMARKABLE_ERRORS.includes(error)) this.#options.onFailure();
    };
    recognition.onend = () => {
      if (this.#recognition === recognition) this.#set(undefined);
    };
    // A fresh recogniser's start() does not throw: a blocked or missing microphone arrives as an error event.
    recognition.start();
    this.#set(recognition);
  }

  /** Stops listening and drops what is not yet in the draft: the visitor typed, sent or closed. */
  cancel() {
    const recognition = this.#recognition;
    if (!recognition) return;
    this.#set(undefined);
    recognition.abort();
  }

  #set(recognition: Recognition | undefined) {
    this.#recognition = recognition;
    this.#host.requestUpdate();
  }
}
