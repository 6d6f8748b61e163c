export declare const BUDGET_BYTES: number;
export declare function bundleSizes(file?: URL): { min: number; gzip: number };
