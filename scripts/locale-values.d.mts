/** The English table's keys, in order: the order the other tables ship their values in. */
export const ENGLISH_KEYS: string[];
/** Whether `path` is a table of another language than English (src/i18n/<language>.ts). */
export function isLocaleTable(path: string): boolean;
/** A language's table module as it ships: its values in an array, in the English table's key order, each on its entry's line. */
export function asValues(code: string, path: string): string;
