export declare function moduleName(source: string): string;
export declare function moduleCosts(file: string): [module: string, bytes: number][];
