/**
 * URL allowlist for anything an agent sends (CONTRACT §2). Links: https, http, mailto, tel.
 * Images: https, http, data:image/ (not SVG, which can carry script). Everything else → undefined.
 */

const LINK_PROTOCOLS = new Set(['https:', 'http:', 'mailto:', 'tel:']);
const IMAGE_PROTOCOLS = new Set(['https:', 'http:']);
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif);base64,[a-z0-9+/=\s]*$/i;

/**
 * Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:"), and
 * WHATWG URL parsing strips them too; doing it first means the check sees what a browser would.
 */
// eslint-disable-next-line no-control-regex
const IGNORED_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g;

function parse(raw: unknown, base: string | undefined): URL | undefined {
  if (typeof raw !== 'string') return undefined;
  const cleaned = raw.replace(IGNORED_CHARACTERS, '').trim();
  if (!cleaned) return undefined;
  try {
    return new URL(cleaned, base);
  } catch {
    return undefined;
  }
}

/** A link an agent may send, normalised; relative links resolve against `base` (the page). */
export function safeLinkUrl(raw: unknown, base?: string): string | undefined {
  const url = parse(raw, base);
  return url && LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

export function safeImageUrl(raw: unknown, base?: string): string | undefined {
  if (typeof raw === 'string' && /^\s*data:/i.test(raw)) return SAFE_DATA_IMAGE.test(raw.trim()) ? raw.trim() : undefined;
  const url = parse(raw, base);
  return url && IMAGE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}
