import { AgentChatErrorEvent, AgentChatHideEvent, AgentChatResponseEvent, AgentChatSendEvent, AgentChatShowEvent } from './events.js';
import type { Strings } from './i18n/strings.js';
import type { Postback, TagOperations } from './protocol/types.js';
import type { RendererRegistry } from './renderers/registry.js';
import type { LauncherState, View, ViewMethods } from './shell/contract.js';
import { CHAT_ICON, h, icon } from './shell/dom.js';
import { keepTags } from './shell/early-tags.js';
import { openChatLabel } from './shell/launcher-label.js';
import { loadView } from './shell/load-view.js';
import { shellCss } from './shell/styles.js';
import { hasNews, teaserDue, wasOpen, whenPageIdle, type LoadPolicy } from './shell/when-to-load.js';

// Under server-side rendering there is no DOM: the class is defined (and never constructed).
const Base = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/**
 * Lit's property declaration format, which the manifest analyzer reads; the shell implements it,
 * but for the attribute's name: always the property's in kebab case (scripts/manifest-attributes.mjs
 * writes the manifest so), `false` for none.
 */
interface Declaration {
  attribute?: false;
  type?: BooleanConstructor | NumberConstructor;
  reflect?: boolean;
}

/**
 * Takes over properties set on an element before its upgrade (a framework may set them first): own
 * properties shadow the accessors, so they are taken off here, before the field defaults are set,
 * and set again once the element is constructed.
 */
class Upgrade extends Base {
  protected early: [string, unknown][];

  constructor() {
    super();
    this.early = Object.keys(AgentChat.properties).filter((name) => Object.hasOwn(this, name)).map((name) => {
      const value = (this as never as Record<string, unknown>)[name];
      delete (this as never as Record<string, unknown>)[name];
      return [name, value];
    });
  }
}

let sheet: CSSStyleSheet | undefined;

/** The element's shadow root with the shell's sheet and the view's container in it. */
function shadowOf(element: HTMLElement, container: HTMLElement) {
  const root = element.attachShadow({ mode: 'open' });
  if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(shellCss);
  root.adoptedStyleSheets = [sheet];
  root.append(container);
  return root;
}

