import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { styles } from './agent-chat.styles.js';
import { AutoscrollController } from './controllers/autoscroll-controller.js';
import { ConversationController } from './controllers/conversation-controller.js';
import { DictationController } from './controllers/dictation-controller.js';
import { DeliveryController, type DeliveryJob, type FailureOutcome } from './controllers/delivery-controller.js';
import { MessageLogController } from './controllers/message-log-controller.js';
import { MobileViewportController } from './controllers/mobile-viewport-controller.js';
import { SpeechController } from './controllers/speech-controller.js';
import { newId } from './conversation/ids.js';
import { buildRequest } from './conversation/request.js';
import { mergeTags } from './conversation/tags.js';
import type { AgentMessage, ChatMessage, UserMessage } from './conversation/transcript.js';
import {
  AgentChatErrorEvent, AgentChatHideEvent, AgentChatResponseEvent, AgentChatSendEvent, AgentChatShowEvent,
} from './events.js';
import { stringsFor, type Strings } from './i18n/strings.js';
import { TEXT_LIMIT, type ClientEventRequest, type EventMessage, type EventResult, type Postback, type TagOperations } from './protocol/types.js';
import { defaultRenderers } from './renderers/index.js';
import type { ChatAction, RendererRegistry } from './renderers/registry.js';
import { describeFailure } from './transport/failure-text.js';
import type { TransportFailure } from './transport/post-event.js';
import { renderComposer } from './views/composer.js';
import { renderHeader } from './views/header.js';
import { renderLauncher } from './views/launcher.js';
import { renderMessage, type MessageContext, type PendingView } from './views/message.js';
import { renderPanel, type Problem } from './views/panel.js';

