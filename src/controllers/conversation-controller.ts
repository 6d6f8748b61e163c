import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isUuid, newId } from '../conversation/ids.js';
import { adding, applied, changingMessage, greeted, sent, settling, untagging, type Change } from '../conversation/changes.js';
import { isConversation, isExpired, newConversation, type AgentMessage, type ChatMessage, type Conversation, type HeldRequest, type Rating, type UserMessage } from '../conversation/transcript.js';
import { mergeTags, withoutTags } from '../conversation/tags.js';
import { isTagOperations } from '../protocol/guards.js';
import type { TagOperations } from '../protocol/types.js';
import { lostWrites, remember, type Written } from '../storage/lineage.js';
import { createStore, LINEAGE_DEPTH, type Store } from '../storage/store.js';

export interface ConversationControllerOptions {
  /** Another tab of the same site changed the conversation; it is already applied here. */
  onExternalChange?: (conversation: Conversation) => void;
  /** Another tab changed `retryAt`, or (`nudged`) its visitor asked to try again now. */
  onRetryNotice?: (nudged: boolean) => void;
  /** Another tab's visitor has seen the conversation up to {@link ConversationController.readAt}. */
  onRead?: () => void;
  /** Storage namespace; widgets with different namespaces keep separate identities and transcripts. */
  namespace: () => string;
  /** Minutes of inactivity after which a stored conversation is archived (0: never). */
  sessionTimeout: () => number;
}