/**
 * A chat with a conversational agent, through a proxy that holds the agent's credentials.
 *
 * This class is the shell: all a script tag loads (about 4 KB). It takes the whole public API, draws
 * the launcher, and loads the rest of the widget (the conversation engine and the panel) when the
 * visitor shows intent, or as `load` says; calls made before that, or while the element is out of
 * the page, are kept and replayed in order once the rest has loaded and the element is in the page.
 *
 * @summary Embeddable chat widget: `<agent-chat proxy-url="/chat"></agent-chat>`.
 *
 * @fires agent-chat-show - The panel opened.
 * @fires agent-chat-hide - The panel closed.
 * @fires agent-chat-send - Before each request; cancelable; `detail` is the request body.
 * @fires agent-chat-response - Replies arrived; `detail` has `responses`, the metadata arrays and the `request`.
 * @fires agent-chat-error - A request failed; `detail` has `kind`, `status`, `message`, `retryable`, `willRetry`, `request`.
 * @fires agent-chat-feedback - The visitor rated a reply (with `feedback`); cancelable; `detail` has `responseId`, `rating` (`up` or `down`) and `tag`, the session tag the next request adds (change it, or cancel to add none).
 *
 * @csspart launcher - The floating button that opens and closes the panel.
 * @csspart panel - The chat window.
 * @csspart header - The panel's title bar.
 * @csspart title - The title text.
 * @csspart subtitle - The line under the title (`agent-subtitle`).
 * @csspart avatar - The agent's picture (`agent-avatar`), or the initials of `agent-title`.
 * @csspart download-button - Saves the conversation as a text file, with times, in the conversation's language.
 * @csspart header-button - Every button in the header.
 * @csspart restart-button - The "new conversation" button.
 * @csspart close-button - The header's close button (launcher mode).
 * @csspart tts-toggle - The read-aloud toggle (with `tts`).
 * @csspart log - The scrolling message log. Its `scroll-behavior` and `overflow-anchor` stay the widget's (a site's are not applied): it scrolls itself to keep the newest message in sight and what a visitor reads in place, which a smooth scroll or the browser's scroll anchoring would undo.
 * @csspart message - One transcript entry; also `message--user` or `message--agent`.
 * @csspart bubble - A speech bubble; also `bubble--user`, `bubble--agent`, `bubble--fallback`, `bubble--notice`.
 * @csspart message-status - Delivery state under a visitor's message; also `message-status--sending` (queued), `--waiting` (retrying, or waiting for the connection) or `--failed` (not sent again by itself: refused, or no answer in time).
 * @csspart copy-button - Above each code block of a reply: copies the code, then says "Copied" (announced).
 * @csspart buttons - A row of choices.
 * @csspart button - One choice; links also have `button--link`; choices of a turn the visitor has answered have `button--chosen` (the one they picked) or `button--answered`.
 * @csspart day - "Yesterday", "Monday, 16 November": where the day changes between messages.
 * @csspart time - The time above the first message of a group (same sender, minutes apart).
 * @csspart carousel - A scrollable row of cards.
 * @csspart card - One card of a carousel.
 * @csspart card-image - A card's image.
 * @csspart card-title - A card's title.
 * @csspart card-subtitle - A card's subtitle.
 * @csspart typing - The typing indicator ("Agent is typing…"), shown while a request is in flight.
 * @csspart new-messages-button - "3 new messages ↓": shown while replies arrived below the part of the log in view.
 * @csspart earlier-button - "Earlier messages", at the top of a long conversation: the log keeps about 100 entries in the page and brings back earlier ones a page at a time.
 * @csspart badge - The launcher's count of replies that arrived while the panel was closed.
 * @csspart preview - Beside the closed launcher: the first line of the newest reply that arrived while it was closed; a click opens the chat.
 * @csspart teaser - Beside the closed launcher: the `teaser` text, once per visitor; a click opens the chat.
 * @csspart dismiss-button - Closes the preview or the teaser.
 * @csspart error - A failed greeting (at the top of the log), a problem that concerns no message, or the rest of the widget failing to load.
 * @csspart notice - The offline notice, and "New conversation started" after the header's new-conversation button.
 * @csspart undo-button - "Undo" in that notice, for 10 seconds: takes the new conversation back.
 * @csspart retry-button - "Retry now": sends waiting messages (or the greeting) without waiting for the next automatic try; under a message that got no answer in time, sends it again.
 * @csspart discard-button - Drops a message that was not delivered.
 * @csspart feedback - Under each text reply of the agent (with `feedback`): the thumbs, then "Thanks for your feedback."
 * @csspart feedback-button - A thumb; also `feedback-button--up` or `feedback-button--down`.
 * @csspart composer - The form with the input and the send button.
 * @csspart input - The message text area.
 * @csspart mic-button - Dictation: fills the input from the microphone; only where the browser has speech recognition.
 * @csspart send-button - The send button.
 * @csspart counter - The character counter, shown near the length limit (in the error colour past it).
 *
 * @cssprop [--agent-chat-accent-color=#1d4ed8] - Launcher, header, send button, user bubbles, choices. Unset: blue, light on a dark surface.
 * @cssprop [--agent-chat-on-accent-color=#ffffff] - Text and icons on the accent colour. Unset: near white, or near black on a light accent.
 * @cssprop [--agent-chat-surface-color=#ffffff] - Panel background. Unset: white; near black in a dark scheme unless the accent is dark.
 * @cssprop [--agent-chat-text-color=#1f2328] - Main text colour. Unset: near black, or near white on a dark surface.
 * @cssprop [--agent-chat-muted-color=#57606a] - Secondary text (status, subtitles, counter). Unset: grey that reads on the surface.
 * @cssprop [--agent-chat-agent-bubble-color=#eef1f5] - Background of agent bubbles. Unset: the surface, a little towards the text colour.
 * @cssprop [--agent-chat-user-bubble-color=var(--agent-chat-accent-color)] - Background of the visitor's bubbles.
 * @cssprop [--agent-chat-on-user-bubble-color=var(--agent-chat-on-accent-color)] - Text on the visitor's bubbles. Unset: near white, or near black on a light bubble.
 * @cssprop [--agent-chat-error-color=#b42318] - Error text and border. Unset: red that reads on the surface.
 * @cssprop [--agent-chat-border-color=#d0d7de] - Borders and separators. Unset: the surface, a fifth of the way to the text colour.
 * @cssprop [--agent-chat-font-family=system-ui] - Font of the whole widget.
 * @cssprop [--agent-chat-font-size=medium] - Base font size. Unset: the visitor's default text size (16 px unless they set another in the browser), whatever the host page's own.
 * @cssprop [--agent-chat-radius=12px] - Corner radius of panel, bubbles and cards.
 * @cssprop [--agent-chat-shadow=0 12px 40px rgb(0 0 0 / 0.18)] - Shadow of launcher and panel.
 * @cssprop [--agent-chat-panel-width=24em] - Width of the panel in launcher mode (384 px at 16 px text; it grows with the text size).
 * @cssprop [--agent-chat-panel-height=35em] - Height of the panel in launcher mode (560 px at 16 px text; it grows with the text size).
 * @cssprop [--agent-chat-launcher-size=56px] - Diameter of the launcher.
 * @cssprop [--agent-chat-offset=20px] - Distance of launcher and panel from the viewport's edge.
 * @cssprop [--agent-chat-z-index=999999] - Stacking order of launcher and panel.
 */
