/**
 * The exact two-sample permutation test of a difference in means: every way
 * of splitting the pooled scores into groups of the two sizes is counted,
 * so the p-value is exact at any sample size it can enumerate.
 */
import { finiteValues, type NumberArray } from "./descriptive";

/** Splits up to which {@link permutationTest} enumerates (C(nA + nB, nA) ≤ this); beyond, it returns undefined. */
export const PERMUTATION_EXACT_MAX_SPLITS = 20_000;

/** Result of {@link permutationTest}. */
export interface PermutationTestResult {
  /** mean(a) − mean(b). */
  estimate: number;
  /** Number of splits of the pooled scores enumerated: C(nA + nB, nA). */
  splits: number;
  /** Two-sided p-value: the share of splits whose |mean difference| is at least the observed one (the observed split counts). */
  pValue: number;
}

/** C(n, k), or Infinity as soon as it exceeds `limit`. */
function choose(n: number, k: number, limit: number): number {
  const m = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= m; i++) {
    c = (c * (n - m + i)) / i;
    if (c > limit) return Number.POSITIVE_INFINITY;
  }
  return Math.round(c);
}

/**
 * Exact two-sided permutation test of mean(a) − mean(b) over the finite
 * values of two independent samples: the pooled values are split into every
 * group of size nA (C(nA + nB, nA) splits) and p is the share whose absolute
 * difference in means is at least the observed one (with a relative
 * tolerance of 1e-9, so that float noise does not hide a tie). Its smallest
 * possible p is 2/C(nA + nB, nA): with 2 scores a side, 1/3. Returns
 * undefined when a sample has fewer than 2 values, or when there are more
 * than `maxSplits` (default {@link PERMUTATION_EXACT_MAX_SPLITS}) splits.
 *
 * @example
 * permutationTest([0.2, 0.21], [0.9, 0.91])?.pValue // 0.3333… (2 of 6 splits)
 */
export function permutationTest(a: NumberArray, b: NumberArray, maxSplits = PERMUTATION_EXACT_MAX_SPLITS): PermutationTestResult | undefined {
  const xa = finiteValues(a);
  const xb = finiteValues(b);
  const nA = xa.length;
  const nB = xb.length;
  if (nA < 2 || nB < 2) return undefined;
  const splits = choose(nA + nB, nA, maxSplits);
  if (!Number.isFinite(splits)) return undefined;
  const pooled = [...xa, ...xb];
  const total = pooled.reduce((s, v) => s + v, 0);
  const sumA = xa.reduce((s, v) => s + v, 0);
  // mean(A) − mean(B) grows with sum(A): compare |sum(A) − centre| instead of the difference itself.
  const centre = (total * nA) / (nA + nB);
  const observed = Math.abs(sumA - centre);
  const scale = pooled.reduce((s, v) => s + Math.abs(v), 0);
  const threshold = observed - 1e-9 * Math.max(scale, Number.MIN_VALUE);
  let extreme = 0;
  const walk = (start: number, left: number, sum: number): void => {
    if (left === 0) {
      if (Math.abs(sum - centre) >= threshold) extreme++;
      return;
    }
    for (let i = start; i <= pooled.length - left; i++) walk(i + 1, left - 1, sum + pooled[i]!);
  };
  walk(0, nA, 0);
  return { estimate: sumA / nA - (total - sumA) / nB, splits, pValue: Math.min(1, extreme / splits) };
}
