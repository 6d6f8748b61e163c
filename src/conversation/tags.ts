import type { TagOperations } from '../protocol/types.js';

/**
 * Folds tag operations that wait for the next request: a later `add` cancels an earlier `remove`
 * of the same tag and the other way round, so the request carries the net effect.
 */
export function mergeTags(pending: TagOperations | undefined, next: TagOperations): TagOperations | undefined {
  const add = new Set(pending?.add);
  const remove = new Set(pending?.remove);
  for (const tag of next.add ?? []) {
    remove.delete(tag);
    add.add(tag);
  }
  for (const tag of next.remove ?? []) {
    add.delete(tag);
    remove.add(tag);
  }
  if (!add.size && !remove.size) return undefined;
  return { ...(add.size && { add: [...add] }), ...(remove.size && { remove: [...remove] }) };
}

/** `pending` without the operations `sent` carried (they reached the agent): what still waits. */
export function withoutTags(pending: TagOperations | undefined, sent: TagOperations): TagOperations | undefined {
  const left = (tags?: string[], done?: string[]) => tags?.filter((tag) => !done?.includes(tag));
  return mergeTags(undefined, { add: left(pending?.add, sent.add), remove: left(pending?.remove, sent.remove) });
}
