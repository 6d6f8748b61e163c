/**
 * One structured JSON line per request. Sender ids and client addresses are hashed (they identify
 * people); message text is logged only in debug mode; the token is never in scope here.
 */

export interface RequestLogLine {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  origin?: string;
  client?: string;
  sender?: string;
  upstreamStatus?: number;
  error?: string;
  text?: string;
}

export type RequestLogger = (line: RequestLogLine) => void;

export const jsonLogger: RequestLogger = (line) => console.log(JSON.stringify(line));

/** First 12 hex digits of SHA-256: enough to follow one visitor through the log, not to name them. */
export async function shortHash(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest).slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
