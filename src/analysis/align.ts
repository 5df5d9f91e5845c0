/**
 * Aligning a judge's statements with a label's: the same text pairs
 * directly; the rest pair greedily, one to one, by word overlap.
 */
import { textKey } from "../labels/text";

/**
 * Word overlap at or above which two different statements are taken to be
 * the same statement (see {@link wordOverlap}): half of their words, counted
 * on both sides, are shared.
 */
export const ALIGN_THRESHOLD = 0.5;

const WORD = /\p{N}+(?:[.,]\p{N}+)*|\p{L}[\p{L}\p{M}]*/gu;

/**
 * The words of a statement: lower-cased (NFKC) runs of letters, and numbers
 * with their decimal or thousands separators ("299,792,458" is one word).
 *
 * @example
 * statementWords("Water boils at 100 °C.") // Set { "water", "boils", "at", "100", "c" }
 */
export function statementWords(text: string): Set<string> {
  return new Set(text.normalize("NFKC").toLowerCase().match(WORD) ?? []);
}

/**
 * Word overlap of two statements: the Dice coefficient of their sets of words,
 * 2·|A ∩ B| / (|A| + |B|), from 0 (no word in common) to 1 (the same words);
 * 0 when neither has a word.
 *
 * @example
 * wordOverlap("Water boils at 100 °C.", "Water boils at 180 °F.") // 2·3/(5+5) = 0.6
 */
export function wordOverlap(a: string, b: string): number {
  const wa = statementWords(a);
  const wb = statementWords(b);
  if (wa.size + wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return (2 * shared) / (wa.size + wb.size);
}

function sameText(a: string, b: string): boolean {
  return textKey(a).replace(/\s+/g, " ") === textKey(b).replace(/\s+/g, " ");
}

/**
 * Pairs label statements with judge statements, one to one. First every
 * label statement takes the first unused judge statement with the same text
 * (white space aside); then the remaining pairs are taken greedily, highest
 * {@link wordOverlap} first (ties: earlier label statement, then earlier
 * judge statement), while the overlap is at least `threshold`. Statements
 * left over have no partner.
 *
 * @returns `[labelIndex, judgeIndex]` pairs, in label order.
 * @example
 * alignStatements(["Fleming discovered penicillin.", "It was in 1928."], ["It was in 1929.", "Fleming discovered penicillin."])
 * // [[0, 1], [1, 0]]   (identical text, then "in 1928" ~ "in 1929": overlap 2·3/(4+4) = 0.75)
 */
export function alignStatements(label: readonly string[], judge: readonly string[], threshold = ALIGN_THRESHOLD): [number, number][] {
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new RangeError(`alignStatements: threshold must be between 0 and 1, got ${threshold}`);
  const labelUsed = new Array<boolean>(label.length).fill(false);
  const judgeUsed = new Array<boolean>(judge.length).fill(false);
  const pairs: [number, number][] = [];
  label.forEach((text, i) => {
    const j = judge.findIndex((other, k) => !judgeUsed[k] && sameText(text, other));
    if (j >= 0) {
      labelUsed[i] = true;
      judgeUsed[j] = true;
      pairs.push([i, j]);
    }
  });
  const candidates: { i: number; j: number; overlap: number }[] = [];
  label.forEach((text, i) => {
    if (labelUsed[i]) return;
    judge.forEach((other, j) => {
      if (judgeUsed[j]) return;
      const overlap = wordOverlap(text, other);
      if (overlap >= threshold && overlap > 0) candidates.push({ i, j, overlap });
    });
  });
  candidates.sort((a, b) => b.overlap - a.overlap || a.i - b.i || a.j - b.j);
  for (const { i, j } of candidates) {
    if (labelUsed[i] || judgeUsed[j]) continue;
    labelUsed[i] = true;
    judgeUsed[j] = true;
    pairs.push([i, j]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}
