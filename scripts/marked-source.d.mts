/** The declarations of marked's rules.ts that make the pedantic grammar (sorted). */
export const PEDANTIC_DECLARATIONS: string[];
/** The source files marked's map holds, by file name. */
export function markedSources(): Record<string, string>;
/** One of marked's source files without the pedantic grammar; throws where the source is not as expected. */
export function withoutPedantic(code: string, file: string): string;
/** Writes marked's source without the pedantic grammar to node_modules/.cache and returns its entry's absolute path. */
export function markedSource(): string;
