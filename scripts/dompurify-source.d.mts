export { FIXED_OPTIONS, UNSET_OPTIONS, UNUSED_METHODS } from './dompurify-options.mjs';
/** The absolute path of DOMPurify's source entry (dompurify/src/purify.ts). */
export const DOMPURIFY_SOURCE: string;
/** DOMPurify's src/purify.ts without its release (`DOMPurify.version`, `VERSION`), on their lines; throws where the source is not as expected. */
export function withoutVersion(code: string): string;
/** DOMPurify's src/purify.ts without its record of what it removed (`DOMPurify.removed`), on their lines; throws where the source uses it otherwise. */
export function withoutRemovedRecords(code: string): string;
/** DOMPurify's src/tags.ts or src/attrs.ts with its built-in allowlists empty; any other module as is. */
export function withoutDefaultLists(code: string, path: string): string;
/** DOMPurify's src/purify.ts without the methods the widget never calls; any other module as is. */
export function withoutUnusedMethods(code: string, path: string): string;
/** DOMPurify's src/purify.ts with the options in FIXED_OPTIONS kept false; any other module as is. */
export function withFixedOptions(code: string, path: string): string;
/** A module of DOMPurify's source as the widget ships it. */
export function asShipped(code: string, path: string): string;
/** DOMPurify's src/purify.ts reading the options in UNSET_OPTIONS as unset; any other module as is. */
export function withUnsetOptions(code: string, path: string): string;
/** A line-to-line source map from asShipped's result to its module. */
export function lineMap(code: string, path: string): { version: number; sources: string[]; names: string[]; mappings: string };
/** DOMPurify's src/purify.ts taking each regular expression by name instead of destructuring the namespace; any other module as is. */
export function withExpressionsByName(code: string, path: string): string;
/** DOMPurify's src/regexp.ts with each expression's seal() marked pure; any other module as is. */
export function withPureExpressions(code: string, path: string): string;
/** DOMPurify's purify.ts without its spreads of the lists withoutDefaultLists empties; throws where the source is not as expected. */
export function withoutEmptySpreads(code: string, path: string): string;
/** DOMPurify's utils.ts with each helper made by unapply() or unconstruct() marked pure; any other module as is. */
export function withPureHelpers(code: string, path: string): string;
/** src/utils.ts without its stand-ins for Object.freeze, Object.seal, Reflect.apply and Reflect.construct; any other module as it is. */
export function withoutStandIns(code: string, path: string): string;
