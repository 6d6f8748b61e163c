/**
 * What makes a request the widget sends more than once reach the agent once: the widget gives each
 * message (and the greeting, and a postback) an id, `requestId`, that every try of it carries (its
 * retries, the next page after a reload mid-send, another tab, "Retry now" after no answer in time).
 * The proxy keeps the agent's answer to each such request for a while, and answers a request it has
 * seen with it (or, while the agent is still on the first, with the same answer when it comes)
 * instead of asking the agent again.
 *
 * A request is the same when its sender, `requestId` and content (everything but `timestamp`, which
 * a next page makes anew) are: a try that differs (tags set meanwhile) goes to the agent as before.
 * Only answers the agent gave (2xx with a JSON body) are kept; after a failure the next try goes to
 * the agent again. One proxy instance keeps its own: behind several instances, a try that reaches
 * another instance goes to the agent as before.
 */

/** The agent's answer to a request, as the proxy passes it on. */
export interface Answer {
  status: number;
  body: string;
}

interface Entry {
  /** A digest of the request's content (see find). */
  content: string;
  /** Settles with the agent's answer, or undefined if it gave none (the entry is then gone). */
  answer: Promise<Answer | undefined>;
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

/** The proxy's memory of the requests it forwarded with a `requestId`, and of the agent's answers to them. */
export class ReplayMemory {
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

  /**
   * The answer to an earlier try of this request (`key`: sender and `requestId`; `content`: a
   * digest of the rest but its time), settling when the agent gives it; or undefined when there was
   * no such try, it asked for something else, or its answer is gone.
   */
  find(key: string, content: string): Promise<Answer | undefined> | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.content !== content || entry.expiresAt <= this.#now()) return undefined;
    return entry.answer;
  }

  /**
   * Remembers a request forwarded to the agent, and `answer`, what the agent gives (undefined if it
   * gives none: the request is then forgotten, so that its next try goes to the agent again).
   */
  remember(key: string, content: string, answer: Promise<Answer | undefined>) {
    this.#drop(key); // (to the end: the Map's order is the order of forwarding)
    const entry: Entry = { content, answer, expiresAt: Infinity, bytes: 0 };
    this.#entries.set(key, entry);
    this.#trim();
    void answer.then((got) => {
      if (this.#entries.get(key) !== entry) return;
      if (!got) return this.#drop(key);
      entry.expiresAt = this.#now() + this.#keepMs;
      entry.bytes = got.body.length;
      this.#chars += entry.bytes;
      this.#trim();
    });
  }

  #drop(key: string) {
    this.#chars -= this.#entries.get(key)?.bytes ?? 0;
    this.#entries.delete(key);
  }

  /** Over a limit: the expired go, then the oldest (an answer not yet come too: its next try goes to the agent), to a tenth under it. */
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
