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

const formats = new Map<string, { time: Intl.DateTimeFormat; date: Intl.DateTimeFormat; dateYear: Intl.DateTimeFormat; relative: Intl.RelativeTimeFormat }>();

/** The conversation's language's formats (made once per language: they are costly to create); an unknown tag falls back to the browser's. */
function formatsFor(language: string | undefined) {
  const key = language ?? '';
  let found = formats.get(key);
  if (!found) {
    const make = (locale: string | undefined) => ({
      time: new Intl.DateTimeFormat(locale, { timeStyle: 'short' }),
      date: new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' }),
      dateYear: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }),
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
    });
    try {
      found = make(language);
    } catch {
      found = make(undefined);
    }
    formats.set(key, found);
  }
  return found;
}

/** Midnight of `at`'s day, local time. */
const dayOf = (at: number) => new Date(at).setHours(0, 0, 0, 0);

/** "Today", "Yesterday" (in the language, capitalised as a heading), else the weekday and date (with the year when it is not this one). */
export function dayLabel(at: number, now: number, language?: string): string {
  const f = formatsFor(language);
  const days = Math.round((dayOf(at) - dayOf(now)) / 86_400_000);
  if (days === 0 || days === -1) {
    const word = f.relative.format(days, 'day');
    return word.charAt(0).toUpperCase() + word.slice(1);
  }
  return (new Date(at).getFullYear() === new Date(now).getFullYear() ? f.date : f.dateYear).format(at);
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
    time: newGroup ? formatsFor(language).time.format(message.at) : undefined,
  };
}
