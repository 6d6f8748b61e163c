import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ConversationController } from '../controllers/conversation-controller.js';
import { DeliveryController, type DeliveryJob, type DeliveryState, type FailureOutcome } from '../controllers/delivery-controller.js';
import { newId } from '../conversation/ids.js';
import { resolveProxyUrl } from '../conversation/proxy-url.js';
import { buildRequest } from '../conversation/request.js';
import { mergeTags } from '../conversation/tags.js';
import type { AgentMessage, ChatMessage, Conversation, HeldRequest, Rating, UserMessage } from '../conversation/transcript.js';
import { loadStrings, stringsFor } from '../i18n/strings.js';
import { TEXT_LIMIT, type ClientEventRequest, type EventMessage, type EventResult, type Postback, type TagOperations } from '../protocol/types.js';
import { describeFailure } from '../transport/failure-text.js';
import type { TransportFailure } from '../transport/post-event.js';
import { createOutbox, type Outbox } from './outbox.js';
import type { ChatSessionHooks, ChatSessionOptions, Pending, SessionChange, SessionEvent } from './session-types.js';

export type { ChatMessage, Conversation } from '../conversation/transcript.js';
export type { DeliveryState } from '../controllers/delivery-controller.js';
export type { ChatSessionHooks, ChatSessionOptions, Pending, SessionChange, SessionEvent } from './session-types.js';

/**
 * One visitor's conversation with the agent, without any UI: identity and transcript (kept in
 * localStorage, shared with the site's other tabs), the delivery queue with its retries, the
 * greeting. `<agent-chat>` draws it; a site can draw its own UI on it:
 *
 * ```js
 * import { createChatSession } from 'agent-chat/engine';
 * const session = createChatSession({ proxyUrl: '/chat' });
 * session.subscribe(() => draw(session.messages));
 * session.start();
 * session.greet();
 * session.send('Hello');
 * ```
 */
export class ChatSession extends EventTarget implements ReactiveControllerHost {
  readonly options: ChatSessionOptions;
  /** Undefined while its page is away in the back/forward cache (stopped by the page, not by its owner): started again when the page is shown. */
  #started: boolean | undefined = false;
  /** Why the greeting failed for good (a 4xx). */
  #greetingFailure?: string;
  #reportedToDeveloper?: boolean;
  /** What restart() put away, until undoRestart() or the next message. */
  #beforeRestart?: Conversation;
  readonly #controllers = new Set<ReactiveController>();
  readonly #listeners = new Set<(change: SessionChange) => void>();
  readonly #emit: (event: SessionEvent) => boolean;

  readonly #conversation: ConversationController;
  readonly #delivery: DeliveryController;
  readonly #outbox: Outbox;

