/**
 * A small key-value store over `localStorage` with a versioned JSON envelope and an in-memory
 * fallback. Storage can be missing (SSR), throw on access (blocked cookies, sandboxed iframes),
 * be full (quota) or hold corrupt JSON written by anything; none of that reaches the caller.
 */

const ENVELOPE_VERSION = 1;

/** How many writes back a value names the writes it was made on (see `lineage`). */
export const LINEAGE_DEPTH = 16;

/**
 * A value's `messages` (a conversation's) past twice this many are stored in parts of this many
 * under keys of their own, written once (again only when one of their messages changes): a write
 * formats and stores the newest ones and the names of the parts, not the whole list (~110 KB at
 * 500 messages, which each message added wrote: ~2.5 ms a send at 1,000 messages).
 */
export const PART_SIZE = 50;

/** A part of a value's messages: its name (the key after the namespace), how many of its first are no longer in the list, and the rest. */
type Part = [name: string, skip: number, messages: unknown[]];

/** A value with messages as stored (see `set`). */
interface Packed {
  messages: unknown[];
  p?: [name: string, skip: number][];
}

interface Envelope {
  /** Which write this is (random; first, so that it is read without parsing the rest: see `changed`). */
  w?: number;
  /** The writes before it that its writer had read or written, newest first (see `lineage`). */
  a?: number[];
  v: number;
  data: unknown;
}

/**
 * Which write `raw` is (its `w`; 1 for a value written without one), as a number: a store keeps
 * that, not the value, which for a long conversation is ~130 KB (a slice of it would keep all of it).
 */
const writeOf = (raw: string | null) => (raw === null ? raw : parseFloat(raw.slice(5, 32)));

export interface Store {
  /** The stored value if it exists, parses and passes `guard`; corrupt entries are removed. */
  get<T>(key: string, guard: (value: unknown) => value is T): T | undefined;
  /** Writes `value`; which write it is (see `lineage`), or undefined when storage did not take it. */
  set(key: string, value: unknown): number | undefined;
  /** Like `get`, but reads storage again (another tab may have written it); storage that cannot be read leaves the memory copy. */
  reread<T>(key: string, guard: (value: unknown) => value is T): T | undefined;
  /** Whether storage holds another value for `key` than this store last read or wrote there: another tab wrote it since. */
  changed(key: string): boolean;
  /**
   * The writes the value this store last read or wrote for `key` was made on, itself first, up to
   * {@link LINEAGE_DEPTH}: a write that is not there was not seen by the one who wrote that value
   * (another tab that had not yet heard of it), and whatever it changed is not in it. Nothing stored
   * counts as the write 0 (two first writes were both made on it). Empty when nothing was read or
   * written, or when a value was written without saying (an older version).
   */
  lineage(key: string): number[];
  /**
   * What another script kept under keys that begin with `key:` (src/shell/early-tags.ts): each
   * key's rest and its value, removed from storage. Nothing when storage cannot be read.
   */
  take(key: string): [name: string, value: string | null, removed: void][];
}

