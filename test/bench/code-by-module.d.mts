/** Where a script's line and column come from: the module, through the map of the dist/ file the URL names (see code-by-module.mjs). */
export declare function distSourceOf(): (url: string, line: number, column: number) => string;
/** A parsed heap snapshot's functions' compiled code (bytes), by the module `sourceOf` names for each function's place. */
export declare function codeByModule(snapshot: unknown, sourceOf?: (url: string, line: number, column: number) => string): Map<string, number>;
