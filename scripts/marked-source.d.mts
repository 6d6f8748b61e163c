/** The declarations of marked's rules.ts that make the pedantic grammar (sorted). */
export const PEDANTIC_DECLARATIONS: string[];
/** The source files marked's map holds, by file name. */
export function markedSources(): Record<string, string>;
/** The options each file reads that the widget never sets, and what they read as instead. */
export const FOLDED: Record<string, Record<string, string>>;
/** One of marked's source files without what the widget never uses; throws where the source is not as expected. */
export function withoutUnusedParts(code: string, file: string): string;
/** Writes marked's source without what the widget never uses to node_modules/.cache and returns its entry's absolute path. */
export function markedSource(): string;
/** The class aliases a Marked instance carries, left out. */
export const INSTANCE_ALIASES: string[];
/** The rules of rules.ts's `other` only the pedantic grammar reads (or nothing), left out. */
export const PEDANTIC_ONLY_RULES: string[];
/** The entry's source: what the widget imports of marked, by the package's names, and `Marked` for the tests. */
export const ENTRY: string;
/** The rules of the plain sets (rules.ts) that the GFM set named `by` gives values of its own, made `noopTest`. */
export const GFM_REPLACED: Record<string, { by: string; rules: string[] }>;
/** The declarations of rules.ts that only those rules used, left out. */
export const NORMAL_ONLY_DECLARATIONS: string[];
/** The keys of marked's default options that no file of it reads any more, left out of them. */
export const DEFAULTS_NEVER_READ: string[];
/** A rule of marked's sets: a RegExp, or `noopTest` (an object whose `exec` never matches). */
export type Rule = RegExp | { exec(text: string): null };
/** What marked's rules.ts exports when run, with its test for lookbehind answered `lookbehind`. */
export function evaluateRules(code: string, lookbehind?: boolean): {
  other: Record<string, unknown>;
  block: Record<string, Record<string, Rule>>;
  inline: Record<string, Record<string, Rule>>;
};
/** rules.ts with its `block` and `inline` sets written as the regular expressions marked composes; throws where it is not laid out as expected. */
export function withLiteralRules(code: string): string;
/** Parser.ts with its switches on a token's type written as the renderer's method looked up by the type; throws where a switch is not laid out as expected. */
export function withRendererLookup(code: string): string;
