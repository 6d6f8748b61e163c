import { TAG_LIMIT, type ClientEventRequest, type EventMessage, type TagOperations } from '../protocol/types.js';
import { mergeTags } from './tags.js';

export interface RequestContext {
  senderId: string;
  userName?: string;
  userEmail?: string;
  language?: string;
  tagOperations?: TagOperations;
  includeMetadata?: boolean;
  includeSpeech?: boolean;
  now?: number;
}

/** The body the widget sends to the proxy for one message (CONTRACT §3: no handle, no token). */
export function buildRequest(message: EventMessage, context: RequestContext): ClientEventRequest {
  const { senderId, userName, userEmail, language, tagOperations, includeMetadata, includeSpeech } = context;
  const request: ClientEventRequest = {
    message,
    sender: { id: senderId, ...(userName && { name: userName }), ...(userEmail && { email: userEmail }) },
    timestamp: context.now ?? Date.now(),
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
