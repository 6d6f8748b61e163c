export declare function numberFrom(name: string, fallback: number, range?: { min?: number; max?: number }): number;
export declare function listFrom(name: string, fallback: string[], allowed?: string[]): string[];
export declare function oneOf<T extends string>(name: string, allowed: T[]): T | undefined;
