// The DOMPurify options the shipped build fixes and the methods it leaves out
// (scripts/dompurify-source.mjs), in a module of their own with no Node imports, so that the
// browser test of the widget's configuration reads the same lists
// (test/renderers/sanitize-lists.test.ts: PURIFY_CONFIG names none of the options).

/** The options the widget's configuration leaves at their default, false, which stay false. */
export const FIXED_OPTIONS = ['ALLOW_UNKNOWN_PROTOCOLS', 'FORCE_BODY', 'IN_PLACE', 'RETURN_TRUSTED_TYPE', 'SAFE_FOR_TEMPLATES', 'SANITIZE_NAMED_PROPS', 'USE_PROFILES', 'WHOLE_DOCUMENT'];

/** Other options the widget's configuration does not name, read as unset. */
export const UNSET_OPTIONS = ['ADD_ATTR', 'ADD_FORBID_CONTENTS', 'ADD_TAGS', 'ALLOWED_URI_REGEXP', 'NAMESPACE', 'PARSER_MEDIA_TYPE', 'TRUSTED_TYPES_POLICY'];

/** The methods of a DOMPurify instance the widget never calls, left out. */
export const UNUSED_METHODS = ['clearConfig', 'isValidAttribute', 'removeAllHooks', 'removeHook', 'removeHooks', 'setConfig'];