/** Under which (`{namespace}:early-tags:{tag}`) a page's shell keeps session tags made before the rest of the widget loaded (src/shell/early-tags.ts). */
export const EARLY_TAGS_KEY = 'early-tags';

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * What the last controller of a namespace stopped in this page knew, for the next one to load it:
 * its last writes and changes of the conversation and tags. A single-page site's next page puts a
 * new element in the old one's place, and another tab's write made without the old one's last
 * writes (see #lost) must find them to make them again.
 */
const stopped = new Map<string, [Written<[from: number, changes: Change[]]>[], [from: number, changes: Change[]][], Written<[TagOperations?]>[]]>();

/**
 * Owns the visitor's identity (a UUID kept in storage) and the transcript, persisted after each
 * change so a reload restores the conversation instead of greeting again, and shared with other
 * tabs of the site over a BroadcastChannel so they show one conversation.
 */
export class ConversationController implements ReactiveController {
  senderId = '';
  conversation: Conversation = newConversation(0);
  /**
   * When the tab that sends what waits tries again (while it is retrying), for the other tabs to
   * show next to what they wait to send. Kept in storage apart from the conversation: writing it
   * there would race with another tab's change of the conversation (the later write wins).
   */
  retryAt?: number;
  #store?: Store;
  #channel?: BroadcastChannel;
  #loadedNamespace?: string;
  /** Tag operations made before storage was read. */
  #tags?: TagOperations;
  readonly #options: ConversationControllerOptions;

  constructor(host: ReactiveControllerHost, options: ConversationControllerOptions) {
    this.#options = options;
    host.addController(this);
  }

  // Storage is first touched here, not at import or construction time.
  hostConnected() {
    // (Back: what it left for the next one is its own.)
    if (!this.load()) stopped.delete(this.#loadedNamespace!), this.#listen();
  }

  hostDisconnected() {
    this.#flush();
    this.#channel?.close();
    this.#channel = undefined;
    removeEventListener('storage', this.#handleStorage);
    if (this.#store) stopped.set(this.#loadedNamespace!, [this.#written, this.#archived, this.#tagWrites]);
  }

  /**
   * Other tabs' changes arrive two ways, and each one re-reads storage: the BroadcastChannel
   * notice (fast, but it can overtake the other tab's localStorage write, so the re-read may still
   * find the old transcript) and the `storage` event, which fires once the write is visible here.
   * Whichever comes second finds the change, however the two race.
   */
  #listen() {
    this.#channel?.close();
    this.#channel = globalThis.BroadcastChannel && new BroadcastChannel(this.#loadedNamespace!);
    // The message only says what changed (0: the conversation, 1: `retryAt`, 2: a nudge, 3: `readAt`):
    // the other tab reads storage itself, so the sending tab does not clone the whole transcript for every message.
    this.#channel?.addEventListener('message', ({ data }) => (data > 2 ? this.#options.onRead?.() : data ? this.#retryNotice(data > 1) : this.refresh()));
    addEventListener('storage', this.#handleStorage);
  }

  readonly #handleStorage = ({ key }: StorageEvent) => {
    if (key === `${this.#loadedNamespace}:conversation`) this.refresh();
    // (Reading them makes this tab's tag writes that the other tab's was made without again.)
    if (key === `${this.#loadedNamespace}:tags`) this.waitingTags();
    // Two tabs that started at once, each before seeing the other's identity: the one kept stands.
    if (key === `${this.#loadedNamespace}:sender`) this.senderId = this.#store!.reread('sender', isUuid) ?? this.senderId;
    if (key === `${this.#loadedNamespace}:retry`) this.#retryNotice(false);
    if (key === `${this.#loadedNamespace}:read`) this.#options.onRead?.();
  };

  #retryNotice(nudged: boolean) {
    this.retryAt = this.#store?.reread('retry', isNumber);
    this.#options.onRetryNotice?.(nudged);
  }

  /** Tells the other tabs when this one tries again what waits (see {@link retryAt}). */
  shareRetry(at: number | undefined) {
    this.#store?.set('retry', (this.retryAt = at));
    this.#channel?.postMessage(1);
  }

  /** When the newest message the visitor has seen in any tab came (see {@link shareRead}); 0 if none. */
  get readAt(): number {
    return this.#store?.reread('read', isNumber) ?? 0;
  }

  /** The visitor has seen the messages that came up to `at`: told to the other tabs (their launchers' news of them goes). */
  shareRead(at: number) {
    if (at <= this.readAt) return;
    this.#store?.set('read', at);
    this.#channel?.postMessage(3);
  }

  /** Asks the tab that sends what waits to try again now (its visitor is here). */
  nudge() {
    this.#channel?.postMessage(2);
  }

  /**
   * The name of the site's outbox lock (a Web Lock, per proxy URL): the tab that holds it sends
   * what waits in storage, one tab at a time (src/engine/outbox.ts).
   */
  get outboxLock() {
    return `${this.#loadedNamespace}:outbox`;
  }

  /**
   * Takes up what storage holds if another tab wrote it since this one last read or wrote it (after
   * its change notice, or when it released the outbox, having written its last changes first),
   * this tab's own changes written first (see #flush). Which write came last is storage's to say,
   * not the writers' clocks: two tabs' writes can fall in one millisecond.
   */
  refresh() {
    this.#flush();
    const stored = this.#store?.changed('conversation') && this.#store.reread('conversation', isConversation);
    if (stored) {
      this.#takeUp(stored);
      this.#options.onExternalChange?.(this.conversation);
    }
  }

  /** Takes up `stored`, another tab's write, with what of this tab's changes it lacks made again (see #lost). */
  #takeUp(stored: Conversation) {
    const [lost, base] = this.#lost(stored);
    this.conversation = base;
    if (lost.length) this.#write(lost, stored.startedAt);
  }

  /** (Re)reads identity and transcript when the namespace changed; returns whether it did. */
  load(): boolean {
    const namespace = this.#options.namespace();
    if (namespace === this.#loadedNamespace) return false;
    this.#loadedNamespace = namespace;
    this.#store = createStore(namespace);
    // What this tab wrote under another proxy URL is not to be made again in this one's conversation;
    // what it wrote under this one before (an element of the page's, gone: see `stopped`) is.
    [this.#written = [], this.#archived = [], this.#tagWrites = []] = stopped.get(namespace) ?? [];
    stopped.delete(namespace);
    this.senderId = this.#store.get('sender', isUuid) ?? newId();
    this.#store.set('sender', this.senderId);
    const stored = this.#store.get('conversation', isConversation);
    this.conversation = stored ?? newConversation(Date.now());
    // Not that element's last write: another tab's since, made without it maybe.
    if (stored && this.#store.lineage('conversation')[0] !== this.#written.at(-1)?.[0][0]) this.#takeUp(stored);
    this.retryAt = this.#store.get('retry', isNumber);
    const early = this.#tags;
    this.#tags = undefined;
    if (early) this.updateTags(early);
    this.expireIfIdle();
    this.#listen();
    return true;
  }

  /** Archives an idle conversation; returns whether it did (the caller then greets again). */
  expireIfIdle(): boolean {
    const { conversation } = this;
    if (!conversation.greeted || !isExpired(conversation, this.#options.sessionTimeout(), Date.now())) return false;
    this.archive();
    return true;
  }

  /** Keeps the finished conversation (the last one only) and starts an empty one; returns the finished one. */
  archive(): Conversation {
    this.refresh(); // as another tab may have changed it
    // The one it replaces read first: its older messages' parts (see Store) go with it (a page that
    // had not read it, after a reload, left them in storage for good).
    this.archived();
    const finished = this.conversation;
    // Kept if it has anything to bring back: messages, or requests without one (a greeting, a
    // postback without a title) whose answer, coming later, goes with it (an Undo would otherwise
    // bring back a copy without it, and send them again).
    if (finished.held?.length || finished.messages.length) this.#store?.set('archive', finished);
    // Begun after the finished one, also within its millisecond: a conversation is told by when it
    // began (two restarts in one took the second for the first, found by a test on 6 December).
    this.restore(newConversation(Math.max(Date.now(), finished.startedAt + 1)));
    return finished;
  }

  /**
   * Takes `conversation` up (an undone restart, a new one), with what this tab changed of it while
   * it was put away: another tab's write of it from an older copy (a rating made before it heard of
   * the restart) was put away in its place without them (a reply to a request the agent had, which
   * would be sent again).
   */
  restore(conversation: Conversation) {
    const back = applied(this.#takeArchived(conversation), conversation);
    this.#change(() => back);
  }

  /**
   * The conversation put away last (if it is the one that began at `startedAt`), as any tab has
   * changed it since (a reply to a request of it that was with the agent, see #toArchive).
   */
  archived(startedAt?: number): Conversation | undefined {
    const archived = this.#store?.reread('archive', isConversation);
    return archived && (startedAt ?? archived.startedAt) === archived.startedAt ? archived : undefined;
  }

  /**
   * A reply to the request `id` of the conversation put away last (begun anew while the agent had
   * it): kept there, its message sent, for an Undo in any tab to bring back (instead of sending it
   * again, the agent having had it).
   */
  answerArchived(id: string, replies: ChatMessage[]) {
    // What a reply makes of the conversation it belongs to (ChatSession's #handleDelivered).
    const answer = [greeted, changingMessage(id, 'user', sent), settling(id), adding(replies)];
    this.#toArchive([(c) => (c.messages.some((m) => m.id === id) || c.held?.some((h) => h.id === id) ? applied(answer, c) : c)]);
  }

  /**
   * Makes `changes` on the archive (made on the conversation begun at `from`: if that is the one it
   * holds), unless they begin another conversation: a new one this tab began, lost to one another
   * tab began at once (each not having heard of the other's), is not put away in place of the one
   * both replaced, which stays for an Undo in either tab.
   */
  #toArchive(changes: Change[], from?: number) {
    const archived = this.archived(from);
    const changed = archived && applied(changes, archived);
    if (changed === archived || archived!.startedAt !== changed!.startedAt) return;
    this.#store!.set('archive', changed);
    this.#archived = [...this.#archived.slice(1 - LINEAGE_DEPTH), [archived!.startedAt, changes]];
  }

  /**
   * This tab's last changes to a conversation put away, with when it began: another tab's Undo
   * that had not read them brings it back without them (a reply that came meanwhile: its message
   * would be sent again), so they are made again when this tab reads it back (see #lost).
   */
  #archived: [from: number, changes: Change[]][] = [];

  /** This tab's last writes of the session tags, each with the operations it made (see waitingTags). */
  #tagWrites: Written<[TagOperations?]>[] = [];

  /**
   * Session tag operations waiting for a request that reaches the agent. Kept in storage, so that
   * the next request carries them whichever tab makes it, after a reload too, until one reaches the
   * agent (read afresh: another tab's may have). Another tab's write made without this tab's last
   * ones (its page was busy: see #lost) gets their operations again.
   */
  waitingTags(): TagOperations | undefined {
    const store = this.#store;
    if (!store) return this.#tags;
    const tags = store.reread('tags', isTagOperations);
    const lineage = store.lineage('tags');
    // Not this tab's last write (also where the element that wrote it is gone: see `stopped`):
    // another tab's since, made without it maybe.
    const lost = lineage[0] !== this.#tagWrites.at(-1)?.[0][0] ? lostWrites(this.#tagWrites.splice(0), lineage) : [];
    const made = lost.reduce((all, [, operations]) => (operations ? this.#addTags(all, operations) : all), tags);
    // Made by a page's shell before the rest of the widget loaded (src/shell/early-tags.ts): each
    // tag with the last operation made on it (anything else there is no operation: left out).
    return store.take(EARLY_TAGS_KEY).reduce((all, [tag, kind]) => this.#addTags(all, { [kind!]: [tag] }), made);
  }

  /** Adds and removes session tags. */
  updateTags(operations: TagOperations) {
    this.#addTags(this.waitingTags(), operations);
  }

  /** `tags` with `operations` made, written; returns them. */
  #addTags(tags: TagOperations | undefined, operations: TagOperations) {
    this.#writeTags((tags = mergeTags(tags, operations)), operations);
    return tags;
  }

  /**
   * The session tags a request carried reached the agent (or it refused them): they wait no longer,
   * the site's and the ratings' of the conversation it was made in (this one, or with `archived`
   * the one put away since).
   */
  deliveredTags(sent?: TagOperations, archived?: boolean) {
    const tags = sent && this.waitingTags();
    if (tags) this.#writeTags(withoutTags(tags, sent));
    if (sent?.add) this.#untag(untagging(sent.add), archived);
  }

  /**
   * The ratings' tags waiting in the other conversation (the one put away, or without `archived`
   * this one) can no longer reach their session: a greeting of another conversation was answered.
   */
  dropRatingTags(archived: boolean) {
    this.#untag(untagging(), archived);
  }

  #untag(change: Change, archived?: boolean) {
    if (archived) this.#toArchive([change]);
    else this.#change(change);
  }

  #writeTags(tags: TagOperations | undefined, operations?: TagOperations) {
    if (!this.#store) this.#tags = tags;
    else if (this.#store.set('tags', tags) !== undefined) this.#tagWrites = remember(this.#tagWrites, [this.#store.lineage('tags'), operations]);
  }

  get muted(): boolean {
    return !!this.#store?.get('muted', isBoolean);
  }

  set muted(value: boolean) {
    this.#store?.set('muted', value);
  }

  /** Adds at the end (see {@link adding}). */
  add(...messages: ChatMessage[]) {
    this.#change(adding(messages, this.conversation.messages.at(-1)?.id));
  }

  /** Keeps a request that has no message (a postback without a title) until it is `settled`. */
  hold(request: HeldRequest) {
    this.#change((c) => (c.held?.some((h) => h.id === request.id) ? c : { ...c, held: [...(c.held ?? []), request] }));
  }

  /** Done with a held request: delivered, failed for good or cancelled (nothing if it is not held). */
  settle(id: string) {
    this.#change(settling(id));
  }

  /**
   * Sets a message's final status (sent, or failed for good, with its `error` if any): no tab sends
   * it again, so whose it was (`by`) goes. (Left out, not deleted: an object something was deleted
   * from is stored larger, and a conversation holds hundreds.)
   */
  updateUserMessage(id: string, patch: Partial<Pick<UserMessage, 'status' | 'error'>>): UserMessage | undefined {
    return this.#changeMessage(id, 'user', (m) => ({ ...sent(m), ...patch }));
  }

  /**
   * Records the visitor's rating of a reply, and its session tag if any (none for a reply of a
   * session past, `tag` empty: see untagging); the updated message, or undefined if there is no such reply.
   */
  rate(id: string, rating: Rating, tag?: string): AgentMessage | undefined {
    return this.#changeMessage(id, 'agent', (m) => ({ ...m, rating, tag: m.tag === '' ? '' : tag }));
  }

  /** The session tags of the ratings of this conversation that no request has carried to the agent yet. */
  ratingTags(): string[] {
    return this.conversation.messages.flatMap((m) => (m.kind === 'agent' && m.tag ? [m.tag] : []));
  }

  remove(id: string) {
    this.#change((c) => ({ ...c, messages: c.messages.filter((m) => m.id !== id) }));
  }

  markGreeted() {
    this.#change(greeted);
  }

  /** Changes the message `id` of `kind`; the changed message, or undefined if there is none. */
  #changeMessage<K extends ChatMessage['kind']>(id: string, kind: K, change: (m: Extract<ChatMessage, { kind: K }>) => Extract<ChatMessage, { kind: K }>) {
    let changed: Extract<ChatMessage, { kind: K }> | undefined;
    this.#change(changingMessage(id, kind, (m) => (changed = change(m))));
    return changed;
  }

  #savePending?: boolean;
  /** This tab's changes not yet written, each a function of the conversation: see #flush. */
  #changes: Change[] = [];
  /** When the conversation they change began. */
  #changedFrom = 0;
  /**
   * This tab's last writes of the conversation, each with its lineage (itself first), when the
   * conversation they changed began and its changes, until another tab's write is read (see #lost).
   */
  #written: Written<[from: number, changes: Change[]]>[] = [];

  #change(change: Change) {
    const next = change(this.conversation);
    if (next === this.conversation) return;
    if (!this.#changes.length) this.#changedFrom = this.conversation.startedAt;
    this.#changes.push(change);
    this.conversation = next;
    this.#save();
  }

  /**
   * Changes made in one task (a reply's status update and its messages) are written once, at the
   * end of the task: serialising the transcript is the costly part of adding a message.
   */
  #save() {
    this.conversation = { ...this.conversation, updatedAt: Date.now() };
    if (this.#savePending) return;
    this.#savePending = true;
    queueMicrotask(() => this.#flush());
  }

  /**
   * Writes the conversation. If another tab wrote it since this one last read or wrote it (each not
   * yet having heard of the other's change: a reply arriving in one as the visitor sends in the
   * other), the later write would drop the earlier one's messages. So this tab's changes are made
   * again on top of what that tab wrote, unless that tab began another conversation (which they did
   * not concern; this tab takes that one up); a conversation this tab began is written as it is.
   */
  #flush() {
    if (!this.#savePending) return;
    this.#savePending = false;
    let changes = this.#changes.splice(0);
    let from = this.#changedFrom;
    const stored = this.#store?.changed('conversation') && this.#store.reread('conversation', isConversation);
    if (stored) {
      const [lost, base] = this.#lost(stored);
      if (base.startedAt === from) {
        this.conversation = { ...applied(changes, base), updatedAt: Date.now() };
        [changes, from] = [[...lost, ...changes], stored.startedAt];
      } else if (this.conversation.startedAt === from) {
        // Another tab began a new conversation: these changes go with the one it put away (its
        // Undo brings them back: a reply that came meanwhile, say).
        this.#toArchive(changes, from);
        this.conversation = base;
        [changes, from] = [lost, stored.startedAt];
      }
      this.#options.onExternalChange?.(this.conversation);
      if (this.conversation === stored) return;
    }
    this.#write(changes, from);
  }

  /**
   * Writes the conversation, made by `changes` from one that began at `from`, and tells the other
   * tabs. If storage will not take it (full: the site's own data, or a reply too long), what it
   * keeps would still have the messages this tab has since sent as waiting, and a reload would send
   * them again (an order placed twice): the messages it keeps are written as this tab has them now,
   * what it has not got staying out.
   */
  #write(changes: Change[], from: number) {
    const store = this.#store;
    const { conversation } = this;
    if (store?.set('conversation', conversation) !== undefined) {
      this.#written = remember(this.#written, [store.lineage('conversation'), from, changes]);
    } else {
      // (Where there is no storage, what is kept is this conversation itself: nothing to write.)
      const kept = store?.reread('conversation', isConversation);
      if (kept !== conversation && kept?.startedAt === conversation.startedAt) {
        store!.set('conversation', { ...kept, held: conversation.held, messages: kept.messages.map((m) => conversation.messages.find((n) => n.id === m.id) ?? m) });
      }
    }
    this.#channel?.postMessage(0);
  }

  /**
   * What of this tab's changes `stored` (another tab's write) lacks because its writer had not heard
   * of them: the tab's page was busy (the browser runs a visitor's input before storage's change
   * notices), so it wrote the conversation as it last saw it, over this tab's writes. Those are the
   * writes of this tab after the last one `stored` was made on (see Store.lineage) whose own lineage
   * meets its (they forked from one write: a tab that did not read for longer than the lineage's
   * depth, frozen in the background say, has no way to tell, and makes nothing again); the changes
   * of each that concerned the conversation they are made on (the one stored holds, or one a lost
   * write began) are made again on top of it: returns them, and `stored` with them made. Nothing
   * of a write it was made on is kept longer.
   */
  #lost(stored: Conversation): [Change[], Conversation] {
    let conversation = stored;
    const lost = lostWrites(this.#written.splice(0), this.#store!.lineage('conversation')).flatMap(([, from, changes]) => {
      if (from !== conversation.startedAt) {
        // Made on the conversation `stored` replaced: they go with it where it was put away.
        this.#toArchive(changes, from);
        return [];
      }
      for (const change of changes) {
        const next = change(conversation);
        // A new conversation this tab began (a restart, not an Undo): the one it put away is kept
        // as it is now, with what the other tab changed of it meanwhile (a reply, which an Undo
        // brings back), unless a newer one has been put away since; also where the other tab, not
        // having heard of the restart either, put an older one away over it (this tab's Undo then
        // brought back its own copy: a message the agent had answered was sent again, and what the
        // other tab wrote in it was lost; found by TAB_SEEDS=1201).
        if (next.startedAt > conversation.startedAt && !(this.archived()?.startedAt! > conversation.startedAt)) this.#store!.set('archive', conversation);
        conversation = next;
      }
      return changes;
    });
    // A conversation put away, back (another tab's Undo): what this tab changed of it meanwhile.
    const back = this.#takeArchived(conversation);
    return [[...lost, ...back], applied(back, conversation)];
  }

  /** This tab's last changes to `conversation` while it was put away (see #archived), which it no longer keeps: it is back. */
  #takeArchived({ startedAt }: Conversation) {
    const back = this.#archived.filter(([from]) => from === startedAt).flatMap(([, changes]) => changes);
    this.#archived = this.#archived.filter(([from]) => from !== startedAt);
    return back;
  }
}
