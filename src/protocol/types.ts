/**
 * Wire types of the agent service's events API (CONTRACT §1) and of this project's response
 * conventions (CONTRACT §2). Shared by the widget, the proxy and the reference agent.
 */

export type PostbackType = 'node' | 'intent' | 'action';

/** A postback: jump to a flow node, trigger an intent, or run actions. */
export interface Postback {
  type: PostbackType;
  data: string | { actions: unknown[] };
}

/** Exactly one of `text` / `payload`. */
export interface EventMessage {
  text?: string;
  payload?: Postback;
  contexts?: string[];
}

export interface Sender {
  id: string;
  name?: string;
  email?: string;
}

export interface TagOperations {
  add?: string[];
  remove?: string[];
}

export interface RequestOptions {
  includeMetadata?: boolean;
  includeStrippedMarkdownTextResponses?: boolean;
}

/** What the browser sends to the proxy: an event request without `handle`. */
export interface ClientEventRequest {
  /**
   * The widget's id for what it sends (a message, the greeting, a postback), the same in each try
   * of it (retries, the next page, another tab): the proxy answers a request it has seen with the
   * agent's answer to it instead of asking the agent again (README, "Sent once"). Not forwarded.
   */
  requestId?: string;
  message: EventMessage;
  sender?: Sender;
  timestamp?: number;
  language?: string;
  tagOperations?: TagOperations;
  options?: RequestOptions;
}

/** What the proxy sends upstream. */
export interface EventRequest extends ClientEventRequest {
  handle: string;
}

/** One agent message. Fields beyond `type` depend on the type and are validated by renderers. */
export interface AgentResponseItem {
  id?: string;
  type: string;
  altText?: string;
  [field: string]: unknown;
}

export interface EventResult {
  responses: AgentResponseItem[];
  responsesIds?: string[];
  nodesIds?: string[];
  responsesStrippedMarkdownText?: string[];
}

export interface EventOk {
  status: 'ok';
  result: EventResult;
}

export interface EventError {
  status: 'error';
  error: string;
}

export type EventResponse = EventOk | EventError;

/** The longest message text: the widget's composer stops there and the proxy refuses more. */
export const TEXT_LIMIT = 2000;

/** The most tags one operation (`add`, `remove`) of a request may carry: the proxy refuses more. */
export const TAG_LIMIT = 20;
