import { TAG_LIMIT, TEXT_LIMIT } from '../../protocol/types.js';

/** What the proxy and the reference agent accept; kept out of the widget's bundle. */
export const LIMITS = {
  textLength: TEXT_LIMIT,
  nameLength: 200,
  idLength: 200,
  tagLength: 100,
  tagsPerOperation: TAG_LIMIT,
  contexts: 20,
  payloadDataLength: 500,
  bodyBytes: 16 * 1024,
} as const;
