import { expect } from '@open-wc/testing';
import type { ChatMessage } from '../../src/conversation/transcript.js';
import { dayLabel, GROUP_GAP, messageTime } from '../../src/views/message-time.js';

const NOW = new Date(2026, 10, 23, 15, 0).getTime(); // Monday, 23 November 2026, 15:00 local time
const minutes = (n: number) => n * 60_000;
const agent = (at: number): ChatMessage => ({ kind: 'agent', id: `a${at}`, at, item: { type: 'text', options: ['hi'] } });
const user = (at: number): ChatMessage => ({ kind: 'user', id: `u${at}`, at, text: 'hi', status: 'sent', request: { text: 'hi' } });
const yesterday = new Date(2026, 10, 22, 18, 30).getTime();

describe('message times', () => {
  it('shows the time at the head of each group: a new sender, or the same one after a pause', () => {
    const first = agent(NOW - minutes(30));
    expect(messageTime(first, undefined, NOW, 'en').time, 'first message').to.be.a('string').and.match(/\d/);
    expect(messageTime(agent(first.at + minutes(1)), first, NOW, 'en').time, 'same sender, a minute later').to.equal(undefined);
    expect(messageTime(user(first.at + minutes(1)), first, NOW, 'en').time, 'the other sender').to.be.a('string');
    expect(messageTime(agent(first.at + GROUP_GAP), first, NOW, 'en').time, 'after a pause of exactly the gap: the same group').to.equal(undefined);
    expect(messageTime(agent(first.at + GROUP_GAP + 1), first, NOW, 'en').time, 'after a pause').to.be.a('string');
    expect(messageTime(first, undefined, NOW, 'en').iso).to.equal(new Date(first.at).toISOString());
  });

  it('separates days: none above a conversation of today, the day where it changes', () => {
    expect(messageTime(agent(NOW - minutes(30)), undefined, NOW, 'en').day, 'today').to.equal(undefined);
    expect(messageTime(agent(yesterday), undefined, NOW, 'en').day, 'restored from yesterday').to.equal('Yesterday');
    const next = messageTime(user(NOW - minutes(5)), agent(yesterday), NOW, 'en');
    expect(next.day, 'the first message of today').to.equal('Today');
    expect(next.time, 'and it starts a group').to.be.a('string');
    // The same sender across midnight, a minute apart: the new day's first message shows its time
    // (under "Today", a message with no time read as if it came before midnight).
    const beforeMidnight = new Date(2026, 10, 22, 23, 59, 30).getTime();
    const after = messageTime(agent(beforeMidnight + minutes(1)), agent(beforeMidnight), NOW, 'en');
    expect([after.day, typeof after.time], 'the same sender after midnight').to.deep.equal(['Today', 'string']);
  });

  it('names older days by weekday and date, with the year only when it is another one', () => {
    expect(dayLabel(new Date(2026, 10, 16, 9).getTime(), NOW, 'en')).to.match(/Monday/).and.match(/16/).and.not.match(/2026/);
    expect(dayLabel(new Date(2025, 11, 31, 9).getTime(), NOW, 'en')).to.match(/2025/);
  });

  it('makes only the format a conversation of today needs, once (each costs milliseconds to make)', () => {
    const made: string[] = [];
    const { DateTimeFormat, RelativeTimeFormat } = Intl;
    const intl = Intl as { -readonly [K in keyof typeof Intl]: (typeof Intl)[K] };
    intl.DateTimeFormat = function (...args: ConstructorParameters<typeof DateTimeFormat>) {
      made.push('date-time');
      return new DateTimeFormat(...args);
    } as unknown as typeof DateTimeFormat;
    intl.RelativeTimeFormat = function (...args: ConstructorParameters<typeof RelativeTimeFormat>) {
      made.push('relative');
      return new RelativeTimeFormat(...args);
    } as unknown as typeof RelativeTimeFormat;
    try {
      // A language no other test here uses: the formats are kept per language.
      let previous: ChatMessage | undefined;
      for (const message of [agent(NOW - minutes(20)), user(NOW - minutes(10)), agent(NOW - minutes(9))]) {
        messageTime(message, previous, NOW, 'fr');
        previous = message;
      }
      expect(made, 'a conversation of today').to.deep.equal(['date-time']);
      messageTime(user(NOW), agent(yesterday), NOW, 'fr');
      expect(made, 'then a day separator ("Aujourd’hui")').to.deep.equal(['date-time', 'relative']);
    } finally {
      intl.DateTimeFormat = DateTimeFormat;
      intl.RelativeTimeFormat = RelativeTimeFormat;
    }
  });

  it("speaks the conversation's language, and an unknown tag falls back without failing", () => {
    expect(dayLabel(yesterday, NOW, 'de')).to.equal('Gestern');
    expect(dayLabel(yesterday, NOW, 'EL')).to.equal('Χθες');
    expect(dayLabel(NOW, NOW, 'not a language tag!')).to.be.a('string').and.not.equal('');
    expect(messageTime(agent(NOW), undefined, NOW, 'not a language tag!').time).to.be.a('string');
  });
});
