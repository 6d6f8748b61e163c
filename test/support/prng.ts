/** mulberry32: a small seeded PRNG, so a failure found by a random sample can be replayed with its seed. */
export function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `list`, chosen by `random` (a {@link prng}). */
export const pick = <T>(random: () => number, list: readonly T[]) => list[Math.floor(random() * list.length)];
