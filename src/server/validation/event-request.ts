/**
 * Validation of event requests, shared by the proxy (browser bodies, no `handle`) and the reference
 * agent (upstream bodies, `handle` required). zod strips unknown fields, so what passes is exactly
 * the documented shape; the messages name the field and say what to fix.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

const LANGUAGE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

const boundedString = (max: number) => z.string().min(1).max(max);

const postbackSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('node'), data: boundedString(LIMITS.payloadDataLength) }),
  z.object({ type: z.literal('intent'), data: boundedString(LIMITS.payloadDataLength) }),
  z.object({ type: z.literal('action'), data: z.object({ actions: z.array(z.record(z.string(), z.unknown())).max(LIMITS.tagsPerOperation) }) }),
]);

const messageSchema = z
  .object({
    text: boundedString(LIMITS.textLength).optional(),
    payload: postbackSchema.optional(),
    contexts: z.array(boundedString(LIMITS.tagLength)).max(LIMITS.contexts).optional(),
  })
  .refine((m) => (m.text === undefined) !== (m.payload === undefined), {
    message: 'must have exactly one of "text" or "payload"',
  });

const tagList = z.array(boundedString(LIMITS.tagLength)).max(LIMITS.tagsPerOperation);

export const clientEventRequestSchema = z.object({
  /** The widget's id for what it sends, the same in each try (see the proxy's replay.ts); not forwarded. */
  requestId: boundedString(LIMITS.idLength).optional(),
  message: messageSchema,
  sender: z
    .object({
      id: boundedString(LIMITS.idLength),
      name: z.string().max(LIMITS.nameLength).optional(),
      email: z.string().max(254).optional(),
    })
    .optional(),
  /** Unix time in ms: a number (CONTRACT §1 and the OpenAPI document), so a fraction of a ms passes too. */
  timestamp: z.number().nonnegative().optional(),
  language: z.string().regex(LANGUAGE, { message: 'must be a language code such as "EN", "EL" or "de-AT"' }).optional(),
  tagOperations: z
    .object({ add: tagList.optional(), remove: tagList.optional() })
    .refine((t) => t.add !== undefined || t.remove !== undefined, { message: 'needs "add" or "remove"' })
    .optional(),
  options: z
    .object({ includeMetadata: z.boolean().optional(), includeStrippedMarkdownTextResponses: z.boolean().optional() })
    .optional(),
});

/** What the agent service takes (the proxy's, without `requestId`, which stays with the proxy, and with `handle`). */
export const eventRequestSchema = clientEventRequestSchema.omit({ requestId: true }).extend({ handle: boundedString(LIMITS.idLength) });

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** `"message.text" must be at most 2000 characters`: one line, about the first problem found. */
export function describeIssue(issue: z.core.$ZodIssue & { input?: unknown }): string {
  const path = `"${issue.path.map(String).join('.') || 'body'}"`;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${path} is required` : `${path} must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${path} must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `${path} must have at most ${issue.maximum} items`
          : `${path} must be at most ${issue.maximum}`;
    case 'too_small':
      return issue.origin === 'string' ? `${path} must not be empty` : `${path} must be at least ${issue.minimum}`;
    case 'invalid_union':
      return `${path} must be one of "node", "intent" or "action"`;
    case 'invalid_value':
      return `${path} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${path} ${issue.message}`;
  }
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

export function validate<T>(schema: z.ZodType<T>, body: unknown): ValidationResult<T> {
  const parsed = schema.safeParse(body, { reportInput: true });
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssue(parsed.error.issues[0]) };
}
