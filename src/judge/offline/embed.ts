/**
 * Hashed bag-of-words embeddings for the offline judge: no model, no network.
 */

import { contentWords } from "./text";

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/**
 * 32-bit FNV-1a hash of a string's UTF-8 bytes, as an unsigned integer.
 *
 * @example
 * fnv1a32(""); // → 2166136261 (0x811c9dc5)
 * fnv1a32("a"); // → 3826002220 (0xe40c292c)
 */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/**
 * Embeds a text by signed feature hashing: the unigrams and bigrams of its
 * content words (see `contentWords`) are hashed with 32-bit FNV-1a into
 * `dimensions` buckets (hash modulo `dimensions`), with the sign taken from
 * the hash's top bit; the vector is then L2-normalised. A text without content
 * words gives the zero vector (callers turn that into NaN with a reason).
 *
 * @example
 * const v = hashedEmbedding("Fleming discovered penicillin in 1928.");
 * v.length; // → 512
 * Math.hypot(...v); // → 1 (up to rounding)
 * hashedEmbedding("  ", 8); // → [0, 0, 0, 0, 0, 0, 0, 0]
 */
export function hashedEmbedding(text: string, dimensions = 512): number[] {
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  }
  const vector = new Array<number>(dimensions).fill(0);
  const words = contentWords(text);
  const features = words.map((w) => `1:${w}`);
  for (let i = 0; i + 1 < words.length; i++) features.push(`2:${words[i]} ${words[i + 1]}`);
  for (const feature of features) {
    const hash = fnv1a32(feature);
    const bucket = hash % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + (hash >>> 31 === 1 ? -1 : 1);
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  if (norm === 0) return vector.map(() => 0);
  return vector.map((x) => (x === 0 ? 0 : x / norm));
}
