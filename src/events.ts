import type { TransportFailureKind } from './transport/post-event.js';
import type { AgentResponseItem, ClientEventRequest } from './protocol/types.js';

const init = { bubbles: true, composed: true } as const;

/** Fired when the panel opens. */
export class AgentChatShowEvent extends Event {
  constructor() {
    super('agent-chat-show', init);
  }
}

/** Fired when the panel closes. */
export class AgentChatHideEvent extends Event {
  constructor() {
    super('agent-chat-hide', init);
  }
}

/** Fired before each request; cancel it (`preventDefault()`) to stop that message. */
export class AgentChatSendEvent extends CustomEvent<ClientEventRequest> {
  constructor(request: ClientEventRequest) {
    super('agent-chat-send', { ...init, cancelable: true, detail: request });
  }
}

export interface AgentChatResponseDetail {
  responses: AgentResponseItem[];
  responsesIds?: string[];
  nodesIds?: string[];
  responsesStrippedMarkdownText?: string[];
  /** The request these replies answer. */
  request: ClientEventRequest;
}

/** Fired when replies arrive, before they are shown. */
export class AgentChatResponseEvent extends CustomEvent<AgentChatResponseDetail> {
  constructor(detail: AgentChatResponseDetail) {
    super('agent-chat-response', { ...init, detail });
  }
}

export interface AgentChatErrorDetail {
  kind: TransportFailureKind;
  /** HTTP status, when the proxy answered. */
  status?: number;
  /** The technical cause, for the site's developer (the visitor sees a friendlier text). */
  message: string;
  /** Whether the message is kept for a retry (the Retry control, or sending again). */
  retryable: boolean;
  /**
   * Whether the widget will retry by itself: not where the agent may have had the request (no
   * answer in time: a timeout, the proxy's 504), but for the greeting.
   */
  willRetry: boolean;
  request: ClientEventRequest;
}

/** Fired when a request fails. */
export class AgentChatErrorEvent extends CustomEvent<AgentChatErrorDetail> {
  constructor(detail: AgentChatErrorDetail) {
    super('agent-chat-error', { ...init, detail });
  }
}

export interface AgentChatFeedbackDetail {
  /** The rated reply's `id`, as the agent sent it. */
  responseId?: string;
  rating: 'up' | 'down';
  /**
   * The session tag the next request adds (`feedback-up` / `feedback-down`): a listener may set
   * another, or call `preventDefault()` to add none.
   */
  tag: string;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'agent-chat-show': AgentChatShowEvent;
    'agent-chat-hide': AgentChatHideEvent;
    'agent-chat-send': AgentChatSendEvent;
    'agent-chat-response': AgentChatResponseEvent;
    'agent-chat-error': AgentChatErrorEvent;
    /** A plain CustomEvent (no class of its own: the shell stays small). */
    'agent-chat-feedback': CustomEvent<AgentChatFeedbackDetail>;
  }
}
