/**
 * Sessions of the reference agent, per sender id, with the service's rules (CONTRACT §1): a sender
 * never seen, a greeting postback, or a message after the inactivity timeout opens a new session;
 * otherwise variables, flow state, tags and history carry over.
 */

export interface Session {
  id: string;
  senderId: string;
  startedAt: number;
  lastActivityAt: number;
  variables: Record<string, string>;
  tags: Set<string>;
  history: { from: 'user' | 'agent'; text: string; at: number }[];
  /** A node asked a question; the next text fills `variable` and continues at `next`. */
  awaiting?: { variable: string; next: string };
}

export interface SessionStoreOptions {
  inactivityTimeoutMs: number;
  now?: () => number;
  newId?: () => string;
  /** The oldest sessions are dropped past this many, to bound memory. */
  maxSessions?: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly options: Required<SessionStoreOptions>;

  constructor(options: SessionStoreOptions) {
    this.options = {
      inactivityTimeoutMs: options.inactivityTimeoutMs,
      now: options.now ?? Date.now,
      newId: options.newId ?? (() => crypto.randomUUID()),
      maxSessions: options.maxSessions ?? 10_000,
    };
  }

  /** The session this message belongs to, opening a new one where the rules say so. */
  resolve(senderId: string, { greeting }: { greeting: boolean }): { session: Session; isNew: boolean } {
    const now = this.options.now();
    const current = this.sessions.get(senderId);
    const expired = current !== undefined && now - current.lastActivityAt > this.options.inactivityTimeoutMs;
    if (current && !greeting && !expired) {
      current.lastActivityAt = now;
      // Map order is recency order: re-inserting keeps the least recently used first.
      this.sessions.delete(senderId);
      this.sessions.set(senderId, current);
      return { session: current, isNew: false };
    }
    const session: Session = {
      id: this.options.newId(), senderId, startedAt: now, lastActivityAt: now, variables: {}, tags: new Set(), history: [],
    };
    this.sessions.delete(senderId);
    this.sessions.set(senderId, session);
    if (this.sessions.size > this.options.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    return { session, isNew: true };
  }

  get(senderId: string): Session | undefined {
    return this.sessions.get(senderId);
  }

  get size(): number {
    return this.sessions.size;
  }
}