export class AgentChat extends Upgrade {
  static properties: Record<string, Declaration> = {
    proxyUrl: {},
    open: { type: Boolean, reflect: true },
    greeting: {},
    language: {},
    mode: { reflect: true },
    theme: { reflect: true },
    position: { reflect: true },
    tts: { type: Boolean },
    agentTitle: {},
    agentSubtitle: {},
    agentAvatar: {},
    userName: {},
    userEmail: {},
    sessionTimeout: { type: Number },
    includeMetadata: { type: Boolean },
    keepChoices: { type: Boolean },
    feedback: { type: Boolean },
    teaser: {},
    teaserDelay: { type: Number },
    load: {},
    renderers: { attribute: false },
    strings: { attribute: false },
  };

  /** Attribute name → property name: the property's name in kebab case (`proxyUrl`: `proxy-url`). */
  static #byAttribute = new Map(Object.entries(AgentChat.properties).flatMap(([name, d]) =>
    d.attribute === false ? [] : [[name.replace(/[A-Z]/g, '-$&').toLowerCase(), name] as const]));

  static get observedAttributes() {
    return [...AgentChat.#byAttribute.keys()];
  }

  static {
    for (const name of Object.keys(AgentChat.properties)) {
      Object.defineProperty(AgentChat.prototype, name, {
        get(this: AgentChat) { return this.#values[name]; },
        set(this: AgentChat, value: unknown) { this.#set(name, value); },
        configurable: true,
      });
    }
  }

  // First: the field defaults below are set through the accessors, which use these.
  #values: Record<string, unknown> = {};
  /**
   * Until the element is first connected, a change is only stored: connecting draws and decides
   * what to load from all of them (an upgrade sets the attributes of an element already in the page
   * before it connects it; drawn and decided at each, the shell read storage twice, at once and at idle).
   */
  #ready = false;

  /** Where requests go: the proxy that holds the agent's token. Required: until it is set, nothing loads or is sent (a panel shown waits, as while loading); taken away later, the chat goes on through the URL it had. */
  proxyUrl = '';
  /** Whether the panel is shown; reflects. Opening a fresh conversation sends the greeting. Left open, it is open again on the site's next page in the tab (README, "The panel across the site's pages"). */
  open = false;
  /** The flow node that starts a conversation. */
  greeting = 'greeting';
  /** Conversation language ("EN", "EL", "DE", …), sent with every request; also picks the UI strings. */
  language?: string;
  /** `launcher`: floating button and panel; `inline`: fills its container, always open. */
  mode: 'launcher' | 'inline' = 'launcher';
  /** `light` or `dark`: the colour scheme of the defaults; unset follows the visitor's `prefers-color-scheme`. */
  theme?: 'light' | 'dark';
  /** Launcher and panel corner: `left` or `right`, on any page; unset, the end of the line (right, or left on a right-to-left page). */
  position?: 'right' | 'left';
  /** Read agent replies aloud (Web Speech API); the visitor can mute it in the header. */
  tts = false;
  /** The name shown in the header. */
  agentTitle?: string;
  /** A line under the name in the header, e.g. "Usually replies at once". */
  agentSubtitle?: string;
  /** The agent's picture in the header (an `https:` or `data:image` URL, as card images); unset or failing: the initials of `agent-title`. */
  agentAvatar?: string;
  /** Sent as `sender.name`. */
  userName?: string;
  /** Sent as `sender.email`. */
  userEmail?: string;
  /** Minutes of inactivity after which a stored conversation is archived and a new one greeted (0: never); never while a message waits to be sent. */
  sessionTimeout = 0;
  /** Ask for `responsesIds` / `nodesIds`, delivered in `agent-chat-response`. */
  includeMetadata = false;
  /** Leave the choices of earlier turns clickable (by default, once the visitor has answered, they show as answered: the chosen one marked, the others muted and inert). */
  keepChoices = false;
  /** Thumbs up and down under each text reply of the agent: fires `agent-chat-feedback` and tags the session (`feedback-up` / `feedback-down`) with the next request. */
  feedback = false;
  /** A line shown next to the closed launcher once per visitor, e.g. "Questions? Ask us here", after `teaser-delay` seconds; never again once dismissed, never to a visitor who has a conversation. */
  teaser?: string;
  /** Seconds after the page loads (a prerendered page: after the visitor comes to it) before the teaser shows (default 8); postponed while the visitor types elsewhere on the page, or cannot see it (`hidden`, a tab in the background). */
  teaserDelay = 8;
  /** When the rest of the widget loads before the panel opens: `intent` (pointer over or focus on the launcher), `idle` (also once the page is idle) or `eager`. Opening, a method call, inline mode, and messages left to send or replies not yet seen (once the page is idle) always load it. */
  load: LoadPolicy = 'intent';
  /** How each response type is drawn (default: `defaultRenderers` of `agent-chat/renderers`); extend with `defaultRenderers.with(type, renderer)`. */
  renderers?: RendererRegistry;
  /** Overrides for any UI text, e.g. `{ inputPlaceholder: 'Ask us…' }`. */
  strings: Partial<Strings> = {};

  #view?: View;
  #loading?: Promise<unknown>;
  /** Method calls made before the view loaded, replayed in order. */
  #calls: [keyof ViewMethods, unknown[]][] = [];
  /** The view is being attached: the container is no longer the shell's to draw in. */
  #handedOver = false;
  readonly #root: ShadowRoot;
  /** The view renders the panel here; until then it holds the skeleton. */
  readonly #container = h('div', {});

  constructor() {
    super();
    for (const [name, value] of this.early.splice(0)) this.#set(name, value);
    this.#root = shadowOf(this, this.#container);
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
    this.#call('send', [text]);
  }

  /** Sends a postback; with `title`, the title is shown as the visitor's message. */
  postback(payload: Postback, title?: string) {
    this.#call('postback', [payload, title]);
  }

  /** Clears the conversation (the old one is archived) and greets again. */
  restart() {
    this.#call('restart', []);
  }

  /** Adds and removes session tags; sent as `tagOperations` with the next request, which may come from another tab or page of the site (and with the ones after it, until one reaches the agent). Called before the rest of the widget has loaded, this call does not load it: the tags wait in storage for the next request of any page (in the page itself where storage is refused, until the rest loads). */
  updateTags(operations: TagOperations) {
    if (this.#view || !this.proxyUrl || !keepTags(this.#resolvedProxyUrl, operations)) this.#call('updateTags', [operations]);
  }

  /** Resolves once the latest change is drawn; while the rest of the widget is loading, once it has loaded and drawn. */
  get updateComplete(): Promise<boolean> {
    return Promise.resolve(this.#loading).then(() => this.#view?.updateComplete ?? true);
  }

  connectedCallback() {
    // Reflected here, not when set: a new element must not have attributes (custom element rules).
    for (const name of Object.keys(AgentChat.properties)) this.#reflect(name);
    this.#ready = true;
    // Calls made while the element was out of the page go to the view once it is in it (a view not
    // connected has no conversation yet: what it was given would be lost as it reads storage).
    if (this.#view) return this.#view.connect(), this.#calls.splice(0).forEach(([method, args]) => this.#call(method, args));
    this.#drawShell();
    // The view shows the teaser: it loads when the teaser is due, unless its time is over for this
    // visitor (seen, dismissed, or they found the chat, on any page: see teaserDue).
    if (this.teaser) setTimeout(() => teaserDue() && this.#load(), this.teaserDelay * 1e3);
    if (this.#wantsView()) this.#load();
    else this.#loadWhenIdle();
  }

  /**
   * Once the page has loaded and is idle, loads the rest with `load="idle"`, or if anything is left
   * to send (a message, a held request), or replies came that the visitor has not seen (their
   * badge): see hasNews. Storage is read only then: a page's first read of localStorage waits while the browser
   * loads it (~4 ms in the bench's profile), which neither the page nor the launcher should wait for.
   */
  #loadWhenIdle() {
    // Left open on the tab's page before (see wasOpen): open again (also where the URL is set after connecting).
    if (wasOpen(this.#resolvedProxyUrl)) return this.show();
    whenPageIdle(() => this.load == 'idle' || hasNews(this.#resolvedProxyUrl)
      ? this.#load()
      // Else again when the tab is shown or hidden (a tab the visitor comes back to: a reply another
      // tab got meanwhile), until the rest has loaded or the element has left the page.
      : this.isConnected && !this.#loading && document.addEventListener('visibilitychange', () => this.#loadWhenIdle(), { once: true }));
  }

  disconnectedCallback() {
    this.#view?.disconnect();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null) {
    const name = AgentChat.#byAttribute.get(attribute)!;
    const { type } = AgentChat.properties[name];
    this.#set(name, type === Boolean ? value !== null : type === Number && value !== null ? Number(value) : value);
  }

  #set(name: string, value: unknown) {
    const old = this.#values[name];
    if (old === value || (old !== old && value !== value)) return;
    this.#values[name] = value;
    if (!this.#ready) return;
    if (this.isConnected) this.#reflect(name);
    if (this.#view) return this.#view.requestUpdate(name, old);
    if (this.isConnected) {
      this.#drawShell();
      if (this.#wantsView()) this.#load();
      else if (name == 'proxyUrl') this.#loadWhenIdle();
    }
  }

  #reflect(name: string) {
    if (!AgentChat.properties[name].reflect) return;
    // The attribute set here comes back through attributeChangedCallback as the value it came from:
    // a no-op. (A flag to ignore it would also swallow the upgrade's queued attributes, which run
    // inside this setAttribute call.) `true` (a Boolean's) is the attribute without a value.
    const value = this.#values[name];
    const text = value === true ? '' : `${value}`;
    if (value == null || value === false) this.removeAttribute(name);
    else if (this.getAttribute(name) !== text) this.setAttribute(name, text);
  }

  #call(method: keyof ViewMethods, args: unknown[]) {
    if (this.#view && this.isConnected) return (this.#view[method] as (...a: unknown[]) => void)(...args);
    this.#calls.push([method, args]);
    if (method != 'updateTags') this.#load();
  }

  /**
   * As the engine and the view resolve it (conversation/proxy-url.ts): a copy, as a module the shell
   * shared with them would be bundled into the view's file, which the shell would then load at once.
   */
  get #resolvedProxyUrl() {
    try {
      return new URL(this.proxyUrl, document.baseURI).href;
    } catch {
      return this.proxyUrl;
    }
  }

  /** Whether the view is needed now (see `load`; messages left to send are looked for in storage on connect and with a new URL only). */
  #wantsView() {
    return this.open || this.mode == 'inline' || this.load == 'eager';
  }


  #load(url = this.proxyUrl) {
    // Nowhere to talk to yet (a framework may set `proxy-url` once the element is in the page):
    // nothing loads, so nothing is sent (a greeting went to the page's own URL); setting it loads
    // what is wanted then. The view is handed the URL it was loaded for: taken away while it
    // loaded, its greeting went to the page's own URL.
    if (url) this.#loading ??= loadView().then(({ attach }) => {
      // From here the container is the view's (Lit renders into it). The skeleton stays until the
      // view connects: it takes what the visitor typed there, then clears it (ChatView.connect).
      this.#handedOver = true;
      return attach({
        element: this, url, root: this.#root, container: this.#container,
        // A plain object, not a module namespace (\`import * as\`): the bundler's namespace helper costs the shell ~40 bytes.
        events: { send: AgentChatSendEvent, response: AgentChatResponseEvent, error: AgentChatErrorEvent, show: AgentChatShowEvent, hide: AgentChatHideEvent },
        drawLauncher: (state) => this.#drawLauncher(state),
      });
    }).then((view) => {
      this.#view = view;
      // Connected first: the conversation is read from storage then, and the calls add to it.
      if (this.isConnected) this.connectedCallback();
    }, (error: unknown) => {
      // Offline, or the chunk is not where the script is: say so in the panel. The next intent, or
      // the browser coming back online while the panel is wanted, tries again, which loads it in
      // Chromium and WebKit; Firefox keeps a module that failed to load as failed for the page's
      // life, so the words say what works everywhere: a reload.
      this.#loading = undefined;
      this.#handedOver = false;
      console.error(error); // says which file (the view, next to the script) did not load
      this.#drawShell(error);
      addEventListener('online', () => this.#wantsView() && this.#load(), { once: true });
    });
    return this.#loading;
  }

  /**
   * Before the view loads: the launcher, and a skeleton panel while the panel is wanted: a text area
   * to type in meanwhile, named by the panel's title (with `failure`, the load's error: saying so).
   */
  #drawShell(failure?: unknown) {
    if (this.#view) return;
    const launcher = this.mode != 'inline';
    this.#drawLauncher(launcher ? { open: this.open, label: this.strings?.openChat ?? openChatLabel(this.language || document.documentElement.lang), announcement: '' } : undefined);
    const shown = !launcher || this.open;
    if (!this.#handedOver) this.#container.replaceChildren(...(shown ? [h('section', {
      part: 'panel', class: 'panel', id: 'panel', role: launcher ? 'dialog' : 'region', 'aria-label': this.agentTitle || 'Chat', 'aria-busy': 'true',
    }, failure
      ? h('p', { part: 'error', class: 'loading', role: 'alert', dir: 'auto' }, this.strings?.loadFailed ?? 'The chat could not load. Check the connection and reload the page.')
      : h('textarea', { class: 'loading', placeholder: '…', 'aria-label': this.agentTitle || 'Chat' }))] : []));
  }

  /**
   * The launcher's button and status region, kept across redraws so focus stays on the button; the
   * view draws what is inside the button once loaded (open or close icon, the unread badge).
   */
  #drawLauncher(state?: LauncherState) {
    const root = this.#root;
    let button = root.querySelector<HTMLButtonElement>('.launcher');
    if (!state) {
      button?.nextElementSibling?.remove();
      button?.remove();
      return undefined;
    }
    if (!button) {
      button = h('button', { part: 'launcher', class: 'launcher', 'aria-controls': 'panel' }, icon(CHAT_ICON, 26));
      // (Handlers set as properties, shorter than listeners: the button is the shell's own.) A click
      // that opens the panel before the rest has loaded puts the focus in the skeleton's text area:
      // a visitor who types at once on a slow connection types there, not on the launcher (a space
      // would press it again), and the view takes what they typed (README, "A click before the
      // rest has loaded"). Not where the page opens the panel: the focus is the page's then.
      button.onclick = () => {
        this.toggle();
        this.#container.querySelector<HTMLElement>('.loading')?.focus();
      };
      // Intent: the visitor is about to click; the rest loads meanwhile.
      button.onpointerenter = button.onfocus = () => this.#load();
      root.prepend(button, h('span', { class: 'visually-hidden', role: 'status' }));
    }
    h(button, { 'aria-expanded': `${state.open}`, 'aria-label': state.label }).nextElementSibling!.textContent = state.announcement;
    return button;
  }
}
