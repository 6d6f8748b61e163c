export declare const PUBLISHED: string[];
export declare function integrityOf(path: string): string;
export declare function snippets(cdn?: string): string[];
