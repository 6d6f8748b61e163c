// The knobs the slower suites and the bench read from the environment (FAULT_STEPS, BENCH_LEVELS,
// TAB_ENGINES, …), read strictly: a typo is an error that names the variable, not a run that
// silently does nothing (`FAULT_STEPS=4O` made no step and passed) or the defaults again.

/**
 * The whole number `name` holds, `fallback` when it is unset or empty; throws when it is not a whole
 * number within [min, max].
 */
export function numberFrom(name, fallback, { min = -Infinity, max = Infinity } = {}) {
  const value = process.env[name]?.trim();
  if (!value) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new Error(`${name}: "${value}" is not a whole number${min > -Infinity ? ` from ${min}` : ''}${max < Infinity ? ` to ${max}` : ''}`);
  }
  return number;
}

/**
 * The comma-separated list `name` holds (each item trimmed), `fallback` when it is unset (set and
 * empty: none); throws on an item not in `allowed` (when given).
 */
export function listFrom(name, fallback, allowed) {
  const value = process.env[name];
  if (value === undefined) return fallback;
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = allowed ? items.filter((item) => !allowed.includes(item)) : [];
  if (unknown.length) throw new Error(`${name}: unknown ${unknown.map((item) => `"${item}"`).join(', ')} (one of ${allowed.join(', ')})`);
  return items;
}

/** The value `name` holds, undefined when unset or empty; throws when it is not one of `allowed`. */
export function oneOf(name, allowed) {
  const value = process.env[name]?.trim();
  if (!value) return undefined;
  if (!allowed.includes(value)) throw new Error(`${name}: "${value}" is not one of ${allowed.join(', ')}`);
  return value;
}
