import type { ChatMessage } from '../conversation/transcript.js';
import type { Strings } from '../i18n/strings.js';
import { dateFormat } from './message-time.js';
import { plainText } from './plain-text.js';

export interface TranscriptOptions {
  /** Who the visitor talked to (the header's title). */
  agent: string;
  strings: Strings;
  /** The conversation's language, for dates and times. */
  language?: string;
}

/**
 * The conversation as a plain-text file: a title line, then each day's date and every message with
 * its time and sender, in the conversation's language.
 */
export function transcriptText(messages: readonly ChatMessage[], { agent, strings, language }: TranscriptOptions): string {
  const [date, time] = [dateFormat('full', language), dateFormat('time', language)];
  const lines = [strings.transcriptTitle(agent)];
  let day = '';
  for (const message of messages) {
    const today = date.format(message.at);
    if (today !== day) lines.push('', (day = today), '');
    const who = message.kind === 'user' ? strings.you : agent;
    // A message the agent has not got (failed, or still to be sent) says so: the file is the
    // visitor's record of what was said.
    const said = message.kind === 'agent' ? plainText(message.item) : message.status === 'sent' ? message.text : `${message.text} [${strings.notDelivered}]`;
    lines.push(`[${time.format(message.at)}] ${who}: ${said}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Saves the transcript as `conversation-YYYY-MM-DD.txt`, the visitor's date (the browser's download). */
export function downloadTranscript(messages: readonly ChatMessage[], options: TranscriptOptions, parent: ParentNode) {
  const url = URL.createObjectURL(new Blob([transcriptText(messages, options)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  // The visitor's date, not UTC's (toISOString's: tomorrow's, in an American evening); Swedish
  // dates are written as ISO's.
  link.download = `conversation-${new Date().toLocaleDateString('sv')}.txt`;
  // In the document while clicked (Firefox downloads only from a connected link), and gone before
  // anything is drawn: it needs no hiding.
  parent.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