  constructor(options: ChatSessionOptions, hooks: ChatSessionHooks = {}) {
    super();
    this.options = options;
    this.#emit = hooks.emit ?? (({ type, detail }) => this.dispatchEvent(new CustomEvent(`agent-chat-${type}`, { detail, cancelable: type === 'send' })));
    this.#conversation = new ConversationController(this, {
      namespace: () => `agent-chat:${resolveProxyUrl(this.options.proxyUrl)}`,
      sessionTimeout: () => this.options.sessionTimeout ?? 0,
      onExternalChange: () => {
        if (!this.#started) return; // (written as the session stops)
        this.#notify({ kind: 'synced' });
        this.#outbox.adopt();
      },
      // Another tab's retry is shown here next to what waits for it; a nudge wakes this tab's. (Only
      // a visitor's action wakes a retry: were the other tab's new time to, two tabs retrying would
      // wake each other without end.)
      onRetryNotice: (nudged) => (nudged ? this.#outbox.sending && this.#delivery.retryNow() : this.#notify({ kind: 'state' })),
      onRead: () => this.#notify({ kind: 'read' }),
    });
    this.#delivery = new DeliveryController(this, {
      proxyUrl: () => resolveProxyUrl(this.options.proxyUrl),
      buildRequest: (message) => this.#buildRequest(message),
      onSend: (job, request) => this.#handleSend(job, request),
      onSuccess: (job, request, result, replayed) => this.#handleDelivered(job, request, result, replayed),
      onFailure: (job, request, failure, outcome) => this.#handleFailed(job, request, failure, outcome),
      onChange: () => {
        // When this tab tries again (only `retrying` has a time), told to the other tabs: what waits there shows it (see `delivery`).
        const { at } = this.#delivery.state as { at?: number };
        if (this.#outbox.sending && at !== this.#conversation.retryAt) this.#conversation.shareRetry(at);
        this.#notify({ kind: 'state' });
      },
    });
    this.#outbox = createOutbox(this.#conversation, this.#delivery, () => !!this.#started);
  }

  // ReactiveControllerHost, so the controllers run here without Lit.
  addController(controller: ReactiveController) {
    this.#controllers.add(controller);
    if (this.#started) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController) {
    this.#controllers.delete(controller);
  }

  // (The delivery calls onChange right after each requestUpdate, and that tells the change, once.)
  requestUpdate() {}

  get updateComplete() {
    return Promise.resolve(true);
  }

  /** Whether the session is started (the delivery queue sends only then). */
  get isConnected() {
    return !!this.#started;
  }

  /** Calls `listener` after each change; returns the function that unsubscribes it. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reads the stored conversation, listens to other tabs and sends what a reload left unsent. Loads
   * the UI text of `options.language` (or the page's) for the texts the session writes (English
   * until it has loaded). Stopped while the page is in the back/forward cache, started again when it
   * comes back (a `reset` change then shows what other pages did meanwhile). In a page the browser
   * prerenders (speculation rules), it starts once the visitor comes to the page: a page prerendered
   * for a link they then did not follow began a conversation at the agent (an inline chat's greeting)
   * and took part in the site's tabs.
   */
  start() {
    if (this.#started) return;
    // Stopped meanwhile (see stop()): stays stopped, as a page back from the back/forward cache.
    if ((document as { prerendering?: boolean }).prerendering) { // (not in TypeScript's DOM types yet)
      this.#started = undefined;
      return document.addEventListener('prerenderingchange', () => this.#started ?? this.start(), { once: true });
    }
    this.#started = true;
    void loadStrings(this.#language);
    addEventListener('pagehide', this.#handlePageHide);
    this.#outbox.start();
    this.#controllers.forEach((c) => c.hostConnected?.());
    // What other tabs and pages did while this one was stopped (or away in the back/forward cache).
    this.#conversation.refresh();
    this.#notify({ kind: 'reset' });
    this.#outbox.adopt();
  }

  /** Stops listening and sending (an element removed from the page); `start()` resumes. */
  stop() {
    const started = this.#started;
    this.#started = false;
    if (!started) return;
    removeEventListener('pagehide', this.#handlePageHide);
    this.#controllers.forEach((c) => c.hostDisconnected?.());
    this.#outbox.stop();
  }

  /**
   * A page the browser keeps in its back/forward cache is stopped while away, and started again when
   * the visitor comes back to it: away, it holds no Web Lock and hears nothing on its channel
   * (Chromium drops a cached page that hears from its channel; WebKit lets go of a cached page's
   * locks, and the page went on as if it held them); back, it shows what the visitor did on other
   * pages meanwhile (it showed the conversation as it was when they left), and sends only what still
   * waits (a message another page sent meanwhile went again, from this page's queue). It starts a
   * task after it is shown: a Web Lock asked for as Chromium shows a page from its cache (in
   * `pageshow`) stalled the site's outbox, granted to no tab (FAULT_SEEDS=6033 FAULT_STEPS=40).
   * A session its owner stops within that task (an element the page takes out as it is shown) stays
   * stopped: until 2 December it was started all the same, and took part as another tab would,
   * sending what waited, until the page went.
   */
  readonly #handlePageHide = ({ persisted }: PageTransitionEvent) => {
    if (!persisted) return;
    this.stop();
    this.#started = undefined;
    addEventListener('pageshow', () => setTimeout(() => this.#started ?? this.start()), { once: true });
  };

  /** The conversation so far, oldest first: its newest 500 messages (as storage keeps them). */
  get messages(): readonly ChatMessage[] {
    return this.#conversation.conversation.messages;
  }

  /** The visitor's id (a UUID kept in storage per proxy URL), sent as `sender.id`. */
  get senderId(): string {
    return this.#conversation.senderId;
  }

  /**
   * Where delivery stands: `in-flight` (what a typing indicator shows), `retrying` at a time,
   * `offline`, or `idle`. While what waits here is another tab's to send first, that tab's retry
   * (or the connection, which is the browser's): a second tab says when it is tried again too.
   */
  get delivery(): DeliveryState {
    const at = this.#conversation.retryAt!;
    if (!this.#outbox.sending && (at > 0 || this.offline) && this.#outbox.orphans()[0]) return this.offline ? { name: 'offline' } : { name: 'retrying', at };
    return this.#delivery.state;
  }

  /** The browser is offline: messages wait for the connection. */
  get offline(): boolean {
    return this.#delivery.offline;
  }

  /**
   * The visitor has seen the conversation up to its newest message (a UI calls it when it shows
   * them, the page in view): the other tabs get a `read` change, and {@link readAt} says up to when.
   */
  read() {
    const at = this.messages.at(-1)?.at;
    if (at) this.#conversation.shareRead(at);
  }

  /** When the newest message the visitor has seen in any tab came (see read()); 0 if none. */
  get readAt(): number {
    return this.#conversation.readAt;
  }

  /** Whether read-aloud is muted (kept in storage). */
  get muted(): boolean {
    return this.#conversation.muted;
  }

  set muted(value: boolean) {
    this.#conversation.muted = value;
  }

  /** How a visitor's message that is not delivered yet stands; undefined once it is delivered or failed. */
  pendingOf(id: string): Pending | undefined {
    // From the end, where pending messages are: this runs for each of them on every state change.
    const message = this.messages.findLast((m) => m.id === id);
    if (message?.kind !== 'user' || message.status !== 'sending') return undefined;
    const index = this.#delivery.pending.findIndex((job) => job.userMessageId === id);
    const state = this.delivery;
    if (state.name === 'retrying') return { kind: 'retrying', at: state.at };
    if (state.name === 'offline') return { kind: 'offline' };
    // Behind the one in flight, or not in this tab's queue: another tab sends it (or this one will; see Outbox.adopt).
    return { kind: index ? 'queued' : 'in-flight' };
  }

  /** The greeting's problem: failed for good (why), or waiting to be retried (when). */
  get greetingProblem(): { failed: string } | { retryAt: number } | undefined {
    if (this.#greetingFailure) return { failed: this.#greetingFailure };
    const state = this.delivery;
    if (state.name === 'retrying' && this.#conversation.conversation.held?.some((h) => h.greeting)) return { retryAt: state.at };
    return undefined;
  }

  /**
   * Sends the greeting to a conversation not yet begun: none if the agent has answered a request of
   * it, its greeting failed, or anything is in it or on its way from any tab (the greeting too: it is
   * held in the conversation, so another tab or a reload sends it if this page cannot). A message or
   * postback sent through the API before the panel was shown has begun it: a greeting after it would
   * restart the agent's flow. Archives an idle conversation first.
   */
  greet() {
    // A page prerendered (see start()): greets once the session has started there, if it has. Held
    // in the conversation now, it was another tab's to send, this one holding no lock.
    if ((document as { prerendering?: boolean }).prerendering) return document.addEventListener('prerenderingchange', () => this.#started && this.greet(), { once: true });
    if (this.#conversation.expireIfIdle()) this.#notify({ kind: 'reset' });
    const { conversation } = this.#conversation;
    if (conversation.greeted || this.#greetingFailure || conversation.held?.length || conversation.messages.length) return;
    const job: HeldRequest = { id: newId(), at: requestTime(), message: { payload: { type: 'node', data: this.options.greeting ?? 'greeting' } }, greeting: true, by: this.#outbox.tab };
    this.#conversation.hold(job);
    this.#outbox.adopt(job.id);
  }

  /** Sends `text` as the visitor's message (trimmed, at most 2,000 characters); blank text is ignored. */
  send(text: string) {
    const trimmed = text.trim().slice(0, TEXT_LIMIT);
    if (trimmed) this.#submit({ text: trimmed }, trimmed);
  }

  /** Sends a postback; with `title`, the title is kept as the visitor's message. */
  postback(payload: Postback, title?: string) {
    this.#submit({ payload }, title);
  }

  /**
   * Archives the conversation and starts an empty one (greet() greets it); what was queued is
   * dropped. A request in flight goes on: the agent has it, and its reply is kept with the archived
   * conversation, which undoRestart() (in any tab) brings back with it instead of sending it again.
   */
  restart() {
    this.#delivery.clear(() => true);
    this.#beforeRestart = this.#conversation.archive();
    this.#greetingFailure = undefined;
    this.#notify({ kind: 'reset' });
  }

  /**
   * What undoRestart() would bring back: the conversation the last restart() put away, as any tab
   * has changed it since (a reply that came meanwhile); undefined once the restart is final. A
   * message written since in the new conversation makes it final, in any tab (taken back, the
   * message would go with it), and so does another new conversation begun since in another tab
   * (the one put away is then that tab's).
   */
  get undoable(): Conversation | undefined {
    const before = this.#beforeRestart;
    if (!before || this.messages.some((m) => m.kind === 'user')) return undefined;
    const archived = this.#conversation.archived();
    // Storage keeps the newest conversation put away only: once a newer one is, this tab's copy is
    // out of date (a message it shows as with the agent was answered since, and would be sent again).
    if (archived?.startedAt! > before.startedAt) return undefined;
    return archived?.startedAt === before.startedAt ? archived : before;
  }

  /**
   * Takes back the last restart() (the new greeting, in flight or answered, is dropped); true if
   * there was one to take back (see undoable). The new greeting is called off, and a request of the
   * conversation taken back that is still in flight goes on.
   */
  undoRestart(): boolean {
    const back = this.undoable;
    this.#beforeRestart = undefined;
    if (!back) return false;
    this.#conversation.restore(back);
    this.#delivery.clear((job) => this.#belongs(job));
    this.#notify({ kind: 'reset' });
    this.#outbox.adopt();
    return true;
  }

  /** Adds and removes session tags; sent as `tagOperations` with the next request, and with the ones after it until one reaches the agent (kept in storage until then: another tab's or the next page's). */
  updateTags(operations: TagOperations) {
    this.#conversation.updateTags(operations);
  }

  /**
   * Records the visitor's rating of the agent's reply `id` (kept with the transcript, shown in every
   * tab). With `tag`, the next request of this conversation adds it to the session (as `updateTags`
   * does), whichever tab or page makes it; a request of another conversation never does: its
   * greeting opens another session at the agent, where nothing was rated, and once it has (a new
   * conversation's greeting answered), the tag is dropped, and a reply given before then is rated
   * without one (an Undo brought its conversation back). False if there is no such reply.
   */
  rate(id: string, rating: Rating, tag?: string): boolean {
    const updated = this.#conversation.rate(id, rating, tag);
    if (updated) this.#notify({ kind: 'updated', message: updated });
    return !!updated;
  }

  /** Sends what waits for a retry now (what another tab sends first: that tab tries again now). */
  retryNow() {
    if (this.#outbox.sending) this.#delivery.retryNow();
    else this.#conversation.nudge();
  }

  /**
   * Takes a message that was not delivered out of the conversation: one still waiting is never sent,
   * and what waits behind it goes at once; one in flight goes on (the agent has it), its answer
   * left out (the response event still fires).
   */
  discard(id: string) {
    this.#delivery.discard(id);
    this.#removeMessage(id);
  }

  /**
   * Sends again, as the newest message, a visitor's message that failed where sending it again may
   * help (`retryable`: no answer came in time, and the agent may have it, so it is not sent again
   * unless the visitor asks).
   */
  sendAgain(id: string) {
    const message = this.messages.find((m) => m.id === id);
    if (message?.kind === 'user' && message.retryable) {
      this.discard(id);
      // Under its id: a proxy that has the agent's late answer to it gives that (README, "Sent once").
      this.#submit(message.request, message.text, id);
    }
  }

  /** Takes up another proxy URL (another deployment, another conversation); true if it changed. */
  reload(): boolean {
    if (!this.#started || !this.#conversation.load()) return false;
    this.#delivery.clear();
    this.#greetingFailure = undefined;
    this.#notify({ kind: 'reset' });
    this.#outbox.adopt();
    return true;
  }

  get #language() {
    return this.options.language || document.documentElement.lang;
  }

  get #strings() {
    return stringsFor(this.#language, this.options.strings);
  }

  #notify(change: SessionChange) {
    this.#listeners.forEach((listener) => listener(change));
  }

  #submit(message: EventMessage, echo?: string, id = newId()) {
    this.#beforeRestart = undefined;
    // The UI text of its language, if it could not load at start (offline): asked for again.
    void loadStrings(this.#language);
    // Stored as waiting (the outbox); Outbox.adopt sends it.
    if (echo !== undefined) {
      const shown: UserMessage = { kind: 'user', id, at: requestTime(), text: echo, status: 'sending', request: message, by: this.#outbox.tab };
      this.#conversation.add(shown);
      this.#notify({ kind: 'added', messages: [shown] });
    } else this.#conversation.hold({ id, at: requestTime(), message, by: this.#outbox.tab });
    this.#outbox.adopt(id);
  }

  #buildRequest(message: EventMessage): ClientEventRequest {
    // Left waiting until a request that carries them reaches the agent: a reload or a discard
    // before then does not lose them (the next request carries them again).
    const tagOperations = mergeTags(this.#conversation.waitingTags(), { add: this.#conversation.ratingTags() });
    return buildRequest(message, this.options, this.#conversation.senderId, tagOperations);
  }

  /**
   * Whether `job` is still part of the conversation: another tab can have started a new one (or
   * taken one back, or discarded the message) since it was queued. What is not is not sent, and
   * a reply to it stays out of the conversation that took its place.
   */
  #belongs(job: DeliveryJob): boolean | undefined {
    const { messages, held } = this.#conversation.conversation;
    return job.userMessageId ? messages.some((m) => m.id === job.userMessageId) : held?.some((h) => h.id === job.id);
  }

  /** The send event is cancelable: a cancelled message is taken back out of the conversation. */
  #handleSend(job: DeliveryJob, request: ClientEventRequest): boolean {
    if (!this.#belongs(job)) return false;
    if (this.#emit({ type: 'send', detail: request })) return true;
    if (job.userMessageId) this.#removeMessage(job.userMessageId);
    this.#conversation.settle(job.id);
    return false;
  }

  #handleDelivered(job: DeliveryJob, request: ClientEventRequest, result: EventResult, replayed: boolean) {
    // Dated when they came, before the response listeners run: a message sent meanwhile (another
    // tab's, on their arrival) comes after them (see ConversationController's adding).
    const now = Date.now();
    const belongs = this.#belongs(job);
    // Answered with the answer to an earlier try, the tags this one carried wait for the next request.
    this.#conversation.deliveredTags(replayed ? undefined : request.tagOperations, !belongs);
    // A greeting answered: the agent's session is a new one, which the ratings of the other
    // conversation (the one put away, or the one an Undo brought back meanwhile) cannot reach.
    if (job.greeting) this.#conversation.dropRatingTags(!!belongs);
    // Answered: the agent's session has begun (by the greeting or a message sent first); it now idles out like any other.
    if (belongs) {
      this.#conversation.markGreeted();
      this.#greetingFailure = undefined; // begun after all: "could not start" no longer holds
    }
    if (job.userMessageId) this.#setUserStatus(job.userMessageId, { status: 'sent' });
    this.#conversation.settle(job.id);
    this.#emit({ type: 'response', detail: { ...result, request } });
    // Named after the request (its id, a UUID, and the reply's place): an answer two tabs both hear
    // (one's request cut short by a page change and sent again by the other, answered from the
    // proxy's memory; one's write of it lost to the other's and made again) is kept once (see
    // changes.ts's `adding`; found by TAB_SEEDS=166).
    const replies = result.responses.map((item, i): AgentMessage => ({ kind: 'agent', id: job.id + i, at: now, item }));
    // Of a conversation begun anew since: kept with it, where it was put away (see restart()).
    if (!belongs) return this.#conversation.answerArchived(job.id, replies);
    this.#conversation.add(...replies);
    const speech = result.responses.map((item, i) => result.responsesStrippedMarkdownText?.[i] ?? item.altText ?? '');
    this.#notify({ kind: 'added', messages: replies, speech });
  }

  #handleFailed(job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, outcome: FailureOutcome) {
    const { retryable, willRetry } = outcome;
    this.#emit({ type: 'error', detail: { kind: failure.kind, status: failure.status, message: failure.message, retryable, willRetry, request } });
    // Of a conversation begun anew since (see restart()): not tried again; an Undo brings it back, to send.
    if (!this.#belongs(job)) return this.#delivery.discard(job.id);
    if (willRetry) return; // the queue's state ("retrying in …") shows next to what waits
    // Refused (malformed tags, say): not carried into every request after it.
    if (!retryable) this.#conversation.deliveredTags(request.tagOperations);
    this.#conversation.settle(job.id);
    const strings = this.#strings;
    const { text, developerNote } = describeFailure(failure, strings);
    // Once per session: a misconfigured proxy fails every request the same way.
    if (developerNote && !this.#reportedToDeveloper) {
      console.error(`agent-chat: ${developerNote}`);
      this.#reportedToDeveloper = true;
    }
    // Said once, where it belongs: under the message, in place of the greeting, or (a postback
    // without a title shows nowhere) as a failure of its own.
    if (job.userMessageId) this.#setUserStatus(job.userMessageId, { status: 'failed', error: text, retryable });
    else if (job.greeting) {
      this.#greetingFailure = `${strings.chatNotStarted}. ${developerNote ? text : ''}`.trim();
      this.#notify({ kind: 'state' });
    } else this.#notify({ kind: 'failure', text });
  }

  #removeMessage(id: string) {
    this.#conversation.remove(id);
    this.#notify({ kind: 'removed', id });
  }

  #setUserStatus(id: string, patch: Pick<UserMessage, 'status'> & Partial<Pick<UserMessage, 'error' | 'retryable'>>) {
    const updated = this.#conversation.updateUserMessage(id, patch);
    if (updated) this.#notify({ kind: 'updated', message: updated });
  }
}

let lastRequestAt = 0;
/**
 * When a request is made: later than the one made before it, however coarse the clock (two in one
 * millisecond), so what a reload or another tab sends for this page goes in the order it was made.
 */
const requestTime = () => (lastRequestAt = Math.max(Date.now(), lastRequestAt + 1));

/** A conversation with the agent behind `proxyUrl`, without UI (see {@link ChatSession}); call `start()`. */
export const createChatSession = (options: ChatSessionOptions, hooks?: ChatSessionHooks) => new ChatSession(options, hooks);
