export declare function apiTables(manifest: unknown): string;
export declare function readmeWithTables(readme: string, manifest: unknown): string;
