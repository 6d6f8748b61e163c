/**
 * Conversation flows for the reference agent, described as data: nodes with responses per
 * language, keyword intents, a greeting and a fallback. `replyFor` turns one incoming message into
 * the node to answer with; `renderNode` turns a node into response items.
 */
import type { AgentResponseItem, EventMessage } from '../../protocol/types.js';
import { stripMarkdown } from './strip-markdown.js';

export interface FlowNode {
  /** Response templates per language code (upper case); `{{variable}}` is substituted. */
  responses: Record<string, Record<string, unknown>[]>;
  /** Store the visitor's next text message in this variable, then go to `next`. */
  capture?: string;
  next?: string;
}

export interface FlowIntent {
  name: string;
  node: string;
  /** Words or phrases per language; a message containing one triggers the intent. */
  keywords: Record<string, string[]>;
}

export interface Flow {
  defaultLanguage: string;
  greeting: string;
  fallback: string;
  nodes: Record<string, FlowNode>;
  intents: FlowIntent[];
}

/** Checks a flow once at start-up, so a broken data file fails loudly rather than mid-chat. */
export function checkFlow(flow: Flow): Flow {
  const missing = [flow.greeting, flow.fallback, ...flow.intents.map((i) => i.node),
    ...Object.values(flow.nodes).flatMap((n) => (n.next ? [n.next] : []))].filter((id) => !(id in flow.nodes));
  if (missing.length) throw new Error(`flow: unknown node(s) ${[...new Set(missing)].join(', ')}`);
  for (const [id, node] of Object.entries(flow.nodes)) {
    if (!node.responses[flow.defaultLanguage]) throw new Error(`flow: node "${id}" has no ${flow.defaultLanguage} responses`);
    const targets = JSON.stringify(node.responses).matchAll(/"type":"node","data":"([^"]+)"/g);
    for (const [, target] of targets) if (!(target in flow.nodes)) throw new Error(`flow: node "${id}" has a button to unknown node "${target}"`);
  }
  return flow;
}

// Compare words without case or accents: "τιμη" finds "τιμή", "preis" finds "Preis".
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function matchIntent(flow: Flow, text: string, language: string): FlowIntent | undefined {
  const words = ` ${fold(text).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const found = (intent: FlowIntent, lang: string) =>
    (intent.keywords[lang] ?? []).some((keyword) => words.includes(` ${fold(keyword)} `));
  return flow.intents.find((i) => found(i, language)) ?? flow.intents.find((i) => Object.keys(i.keywords).some((l) => found(i, l)));
}

/** The node that answers `message`, given what the session waits for. */
export function nodeFor(flow: Flow, message: EventMessage, language: string, awaiting?: { next: string }): string {
  const { payload, text } = message;
  if (payload?.type === 'node' && typeof payload.data === 'string') return payload.data in flow.nodes ? payload.data : flow.fallback;
  if (payload?.type === 'intent') return flow.intents.find((i) => i.name === payload.data)?.node ?? flow.fallback;
  if (payload) return 'action' in flow.nodes ? 'action' : flow.fallback;
  if (awaiting) return awaiting.next;
  return matchIntent(flow, text ?? '', language)?.node ?? flow.fallback;
}

const ID_PREFIX: Record<string, string> = { text: 'TX', buttons: 'BT', carousel: 'CA' };

function substitute<T>(value: T, variables: Record<string, string>): T {
  if (typeof value === 'string') return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, name: string) => variables[name] ?? '') as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, variables)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, variables)])) as T;
  }
  return value;
}

/** A plain-text version of an item, for clients that cannot render it. */
export function altTextOf(item: Record<string, unknown>): string {
  if (typeof item.altText === 'string') return item.altText;
  const titles = (list: unknown) => (Array.isArray(list) ? list.map((b) => (b as { title?: string }).title).filter(Boolean).join(', ') : '');
  switch (item.type) {
    case 'text':
      return stripMarkdown((item.options as string[]).join('\n'));
    case 'buttons':
    {
      const choices = titles(item.buttons) || (item.options as string[] | undefined)?.join(', ') || '';
      const prompt = typeof item.text === 'string' ? item.text.trim() : '';
      if (!prompt || !choices) return prompt || choices;
      return /[?:.!;]$/.test(prompt) ? `${prompt} ${choices}` : `${prompt}: ${choices}`;
    }
    case 'carousel':
      return (item.cards as { title: string; subtitle?: string }[]).map((c) => [c.title, c.subtitle].filter(Boolean).join(' ')).join('; ');
    default:
      return '';
  }
}

export function renderNode(flow: Flow, nodeId: string, language: string, variables: Record<string, string>, newId: () => string): AgentResponseItem[] {
  const node = flow.nodes[nodeId];
  const templates = node.responses[language] ?? node.responses[flow.defaultLanguage];
  return templates.map((template) => {
    const item = substitute(template, variables) as Record<string, unknown> & { type: string };
    return { id: `${ID_PREFIX[item.type] ?? 'XX'}_${newId()}`, ...item, altText: altTextOf(item) };
  });
}

/** Plain text per response, for text-to-speech. */
export const spokenText = (item: AgentResponseItem) =>
  item.type === 'text' && Array.isArray(item.options) ? stripMarkdown((item.options as string[]).join('\n')) : item.altText ?? '';
