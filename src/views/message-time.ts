import type { ChatMessage } from '../conversation/transcript.js';

/** What a transcript entry shows of its time: a day separator, and the time at the head of a group. */
export interface MessageTime {
  /** "Yesterday", "Monday, 16 November": where the day changes (not above a conversation of today). */
  day?: string;
  /** "10:42": at the first message of a group (same sender, within {@link GROUP_GAP} of the one before). */
  time?: string;
  /** The machine-readable time (`<time datetime>`). */
  iso: string;
}

/** A pause after which the same sender's next message starts a new group (and shows its time again). */
export const GROUP_GAP = 5 * 60_000;

const DATE_OPTIONS = {
  time: { timeStyle: 'short' },
  date: { weekday: 'long', day: 'numeric', month: 'long' },
  dateYear: { dateStyle: 'long' },
  /** The transcript file's day lines. */
  full: { dateStyle: 'full' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, unknown>();

/**
 * A format of the conversation's language, made when first needed and kept: a page's first date
 * format costs ~20 ms (ICU loads its data; measured in a first-open profile), a later one ~0.2 ms,
 * and a conversation of today needs only the time. An unknown tag falls back to the browser's language.
 */
function formatFor<T>(kind: string, language: string | undefined, make: (locale: string | undefined) => T): T {
  const key = kind + language; // (undefined: "timeundefined", unlike any language's)
  let found = formats.get(key) as T | undefined;
  if (!found) {
    try {
      found = make(language);
    } catch {
      found = make(undefined);
    }
    formats.set(key, found);
  }
  return found;
}

/** One of {@link DATE_OPTIONS} in `language`, made once (see formatFor). */
export const dateFormat = (kind: keyof typeof DATE_OPTIONS, language?: string) =>
  formatFor(kind, language, (locale) => new Intl.DateTimeFormat(locale, DATE_OPTIONS[kind]));

/** Makes the time format of `language` ahead of the first message that shows a time. */
export const prepareTimes = (language?: string) => void dateFormat('time', language);

/** Midnight of `at`'s day, local time. */
export const dayOf = (at: number) => new Date(at).setHours(0, 0, 0, 0);

/** "Today", "Yesterday" (in the language, capitalised as a heading), else the weekday and date (with the year when it is not this one). */
export function dayLabel(at: number, now: number, language?: string): string {
  const days = Math.round((dayOf(at) - dayOf(now)) / 86_400_000);
  if (days === 0 || days === -1) {
    const word = formatFor('relative', language, (locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })).format(days, 'day');
    return word[0].toUpperCase() + word.slice(1);
  }
  return dateFormat(new Date(at).getFullYear() === new Date(now).getFullYear() ? 'date' : 'dateYear', language).format(at);
}

/**
 * The time `message` shows, given the entry before it (undefined: the first). A conversation that
 * began today shows no "Today" above it; one restored from an earlier day shows that day first.
 */
export function messageTime(message: ChatMessage, previous: ChatMessage | undefined, now: number, language?: string): MessageTime {
  const iso = new Date(message.at).toISOString();
  const newDay = previous ? dayOf(previous.at) !== dayOf(message.at) : dayOf(message.at) !== dayOf(now);
  const newGroup = !previous || newDay || previous.kind !== message.kind || message.at - previous.at > GROUP_GAP;
  return {
    iso,
    day: newDay ? dayLabel(message.at, now, language) : undefined,
    time: newGroup ? dateFormat('time', language).format(message.at) : undefined,
  };
}
