import type { TagOperations } from '../protocol/types.js';

/**
 * Keeps session tag operations made before the rest of the widget has loaded where the engine takes
 * them up (ConversationController.waitingTags, EARLY_TAGS_KEY there; a test ties the two): in
 * storage, each tag under a key of its own, `agent-chat:{proxyUrl}:early-tags:{tag}`, the operation
 * (`add`, `remove`) its value. So a tag set on a page the visitor leaves before the rest loads still
 * reaches the agent, with the next request of any page or tab. A key of its own for each tag, not
 * one list of operations: two tabs' shells that each wrote the list from their own copy of storage
 * (another tab's write reaches a tab's copy a moment later) lost the other's; and the last
 * operation made on a tag is its net effect, in any order the keys are read. The same operation made
 * again (a site that tags every page view) adds nothing. False when storage refuses: the page keeps
 * them until the rest loads.
 */
export function keepTags(proxyUrl: string, operations: TagOperations): boolean {
  try {
    for (const kind of ['add', 'remove'] as const) for (const tag of operations[kind] ?? []) localStorage.setItem(`agent-chat:${proxyUrl}:early-tags:${tag}`, kind);
    return true;
  } catch {
    return false;
  }
}
