/**
 * A small seeded pseudo-random number generator, so that bootstrap intervals
 * come out the same on every run. mulberry32 (Tommy Ettinger): 32 bits of
 * state, period 2^32, fast and good enough for resampling; not for secrets.
 */

/** The default seed of every seeded function in evalframe's analysis. */
export const DEFAULT_SEED = 20240607;

/** A random number generator: each call returns a number in [0, 1). */
export type Rng = () => number;

/**
 * A seeded mulberry32 generator returning numbers in [0, 1) with 32 random
 * bits each. The same seed always gives the same sequence. The seed is taken
 * modulo 2^32 (fractions are truncated).
 *
 * @example
 * const rng = mulberry32(42);
 * rng(); // 0.6011037519201636, the same on every run
 */
export function mulberry32(seed: number = DEFAULT_SEED): Rng {
  let state = seedToUint32(seed);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed (any finite number) as an unsigned 32-bit integer; NaN and infinities are refused. */
export function seedToUint32(seed: number): number {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  return Math.trunc(seed) >>> 0;
}

/** murmur3's 32-bit finaliser: every bit of `h` moves every bit of the result. */
function finalised(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A seed derived from a base seed and a text key (FNV-1a hash of the key,
 * mixed with the seed through murmur3's finaliser), so that each group of a
 * summary gets its own random stream that does not depend on the other groups.
 *
 * @example
 * deriveSeed(42, "atlas-pro\u0000answer_correctness") // a fixed 32-bit number
 */
export function deriveSeed(seed: number, key: string): number {
  let h = 0x811c9dc5 ^ seedToUint32(seed);
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return finalised(h);
}

/**
 * A seed derived from a base seed and the data a statistic is computed from
 * (the bits of every number, in order; a separator between the lists), so
 * that the same numbers get the same random stream, and so the same interval,
 * whatever group they belong to or are named, while another base seed
 * (`--seed`) gives another stream. Mixed as {@link deriveSeed} mixes.
 *
 * @example
 * seedFromData(42, [0.5, 1, 0], [0.25, 1, 1]) // a fixed 32-bit number, the same for the same numbers
 */
export function seedFromData(seed: number, ...lists: readonly ArrayLike<number>[]): number {
  const bits = new DataView(new ArrayBuffer(8));
  let h = 0x811c9dc5 ^ seedToUint32(seed);
  const mix = (word: number): void => {
    for (let k = 0; k < 4; k++) {
      h ^= (word >>> (8 * k)) & 0xff;
      h = Math.imul(h, 0x01000193);
    }
  };
  for (const list of lists) {
    mix(0x9e3779b9); // a separator: ([1, 2], [3]) and ([1], [2, 3]) differ
    mix(list.length);
    for (let i = 0; i < list.length; i++) {
      const x = list[i]!;
      bits.setFloat64(0, Number.isNaN(x) ? Number.NaN : x === 0 ? 0 : x); // one NaN, and 0 for -0
      mix(bits.getUint32(0));
      mix(bits.getUint32(4));
    }
  }
  return finalised(h);
}
