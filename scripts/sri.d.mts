export declare const PUBLISHED: string[];
export declare function integrityOf(path: string): string;
export declare function loadedFiles(): string[];
export declare function importMap(cdn?: string): { integrity: Record<string, string> };
export declare function snippets(cdn?: string): string[];
