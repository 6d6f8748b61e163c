/** The absolute path of DOMPurify's source entry (dompurify/src/purify.ts). */
export const DOMPURIFY_SOURCE: string;
/** The source with its release in `VERSION`, as DOMPurify's own build puts it in. */
export function withVersion(code: string): string;
/** DOMPurify's src/tags.ts or src/attrs.ts with its built-in allowlists empty; any other module as is. */
export function withoutDefaultLists(code: string, path: string): string;
