/** Whether `path` is lit-html's production module (node_modules/lit-html/lit-html.js). */
export function isLitHtml(path: string): boolean;
/** lit-html's module without its hand-over to `litHtmlPolyfillSupport` and its `litHtmlVersions` entry; throws where they differ. */
export function withoutGlobalHooks(code: string): string;
