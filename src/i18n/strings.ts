/** Every piece of UI text, per language. Override any of them with the `strings` property. */
export interface Strings {
  openChat: string;
  closeChat: string;
  defaultTitle: string;
  restart: string;
  inputLabel: string;
  inputPlaceholder: string;
  send: string;
  typing: string;
  sending: string;
  notDelivered: string;
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
  typing: 'Typing…',
  sending: 'Sending…',
  notDelivered: 'Not delivered',
  retry: 'Retry',
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
  typing: 'Πληκτρολογεί…',
  sending: 'Αποστολή…',
  notDelivered: 'Δεν παραδόθηκε',
  retry: 'Ξανά',
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
  typing: 'Schreibt…',
  sending: 'Wird gesendet…',
  notDelivered: 'Nicht zugestellt',
  retry: 'Erneut versuchen',
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
