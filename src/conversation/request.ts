import { TAG_LIMIT, type ClientEventRequest, type EventMessage, type TagOperations } from '../protocol/types.js';
import { mergeTags } from './tags.js';

/** What a request says of the visitor and asks of the agent: the session's options of those names (ChatSessionOptions). */
export interface RequestOptions {
  userName?: string;
  userEmail?: string;
  language?: string;
  includeMetadata?: boolean;
  includeSpeech?: boolean;
}

/**
 * The body the widget sends to the proxy for one message (CONTRACT §3: no handle, no token), from
 * the visitor `senderId`, with the session tag operations waiting for the agent.
 */
export function buildRequest(message: EventMessage, options: RequestOptions, senderId: string, tagOperations?: TagOperations): ClientEventRequest {
  const { userName, userEmail, language, includeMetadata, includeSpeech } = options;
  const request: ClientEventRequest = {
    message,
    sender: { id: senderId, ...(userName && { name: userName }), ...(userEmail && { email: userEmail }) },
    timestamp: Date.now(),
  };
  if (language) request.language = language;
  // At most TAG_LIMIT of each: the rest stay waiting for the next request (only what was sent is
  // taken off once delivered: ConversationController.deliveredTags).
  if (tagOperations) request.tagOperations = mergeTags(undefined, { add: tagOperations.add?.slice(0, TAG_LIMIT), remove: tagOperations.remove?.slice(0, TAG_LIMIT) });
  if (includeMetadata || includeSpeech) {
    request.options = {
      ...(includeMetadata && { includeMetadata: true }),
      ...(includeSpeech && { includeStrippedMarkdownTextResponses: true }),
    };
  }
  return request;
}
