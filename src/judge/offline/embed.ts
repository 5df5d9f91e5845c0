/**
 * Hashed bag-of-words embeddings for the offline judge: no model, no network.
 */

import { HANGUL_WORD, isNegation, STOP_WORDS, stemEnglish, stripKoreanEnding } from "./text";
import { foldFullWidth } from "./markup";
import { Memo } from "./memo";
import { findValues, valueToken } from "./values";

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
  return fnvOn(FNV_OFFSET, text) >>> 0;
}

/**
 * FNV-1a of `text`'s UTF-8 bytes, going on from `hash` (the hash of what came before): the hash of
 * "a" + "b" is fnvOn(fnvOn(FNV_OFFSET, "a"), "b"), where a surrogate pair is not cut between them.
 */
function fnvOn(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      hash = Math.imul(hash ^ code, FNV_PRIME);
      continue;
    }
    // Anything beyond ASCII: hash its UTF-8 bytes, as TextEncoder gives them.
    const end = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
    for (const byte of encoder.encode(text.slice(i, end))) hash = Math.imul(hash ^ byte, FNV_PRIME);
    i = end - 1;
  }
  return hash;
}

/** The FNV-1a states after the features' prefixes: "1:" (a word) and "2:" (two neighbouring words). */
const UNIGRAM = fnvOn(FNV_OFFSET, "1:");
const BIGRAM = fnvOn(FNV_OFFSET, "2:");

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const LATIN = /^[a-z]+$/;

const SENTENCE_END = /(?<=[.!?。！？])\s+|\n+/u;
const recentFeatures = new Memo<readonly string[]>(12_500);

/** Features of a text, read sentence by sentence (answers repeat sentences; each is read once). */
function features(text: string): string[] {
  const out: string[] = [];
  // Composed (NFC), as the judge reads every text: "Zu\u0308rich" is "Zürich".
  const plain = foldFullWidth(/[^\x00-\x7F]/u.test(text) ? text.normalize("NFC") : text);
  for (const sentence of plain.split(SENTENCE_END)) {
    if (sentence) for (const f of recentFeatures.get(sentence, sentenceFeatures)) out.push(f);
  }
  return out;
}

/**
 * The features of one sentence: its content words (lower-cased, stop words
 * dropped, English stemmed, Korean particles stripped; the words of values
 * left out) and its values in canonical form ("date:1967-1-15"), in order.
 */
function sentenceFeatures(text: string): string[] {
  const values = findValues(text);
  const out: string[] = [];
  let v = 0;
  for (const m of text.matchAll(WORD)) {
    while (v < values.length && values[v]!.end <= m.index) out.push(`v:${valueToken(values[v++]!)}`);
    const inValue = v < values.length && m.index >= values[v]!.start && m.index < values[v]!.end;
    if (inValue) continue;
    const word = m[0].toLowerCase().replace(/['’]s$/, "");
    if (STOP_WORDS.has(word) || isNegation(word)) continue;
    out.push(LATIN.test(word) ? stemEnglish(word) : HANGUL_WORD.test(word) ? stripKoreanEnding(word) : word);
  }
  while (v < values.length) out.push(`v:${valueToken(values[v++]!)}`);
  return out;
}

/**
 * Embeds a text by feature hashing of what the offline judge reads in
 * it: its content words (stemmed) and its values in canonical form, so that
 * "Jan 15, 1967" and "15 January 1967" are one feature, each feature and each
 * bigram of neighbouring features counted in one of `dimensions` buckets
 * (32-bit FNV-1a hash modulo `dimensions`); the vector is then L2-normalised.
 * All counts are positive, so two texts' cosine is between 0 (nothing in
 * common) and 1, as with a real embedding model, never negative. A text
 * without content gives the zero vector.
 * Linear in the text's length (no NLP model is run).
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
  const words = features(text);
  // Each feature ("1:word", and "2:word next" for neighbours) hashed piece by piece, as fnv1a32 of
  // the joined text would hash it, without joining it (the pieces meet at an ASCII character: no surrogate pair is cut).
  const count = (hash: number): void => {
    const bucket = (hash >>> 0) % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + 1;
  };
  for (const w of words) count(fnvOn(UNIGRAM, w));
  for (let i = 0; i + 1 < words.length; i++) count(fnvOn(fnvOn(fnvOn(BIGRAM, words[i]!), " "), words[i + 1]!));
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  if (norm === 0) return vector.map(() => 0);
  return vector.map((x) => (x === 0 ? 0 : x / norm));
}
