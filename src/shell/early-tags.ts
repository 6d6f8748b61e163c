import type { TagOperations } from '../protocol/types.js';

/**
 * Keeps session tag operations made before the rest of the widget has loaded where the engine takes
 * them up (ConversationController.waitingTags, EARLY_TAGS_KEY there; a test ties the two): in
 * storage under `agent-chat:{proxyUrl}:early-tags`, a list of the operations in the order made.
 * So a tag set on a page the visitor leaves before the rest loads still reaches the agent, with the
 * next request of any page or tab. The same operation made again (a site that tags every page
 * view) moves to the end instead of growing the list. False when storage refuses (or holds
 * something else there): the page keeps them until the rest loads.
 */
export function keepTags(proxyUrl: string, operations: TagOperations): boolean {
  try {
    const key = `agent-chat:${proxyUrl}:early-tags`;
    const made = JSON.stringify(operations);
    localStorage.setItem(key, JSON.stringify([...(JSON.parse(localStorage.getItem(key)!) ?? []).filter((other: TagOperations) => JSON.stringify(other) != made), operations]));
    return true;
  } catch {
    return false;
  }
}
