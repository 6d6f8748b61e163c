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
    lines.push(`[${time.format(message.at)}] ${who}: ${message.kind === 'user' ? message.text : plainText(message.item)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Saves the transcript as `conversation-YYYY-MM-DD.txt` (the browser's download). */
export function downloadTranscript(messages: readonly ChatMessage[], options: TranscriptOptions, parent: ParentNode) {
  const url = URL.createObjectURL(new Blob([transcriptText(messages, options)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `conversation-${new Date().toISOString().slice(0, 10)}.txt`;
  link.hidden = true;
  // In the document while clicked: Firefox downloads only from a connected link.
  parent.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
