export declare function apiTables(manifest: unknown): string;
export declare function readmeWithTables(readme: string, manifest: unknown): string;
export declare function isPublicMember(member: { name: string; privacy?: string; static?: boolean }): boolean;
