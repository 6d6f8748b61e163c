/** A setting is missing, malformed or contradicts another; the message names it and the fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
