/** `css` (minified CSS) without the spaces after commas and around `*` and `/`, outside quoted strings. */
export function tightenCss(css: string): string;
/** `code` (a module's source) with the text of each css`` literal tightened. */
export function withTightCss(code: string): string;