/** Looked up lazily: merely touching `window.localStorage` throws in some sandboxes. */
export function defaultBackingStorage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function createStore(namespace: string, backing: () => Storage | undefined = defaultBackingStorage): Store {
  // The memory copy is the truth for this page; storage is where it survives a reload.
  const memory = new Map<string, unknown>();
  /** Which write storage held for each key when this store last read or wrote it. */
  const seen = new Map<string, number | null>();
  /** The lineage of that write (see `lineage`). */
  const lineages = new Map<string, number[]>();
  /** The parts of that write's messages (see PART_SIZE). */
  const parts = new Map<string, Part[]>();
  const fullKey = (key: string) => `${namespace}:${key}`;

  /** What storage holds for `key`; `unreadable` when there is no storage or it refuses to be read. */
  const readBacking = (key: string, unreadable?: unknown): unknown => {
    let raw: string | null;
    try {
      raw = backing()!.getItem(fullKey(key)); // (none: unreadable too)
    } catch {
      return unreadable;
    }
    seen.set(key, writeOf(raw));
    // Nothing stored is a write of its own (0): two tabs' first writes, each made on nothing, meet.
    lineages.set(key, [0]);
    if (raw === null) return undefined;
    try {
      const envelope = JSON.parse(raw) as Envelope;
      if (envelope?.v !== ENVELOPE_VERSION) throw 0; // an unknown envelope
      // (Not iterable: corrupt, like an unknown envelope.)
      lineages.set(key, envelope.a ? [envelope.w!, ...envelope.a] : []);
      const data = envelope.data as Packed | undefined;
      // A part that is gone, or that cannot be read, loses its messages, not the rest (see `set`).
      const read = (data?.p ?? []).map(([name, skip]): Part => [name, skip, partOf(name).slice(skip)]);
      parts.set(key, read);
      if (data?.p) {
        delete data.p;
        data.messages = [...read.flatMap((part) => part[2]), ...data.messages];
      }
      return data;
    } catch {
      tryRemove(key);
      return undefined;
    }
  };

  /** The messages of the part `name`; none when it is gone or is not a list (corrupt). */
  const partOf = (name: string): unknown[] => {
    try {
      const part = JSON.parse(backing()!.getItem(fullKey(name))!);
      return Array.isArray(part) ? part : [];
    } catch {
      return [];
    }
  };

  const tryRemove = (key: string) => {
    try {
      backing()?.removeItem(fullKey(key));
    } catch {
      /* storage unavailable: the memory copy is all there is */
    }
  };

  const get = <T>(key: string, guard: (value: unknown) => value is T, unreadable?: unknown): T | undefined => {
    const value = memory.has(key) ? memory.get(key) : readBacking(key, unreadable);
    if (value === undefined) return undefined;
    if (!guard(value)) {
      memory.delete(key);
      tryRemove(key);
      return undefined;
    }
    memory.set(key, value);
    return value;
  };

  return {
    get,
    reread<T>(key: string, guard: (value: unknown) => value is T): T | undefined {
      const kept = memory.get(key);
      memory.delete(key);
      // Storage that cannot be read (or none): the memory copy is all there is.
      return get(key, guard, kept);
    },
    set(key: string, value: unknown) {
      memory.set(key, value);
      // (No storage, or one that throws: the memory copy is all there is, for the page's lifetime.)
      try {
        const storage = backing()!;
        const w = Math.random();
        const a = (lineages.get(key) ?? []).slice(0, LINEAGE_DEPTH - 1);
        // With more than twice PART_SIZE messages, what is stored is the newest of them and the
        // names of the parts that hold the others (`p`): the parts of the last values read or
        // written under any key whose messages are still there, in order and unchanged (the oldest
        // of the first may have left, or the first of any been taken out), and parts written now
        // for the messages between and after them. Any key's: a conversation put away names the
        // parts it was read from, not written again from this tab's copy over another tab's newer
        // write of one (a question answered: an Undo sent it again; found by TAB_SEEDS=1201).
        const messages = (value as Packed | undefined)?.messages;
        const previous = [...parts.values()].flat();
        const kept: Part[] = [];
        let i = 0;
        /** Writes the messages from `i` to `to` in parts (of PART_SIZE, the last one up to it). */
        const seal = (to: number) => {
          while (i < to) {
            const list = messages!.slice(i, (i = Math.min(to, i + PART_SIZE)));
            // Named for its first message: another tab's write of it, or this tab's of a changed
            // one, writes it again where it was (a value that names it reads the newer one).
            const part: Part = [`~${(list[0] as { id: string }).id}`, 0, list];
            storage.setItem(fullKey(part[0]), JSON.stringify(list));
            kept.push(part);
          }
        };
        if (Array.isArray(messages)) {
          for (const [name, skip, list] of previous) {
            const from = Math.max(0, list.indexOf(messages[i]));
            const rest = list.slice(from);
            // (A part that was gone when read has no messages: found nowhere, no longer named.)
            const at = messages.indexOf(rest[0], i);
            if (at >= 0 && rest.every((m, j) => m === messages[at + j])) {
              seal(at);
              kept.push([name, skip + from, rest]);
              i = at + rest.length;
            }
          }
          while (messages.length - i > 2 * PART_SIZE) seal(i + PART_SIZE);
          if (kept[0]) value = { ...value!, messages: messages.slice(i), p: kept.map(([name, skip]) => [name, skip]) };
        }
        storage.setItem(fullKey(key), JSON.stringify({ w, a, v: ENVELOPE_VERSION, data: value } satisfies Envelope));
        seen.set(key, w);
        lineages.set(key, [w, ...a]);
        // The parts of the value this write replaced that no value last read or written under a
        // key names (the archive, say, the conversation put away): the oldest messages, gone
        // past STORED_MESSAGES_LIMIT, or those of a conversation put away before the last one.
        // (Or the first part, written again from where the conversation now begins when one of
        // its messages changed. Another tab that wrote in the same moment, not having read this
        // write, may name it: what it stored then lacks its messages, as a part gone does.)
        parts.set(key, kept);
        const named = [...parts.values()].flat().map(([name]) => name);
        for (const [name] of previous) if (!named.includes(name)) storage.removeItem(fullKey(name));
        return w;
      } catch {
        /* quota or blocked: keep working from memory for the page's lifetime */
        return undefined;
      }
    },
    changed(key: string) {
      // (No storage, or one that throws: nothing to tell.)
      try {
        return writeOf(backing()!.getItem(fullKey(key))) !== (seen.get(key) ?? null);
      } catch {
        return false;
      }
    },
    lineage: (key: string) => lineages.get(key) ?? [],
    take(key: string) {
      const prefix = fullKey(`${key}:`);
      try {
        const storage = backing()!;
        // (Each read, then removed.)
        return Object.keys(storage).filter((name) => name.startsWith(prefix)).map((name) => [name.slice(prefix.length), storage.getItem(name), storage.removeItem(name)]);
      } catch {
        return [];
      }
    },
  };
}
