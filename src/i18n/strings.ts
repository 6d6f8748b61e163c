/** Every piece of UI text, per language. Override any of them with the `strings` property. */
export interface Strings {
  openChat: string;
  closeChat: string;
  /** The header's title without `agent-title`, and the agent's name then (the transcript's, what a screen reader hears at its replies). */
  defaultTitle: string;
  restart: string;
  inputLabel: string;
  inputPlaceholder: string;
  send: string;
  /** Shown while a request is in flight. */
  typing: string;
  /** Under a message queued behind one in flight (or sent by another tab). */
  sending: string;
  notDelivered: string;
  /** A message that will be retried by itself: "Not delivered yet". */
  notDeliveredYet: string;
  /** When the next automatic try is, e.g. "retrying in 20 s". */
  retryingIn: (seconds: number) => string;
  /** Offline: pending messages wait for the connection. */
  waitingForConnection: string;
  /** The greeting failed: the conversation has not started. */
  chatNotStarted: string;
  /** Replies the visitor has not seen yet: the launcher's badge and the log's jump button. */
  newMessages: (count: number) => string;
  /** After the visitor started a new conversation: said with an Undo control for a few seconds. */
  restarted: string;
  undo: string;
  /** At the top of a long conversation's log: shows the messages before the oldest shown. */
  earlierMessages: string;
  /** Sends a waiting message (or the greeting) now instead of at the next automatic try; or again, one that got no answer in time. */
  retry: string;
  /** Under a message that got no answer in time (a timeout), which the agent may have all the same. */
  noAnswer: string;
  errorNetwork: string;
  errorUnavailable: string;
  errorRejected: string;
  errorServer: string;
  offline: string;
  discard: string;
  unsupportedMessage: string;
  speech: string;
  /** The microphone button (where the browser has speech recognition). */
  dictate: string;
  /** Speech recognition failed: microphone blocked, missing or the service unreachable. */
  dictationFailed: string;
  /** Shown under the input as it nears the limit, e.g. "1,990 / 2,000". */
  characterCount: (used: number, max: number) => string;
  /** Closes the launcher's teaser or preview of a new reply. */
  dismiss: string;
  /** Announced for a reply that arrived while the panel was closed: "New message: …". */
  newMessagePreview: (text: string) => string;
  /** The copy button of a code block, and what it says once it has copied (announced). */
  copy: string;
  copied: string;
  /** The clipboard refused. */
  copyFailed: string;
  /** Feedback buttons under a reply (with `feedback`), and what replaces them once used (announced). */
  helpful: string;
  notHelpful: string;
  feedbackThanks: string;
  /** The header's button that saves the conversation as a text file, and that file's first line. */
  downloadTranscript: string;
  /** The download's code could not load (offline). */
  downloadFailed: string;
  transcriptTitle: (agent: string) => string;
  /** The visitor, as the transcript file names them and a screen reader hears at the head of their messages. */
  you: string;
  /**
   * The panel's words when the rest of the widget cannot load (offline at the first open). The
   * shell's own, as the tables of this file come with the rest: English unless a site sets it here
   * (the 4 KB shell has no room for the other languages' words).
   */
  loadFailed?: string;
}

export const count = (locale: string) => (used: number, max: number) =>
  `${used.toLocaleString(locale)} / ${max.toLocaleString(locale)}`;

const en: Strings = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  defaultTitle: 'Chat',
  restart: 'New conversation',
  inputLabel: 'Message',
  inputPlaceholder: 'Type a message…',
  send: 'Send',
  typing: 'Agent is typing…',
  sending: 'Sending…',
  notDelivered: 'Not delivered',
  notDeliveredYet: 'Not delivered yet',
  retryingIn: (s) => `retrying in ${s} s`,
  waitingForConnection: 'Waiting for connection',
  chatNotStarted: 'The chat could not start',
  newMessages: (n) => (n === 1 ? '1 new message' : `${n} new messages`),
  retry: 'Retry now',
  earlierMessages: 'Earlier messages',
  restarted: 'New conversation started.',
  undo: 'Undo',
  noAnswer: 'No answer in time. The assistant may have received it.',
  errorNetwork: 'Could not reach the assistant.',
  errorUnavailable: 'Chat is unavailable right now.',
  errorRejected: 'Your message could not be sent.',
  errorServer: 'The assistant could not answer.',
  offline: 'Offline: messages will be sent when you are back online.',
  discard: 'Discard',
  unsupportedMessage: 'This message cannot be shown here.',
  speech: 'Read replies aloud',
  dictate: 'Dictate a message',
  dictationFailed: 'Voice input is not available.',
  characterCount: count('en'),
  dismiss: 'Close',
  newMessagePreview: (text) => `New message: ${text}`,
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the text instead.',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  feedbackThanks: 'Thanks for your feedback.',
  downloadTranscript: 'Download conversation',
  downloadFailed: 'Could not download the conversation. Check the connection and reload the page.',
  transcriptTitle: (agent) => `Conversation with ${agent}`,
  you: 'You',
};

/** The tables there are; English is built in, the others load when first needed (see loadStrings). */
const LOADERS: Readonly<Record<string, (() => Promise<{ strings: Strings }>) | undefined>> = {
  en: undefined,
  el: () => import('./el.js'),
  de: () => import('./de.js'),
};

/** The tables loaded so far. */
export const STRINGS: Record<string, Strings> = { en };

/** `language` (e.g. "EL", "de-AT") → the table's key, or "en" when there is no table for it. */
export function languageKey(language: string | undefined): string {
  const key = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return key && key in LOADERS ? key : 'en';
}

/** Loads `language`'s table; undefined when it is already there (or is English). Failing to load leaves English. */
export function loadStrings(language: string | undefined): Promise<void> | undefined {
  const key = languageKey(language);
  if (STRINGS[key]) return undefined;
  return LOADERS[key]!().then(({ strings }) => void (STRINGS[key] = strings), () => undefined);
}

/** The UI text for `language` (English until its table has loaded), with `overrides`. */
export function stringsFor(language: string | undefined, overrides?: Partial<Strings>): Strings {
  return { ...(STRINGS[languageKey(language)] ?? en), ...overrides };
}
