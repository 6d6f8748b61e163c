import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { styles } from './agent-chat.styles.js';
import { AutoscrollController } from './controllers/autoscroll-controller.js';
import { ConversationController } from './controllers/conversation-controller.js';
import { DeliveryController, type DeliveryJob } from './controllers/delivery-controller.js';
import { MessageLogController } from './controllers/message-log-controller.js';
import { SpeechController } from './controllers/speech-controller.js';
import { newId } from './conversation/ids.js';
import type { AgentMessage, UserMessage } from './conversation/transcript.js';
import {
  AgentChatErrorEvent, AgentChatHideEvent, AgentChatResponseEvent, AgentChatSendEvent, AgentChatShowEvent,
} from './events.js';
import { stringsFor, type Strings } from './i18n/strings.js';
import type { ClientEventRequest, EventMessage, EventResult, Postback, TagOperations } from './protocol/types.js';
import { LIMITS } from './protocol/types.js';
import { defaultRenderers } from './renderers/index.js';
import type { ChatAction, RendererRegistry } from './renderers/registry.js';
import { describeFailure } from './transport/failure-text.js';
import type { TransportFailure } from './transport/post-event.js';
import { renderComposer } from './views/composer.js';
import { renderHeader } from './views/header.js';
import { renderLauncher } from './views/launcher.js';
import { renderMessage, type MessageContext } from './views/message.js';
import { mergeTags } from './conversation/tags.js';

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
 * @csspart message-status - Delivery state under a visitor's message; also `message-status--sending` / `--failed`.
 * @csspart buttons - A row of choices.
 * @csspart button - One choice; links also have `button--link`.
 * @csspart carousel - A scrollable row of cards.
 * @csspart card - One card of a carousel.
 * @csspart card-image - A card's image.
 * @csspart card-title - A card's title.
 * @csspart card-subtitle - A card's subtitle.
 * @csspart typing - The typing indicator.
 * @csspart error - The inline error message.
 * @csspart retry-button - The error's retry button.
 * @csspart composer - The form with the input and the send button.
 * @csspart input - The message text area.
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
 * @cssprop [--agent-chat-z-index=2147483000] - Stacking order of launcher and panel.
 */
export class AgentChat extends LitElement {
  static override styles = styles;

  /** Where requests go: the proxy that holds the agent's token. Required. */
  @property({ attribute: 'proxy-url' }) proxyUrl = '';
  /** Whether the panel is shown; reflects. Opening a fresh conversation sends the greeting. */
  @property({ type: Boolean, reflect: true }) open = false;
  /** The flow node that starts a conversation. */
  @property() greeting = 'greeting';
  /** Conversation language ("EN", "EL", "DE", …), sent with every request; also picks the UI strings. */
  @property() language?: string;
  /** `launcher`: floating button and panel; `inline`: fills its container, always open. */
  @property({ reflect: true }) mode: 'launcher' | 'inline' = 'launcher';
  /** Read agent replies aloud (Web Speech API); the visitor can mute it in the header. */
  @property({ type: Boolean }) tts = false;
  /** The name shown in the header. */
  @property({ attribute: 'agent-title' }) agentTitle?: string;
  /** Sent as `sender.name`. */
  @property({ attribute: 'user-name' }) userName?: string;
  /** Sent as `sender.email`. */
  @property({ attribute: 'user-email' }) userEmail?: string;
  /** Minutes of inactivity after which a stored conversation is archived and a new one greeted (0: never). */
  @property({ attribute: 'session-timeout', type: Number }) sessionTimeout = 0;
  /** Ask for `responsesIds` / `nodesIds`, delivered in `agent-chat-response`. */
  @property({ attribute: 'include-metadata', type: Boolean }) includeMetadata = false;
  /** How each response type is drawn; extend with `defaultRenderers.with(type, renderer)`. */
  @property({ attribute: false }) renderers: RendererRegistry = defaultRenderers;
  /** Overrides for any UI text, e.g. `{ inputPlaceholder: 'Ask us…' }`. */
  @property({ attribute: false }) strings: Partial<Strings> = {};

  @state() private draft = '';
  @state() private failure?: { text: string; retryable: boolean };
  @state() private muted = false;
  private pendingTags?: TagOperations;
  private reportedToDeveloper = false;

