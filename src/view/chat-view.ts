import { html } from 'lit/html.js';
import type { AgentChat } from '../agent-chat.component.js';
import type { Shell, View } from '../shell/contract.js';
import { viewCss } from './styles.js';
import { ViewHost } from './view-host.js';
import { AutoscrollController } from '../controllers/autoscroll-controller.js';
import { ConversationController } from '../controllers/conversation-controller.js';
import type { DictationController } from '../controllers/dictation-controller.js';
import { DeliveryController, type DeliveryJob, type FailureOutcome } from '../controllers/delivery-controller.js';
import { MessageLogController } from '../controllers/message-log-controller.js';
import { recognitionConstructor } from '../controllers/recognition.js';
import type { SpeechController } from '../controllers/speech-controller.js';
import { newId } from '../conversation/ids.js';
import { buildRequest } from '../conversation/request.js';
import { mergeTags } from '../conversation/tags.js';
import type { AgentMessage, ChatMessage, UserMessage } from '../conversation/transcript.js';
import { loadStrings, stringsFor } from '../i18n/strings.js';
import { TEXT_LIMIT, type ClientEventRequest, type EventMessage, type EventResult, type Postback, type TagOperations } from '../protocol/types.js';
import { defaultRenderers } from '../renderers/index.js';
import type { ChatAction } from '../renderers/registry.js';
import { describeFailure } from '../transport/failure-text.js';
import type { TransportFailure } from '../transport/post-event.js';
import { renderComposer } from '../views/composer.js';
import { renderHeader } from '../views/header.js';
import { launcherState } from '../views/launcher.js';
import { renderMessage, type MessageContext, type PendingView } from '../views/message.js';
import { renderPanel, type Problem } from '../views/panel.js';

/**
 * The widget behind the shell: the conversation (controllers) and the panel (views), wired to the
 * shell's element, whose properties it reads and whose events it fires. Loaded when first needed.
 */
export class ChatView extends ViewHost implements View {
  readonly #shell: Shell;
  readonly #el: AgentChat;
  protected readonly renderTarget: HTMLElement;

  // Internal state; changes call requestUpdate() (reactive declarations would list them as attributes).
  #draft = '';
  #failure?: Problem;
  /** Why the greeting failed for good (a 4xx): the chat shows it instead of greeting. */
  #greetingFailure?: string;
  /** Replies that arrived while the panel was closed (the launcher's badge). */
  #unseen = 0;
  #ticker?: ReturnType<typeof setInterval>;
  #muted = false;
  #pendingTags?: TagOperations;
  #reportedToDeveloper = false;
  #greetingQueued = false;

