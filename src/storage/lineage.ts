/**
 * A tab's last writes of a storage key, each with its lineage (see Store.lineage), and which of
 * them another tab's write was made without: what that tab wrote over without having read it, for
 * the writer to make again.
 */
import { LINEAGE_DEPTH } from './store.js';

/** A tab's write of a key: its lineage (itself first, see Store.lineage) and what it changed. */
export type Written<T extends unknown[]> = [lineage: number[], ...what: T];

/** Keeps `write` with a tab's last writes of a key (as many as a lineage names). */
export const remember = <T extends unknown[]>(written: Written<T>[], write: Written<T>) => [...written.slice(1 - LINEAGE_DEPTH), write];

/**
 * Which of a tab's last writes (oldest first) another tab's write of `lineage` was made without:
 * those after the last one it was made on whose own lineage meets its (they forked from one write;
 * a tab that did not read for longer than a lineage reaches cannot tell, and gets none). See ConversationController's #lost.
 */
export const lostWrites = <T extends unknown[]>(written: Written<T>[], lineage: number[]) =>
  written.slice(written.findLastIndex(([[id]]) => lineage.includes(id)) + 1).filter(([ancestry]) => ancestry.some((id) => lineage.includes(id)));