/**
 * A chat with a conversational agent, through a proxy that holds the agent's credentials.
 *
 * @summary Embeddable chat widget: `<agent-chat proxy-url="/chat"></agent-chat>`.
 *
 * @fires agent-chat-show - The panel opened.
 * @fires agent-chat-hide - The panel closed.
 * @fires agent-chat-send - Before each request; cancelable; `detail` is the request body.
 * @fires agent-chat-response - Replies arrived; `detail` has `responses`, the metadata arrays and the `request`.
 * @fires agent-chat-error - A request failed; `detail` has `kind`, `status`, `message`, `retryable`, `willRetry`, `request`.
 *
 * @csspart launcher - The floating button that opens and closes the panel.
 * @csspart panel - The chat window.
 * @csspart header - The panel's title bar.
 * @csspart title - The title text.
 * @csspart header-button - Every button in the header.
 * @csspart restart-button - The "new conversation" button.
 * @csspart close-button - The header's close button (launcher mode).
 * @csspart tts-toggle - The read-aloud toggle (with `tts`).
 * @csspart log - The scrolling message log.
 * @csspart message - One transcript entry; also `message--user` or `message--agent`.
 * @csspart bubble - A speech bubble; also `bubble--user`, `bubble--agent`, `bubble--fallback`, `bubble--notice`.
 * @csspart message-status - Delivery state under a visitor's message; also `message-status--sending` (queued), `--waiting` (retrying, or waiting for the connection) or `--failed` (not retryable).
 * @csspart buttons - A row of choices.
 * @csspart button - One choice; links also have `button--link`.
 * @csspart carousel - A scrollable row of cards.
 * @csspart card - One card of a carousel.
 * @csspart card-image - A card's image.
 * @csspart card-title - A card's title.
 * @csspart card-subtitle - A card's subtitle.
 * @csspart typing - The typing indicator ("Agent is typing…"), shown while a request is in flight.
 * @csspart new-messages-button - "3 new messages ↓": shown while replies arrived below the part of the log in view.
 * @csspart badge - The launcher's count of replies that arrived while the panel was closed.
 * @csspart error - A failed greeting (at the top of the log), or a problem that concerns no message.
 * @csspart notice - The offline notice.
 * @csspart retry-button - "Retry now": sends waiting messages (or the greeting) without waiting for the next automatic try.
 * @csspart discard-button - Drops a message that was not delivered.
 * @csspart composer - The form with the input and the send button.
 * @csspart input - The message text area.
 * @csspart mic-button - Dictation: fills the input from the microphone; only where the browser has speech recognition.
 * @csspart send-button - The send button.
 * @csspart counter - The character counter, shown near the length limit.
 *
 * @cssprop [--agent-chat-accent-color=#1d4ed8] - Launcher, header, send button, user bubbles, links.
 * @cssprop [--agent-chat-on-accent-color=#ffffff] - Text and icons on the accent colour.
 * @cssprop [--agent-chat-surface-color=#ffffff] - Panel background.
 * @cssprop [--agent-chat-text-color=#1f2328] - Main text colour.
 * @cssprop [--agent-chat-muted-color=#57606a] - Secondary text (status, subtitles, counter).
 * @cssprop [--agent-chat-agent-bubble-color=#eef1f5] - Background of agent bubbles.
 * @cssprop [--agent-chat-user-bubble-color=var(--agent-chat-accent-color)] - Background of the visitor's bubbles.
 * @cssprop [--agent-chat-on-user-bubble-color=var(--agent-chat-on-accent-color)] - Text on the visitor's bubbles.
 * @cssprop [--agent-chat-error-color=#b42318] - Error text and border.
 * @cssprop [--agent-chat-border-color=#d0d7de] - Borders and separators.
 * @cssprop [--agent-chat-font-family=system-ui] - Font of the whole widget.
 * @cssprop [--agent-chat-font-size=15px] - Base font size.
 * @cssprop [--agent-chat-radius=12px] - Corner radius of panel, bubbles and cards.
 * @cssprop [--agent-chat-shadow=0 12px 40px rgb(0 0 0 / 0.18)] - Shadow of launcher and panel.
 * @cssprop [--agent-chat-panel-width=380px] - Width of the panel in launcher mode.
 * @cssprop [--agent-chat-panel-height=560px] - Height of the panel in launcher mode.
 * @cssprop [--agent-chat-launcher-size=56px] - Diameter of the launcher.
 * @cssprop [--agent-chat-offset=20px] - Distance of launcher and panel from the viewport's edge.
 * @cssprop [--agent-chat-z-index=999999] - Stacking order of launcher and panel.
 */
export class AgentChat extends LitElement {
  static override styles = styles;

  // Declared here rather than with decorators: the decorator helpers cost ~0.35 KB gzipped.
  static override properties: PropertyDeclarations = {
    proxyUrl: { attribute: 'proxy-url' },
    open: { type: Boolean, reflect: true },
    greeting: {},
    language: {},
    mode: { reflect: true },
    theme: { reflect: true },
    position: { reflect: true },
    tts: { type: Boolean },
    agentTitle: { attribute: 'agent-title' },
    userName: { attribute: 'user-name' },
    userEmail: { attribute: 'user-email' },
    sessionTimeout: { attribute: 'session-timeout', type: Number },
    includeMetadata: { attribute: 'include-metadata', type: Boolean },
    renderers: { attribute: false },
    strings: { attribute: false },
  };

