/**
 * Stand-ins for the Web Speech API's `SpeechRecognition`, installed on `window` the way browsers
 * expose it (Chromium and Safari as `webkitSpeechRecognition`, the spec as `SpeechRecognition`).
 * Real recognition needs a microphone and, in Chromium, a network service: tests drive the events.
 */
type ResultList = { transcript: string }[][];

export class FakeRecognition {
  static instances: FakeRecognition[] = [];
  lang = '';
  interimResults = false;
  readonly calls: string[] = [];
  onresult: ((event: { results: ResultList }) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;

  constructor() {
    FakeRecognition.instances.push(this);
  }

  start() {
    this.calls.push('start');
  }

  stop() {
    this.calls.push('stop');
  }

  abort() {
    this.calls.push('abort');
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
  }
}

const NAMES = ['SpeechRecognition', 'webkitSpeechRecognition'] as const;

/** Replaces both names with `value` (a fake, or undefined for "this browser has none"); returns the undo. */
function replaceRecognition(value: unknown) {
  const saved = NAMES.map((name) => Object.getOwnPropertyDescriptor(window, name));
  for (const name of NAMES) Object.defineProperty(window, name, { value, configurable: true, writable: true });
  return () => {
    NAMES.forEach((name, i) => {
      const descriptor = saved[i];
      if (descriptor) Object.defineProperty(window, name, descriptor);
      else delete (window as unknown as Record<string, unknown>)[name];
    });
  };
}

/** A browser with speech recognition: returns the undo; created recognisers are in `FakeRecognition.instances`. */
export function stubRecognition() {
  FakeRecognition.instances = [];
  return replaceRecognition(FakeRecognition);
}

/** A browser without speech recognition (as Firefox): returns the undo. */
export const hideRecognition = () => replaceRecognition(undefined);
