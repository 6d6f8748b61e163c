import { html } from 'lit/html.js';
import type { AgentChat } from '../agent-chat.component.js';
import { AutoscrollController } from '../controllers/autoscroll-controller.js';
import type { DictationController } from '../controllers/dictation-controller.js';
import { MessageLogController } from '../controllers/message-log-controller.js';
import { recognitionConstructor } from '../controllers/recognition.js';
import type { SpeechController } from '../controllers/speech-controller.js';
import { isWaiting, type AgentMessage, type ChatMessage, type Rating } from '../conversation/transcript.js';
import type { AgentChatFeedbackDetail } from '../events.js';
import { ChatSession, type ChatSessionOptions, type SessionChange, type SessionEvent } from '../engine/chat-session.js';
import { loadStrings, stringsFor } from '../i18n/strings.js';
import type { Postback, TagOperations } from '../protocol/types.js';
import { defaultRenderers } from '../renderers/index.js';
import { preloadMarkdown } from '../renderers/text-renderer.js';
import { safeImageUrl } from '../renderers/url.js';
import type { ChatAction } from '../renderers/registry.js';
import type { Shell, View } from '../shell/contract.js';
import { isImeKey, renderComposer } from '../views/composer.js';
import { renderHeader } from '../views/header.js';
import { renderMessage, type MessageContext, type PendingView } from '../views/message.js';
import { dayOf, messageTime, prepareTimes } from '../views/message-time.js';
import { renderPanel, type Problem } from '../views/panel.js';
import { viewCss } from './styles.js';
import { tabValue } from './tab-state.js';
import { keepFocus } from './keep-focus.js';
import { LauncherSide } from './launcher-side.js';
import { answerOf, previousOf, turnsBefore } from './turns.js';
import { typingElsewhere } from './typing-elsewhere.js';
import { ViewHost } from './view-host.js';

const secondsUntil = (at: number) => Math.max(1, Math.ceil((at - Date.now()) / 1000));

/**
 * The widget behind the shell: the panel, drawn from a {@link ChatSession} (the conversation, with no
 * UI) and wired to the shell's element, whose properties it reads and whose events it fires.
 * Loaded when first needed.
 */
export class ChatView extends ViewHost implements View {
  readonly #shell: Shell;
  readonly #el: AgentChat;
  readonly #session: ChatSession;
  protected readonly renderTarget: HTMLElement;

  // State of the panel; changes call requestUpdate().
  #draft = '';
  #failure?: Problem;
  #ticker?: ReturnType<typeof setInterval>;
  #muted?: boolean;
  /** While the visitor can take back the new conversation they started (the timer ends it). */
  #undo?: ReturnType<typeof setTimeout>;