  private readonly conversation = new ConversationController(this, {
    namespace: () => `agent-chat:${this.resolvedProxyUrl}`,
    sessionTimeout: () => this.sessionTimeout,
    interruptedError: () => this.uiStrings.errorInterrupted,
  });
  private readonly autoscroll = new AutoscrollController(this);
  private readonly log = new MessageLogController(this, {
    renderMessage: (message) => renderMessage(message, this.messageContext),
    onAppended: () => this.autoscroll.follow(),
  });
  private readonly speech = new SpeechController(this, { language: () => this.conversationLanguage });
  private readonly delivery = new DeliveryController(this, {
    proxyUrl: () => this.resolvedProxyUrl,
    buildRequest: (message) => this.buildRequest(message),
    onSend: (job, request) => this.handleSend(job, request),
    onSuccess: (job, request, result) => this.handleDelivered(job, request, result),
    onFailure: (job, request, failure, retryable) => this.handleFailed(job, request, failure, retryable),
  });

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
    const trimmed = text.trim();
    if (!trimmed) return;
    this.submit({ text: trimmed.slice(0, LIMITS.textLength) }, trimmed.slice(0, LIMITS.textLength));
  }

  /** Sends a postback; with `title`, the title is shown as the visitor's message. */
  postback(payload: Postback, title?: string) {
    this.submit({ payload }, title);
  }

  /** Clears the conversation (the old one is archived) and greets again. */
  restart() {
    this.delivery.clear();
    this.speech.stop();
    this.conversation.archive();
    this.failure = undefined;
    this.log.reset([]);
    if (this.visible) this.greet();
  }

  /** Adds and removes session tags; sent as `tagOperations` with the next request. */
  updateTags(operations: TagOperations) {
    this.pendingTags = mergeTags(this.pendingTags, operations);
  }

  private get visible() {
    return this.mode === 'inline' || this.open;
  }

  private get resolvedProxyUrl() {
    try {
      return new URL(this.proxyUrl, document.baseURI).href;
    } catch {
      return this.proxyUrl;
    }
  }

  private get conversationLanguage() {
    return this.language || document.documentElement.lang || undefined;
  }

  private get uiStrings() {
    return stringsFor(this.conversationLanguage, this.strings);
  }

  private get messageContext(): MessageContext {
    return {
      strings: this.uiStrings,
      baseUrl: document.baseURI,
      renderers: this.renderers,
      onAction: (action) => this.handleAction(action),
    };
  }

  override connectedCallback() {
    super.connectedCallback();
    this.muted = this.conversation.muted;
    this.log.reset(this.conversation.conversation.messages);
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('proxyUrl') && this.isConnected && this.conversation.load()) {
      this.delivery.clear();
      this.log.reset(this.conversation.conversation.messages);
    }
  }

  protected override updated(changed: PropertyValues<this>) {
    // The log is filled imperatively (see MessageLogController); hand it the current elements.
    this.autoscroll.attach(this.renderRoot.querySelector('.log') ?? undefined);
    this.log.attach(this.renderRoot.querySelector('.messages') ?? undefined);
    if (changed.has('open') && (changed.get('open') !== undefined || this.open)) {
      this.emit(this.open ? new AgentChatShowEvent() : new AgentChatHideEvent());
      if (this.open) this.renderRoot.querySelector<HTMLElement>('.input')?.focus();
      else this.speech.stop();
    }
    if (this.visible) {
      if (this.conversation.expireIfIdle()) this.log.reset([]);
      if (!this.conversation.conversation.greeted && !this.greetingQueued) this.greet();
    }
  }

  private greetingQueued = false;

  private greet() {
    this.greetingQueued = true;
    this.delivery.enqueue({ id: newId(), message: { payload: { type: 'node', data: this.greeting } }, greeting: true });
  }

  private submit(message: EventMessage, echo?: string) {
    const job: DeliveryJob = { id: newId(), message };
    if (echo !== undefined) {
      const shown: UserMessage = { kind: 'user', id: job.id, at: Date.now(), text: echo, status: 'sending', request: message };
      this.conversation.add(shown);
      this.log.append(shown);
      job.userMessageId = shown.id;
    }
    this.speech.stop();
    this.failure = undefined;
    this.delivery.enqueue(job);
  }

  private buildRequest(message: EventMessage): ClientEventRequest {
    const sender = { id: this.conversation.senderId, ...(this.userName && { name: this.userName }), ...(this.userEmail && { email: this.userEmail }) };
    const request: ClientEventRequest = { message, sender, timestamp: Date.now() };
    if (this.language) request.language = this.language;
    if (this.pendingTags) request.tagOperations = this.pendingTags;
    this.pendingTags = undefined;
    if (this.includeMetadata || this.tts) {
      request.options = {
        ...(this.includeMetadata && { includeMetadata: true }),
        ...(this.tts && { includeStrippedMarkdownTextResponses: true }),
      };
    }
    return request;
  }

  private handleAction(action: ChatAction) {
    if (action.kind === 'postback') this.postback(action.payload, action.title);
    else this.send(action.text);
  }

  /** The send event is cancelable: a cancelled message is taken back out of the log. */
  private handleSend(job: DeliveryJob, request: ClientEventRequest): boolean {
    if (this.emit(new AgentChatSendEvent(request))) return true;
    if (job.userMessageId) {
      this.conversation.remove(job.userMessageId);
      this.log.remove(job.userMessageId);
    }
    if (job.greeting) this.greetingQueued = false;
    return false;
  }

  private handleDelivered(job: DeliveryJob, request: ClientEventRequest, result: EventResult) {
    this.failure = undefined;
    if (job.greeting) {
      this.greetingQueued = false;
      this.conversation.markGreeted();
    }
    if (job.userMessageId) this.setUserStatus(job.userMessageId, 'sent');
    this.emit(new AgentChatResponseEvent({ ...result, request }));
    const now = Date.now();
    const replies = result.responses.map((item): AgentMessage => ({ kind: 'agent', id: newId(), at: now, item }));
    this.conversation.add(...replies);
    this.log.append(...replies);
    if (this.tts && !this.muted) {
      this.speech.speak(result.responses.map((item, i) => result.responsesStrippedMarkdownText?.[i] ?? item.altText ?? ''));
    }
  }

  private handleFailed(job: DeliveryJob, request: ClientEventRequest, failure: TransportFailure, retryable: boolean) {
    const { text, developerNote } = describeFailure(failure, this.uiStrings);
    // Once per element: a misconfigured proxy fails every request the same way.
    if (developerNote && !this.reportedToDeveloper) console.error(`agent-chat: ${developerNote}`);
    this.reportedToDeveloper ||= developerNote !== undefined;
    if (job.greeting && !retryable) this.greetingQueued = false;
    if (job.userMessageId) this.setUserStatus(job.userMessageId, 'failed', text);
    this.failure = { text, retryable };
    this.emit(new AgentChatErrorEvent({
      kind: failure.kind, status: failure.status, message: failure.message, retryable, willRetry: false, request,
    }));
  }

  /** Events are declared once, in the class JSDoc (`@fires`), which is what the manifest lists. */
  private emit(event: Event): boolean {
    return this.dispatchEvent(event);
  }

  private setUserStatus(id: string, status: UserMessage['status'], error?: string) {
    const updated = this.conversation.updateUserMessage(id, { status, error });
    if (updated) this.log.update(updated);
  }

  private handleRetry = () => {
    const stalled = this.delivery.stalled;
    if (stalled?.userMessageId) this.setUserStatus(stalled.userMessageId, 'sending');
    this.failure = undefined;
    this.delivery.retry();
  };

  private handlePanelKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || this.mode === 'inline') return;
    event.stopPropagation();
    this.hide();
    this.renderRoot.querySelector<HTMLElement>('.launcher')?.focus();
  };

  private handleToggleSpeech = () => {
    this.muted = !this.muted;
    this.conversation.muted = this.muted;
    if (this.muted) this.speech.stop();
  };

  private handleSubmit = () => {
    const text = this.draft;
    if (!text.trim()) return;
    this.draft = '';
    this.send(text);
  };

  protected override render() {
    const strings = this.uiStrings;
    const launcher = this.mode !== 'inline';
    return html`
      ${launcher ? renderLauncher({ open: this.open, strings, onToggle: () => this.toggle() }) : nothing}
      <section part="panel" class="panel" id="panel" ?hidden=${!this.visible} aria-labelledby="title"
        role=${launcher ? 'dialog' : 'region'} @keydown=${this.handlePanelKeydown}>
        ${renderHeader({
          title: this.agentTitle || strings.defaultTitle, strings, closable: launcher,
          speech: this.tts ? { on: !this.muted } : undefined,
          onClose: () => { this.hide(); this.renderRoot.querySelector<HTMLElement>('.launcher')?.focus(); },
          onRestart: () => this.restart(),
          onToggleSpeech: this.handleToggleSpeech,
        })}
        <div part="log" class="log" role="log" aria-labelledby="title">
          <div class="messages"></div>
          ${this.delivery.busy
            ? html`<div part="typing" class="typing"><span class="visually-hidden">${strings.typing}</span>
                <span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span></div>`
            : nothing}
          ${this.failure
            ? html`<div part="error" class="error" role="alert"><p>${this.failure.text}</p>
                ${this.failure.retryable
                  ? html`<button part="retry-button" class="retry" type="button" @click=${this.handleRetry}>${strings.retry}</button>`
                  : nothing}</div>`
            : nothing}
        </div>
        ${renderComposer({
          draft: this.draft, maxLength: LIMITS.textLength, strings,
          onInput: (value) => { this.draft = value; this.speech.stop(); },
          onSubmit: this.handleSubmit,
        })}
      </section>
    `;
  }
}
