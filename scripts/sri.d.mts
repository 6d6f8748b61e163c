export declare const PUBLISHED: string[];
export declare function integrityOf(path: string): string;
export declare function loadedFiles(entry?: 'widget' | 'engine'): string[];
export declare function importMap(cdn?: string, entry?: 'widget' | 'engine'): { integrity: Record<string, string> };
export declare function snippets(cdn?: string): string[];
