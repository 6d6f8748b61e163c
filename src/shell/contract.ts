import type { AgentChat } from '../agent-chat.component.js';
import type * as Events from '../events.js';

/**
 * The shell and the lazily loaded view meet here, and only here: the view never imports the shell
 * (a classic-script page has its own copy of it), it is handed what it needs.
 */
export interface Shell {
  element: AgentChat;
  /** The proxy URL the view was loaded for: the view's until the element has another (see ChatView). */
  url: string;
  root: ShadowRoot;
  /** Where the view renders the panel. Until the view first connects the shell's skeleton is there: the view takes what was typed in it, then clears it. */
  container: HTMLElement;
  /**
   * The event classes the shell exports, so `instanceof` holds for either script format; named by
   * the session's event types (see SessionEvent), and `show` and `hide`.
   */
  events: {
    send: typeof Events.AgentChatSendEvent;
    response: typeof Events.AgentChatResponseEvent;
    error: typeof Events.AgentChatErrorEvent;
    show: typeof Events.AgentChatShowEvent;
    hide: typeof Events.AgentChatHideEvent;
  };
  /**
   * Redraws the shell's launcher (its state, its labels in the conversation's language), none
   * inline; returns its button, whose content (icon, badge) the view draws.
   */
  drawLauncher(state?: LauncherState): HTMLButtonElement | undefined;
}

export interface LauncherState {
  open: boolean;
  label: string;
  /** What the status region announces ("2 new messages"), or "". */
  announcement: string;
}

/** The methods of the public API that the view carries out (the shell keeps and replays them). */
export interface ViewMethods {
  send(text: string): void;
  postback(...args: Parameters<AgentChat['postback']>): void;
  restart(): void;
  updateTags(...args: Parameters<AgentChat['updateTags']>): void;
}

export interface View extends ViewMethods {
  /** A property changed (`old` is its previous value), as Lit's `requestUpdate(name, old)`. */
  requestUpdate(name?: PropertyKey, old?: unknown): void;
  readonly updateComplete: Promise<boolean>;
  connect(): void;
  disconnect(): void;
}

export interface ViewModule {
  attach(shell: Shell): Promise<View>;
}
