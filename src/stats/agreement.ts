/**
 * Agreement between raters or scorers: Cohen's kappa of labels and Spearman's
 * rank correlation of numbers, with what counts as a missing label.
 */
import { averageRanks, isValidNumber, type NumberArray } from "./descriptive";
import { ss } from "./simple-statistics";

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
 * is constant.
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
  const rx = Array.from(averageRanks(xs));
  const ry = Array.from(averageRanks(ys));
  const r = ss.sampleCorrelation(rx, ry);
  return Number.isFinite(r) ? Math.max(-1, Math.min(1, r)) : Number.NaN;
}
