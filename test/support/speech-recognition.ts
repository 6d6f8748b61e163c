/**
 * Stand-ins for the Web Speech API's `SpeechRecognition`, installed on `window` the way browsers
 * expose it (Chromium and Safari as `webkitSpeechRecognition`, the spec as `SpeechRecognition`).
 * Real recognition needs a microphone and, in Chromium, a network service: tests drive the events.
 */
type ResultList = { transcript: string }[][];

export class FakeRecognition {
  static instances: FakeRecognition[] = [];
  /**
   * Keeps each `abort()`'s events until the test calls `release()`: a visitor quicker than the
   * browser, whose "aborted" error and end event come in a later task (reset by `stubRecognition`).
   */
  static holdAborts = false;
  lang = '';
  interimResults = false;
  readonly calls: string[] = [];
  onresult: ((event: { results: ResultList }) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  /** Settles with the end event. */
  readonly ended: Promise<void>;
  #ended!: () => void;
  #aborted?: () => void;

  constructor() {
    FakeRecognition.instances.push(this);
    this.ended = new Promise((resolve) => (this.#ended = resolve));
  }

  start() {
    this.calls.push('start');
  }

  stop() {
    this.calls.push('stop');
  }

  /** As browsers do: an "aborted" error, then the end event, both in a later task, never within the call. */
  abort() {
    this.calls.push('abort');
    this.#aborted = () => {
      this.#aborted = undefined;
      this.fail('aborted');
    };
    if (!FakeRecognition.holdAborts) setTimeout(() => this.#aborted?.());
  }

  /** Sends the events of an `abort()` held by `holdAborts`. */
  release() {
    this.#aborted?.();
  }

  /** Delivers every result so far (each event carries them all, as the API does). */
  hear(...phrases: string[]) {
    this.onresult?.({ results: phrases.map((transcript) => [{ transcript }]) });
  }

  fail(error: string) {
    this.onerror?.({ error });
    this.end();
  }

  end() {
    this.onend?.();
    this.#ended();
  }
}

const NAMES = ['SpeechRecognition', 'webkitSpeechRecognition'] as const;

type Name = (typeof NAMES)[number];

/** Replaces both names: `value` (a fake, or undefined for "this browser has none") under `named`, nothing under the other; returns the undo. */
function replaceRecognition(value: unknown, named: readonly Name[] = NAMES) {
  const saved = NAMES.map((name) => Object.getOwnPropertyDescriptor(window, name));
  for (const name of NAMES) Object.defineProperty(window, name, { value: named.includes(name) ? value : undefined, configurable: true, writable: true });
  return () => {
    NAMES.forEach((name, i) => {
      const descriptor = saved[i];
      if (descriptor) Object.defineProperty(window, name, descriptor);
      else delete (window as unknown as Record<string, unknown>)[name];
    });
  };
}

/**
 * A browser with speech recognition, under both names or only `named`: returns the undo; created
 * recognisers are in `FakeRecognition.instances`.
 */
export function stubRecognition(named?: readonly Name[]) {
  FakeRecognition.instances = [];
  FakeRecognition.holdAborts = false;
  return replaceRecognition(FakeRecognition, named);
}

/** A browser without speech recognition (as Firefox): returns the undo. */
export const hideRecognition = () => replaceRecognition(undefined);
