/**
 * Agreement between raters or scorers: Cohen's kappa of labels and Spearman's
 * rank correlation of numbers, with what counts as a missing label.
 */
import { averageRanks, isValidNumber, type NumberArray } from "./descriptive";

/** A label for agreement statistics: a number, text or boolean; NaN (any non-finite number), null, undefined and "" are missing. */
export type Label = number | string | boolean | null | undefined;

/** True for a missing label: null, undefined, NaN (or another non-finite number), or text that is empty or only spaces. */
export function isMissingLabel(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === "number" && !Number.isFinite(value)) ||
    (typeof value === "string" && value.trim() === "")
  );
}

/**
 * Cohen's kappa between two raters' labels (0/1, or any categories: numbers,
 * text, booleans; compared with ===): (p_o − p_e)/(1 − p_e). Pairs where either
 * label is missing are skipped. NaN when undefined (no pairs, or both raters
 * always give the same single label).
 *
 * @example
 * // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15
 * cohenKappa(a, b) // 0.4
 *
 * @throws {RangeError} when the arrays differ in length.
 */
export function cohenKappa(a: ArrayLike<Label>, b: ArrayLike<Label>): number {
  if (a.length !== b.length) throw new RangeError(`cohenKappa: the raters' labels differ in length (${a.length} and ${b.length})`);
  const countA = new Map<Label, number>();
  const countB = new Map<Label, number>();
  let n = 0;
  let agree = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (isMissingLabel(x) || isMissingLabel(y)) continue;
    n++;
    if (x === y) agree++;
    countA.set(x, (countA.get(x) ?? 0) + 1);
    countB.set(y, (countB.get(y) ?? 0) + 1);
  }
  if (n === 0) return Number.NaN;
  let chance = 0; // Σ_k countA_k·countB_k = n²·p_e
  for (const [label, ca] of countA) chance += ca * (countB.get(label) ?? 0);
  // (p_o − p_e)/(1 − p_e) with counts, so that worked examples come out exact.
  return (n * agree - chance) / (n * n - chance);
}

/**
 * Spearman's rank correlation: Pearson's correlation of the average ranks
 * (ties share the mean of their ranks). Pairs where either side is not a
 * finite number are skipped. NaN with fewer than two pairs or when one side
 * is constant. A perfect (anti-)correlation is exactly 1 (−1), with two
 * pairs too: the ranks less their mean are halves, without rounding.
 *
 * @example
 * spearman([1, 2, 3, 4], [10, 20, 40, 30]) // 0.8
 *
 * @throws {RangeError} when the arrays differ in length.
 */
export function spearman(x: NumberArray, y: NumberArray): number {
  if (x.length !== y.length) throw new RangeError(`spearman: the samples differ in length (${x.length} and ${y.length})`);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (isValidNumber(a) && isValidNumber(b)) {
      xs.push(a);
      ys.push(b);
    }
  }
  if (xs.length < 2) return Number.NaN;
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  // Pearson's r of the ranks, summed here rather than by simple-statistics (whose n = 2 perfect anti-correlation
  // came out −0.9999999999999999): average ranks sum to n(n+1)/2 whatever the ties, so their mean is (n+1)/2
  // exactly, each rank less it is exact, and when one side's ranks are the other's (or reversed) the three sums
  // are equal in size, so r is ±1 exactly.
  const mean = (xs.length + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const r = sxy / Math.sqrt(sxx * syy);
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : Number.NaN;
}