  /** Scrolled up to within a screen of the top, the earlier messages come (the control stays, for the keyboard). */
  readonly #autoscroll = new AutoscrollController(this, () => this.#log.showEarlier());
  readonly #log = new MessageLogController(this, {
    renderMessage: (message) => renderMessage(message, this.#messageContext),
    onAppended: (first, messages) => this.#handleAppended(first, messages),
    onReset: () => this.#autoscroll.toBottom(),
    prepare: (messages) => this.#renderers.prepare(messages.flatMap((m) => (m.kind === 'agent' ? [m.item] : []))),
    canTrim: () => this.#autoscroll.pinned,
    onHiddenChange: () => this.requestUpdate(),
    oldest: () => this.#session.messages[0]?.id,
  });
  /** The launcher's badge, and the preview or teaser beside it. */
  readonly #launcherSide: LauncherSide;
  // Features in chunks of their own, loaded when first needed (see #feature).
  #speech?: SpeechController;
  #dictation?: DictationController;
  readonly #features = new Map<string, Promise<unknown>>();
  /** The replies this tab got itself, not through another tab (see #handleAppended). */
  readonly #received = new WeakSet<ChatMessage>();

  constructor(shell: Shell) {
    super();
    this.#shell = shell;
    this.#launcherSide = new LauncherSide(this, shell, () => this.#feature('nudge', () => import('./nudge-feature.js')), () => !!this.#session.messages[0]);
    const el = (this.#el = shell.element);
    this.renderTarget = shell.container;
    keepFocus(shell.root, () => this.#focusPart(this.#visible ? 'input' : 'launcher'));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(viewCss);
    shell.root.adoptedStyleSheets = [...shell.root.adoptedStyleSheets, sheet];
    // The element's properties, read at each use: the options are the element's, by the same names
    // (text-to-speech's `includeSpeech` is its `tts`). Its proxy URL is the last one set (the one the
    // view was loaded for, at first): taken away (a framework dropping the attribute while its
    // configuration reloads), the conversation goes on through the one it had; read as the page's
    // own, it sent the visitor's messages to `…/null`.
    let { url } = shell;
    const options: ChatSessionOptions = new Proxy(el, {
      get: (_, name: keyof AgentChat | 'includeSpeech') => (name === 'proxyUrl' ? (url = el.proxyUrl || url) : el[name === 'includeSpeech' ? 'tts' : name]),
    });
    this.#session = new ChatSession(options, { emit: (event) => this.#emitSessionEvent(event) });
    this.#session.subscribe(this.#handleChange);
    // The first update sees every property as changed, as a Lit element's does.
    for (const name of Object.keys((el.constructor as typeof AgentChat).properties)) this.requestUpdate(name, undefined);
  }

  get isConnected() {
    return this.#el.isConnected;
  }

  /** Also waits for the feature chunks being loaded (a first press of the microphone, say). */
  override get updateComplete(): Promise<boolean> {
    return Promise.allSettled(this.#features.values()).then(() => super.updateComplete);
  }

  send(text: string) {
    this.#preload();
    this.#session.send(text);
    this.#quiet();
    this.#endUndo();
  }

  postback(payload: Postback, title?: string) {
    this.#preload();
    this.#session.postback(payload, title);
    this.#quiet();
    this.#endUndo();
  }

  /**
   * What the replies will need: the markdown chunk, loaded after connect, and the UI text of the
   * conversation's language, loaded when it is set. Asked again here if that failed (offline), once
   * per message.
   */
  #preload() {
    preloadMarkdown();
    this.#loadLanguage();
  }

  /** The UI text of the conversation's language; once loaded, everything drawn again in it. */
  #loadLanguage() {
    loadStrings(this.#conversationLanguage)?.then(() => this.#log.reset(this.#session.messages)).then(() => this.requestUpdate());
  }

  restart() {
    this.#speech?.stop();
    this.#session.restart();
    this.#setFailure();
    if (this.#visible) this.#session.greet();
  }

  /** The header's "new conversation": as restart(), with a few seconds to take it back. */
  #restartByVisitor() {
    this.restart();
    this.#endUndo();
    this.#undo = setTimeout(() => this.#endUndo(), 10_000);
  }

  #endUndo() {
    if (!this.#undo) return;
    this.#undo = void clearTimeout(this.#undo);
    this.requestUpdate();
  }

  #handleUndo = () => {
    this.#endUndo();
    this.#session.undoRestart();
    this.#focusPart('input');
  };

  updateTags(operations: TagOperations) {
    this.#session.updateTags(operations);
  }

  /**
   * The visitor sees the conversation (the panel shown, the page in view: opened, a reply drawn, the
   * tab looked at again): the other tabs' launchers no longer tell of what came up to now.
   */
  readonly #read = () => {
    if (this.#visible && !document.hidden) this.#session.read();
  };

  /**
   * The page hidden: what the tab takes to its next page kept; shown again: what the visitor now sees
   * read. (The delivery tries what waits at once then, which draws the panel again: for the day it is
   * now, see `updated`, and after session-timeout with the new conversation.)
   */
  readonly #handleVisibility = () => (document.hidden ? this.#keepForTab() : this.#read());

  /**
   * Back from the browser's back/forward cache: the draft the tab keeps now, which the site's next
   * page may have changed meanwhile (sent from there: none). Where storage cannot be read, the
   * page's own.
   */
  readonly #handlePageShow = ({ persisted }: PageTransitionEvent) => {
    if (persisted) this.#setDraft(tabValue(this.#session.options.proxyUrl, 'draft') ?? this.#draft);
  };

  /**
   * What the visitor leaves the page with, kept for the tab whenever the page is hidden (a reload,
   * another page of the site, the tab closed or left: browsers hide a page before it unloads) or
   * the element is removed (a site's own page change): the draft they have not sent, given back to
   * the composer where the view starts; and whether the panel is open, which the shell of the tab's
   * next page opens again (see `updated`). Not where the panel covers the screen (a phone, a short
   * window): there the next page is what the visitor went to see (a site taking them to a page the
   * chat named, say), and the launcher brings back the conversation and the draft.
   */
  #keepForTab() {
    const url = this.#session.options.proxyUrl;
    tabValue(url, 'draft', this.#draft);
    // `focus` where the visitor was in the panel as they left (the site took them on from a reply, or
    // a reload), else `1`. (Not by an inline chat, which has no panel to open: a launcher of the same
    // URL on its page keeps its own.)
    if (this.#el.mode != 'inline') tabValue(url, 'open', this.#el.open && !this.#covering ? (this.#shell.root.activeElement ? 'focus' : '1') : '');
  }

  /**
   * The window below the sizes at which an open panel covers it (the shell's sheet says the same),
   * from the first connect; told when the window crosses them while connected.
   */
  #small?: MediaQueryList;

  /** Whether the panel covers the screen: open, in launcher mode, in a small window. */
  get #covering() {
    return this.#el.open && this.#el.mode !== 'inline' && this.#small?.matches;
  }

  override connect() {
    super.connect();
    // The shell's skeleton, there until the first connect (Lit draws into its container from then):
    // what the visitor typed in its text area goes after the draft the tab kept (an Enter there a
    // new line: nothing is sent that they did not send here), and the focus, if it was there, on to
    // the input once drawn. (Where the rest could not load before, it is the line saying so: no value.)
    const { container, root } = this.#shell;
    const skeleton = container.querySelector<HTMLTextAreaElement>('.loading');
    this.#draft = (this.#draft || tabValue(this.#session.options.proxyUrl, 'draft') || '') + (skeleton?.value ?? '');
    if (skeleton) {
      if (root.activeElement == skeleton) super.updateComplete.then(() => this.#focusPart('input'));
      container.replaceChildren();
    }
    document.addEventListener('visibilitychange', this.#handleVisibility);
    addEventListener('pageshow', this.#handlePageShow);
    // A window resized or zoomed across these sizes: the panel starts or stops covering it, and the
    // page is held or let go of at once (widened, the page stayed unscrollable and Tab kept in the
    // panel beside it until the panel closed; narrowed, nothing was held). Let go of on disconnect:
    // a list with a listener is kept by the page, and with it this view.
    (this.#small = matchMedia('(width<=30em),(height<=35em)')).onchange = () => this.requestUpdate();
    this.#session.start();
    // The first time format takes ~25 ms to make (a first-open profile): made after the panel is
    // painted, while the greeting is on its way, not when the reply is to be shown. So is the
    // markdown chunk asked for (marked and DOMPurify): neither the panel nor a plain reply waits for
    // it, and a markdown greeting does not wait for a second round trip after it.
    requestAnimationFrame(() => setTimeout(() => {
      prepareTimes(this.#conversationLanguage);
      preloadMarkdown();
    }));
  }

  override disconnect() {
    super.disconnect();
    document.removeEventListener('visibilitychange', this.#handleVisibility);
    removeEventListener('pageshow', this.#handlePageShow);
    this.#small!.onchange = null;
    this.#keepForTab();
    this.#endUndo();
    this.#session.stop();
  }

  get #renderers() {
    return this.#el.renderers ?? defaultRenderers;
  }

  /**
   * Loads a feature's chunk once and makes its controller; later calls get the same promise. A load
   * that failed (offline, or a CSP or CDN path that blocks the chunk) is told to the developer once
   * per attempt and forgotten, so the next need tries again: a browser that fetches a failed module
   * again (Chromium 156) loads it then; others (Chromium 150, Firefox ESR, WebKitGTK as tested here)
   * keep the failure until a reload. A caller that only starts the load may leave its failure
   * unhandled: it is handled here.
   */
  #feature<T>(name: string, load: () => Promise<T>): Promise<T> {
    let loading = this.#features.get(name) as Promise<T> | undefined;
    if (!loading) {
      this.#features.set(name, (loading = load()));
      loading.catch((error) => {
        this.#features.delete(name);
        console.error(`agent-chat: could not load its ${name} code`, error);
      });
    }
    return loading;
  }

  /** Text-to-speech: loaded with `tts`. */
  #loadSpeech() {
    return this.#feature('speech', () => import('../controllers/voice.js').then(({ SpeechController }) =>
      (this.#speech = new SpeechController(this, { language: () => this.#conversationLanguage }))));
  }

  /** Dictation: loaded at the first press of the microphone button. */
  #loadDictation() {
    return this.#feature('dictation', () => import('../controllers/voice.js').then(({ DictationController }) =>
      (this.#dictation = new DictationController(this, {
        language: () => this.#conversationLanguage,
        onDraft: (draft) => this.#setDraft(draft),
        onFailure: () => this.#setFailure({ text: this.#uiStrings.dictationFailed }),
      }))));
  }

  /** The phone viewport handling: loaded when the panel first opens on a small screen. */
  #loadViewport() {
    return this.#feature('viewport', () => import('../controllers/mobile-viewport-controller.js').then(({ MobileViewportController }) => {
      // Holds no state the view reads: it only needs to be registered (it acts after each update).
      new MobileViewportController(this, this.#el, () => this.#covering);
      this.requestUpdate();
    }));
  }

  #closedOnce?: boolean;
  /** The day the log's labels were drawn for. */
  #day = dayOf(Date.now());
  /** The draft the input's height was last set for (see `updated`). */
  #sized?: string;

  get #visible() {
    return this.#el.mode === 'inline' || this.#el.open;
  }

  get #conversationLanguage() {
    return this.#el.language || document.documentElement.lang || undefined;
  }

  get #uiStrings() {
    return stringsFor(this.#conversationLanguage, this.#el.strings);
  }

  get #messageContext(): MessageContext {
    const strings = this.#uiStrings;
    return {
      strings,
      agent: this.#el.agentTitle || strings.defaultTitle,
      baseUrl: document.baseURI,
      renderers: this.#renderers,
      onAction: (action: ChatAction) => (action.kind === 'postback' ? this.postback(action.payload, action.title) : this.send(action.text)),
      pendingOf: (id) => this.#pendingOf(id),
      onRetry: () => this.#session.retryNow(),
      onDiscard: (id) => this.#session.discard(id),
      onSendAgain: (id) => this.#session.sendAgain(id),
      timeOf: (message) => messageTime(message, previousOf(this.#session.messages, message), Date.now(), this.#conversationLanguage),
      answerOf: (message) => (this.#el.keepChoices ? undefined : answerOf(this.#session.messages, message)),
      onRate: this.#el.feedback ? this.#rate : undefined,
    };
  }

  /** Thumbs up or down: recorded, told to the page (`agent-chat-feedback`), and tagged on the next request. */
  readonly #rate = (message: AgentMessage, rating: Rating) => {
    if (message.rating) return;
    const detail: AgentChatFeedbackDetail = { responseId: message.item.id, rating, tag: `feedback-${rating}` };
    const event = new CustomEvent('agent-chat-feedback', { bubbles: true, composed: true, cancelable: true, detail });
    this.#session.rate(message.id, rating, (this.#emit(event) && detail.tag) || undefined);
  };

  /** The visitor answered (or took an answer back): the turns concerned are drawn again, answered or not. */
  #redrawTurns(from: number) {
    for (const message of turnsBefore(this.#session.messages, from)) this.#log.update(message);
  }

  /**
   * One wait, one "Retry now": on what is retried first, the greeting's notice (while it is retried)
   * or else the first message still to be sent. What goes after it says only that it is not delivered yet.
   */
  #pendingOf(id: string): PendingView {
    const pending = this.#session.pendingOf(id) ?? { kind: 'queued' };
    return pending.kind === 'retrying'
      ? { kind: 'retrying', seconds: this.#greetingProblem?.onRetry || this.#session.messages.find(isWaiting)!.id !== id ? 0 : secondsUntil(pending.at) }
      : pending;
  }

  /** What the session tells, shown: the log follows the transcript; the rest is drawn by render(). */
  readonly #handleChange = (change: SessionChange) => {
    switch (change.kind) {
      case 'reset':
        this.#muted = this.#session.muted;
        this.#launcherSide.shown(this.#session.messages, this.#session.readAt);
        // Shown at once (inline, or a panel open as the page loads): seen, for every tab and page.
        this.#read();
        return this.#log.reset(this.#session.messages);
      case 'synced': {
        // Another tab wrote in the new conversation, or began one: the restart is final.
        if (this.#undo && !this.#session.undoable) this.#endUndo();
        this.#read();
        const drawn = this.#log.size;
        this.#launcherSide.shown(this.#session.messages);
        this.#log.sync(this.#session.messages);
        return this.#redrawTurns(drawn);
      }
      case 'added':
        // (Before they are drawn: drawing them tells the launcher of them. Read here, told to the
        // other tabs before the conversation is written: a tab that draws them from that write
        // knows they are read; one that draws them sooner, from an earlier notice, then lets them go.)
        if (change.speech) {
          change.messages.forEach((m) => this.#received.add(m));
          this.#read();
        }
        this.#log.append(...change.messages);
        if (change.messages.some((m) => m.kind === 'user')) this.#redrawTurns(this.#session.messages.length - change.messages.length);
        if (!change.speech) return this.#autoscroll.toBottom(); // the visitor's own message
        // Reading aloud may not load (offline): the reply is there without it.
        if (this.#el.tts && !this.#muted) this.#loadSpeech().then((speech) => speech.speak(change.speech!), () => {});
        return;
      case 'updated':
        return this.#log.update(change.message);
      case 'removed':
        this.#log.remove(change.id);
        return this.#redrawTurns(this.#session.messages.length);
      case 'failure':
        return this.#setFailure(change);
      case 'read':
        return this.#launcherSide.read(this.#session.readAt);
      default:
        return this.#showDeliveryState();
    }
  };

  /** The session's event as the element's: `send` as AgentChatSendEvent, and so on. */
  #emitSessionEvent({ type, detail }: SessionEvent): boolean {
    return this.#emit(new this.#shell.events[type](detail as never));
  }

  /**
   * Redraws what shows the queue's state: the messages still sending (the rest have a final
   * status) and, through render(), the greeting's problem and the typing
   * indicator. While a retry is scheduled, once a second, for the countdown.
   */
  #showDeliveryState() {
    for (const message of this.#session.messages) if (message.kind === 'user' && message.status === 'sending') this.#log.update(message);
    const retrying = this.#session.delivery.name === 'retrying';
    if (retrying && !this.#ticker) this.#ticker = setInterval(() => this.#showDeliveryState(), 1000);
    if (!retrying && this.#ticker) this.#ticker = void clearInterval(this.#ticker);
    this.#autoscroll.keep();
    this.requestUpdate();
  }

  /** The greeting's problem, if it has one: failed for good, or waiting to be retried. */
  get #greetingProblem(): Problem | undefined {
    const problem = this.#session.greetingProblem;
    if (!problem) return undefined;
    if ('failed' in problem) return { text: problem.failed };
    const strings = this.#uiStrings;
    return { text: strings.chatNotStarted, detail: strings.retryingIn(secondsUntil(problem.retryAt)), onRetry: () => this.#session.retryNow() };
  }

  /**
   * Replies drawn: in view, the log follows them; closed, the launcher tells of them. Of another
   * tab's (synced here), only while this page is in view: from the background, the visitor is in
   * that tab, and has read them there, or will find them there.
   */
  #handleAppended(first: HTMLElement, messages: readonly ChatMessage[]) {
    const replies = messages.filter((m) => m.kind === 'agent');
    if (this.#visible) return this.#autoscroll.added(first, replies.length);
    const news = replies.filter((m) => this.#received.has(m) || !document.hidden).length;
    if (news) this.#launcherSide.arrived(messages, news);
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>) {
    if (changed.has('language')) this.#loadLanguage();
    if (this.#el.tts) void this.#loadSpeech();
    if (this.#el.teaser && this.#el.mode !== 'inline') this.#launcherSide.preload();
    if (this.#covering) void this.#loadViewport();
    if (changed.has('keepChoices') || changed.has('feedback')) this.#log.reset(this.#session.messages);
    // Another deployment, another conversation: nothing of this one's queue goes there.
    if (changed.has('proxyUrl')) this.#session.reload();
  }

  protected override updated(changed: Map<PropertyKey, unknown>) {
    this.#launcherSide.draw(this.#uiStrings);
    // A page left open past midnight: the conversation drawn again, its day labels for today ("Today"
    // is "Yesterday" now), at the next drawing (a message, the visitor typing, the page looked at again).
    if (this.#day != (this.#day = dayOf(Date.now()))) this.#log.reset(this.#session.messages);
    // In another language than the page's, the widget says so, for assistive technology (WCAG 3.1.2):
    // on what it draws, not on the page's element (Firefox and WebKit do not carry a host's lang into its shadow tree).
    const lang = this.#el.language || '';
    for (const child of this.#shell.root.children as HTMLCollectionOf<HTMLElement>) {
      if (child.lang !== lang) lang ? child.setAttribute('lang', lang) : child.removeAttribute('lang');
    }
    // The input grows with its draft, up to the sheet's cap: where the browser cannot size it to its
    // text (`field-sizing`; Safari before 26.2, Firefox before 152), its height is set (its borders
    // and its text's), once it is shown (a closed panel's has no height to measure).
    const input = this.#shell.root.querySelector<HTMLElement>('.input');
    if (!CSS.supports('field-sizing:content') && input?.offsetHeight && this.#sized !== this.#draft) {
      this.#sized = this.#draft;
      input.style.height = '';
      input.style.height = `${input.scrollHeight + 2}px`;
    }
    // The log is filled imperatively (see MessageLogController); hand it the current elements.
    const log = this.#shell.root.querySelector<HTMLElement>('.log') ?? undefined;
    this.#autoscroll.attach(log);
    this.#log.attach(this.#shell.root.querySelector('.messages') ?? undefined);
    const toggled = changed.has('open') && (changed.get('open') !== undefined || this.#el.open);
    if (toggled) this.#emit(this.#el.open ? new this.#shell.events.show() : new this.#shell.events.hide());
    // After the show event (a listener's updateTags() goes with the greeting), before the focus lays
    // the panel out (~14 ms on a first open): the greeting is on its way meanwhile.
    if (this.#visible) this.#session.greet();
    if (!toggled) return;
    if (this.#el.open) {
      // Not from a field the visitor is typing in elsewhere on the page (a site's script opened it
      // meanwhile), nor as the page loads with the panel open because it was when the visitor left
      // the tab's page before (the shell opened it) and they were no longer in it (a link of the
      // page): they did not open it here, and the focus stays with the page (its keys scroll it, a
      // screen reader starts at its top). Where they were in it, they go on there. (The tab's value
      // is written when this page is left.)
      if (!typingElsewhere(this.#el) && !(changed.get('open') === undefined && tabValue(this.#session.options.proxyUrl, 'open') == '1')) this.#focusPart('input');
      this.#autoscroll.toBottom();
      this.#launcherSide.opened();
      this.#read();
    } else {
      this.#quiet();
      this.#launcherSide.preload();
      // Closed by the site's script with the focus in the panel (it went to nothing): to the launcher, as Escape does.
      if (!this.#visible && this.#shell.root.activeElement) this.#focusPart('launcher');
    }
  }

  #setFailure(failure?: Problem) {
    this.#failure = failure;
    this.requestUpdate();
  }

  /** Events are declared once, in the element's JSDoc (`@fires`), which is what the manifest lists. */
  #emit(event: Event): boolean {
    return this.#el.dispatchEvent(event);
  }

  #focusPart(part: string) {
    this.#shell.root.querySelector<HTMLElement>(`[part~=${part}]`)?.focus();
  }

  #close() {
    this.#el.hide();
    this.#focusPart('launcher');
  }

  #handlePanelKeydown = (event: KeyboardEvent) => {
    // (Escape that cancels an IME composition is the IME's.)
    if (event.key !== 'Escape' || isImeKey(event) || this.#el.mode === 'inline') return;
    event.stopPropagation();
    this.#close();
  };

  #handleToggleSpeech = () => {
    this.#muted = !this.#muted;
    this.requestUpdate();
    this.#session.muted = this.#muted;
    if (this.#muted) this.#speech?.stop();
  };

  #handleSubmit = () => {
    const text = this.#draft;
    this.#setDraft('');
    // Not kept from now on, at once rather than when the page is hidden: a page of the site that
    // comes back from the browser's back/forward cache reads what the tab keeps as it shows (see
    // #handlePageShow), and Chromium may show it what this page wrote at that same moment only later.
    tabValue(this.#session.options.proxyUrl, 'draft', '');
    this.send(text);
  };

  #handleDictate = () => {
    this.#speech?.stop(); // or the microphone hears it
    // Loaded: at once (a second press stops listening in the same task); else once it has loaded.
    if (this.#dictation) this.#dictation.toggle(this.#draft);
    else this.#loadDictation().then((dictation) => dictation.toggle(this.#draft), () => this.#setFailure({ text: this.#uiStrings.dictationFailed }));
  };

  #setDraft(draft: string) {
    this.#draft = draft;
    this.requestUpdate();
  }

  /** The agent's picture, allowlisted as card images are; none once it failed to load (the initials show). */
  get #avatar() {
    const url = safeImageUrl(this.#el.agentAvatar, document.baseURI);
    return url === this.#avatarFailed ? undefined : url;
  }

  #avatarFailed?: string;

  /**
   * The header's download: the conversation as a text file (the code loads on the first click). If
   * it cannot load (offline), a problem says so, and goes once a download works.
   */
  #downloadTranscript() {
    const strings = this.#uiStrings;
    const problem = { text: strings.downloadFailed };
    this.#feature('transcript', () => import('../views/transcript-file.js')).then(({ downloadTranscript }) => {
      if (this.#failure?.text === problem.text) this.#setFailure();
      downloadTranscript(this.#session.messages, {
        agent: this.#el.agentTitle || strings.defaultTitle, strings, language: this.#conversationLanguage,
      }, this.#shell.root);
    }, () => this.#setFailure(problem));
  }

  /** The visitor typed, sent or closed: stop reading aloud and stop listening. */
  #quiet() {
    this.#speech?.stop();
    this.#dictation?.cancel();
  }

  protected override render() {
    const strings = this.#uiStrings;
    const launcher = this.#el.mode !== 'inline';
    // Opening and closing animate once the panel has been closed in this page: not the first
    // drawing of a panel already shown (it replaces the shell's skeleton, which appeared at once).
    this.#closedOnce ||= !this.#visible;
    return html`
      ${renderPanel({
        strings, launcher, hidden: !this.#visible, animated: this.#closedOnce, typing: this.#session.delivery.name === 'in-flight' || this.#log.queue, offline: this.#session.offline,
        greeting: this.#greetingProblem, error: this.#failure, unread: this.#autoscroll.unread,
        earlier: this.#log.hidden > 0, onEarlier: () => this.#log.showEarlier(),
        onUndo: this.#undo ? this.#handleUndo : undefined,
        onJump: () => this.#autoscroll.jump(),
        onKeydown: this.#handlePanelKeydown,
        header: renderHeader({
          title: this.#el.agentTitle || strings.defaultTitle, strings, closable: launcher,
          subtitle: this.#el.agentSubtitle, avatar: this.#avatar,
          onAvatarError: () => {
            this.#avatarFailed = this.#avatar;
            this.requestUpdate();
          },
          onDownload: () => this.#downloadTranscript(),
          speech: this.#el.tts ? { on: !this.#muted } : undefined,
          onClose: () => this.#close(),
          onRestart: () => this.#restartByVisitor(),
          onToggleSpeech: this.#handleToggleSpeech,
        }),
        composer: renderComposer({
          draft: this.#draft, strings,
          dictation: recognitionConstructor() ? { listening: this.#dictation?.listening ?? false } : undefined,
          onInput: (value) => { this.#setDraft(value); this.#quiet(); },
          onSubmit: this.#handleSubmit,
          onDictate: this.#handleDictate,
        }),
      })}
    `;
  }
}
