/** The part of the Web Speech API's `SpeechRecognition` used here; TypeScript's DOM types lack it. */
export interface Recognition {
  lang: string;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export type RecognitionConstructor = new () => Recognition;

/** Read at use, not at load: Chromium and Safari name it with a prefix, Firefox has none. */
export const recognitionConstructor = () => {
  const page = globalThis as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return page.SpeechRecognition ?? page.webkitSpeechRecognition;
};
