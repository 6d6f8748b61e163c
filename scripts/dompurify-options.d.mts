/** The options the widget's configuration leaves at their default, false, which stay false (sorted). */
export const FIXED_OPTIONS: string[];
/** Other options the widget's configuration does not name, read as unset (sorted). */
export const UNSET_OPTIONS: string[];
/** The methods of a DOMPurify instance the widget never calls (sorted). */
export const UNUSED_METHODS: string[];