  /** Where requests go: the proxy that holds the agent's token. Required. */
  proxyUrl = '';
  /** Whether the panel is shown; reflects. Opening a fresh conversation sends the greeting. */
  open = false;
  /** The flow node that starts a conversation. */
  greeting = 'greeting';
  /** Conversation language ("EN", "EL", "DE", …), sent with every request; also picks the UI strings. */
  language?: string;
  /** `launcher`: floating button and panel; `inline`: fills its container, always open. */
  mode: 'launcher' | 'inline' = 'launcher';
  /** `light` or `dark`; unset follows the visitor's `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
  /** Launcher corner: `right` (default) or `left`. */
  position?: 'right' | 'left';
  /** Read agent replies aloud (Web Speech API); the visitor can mute it in the header. */
  tts = false;
  /** The name shown in the header. */
  agentTitle?: string;
  /** Sent as `sender.name`. */
  userName?: string;
  /** Sent as `sender.email`. */
  userEmail?: string;
  /** Minutes of inactivity after which a stored conversation is archived and a new one greeted (0: never). */
  sessionTimeout = 0;
  /** Ask for `responsesIds` / `nodesIds`, delivered in `agent-chat-response`. */
  includeMetadata = false;
  /** How each response type is drawn; extend with `defaultRenderers.with(type, renderer)`. */
  renderers: RendererRegistry = defaultRenderers;
  /** Overrides for any UI text, e.g. `{ inputPlaceholder: 'Ask us…' }`. */
  strings: Partial<Strings> = {};

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
    sessionTimeout: () => this.sessionTimeout,
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
  });
  readonly #speech = new SpeechController(this, { language: () => this.#conversationLanguage });
  readonly #dictation = new DictationController(this, {
    language: () => this.#conversationLanguage,
    onDraft: (draft) => this.#setDraft(draft.slice(0, TEXT_LIMIT)),
    onFailure: () => this.#setFailure({ text: this.#uiStrings.dictationFailed }),
  });
  readonly #delivery = new DeliveryController(this, {
    proxyUrl: () => this.#resolvedProxyUrl,
    buildRequest: (message) => this.#buildRequest(message),
    onSend: (job, request) => this.#handleSend(job, request),
    onSuccess: (job, request, result) => this.#handleDelivered(job, request, result),
    onFailure: (job, request, failure, outcome) => this.#handleFailed(job, request, failure, outcome),
    onChange: () => this.#showDeliveryState(),
  });

  constructor() {
    super();
    // Holds no state the element reads: it only needs to be registered.
    new MobileViewportController(this, () => this.open && this.mode !== 'inline');
  }

  /** Opens the panel. */
  show() {
    this.open = true;
  }

  /** Closes the panel (launcher mode). */
  hide() {
    this.open = false;
  }

  /** Opens the panel if it is closed, closes it if it is open. */
  toggle() {
    this.open = !this.open;
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
    this.#speech.stop();
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
    return this.mode === 'inline' || this.open;
  }

  get #resolvedProxyUrl() {
    try {
      return new URL(this.proxyUrl, document.baseURI).href;
    } catch {
      return this.proxyUrl;
    }
  }

  get #conversationLanguage() {
    return this.language || document.documentElement.lang || undefined;
  }

  get #uiStrings() {
    return stringsFor(this.#conversationLanguage, this.strings);
  }

  get #messageContext(): MessageContext {
    return {
      strings: this.#uiStrings,
      baseUrl: document.baseURI,
      renderers: this.renderers,
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

  override connectedCallback() {
    super.connectedCallback();
    this.#restore();
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('proxyUrl') && this.isConnected && this.#conversation.load()) {
      // Another deployment, another conversation: nothing of this one's queue goes there.
      this.#delivery.clear();
      this.#greetingQueued = false;
      this.#greetingFailure = undefined;
      this.#restore();
    }
  }

  protected override updated(changed: PropertyValues<this>) {
    // The log is filled imperatively (see MessageLogController); hand it the current elements.
    this.#autoscroll.attach(this.renderRoot.querySelector('.log') ?? undefined);
    this.#log.attach(this.renderRoot.querySelector('.messages') ?? undefined);
    if (changed.has('open') && (changed.get('open') !== undefined || this.open)) {
      this.#emit(this.open ? new AgentChatShowEvent() : new AgentChatHideEvent());
      if (this.open) {
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
    this.#enqueue({ id: newId(), message: { payload: { type: 'node', data: this.greeting } }, greeting: true });
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
      senderId: this.#conversation.senderId, userName: this.userName, userEmail: this.userEmail, language: this.language,
      tagOperations: this.#pendingTags, includeMetadata: this.includeMetadata, includeSpeech: this.tts,
    });
    this.#pendingTags = undefined;
    return request;
  }

  /** The send event is cancelable: a cancelled message is taken back out of the log. */
  #handleSend(job: DeliveryJob, request: ClientEventRequest): boolean {
    if (this.#emit(new AgentChatSendEvent(request))) return true;
    if (job.userMessageId) this.#removeMessage(job.userMessageId);
    if (job.greeting) this.#greetingQueued = false;
    return false;
  }

  #handleDelivered(job: DeliveryJob, request: ClientEventRequest, result: EventResult) {
    if (job.greeting) this.#conversation.markGreeted();
    if (job.userMessageId) this.#setUserStatus(job.userMessageId, { status: 'sent' });
    this.#emit(new AgentChatResponseEvent({ ...result, request }));
    const now = Date.now();
    const replies = result.responses.map((item): AgentMessage => ({ kind: 'agent', id: newId(), at: now, item }));
    this.#conversation.add(...replies);
    this.#log.append(...replies);
    if (this.tts && !this.#muted) {
      this.#speech.speak(result.responses.map((item, i) => result.responsesStrippedMarkdownText?.[i] ?? item.altText ?? ''));
    }
  }

  #handleFailed(job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, outcome: FailureOutcome) {
    const { retryable, willRetry } = outcome;
    this.#emit(new AgentChatErrorEvent({ kind: failure.kind, status: failure.status, message: failure.message, retryable, willRetry, request }));
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
    return this.dispatchEvent(event);
  }

  #focusPart(part: string) {
    this.renderRoot.querySelector<HTMLElement>(`[part~="${part}"]`)?.focus();
  }

  #close() {
    this.hide();
    this.#focusPart('launcher');
  }

  #handlePanelKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || this.mode === 'inline') return;
    event.stopPropagation();
    this.#close();
  };

  #handleToggleSpeech = () => {
    this.#muted = !this.#muted;
    this.requestUpdate();
    this.#conversation.muted = this.#muted;
    if (this.#muted) this.#speech.stop();
  };

  #handleSubmit = () => {
    const text = this.#draft;
    this.#setDraft('');
    this.send(text);
  };

  #handleDictate = () => {
    this.#speech.stop(); // or the microphone hears it
    this.#dictation.toggle(this.#draft);
  };

  #setDraft(draft: string) {
    this.#draft = draft;
    this.requestUpdate();
  }

  /** The visitor typed, sent or closed: stop reading aloud and stop listening. */
  #quiet() {
    this.#speech.stop();
    this.#dictation.cancel();
  }

  protected override render() {
    const strings = this.#uiStrings;
    const launcher = this.mode !== 'inline';
    return html`
      ${launcher ? renderLauncher({ open: this.open, strings, unread: this.#unseen, onToggle: () => this.toggle() }) : nothing}
      ${renderPanel({
        strings, launcher, hidden: !this.#visible, typing: this.#delivery.state.name === 'in-flight', offline: this.#delivery.offline,
        greeting: this.#greetingProblem, error: this.#failure, unread: this.#autoscroll.unread,
        onJump: () => this.#autoscroll.jump(),
        onKeydown: this.#handlePanelKeydown,
        header: renderHeader({
          title: this.agentTitle || strings.defaultTitle, strings, closable: launcher,
          speech: this.tts ? { on: !this.#muted } : undefined,
          onClose: () => this.#close(),
          onRestart: () => this.restart(),
          onToggleSpeech: this.#handleToggleSpeech,
        }),
        composer: renderComposer({
          draft: this.#draft, maxLength: TEXT_LIMIT, strings,
          dictation: this.#dictation.supported ? { listening: this.#dictation.listening } : undefined,
          onInput: (value) => { this.#setDraft(value); this.#quiet(); },
          onSubmit: this.#handleSubmit,
          onDictate: this.#handleDictate,
        }),
      })}
    `;
  }
}