  readonly #conversation = new ConversationController(this, {
    namespace: () => `agent-chat:${this.#resolvedProxyUrl}`,
    sessionTimeout: () => this.#el.sessionTimeout,
    onExternalChange: (conversation) => {
      this.#log.sync(conversation.messages);
      this.#adoptPending();
    },
  });
  readonly #autoscroll = new AutoscrollController(this);
  readonly #log = new MessageLogController(this, {
    renderMessage: (message) => renderMessage(message, this.#messageContext),
    onAppended: (first, messages) => this.#handleAppended(first, messages),
    onReset: () => this.#autoscroll.toBottom(),
    prepare: (messages) => this.#renderers.prepare(messages.flatMap((m) => (m.kind === 'agent' ? [m.item] : []))),
  });
  // Features in chunks of their own, loaded when first needed (see #feature).
  #speech?: SpeechController;
  #dictation?: DictationController;
  readonly #features = new Map<string, Promise<unknown>>();
  readonly #delivery = new DeliveryController(this, {
    proxyUrl: () => this.#resolvedProxyUrl,
    buildRequest: (message) => this.#buildRequest(message),
    onSend: (job, request) => this.#handleSend(job, request),
    onSuccess: (job, request, result) => this.#handleDelivered(job, request, result),
    onFailure: (job, request, failure, outcome) => this.#handleFailed(job, request, failure, outcome),
    onChange: () => this.#showDeliveryState(),
  });

  constructor(shell: Shell) {
    super();
    this.#shell = shell;
    this.#el = shell.element;
    this.renderTarget = shell.container;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(viewCss);
    shell.root.adoptedStyleSheets = [...shell.root.adoptedStyleSheets, sheet];
    // The first update sees every property as changed, as a Lit element's does.
    for (const name of Object.keys((this.#el.constructor as typeof AgentChat).properties)) this.requestUpdate(name, undefined);
  }

  get isConnected() {
    return this.#el.isConnected;
  }

  /** Also waits for the feature chunks being loaded (a first press of the microphone, say). */
  override get updateComplete(): Promise<boolean> {
    return Promise.allSettled(this.#features.values()).then(() => super.updateComplete);
  }

  get #renderers() {
    return this.#el.renderers ?? defaultRenderers;
  }

  /** Loads a feature's chunk once and makes its controller; later calls get the same promise. */
  #feature<T>(name: string, load: () => Promise<T>): Promise<T> {
    let loading = this.#features.get(name) as Promise<T> | undefined;
    if (!loading) this.#features.set(name, (loading = load()));
    return loading;
  }

  /** Text-to-speech: loaded with `tts`. */
  #loadSpeech() {
    return this.#feature('speech', () => import('../controllers/speech-controller.js').then(({ SpeechController }) =>
      (this.#speech = new SpeechController(this, { language: () => this.#conversationLanguage }))));
  }

  /** Dictation: loaded at the first press of the microphone button. */
  #loadDictation() {
    return this.#feature('dictation', () => import('../controllers/dictation-controller.js').then(({ DictationController }) =>
      (this.#dictation = new DictationController(this, {
        language: () => this.#conversationLanguage,
        onDraft: (draft) => this.#setDraft(draft.slice(0, TEXT_LIMIT)),
        onFailure: () => this.#setFailure({ text: this.#uiStrings.dictationFailed }),
      }))));
  }

  /** The phone viewport handling: loaded when the panel first opens on a small screen. */
  #loadViewport() {
    return this.#feature('viewport', () => import('../controllers/mobile-viewport-controller.js').then(({ MobileViewportController }) => {
      // Holds no state the view reads: it only needs to be registered (it acts after each update).
      new MobileViewportController(this, this.#el, () => this.#el.open && this.#el.mode !== 'inline');
      this.requestUpdate();
    }));
  }

  /** Sends `text` as the visitor's message; blank text is ignored. */
  send(text: string) {
    const trimmed = text.trim().slice(0, TEXT_LIMIT);
    if (trimmed) this.#submit({ text: trimmed }, trimmed);
  }

  /** Sends a postback; with `title`, the title is shown as the visitor's message. */
  postback(payload: Postback, title?: string) {
    this.#submit({ payload }, title);
  }

  /** Clears the conversation (the old one is archived) and greets again. */
  restart() {
    this.#delivery.clear();
    this.#speech?.stop();
    this.#conversation.archive();
    this.#setFailure();
    this.#greetingQueued = false;
    this.#greetingFailure = undefined;
    this.#log.reset([]);
    if (this.#visible) this.#greet();
  }

  /** Adds and removes session tags; sent as `tagOperations` with the next request. */
  updateTags(operations: TagOperations) {
    this.#pendingTags = mergeTags(this.#pendingTags, operations);
  }

  get #visible() {
    return this.#el.mode === 'inline' || this.#el.open;
  }

  get #resolvedProxyUrl() {
    try {
      return new URL(this.#el.proxyUrl, document.baseURI).href;
    } catch {
      return this.#el.proxyUrl;
    }
  }

  get #conversationLanguage() {
    return this.#el.language || document.documentElement.lang || undefined;
  }

  get #uiStrings() {
    return stringsFor(this.#conversationLanguage, this.#el.strings);
  }

  get #messageContext(): MessageContext {
    return {
      strings: this.#uiStrings,
      baseUrl: document.baseURI,
      renderers: this.#renderers,
      onAction: (action: ChatAction) => (action.kind === 'postback' ? this.postback(action.payload, action.title) : this.send(action.text)),
      pendingOf: (id) => this.#pendingOf(id),
      onRetry: () => this.#delivery.retryNow(),
      onDiscard: (id) => this.#discardMessage(id),
    };
  }

  /** A pending message's state, from the queue's (see DeliveryState). */
  #pendingOf(id: string): PendingView {
    const index = this.#delivery.pending.findIndex((job) => job.userMessageId === id);
    const state = this.#delivery.state;
    // Not in this tab's queue: another tab sends it (or will adopt it; see #adoptPending).
    if (index < 0) return { kind: 'queued' };
    if (state.name === 'retrying') return { kind: 'retrying', seconds: Math.max(1, Math.ceil((state.at - Date.now()) / 1000)) };
    if (state.name === 'offline') return { kind: 'offline' };
    return { kind: index ? 'queued' : 'in-flight' };
  }

  /**
   * Redraws what shows the queue's state: the pending messages (the rest have a final status) and,
   * through render(), the greeting's problem and the typing indicator. While a retry is scheduled,
   * once a second, for the countdown.
   */
  #showDeliveryState() {
    const ids = new Set(this.#delivery.pending.flatMap((job) => job.userMessageId ?? []));
    // Pending messages are at the end: look from there.
    const { messages } = this.#conversation.conversation;
    for (let i = messages.length - 1; i >= 0 && ids.size; i--) {
      if (ids.delete(messages[i].id)) this.#log.update(messages[i]);
    }
    const retrying = this.#delivery.state.name === 'retrying';
    if (retrying && !this.#ticker) this.#ticker = setInterval(() => this.#showDeliveryState(), 1000);
    if (!retrying && this.#ticker) this.#ticker = void clearInterval(this.#ticker);
    this.#autoscroll.keep();
    this.requestUpdate();
  }

  /** The greeting's problem, if it has one: failed for good, or waiting to be retried. */
  get #greetingProblem(): Problem | undefined {
    const strings = this.#uiStrings;
    if (this.#greetingFailure) return { text: this.#greetingFailure };
    const state = this.#delivery.state;
    if (state.name !== 'retrying' || !this.#delivery.pending.some((job) => job.greeting)) return undefined;
    const seconds = Math.max(1, Math.ceil((state.at - Date.now()) / 1000));
    return { text: strings.chatNotStarted, detail: strings.retryingIn(seconds), onRetry: () => this.#delivery.retryNow() };
  }

  #handleAppended(first: HTMLElement, messages: readonly ChatMessage[]) {
    const replies = messages.reduce((n, m) => n + (m.kind === 'agent' ? 1 : 0), 0);
    if (this.#visible) return this.#autoscroll.added(first, replies);
    if (!replies) return;
    this.#unseen += replies;
    this.requestUpdate();
  }

  override connect() {
    super.connect();
    this.#restore();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>) {
    // Another language: its text, then everything drawn again in it.
    const strings = changed.has('language') ? loadStrings(this.#conversationLanguage) : undefined;
    strings?.then(() => this.#log.reset(this.#conversation.conversation.messages)).then(() => this.requestUpdate());
    if (this.#el.tts) void this.#loadSpeech();
    // The width below which the open panel covers the screen (the shell's sheet and the controller say the same).
    if (this.#el.open && this.#el.mode !== 'inline' && matchMedia('(max-width: 480px)').matches) void this.#loadViewport();
    if (changed.has('proxyUrl') && this.#el.isConnected && this.#conversation.load()) {
      // Another deployment, another conversation: nothing of this one's queue goes there.
      this.#delivery.clear();
      this.#greetingQueued = false;
      this.#greetingFailure = undefined;
      this.#restore();
    }
  }

  protected override updated(changed: Map<PropertyKey, unknown>) {
    this.#shell.drawLauncher(this.#el.mode === 'inline' ? undefined : launcherState(this.#el.open, this.#unseen, this.#uiStrings));
    // The log is filled imperatively (see MessageLogController); hand it the current elements.
    this.#autoscroll.attach(this.#shell.root.querySelector('.log') ?? undefined);
    this.#log.attach(this.#shell.root.querySelector('.messages') ?? undefined);
    if (changed.has('open') && (changed.get('open') !== undefined || this.#el.open)) {
      this.#emit(this.#el.open ? new this.#shell.events.AgentChatShowEvent() : new this.#shell.events.AgentChatHideEvent());
      if (this.#el.open) {
        this.#focusPart('input');
        this.#autoscroll.toBottom();
        this.#unseen = 0;
        this.requestUpdate();
      } else this.#quiet();
    }
    if (this.#visible) {
      if (this.#conversation.expireIfIdle()) this.#log.reset([]);
      if (!this.#conversation.conversation.greeted && !this.#greetingQueued) this.#greet();
    }
  }

  /** Shows the stored transcript and sends what a reload interrupted, unless another tab is on it. */
  #restore() {
    this.#muted = this.#conversation.muted;
    this.#log.reset(this.#conversation.conversation.messages);
    this.#adoptPending();
  }

  #adopting = false;

  /**
   * Sends the pending messages no live page sends (a reload or a closed tab interrupted them), once
   * this tab holds the outbox: a tab sending holds it until its queue is empty. Only what is pending
   * now can be orphaned: a message stored later belongs to a live tab whose lock request precedes
   * its write, so it is ahead of this one. Called on load and on every change from another tab.
   */
  #adoptPending() {
    const pending = new Set(this.#conversation.conversation.messages
      .filter((m) => m.kind === 'user' && m.status === 'sending' && !this.#delivery.has(m.id)).map((m) => m.id));
    if (!pending.size || this.#adopting) return;
    this.#adopting = true;
    this.#conversation.withOutbox(async () => {
      this.#adopting = false;
      this.#conversation.refresh();
      for (const m of this.#conversation.conversation.messages) {
        if (m.kind === 'user' && pending.has(m.id) && m.status === 'sending' && !this.#delivery.has(m.id)) {
          this.#delivery.enqueue({ id: m.id, message: m.request, userMessageId: m.id });
        }
      }
      this.#showDeliveryState();
      await this.#delivery.whenIdle();
      // Stored while this tab waited, by a tab that may be gone by now: ask again, behind it.
      this.#adoptPending();
    });
  }

  #greet() {
    this.#greetingQueued = true;
    this.#enqueue({ id: newId(), message: { payload: { type: 'node', data: this.#el.greeting } }, greeting: true });
  }

  #submit(message: EventMessage, echo?: string) {
    const job: DeliveryJob = { id: newId(), message };
    if (echo !== undefined) {
      const shown: UserMessage = { kind: 'user', id: job.id, at: Date.now(), text: echo, status: 'sending', request: message };
      job.userMessageId = shown.id;
      this.#conversation.add(shown);
      this.#log.append(shown);
      this.#autoscroll.toBottom();
    }
    this.#quiet();
    // Storage is written at the end of the task: the outbox is requested before the message is
    // stored as pending, so no other tab adopts it (see #adoptPending).
    this.#enqueue(job);
  }

  /** Queues a job; this tab holds the outbox (other tabs do not resend it) until the queue drains. */
  #enqueue(job: DeliveryJob) {
    this.#delivery.enqueue(job);
    this.#conversation.withOutbox(() => this.#delivery.whenIdle());
  }

  #buildRequest(message: EventMessage): ClientEventRequest {
    const request = buildRequest(message, {
      senderId: this.#conversation.senderId, userName: this.#el.userName, userEmail: this.#el.userEmail, language: this.#el.language,
      tagOperations: this.#pendingTags, includeMetadata: this.#el.includeMetadata, includeSpeech: this.#el.tts,
    });
    this.#pendingTags = undefined;
    return request;
  }

  /** The send event is cancelable: a cancelled message is taken back out of the log. */
  #handleSend(job: DeliveryJob, request: ClientEventRequest): boolean {
    if (this.#emit(new this.#shell.events.AgentChatSendEvent(request))) return true;
    if (job.userMessageId) this.#removeMessage(job.userMessageId);
    if (job.greeting) this.#greetingQueued = false;
    return false;
  }

  #handleDelivered(job: DeliveryJob, request: ClientEventRequest, result: EventResult) {
    if (job.greeting) this.#conversation.markGreeted();
    if (job.userMessageId) this.#setUserStatus(job.userMessageId, { status: 'sent' });
    this.#emit(new this.#shell.events.AgentChatResponseEvent({ ...result, request }));
    const now = Date.now();
    const replies = result.responses.map((item): AgentMessage => ({ kind: 'agent', id: newId(), at: now, item }));
    this.#conversation.add(...replies);
    this.#log.append(...replies);
    if (this.#el.tts && !this.#muted) {
      const texts = result.responses.map((item, i) => result.responsesStrippedMarkdownText?.[i] ?? item.altText ?? '');
      void this.#loadSpeech().then((speech) => speech.speak(texts));
    }
  }

  #handleFailed(job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, outcome: FailureOutcome) {
    const { retryable, willRetry } = outcome;
    this.#emit(new this.#shell.events.AgentChatErrorEvent({ kind: failure.kind, status: failure.status, message: failure.message, retryable, willRetry, request }));
    if (willRetry) return; // the queue's state ("retrying in …") shows next to what waits
    const strings = this.#uiStrings;
    const { text, developerNote } = describeFailure(failure, strings);
    // Once per element: a misconfigured proxy fails every request the same way.
    if (developerNote && !this.#reportedToDeveloper) console.error(`agent-chat: ${developerNote}`);
    this.#reportedToDeveloper ||= developerNote !== undefined;
    // Said once, where it belongs: under the message, in place of the greeting, or (a postback
    // without a title shows nowhere) in the panel.
    if (job.userMessageId) this.#setUserStatus(job.userMessageId, { status: 'failed', error: text, retryable });
    else if (job.greeting) this.#greetingFailure = `${strings.chatNotStarted}. ${developerNote ? text : ''}`.trim();
    else this.#setFailure({ text });
  }

  #discardMessage(id: string) {
    this.#delivery.discard(id);
    this.#removeMessage(id);
  }

  #removeMessage(id: string) {
    this.#conversation.remove(id);
    this.#log.remove(id);
  }

  #setUserStatus(id: string, patch: Pick<UserMessage, 'status'> & Partial<Pick<UserMessage, 'error' | 'retryable'>>) {
    const updated = this.#conversation.updateUserMessage(id, patch);
    if (updated) this.#log.update(updated);
  }

  #setFailure(failure?: Problem) {
    this.#failure = failure;
    this.requestUpdate();
  }

  /** Events are declared once, in the class JSDoc (`@fires`), which is what the manifest lists. */
  #emit(event: Event): boolean {
    return this.#el.dispatchEvent(event);
  }

  #focusPart(part: string) {
    this.#shell.root.querySelector<HTMLElement>(`[part~="${part}"]`)?.focus();
  }

  #close() {
    this.#el.hide();
    this.#focusPart('launcher');
  }

  #handlePanelKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || this.#el.mode === 'inline') return;
    event.stopPropagation();
    this.#close();
  };

  #handleToggleSpeech = () => {
    this.#muted = !this.#muted;
    this.requestUpdate();
    this.#conversation.muted = this.#muted;
    if (this.#muted) this.#speech?.stop();
  };

  #handleSubmit = () => {
    const text = this.#draft;
    this.#setDraft('');
    this.send(text);
  };

  #handleDictate = () => {
    this.#speech?.stop(); // or the microphone hears it
    // Loaded: at once (a second press stops listening in the same task); else once it has loaded.
    if (this.#dictation) this.#dictation.toggle(this.#draft);
    else void this.#loadDictation().then((dictation) => dictation.toggle(this.#draft));
  };

  #setDraft(draft: string) {
    this.#draft = draft;
    this.requestUpdate();
  }

  /** The visitor typed, sent or closed: stop reading aloud and stop listening. */
  #quiet() {
    this.#speech?.stop();
    this.#dictation?.cancel();
  }

  protected override render() {
    const strings = this.#uiStrings;
    const launcher = this.#el.mode !== 'inline';
    return html`
      ${renderPanel({
        strings, launcher, hidden: !this.#visible, typing: this.#delivery.state.name === 'in-flight', offline: this.#delivery.offline,
        greeting: this.#greetingProblem, error: this.#failure, unread: this.#autoscroll.unread,
        onJump: () => this.#autoscroll.jump(),
        onKeydown: this.#handlePanelKeydown,
        header: renderHeader({
          title: this.#el.agentTitle || strings.defaultTitle, strings, closable: launcher,
          speech: this.#el.tts ? { on: !this.#muted } : undefined,
          onClose: () => this.#close(),
          onRestart: () => this.restart(),
          onToggleSpeech: this.#handleToggleSpeech,
        }),
        composer: renderComposer({
          draft: this.#draft, maxLength: TEXT_LIMIT, strings,
          dictation: recognitionConstructor() ? { listening: this.#dictation?.listening ?? false } : undefined,
          onInput: (value) => { this.#setDraft(value); this.#quiet(); },
          onSubmit: this.#handleSubmit,
          onDictate: this.#handleDictate,
        }),
      })}
    `;
  }
}
