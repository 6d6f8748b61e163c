/**
 * `crypto.randomUUID()` exists only in secure contexts (https, localhost). A widget dropped into a
 * plain-http page still needs ids: there, a blob URL's last 36 characters are a random v4 UUID
 * made by the browser, in every engine.
 */
export function newId(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  const url = URL.createObjectURL(new Blob());
  URL.revokeObjectURL(url);
  return url.slice(-36);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
