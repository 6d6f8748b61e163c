/**
 * What makes a request the widget sends more than once reach the agent once: the widget gives each
 * message (and the greeting, and a postback) an id, `requestId`, that every try of it carries (its
 * retries, the next page after a reload mid-send, another tab, "Retry now" after no answer in time).
 * The proxy keeps the agent's answer to each such request for a while, and answers a request it has
 * seen with it (or, while the agent is still on the first, with the same answer when it comes)
 * instead of asking the agent again.
 *
 * A request is the same when its sender, `requestId` and content (everything but `timestamp`, which
 * a next page makes anew, and `tagOperations`, which a site may set again at each page view) are:
 * a try that differs (another text, another language) goes to the agent as before. A try answered
 * with an earlier try's answer is told so (`Agent-Chat-Replayed`): its tags did not reach the agent.
 * Only answers the agent gave (2xx with a JSON body) are kept; after a failure the next try goes to
 * the agent again. `ReplayMemory` keeps them in the instance's memory; `redisReplayStore`
 * (redis-replay.ts) in Redis, for several instances.
 */

/** The agent's answer to a request, as the proxy passes it on. */
export interface Answer {
  status: number;
  body: string;
}

/** The answer of a request's earlier try, to come. */
export interface Earlier {
  answer: Promise<Answer | undefined>;
}

/** Where the proxy keeps the requests it forwarded with a `requestId`, and the agent's answers to them. */
export interface ReplayStore {
  /**
   * Claims the request for its first try (`key`: sender and `requestId`; `content`: a digest of the
   * rest but its time and tags): undefined, and the caller asks the agent and then `settle`s it. A later try
   * gets the earlier try's `answer` instead, a promise that settles when the agent gives it (within
   * `waitMs`), or with undefined if it gave none.
   */
  claim(key: string, content: string, waitMs: number): Promise<Earlier | undefined>;
  /** What the agent gave the request claimed (undefined: no answer to keep; its next try goes to the agent). */
  settle(key: string, content: string, answer: Answer | undefined): void;
}

interface Entry {
  content: string;
  /** Settles with the agent's answer, or undefined if it gave none (the entry is then gone). */
  answer: Promise<Answer | undefined>;
  resolve: (answer: Answer | undefined) => void;
  /** When it may be swept (ms since epoch): Infinity while the agent is still on it. */
  expiresAt: number;
  /** The answer's length, once kept. */
  bytes: number;
}

export interface ReplayOptions {
  /** How long an answer is kept after it came (default 10 minutes). */
  keepMs?: number;
  /** The most requests remembered (default 10,000); past it, the oldest go first. */
  maxEntries?: number;
  /** The most answer text kept, in characters (default 32 Mi); past it, the oldest go first. */
  maxChars?: number;
  now?: () => number;
}

/** The store in the instance's memory (the default): behind several instances, a try that reaches another goes to the agent as before. */
export class ReplayMemory implements ReplayStore {
  readonly #entries = new Map<string, Entry>();
  readonly #keepMs: number;
  readonly #maxEntries: number;
  readonly #maxChars: number;
  readonly #now: () => number;
  #chars = 0;

  constructor({ keepMs = 10 * 60_000, maxEntries = 10_000, maxChars = 32 * 1024 * 1024, now = Date.now }: ReplayOptions = {}) {
    this.#keepMs = keepMs;
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
    this.#now = now;
  }

  /** Requests remembered (in flight or answered). */
  get size(): number {
    return this.#entries.size;
  }

  /** The answer text kept, in characters. */
  get chars(): number {
    return this.#chars;
  }

  async claim(key: string, content: string): Promise<Earlier | undefined> {
    const entry = this.#entries.get(key);
    if (entry && entry.content === content && entry.expiresAt > this.#now()) return { answer: entry.answer };
    this.#drop(key); // (to the end: the Map's order is the order of forwarding)
    let resolve!: Entry['resolve'];
    const answer = new Promise<Answer | undefined>((settle) => (resolve = settle));
    this.#entries.set(key, { content, answer, resolve, expiresAt: Infinity, bytes: 0 });
    this.#trim();
    return undefined;
  }

  settle(key: string, content: string, answer: Answer | undefined) {
    const entry = this.#entries.get(key);
    if (!entry || entry.content !== content || entry.expiresAt !== Infinity) return;
    entry.resolve(answer);
    if (!answer) return this.#drop(key);
    entry.expiresAt = this.#now() + this.#keepMs;
    entry.bytes = answer.body.length;
    this.#chars += entry.bytes;
    this.#trim();
  }

  /** Forgets `key`; a try waiting for its answer then goes to the agent. */
  #drop(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#chars -= entry.bytes;
    this.#entries.delete(key);
    entry.resolve(undefined);
  }

  /** Over a limit: the expired go, then the oldest (an answer not yet come too), to a tenth under it. */
  #trim() {
    if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) return;
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#drop(key);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries * 0.9 && this.#chars <= this.#maxChars * 0.9) break;
      this.#drop(key);
    }
  }
}
