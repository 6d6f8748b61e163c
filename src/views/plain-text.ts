import type { AgentResponseItem } from '../protocol/types.js';

/** A reply as plain text, for a file or a one-line preview: its `altText` (plain by contract), else its texts. */
export function plainText(item: AgentResponseItem): string {
  if (typeof item.altText === 'string' && item.altText.trim()) return item.altText;
  if (Array.isArray(item.options)) return item.options.filter((o) => typeof o === 'string').join('\n');
  return typeof item.text === 'string' ? item.text : '';
}
