/** Every piece of UI text, per language. Override any of them with the `strings` property. */
export interface Strings {
  openChat: string;
  closeChat: string;
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
  /** Sends a waiting message (or the greeting) now instead of at the next automatic try. */
  retry: string;
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
}

const count = (locale: string) => (used: number, max: number) =>
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
};

const el: Strings = {
  openChat: 'Άνοιγμα συνομιλίας',
  closeChat: 'Κλείσιμο συνομιλίας',
  defaultTitle: 'Συνομιλία',
  restart: 'Νέα συνομιλία',
  inputLabel: 'Μήνυμα',
  inputPlaceholder: 'Γράψτε ένα μήνυμα…',
  send: 'Αποστολή',
  typing: 'Ο βοηθός πληκτρολογεί…',
  sending: 'Αποστολή…',
  notDelivered: 'Δεν παραδόθηκε',
  notDeliveredYet: 'Δεν παραδόθηκε ακόμη',
  retryingIn: (s) => `νέα προσπάθεια σε ${s} δευτ.`,
  waitingForConnection: 'Αναμονή για σύνδεση',
  chatNotStarted: 'Η συνομιλία δεν μπόρεσε να ξεκινήσει',
  newMessages: (n) => (n === 1 ? '1 νέο μήνυμα' : `${n} νέα μηνύματα`),
  retry: 'Δοκιμή τώρα',
  errorNetwork: 'Δεν ήταν δυνατή η σύνδεση με τον βοηθό.',
  errorUnavailable: 'Η συνομιλία δεν είναι διαθέσιμη τώρα.',
  errorRejected: 'Το μήνυμά σας δεν ήταν δυνατό να σταλεί.',
  errorServer: 'Ο βοηθός δεν μπόρεσε να απαντήσει.',
  offline: 'Εκτός σύνδεσης: τα μηνύματα θα σταλούν μόλις συνδεθείτε.',
  discard: 'Απόρριψη',
  unsupportedMessage: 'Αυτό το μήνυμα δεν μπορεί να εμφανιστεί εδώ.',
  speech: 'Ανάγνωση απαντήσεων',
  dictate: 'Υπαγόρευση μηνύματος',
  dictationFailed: 'Η φωνητική εισαγωγή δεν είναι διαθέσιμη.',
  characterCount: count('el'),
};

const de: Strings = {
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  defaultTitle: 'Chat',
  restart: 'Neues Gespräch',
  inputLabel: 'Nachricht',
  inputPlaceholder: 'Nachricht eingeben…',
  send: 'Senden',
  typing: 'Der Assistent schreibt…',
  sending: 'Wird gesendet…',
  notDelivered: 'Nicht zugestellt',
  notDeliveredYet: 'Noch nicht zugestellt',
  retryingIn: (s) => `neuer Versuch in ${s} s`,
  waitingForConnection: 'Warte auf Verbindung',
  chatNotStarted: 'Der Chat konnte nicht starten',
  newMessages: (n) => (n === 1 ? '1 neue Nachricht' : `${n} neue Nachrichten`),
  retry: 'Jetzt erneut versuchen',
  errorNetwork: 'Der Assistent ist nicht erreichbar.',
  errorUnavailable: 'Der Chat ist gerade nicht verfügbar.',
  errorRejected: 'Ihre Nachricht konnte nicht gesendet werden.',
  errorServer: 'Der Assistent konnte nicht antworten.',
  offline: 'Offline: Nachrichten werden gesendet, sobald Sie wieder online sind.',
  discard: 'Verwerfen',
  unsupportedMessage: 'Diese Nachricht kann hier nicht angezeigt werden.',
  speech: 'Antworten vorlesen',
  dictate: 'Nachricht diktieren',
  dictationFailed: 'Spracheingabe ist nicht verfügbar.',
  characterCount: count('de'),
};

export const STRINGS: Readonly<Record<string, Strings>> = { en, el, de };

/** `language` (e.g. "EL", "de-AT") → the table's key, or "en" when there is no table for it. */
export function languageKey(language: string | undefined): string {
  const key = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return key && key in STRINGS ? key : 'en';
}

export function stringsFor(language: string | undefined, overrides?: Partial<Strings>): Strings {
  return { ...STRINGS[languageKey(language)], ...overrides };
}
