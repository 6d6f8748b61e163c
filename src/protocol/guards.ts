import type { AgentResponseItem, EventResult, Postback, TagOperations } from './types.js';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Tag operations as a request carries them: `add` and `remove`, each a list of tags if present. */
export const isTagOperations = (value: unknown): value is TagOperations =>
  isRecord(value) && [value.add, value.remove].every((list) => list === undefined || isStringArray(list));

export function isPostback(value: unknown): value is Postback {
  if (!isRecord(value)) return false;
  if (value.type === 'node' || value.type === 'intent') return typeof value.data === 'string' && value.data !== '';
  if (value.type === 'action') return isRecord(value.data) && Array.isArray(value.data.actions);
  return false;
}

/**
 * Tolerant reading of a response item: anything that is not an object becomes an item of
 * type `invalid` (rendered as a neutral notice), and a non-string `altText` is dropped, so later
 * code can trust the two fields every renderer relies on.
 */
export function toResponseItem(value: unknown): AgentResponseItem {
  if (!isRecord(value)) return { type: 'invalid' };
  const item: AgentResponseItem = { ...value, type: typeof value.type === 'string' ? value.type : 'invalid' };
  if (typeof item.altText !== 'string') delete item.altText;
  if (typeof item.id !== 'string') delete item.id;
  return item;
}

/**
 * Reads the `result` of an `{status:"ok"}` body. Returns undefined when the body is not a success
 * body at all; optional arrays are kept only when they are arrays of strings.
 */
export function readEventResult(body: unknown): EventResult | undefined {
  if (!isRecord(body) || body.status !== 'ok' || !isRecord(body.result)) return undefined;
  const { result } = body;
  const responses = Array.isArray(result.responses) ? result.responses.map(toResponseItem) : [];
  const read: EventResult = { responses };
  for (const key of ['responsesIds', 'nodesIds', 'responsesStrippedMarkdownText'] as const) {
    if (isStringArray(result[key])) read[key] = result[key];
  }
  return read;
}

/** The `error` message of an `{status:"error"}` body, if the body is one. */
export function readEventError(body: unknown): string | undefined {
  return isRecord(body) && body.status === 'error' && typeof body.error === 'string' ? body.error : undefined;
}
