export declare const BUDGETS: { shell: number; firstOpen: number; firstOpenMarkdown: number; all: number };
export declare const TARGETS: { firstOpen: number; firstOpenMarkdown: number; all: number };
export declare function gzipBytes(file: string): number;
export declare function staticImports(file: string): string[];
export declare function staticClosure(file: string, seen?: Set<string>): Set<string>;
export declare function browserFiles(): string[];
export declare function sizes(): { shell: number; firstOpen: number; firstOpenMarkdown: number; all: number; files: Record<string, number>; firstOpenFiles: string[] };
