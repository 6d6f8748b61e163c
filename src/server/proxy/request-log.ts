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
  /** Answered with the agent's answer to an earlier try of the same request (not asked again). */
  replayed?: boolean;
  error?: string;
  text?: string;
}

export type RequestLogger = (line: RequestLogLine) => void;

export const jsonLogger: RequestLogger = (line) => console.log(JSON.stringify(line));

/** SHA-256 of `value`, in hex. */
export async function digest(value: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** First 12 hex digits of SHA-256: enough to follow one visitor through the log, not to name them. */
export const shortHash = async (value: string): Promise<string> => (await digest(value)).slice(0, 12);
