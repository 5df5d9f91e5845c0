/**
 * Tests of paired samples: the Wilcoxon signed-rank test, the exact sign test
 * (with its binomial p-value), and Holm's adjustment for multiple comparisons.
 */
import { averageRanks, finiteValues, pairedDifferences, type NumberArray } from "./descriptive";
import { erfc } from "./normal";

/** Result of {@link wilcoxonSignedRank}. */
export interface WilcoxonResult {
  /** min(W+, W−), as SciPy reports it for a two-sided test. */
  statistic: number;
  /** Sum of the ranks of the positive differences. */
  wPlus: number;
  /** Sum of the ranks of the negative differences. */
  wMinus: number;
  /** Number of non-zero differences (the ones ranked). */
  n: number;
  /** Number of zero differences, dropped (Wilcoxon's method). */
  zeros: number;
  /** True when some |differences| are tied (they share their average rank). */
  ties: boolean;
  /** "exact" (n ≤ 25, ties or not) or "normal" (tie-corrected variance, continuity correction 0.5). */
  method: "exact" | "normal";
  /** The z statistic of the normal approximation (NaN for the exact method). */
  z: number;
  /** Two-sided p-value. */
  pValue: number;
}

/** Significant digits the differences keep before they are ranked or compared with 0 ({@link roundDifferences}). */
const DIFFERENCE_DIGITS = 12;

/**
 * Paired differences as the rank and sign tests see them: each rounded to a
 * multiple of 10^(e − 11), where 10^e is the order of magnitude of `scale`
 * (default: the largest |difference|), i.e. to 12 significant digits of
 * the data. 0.3 − 0.2 and 0.2 − 0.1 differ in their last binary digits, and
 * 0.1 + 0.2 − 0.3 is 5.6e-17, not 0: ranked raw, the first would be two
 * ranks instead of a tie and the second a difference. Scores carry far
 * fewer real digits than 12.
 *
 * @example
 * roundDifferences([0.3 - 0.2, 0.2 - 0.1, 0.1 + 0.2 - 0.3]) // [0.1, 0.1, 0] (the first two equal)
 */
export function roundDifferences(differences: readonly number[], scale?: number): number[] {
  let top = scale ?? 0;
  if (scale === undefined) for (const v of differences) if (Math.abs(v) > top) top = Math.abs(v);
  if (!(top > 0) || !Number.isFinite(top)) return [...differences];
  // Divide by a whole power of ten rather than multiply by its inverse: 1e11 / 1e12 is 0.1, 1e11 * 1e-12 is not.
  const places = DIFFERENCE_DIGITS - 1 - Math.floor(Math.log10(top));
  const round = (v: number) => (places >= 0 ? Math.round(v * 10 ** places) / 10 ** places : Math.round(v / 10 ** -places) * 10 ** -places);
  return differences.map((v) => round(v) || 0); // no −0

}

/**
 * The differences the Wilcoxon test sees: x − y of the pairs with both sides
 * finite (or x alone), rounded to 12 significant digits of the data (of the
 * largest |x| or |y| of the pairs kept).
 */
export function differencesOf(x: NumberArray, y: NumberArray | undefined): number[] {
  if (y === undefined) return roundDifferences(finiteValues(x));
  let scale = 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const a = x[i];
    const b = y[i];
    if (typeof a === "number" && typeof b === "number" && Number.isFinite(a) && Number.isFinite(b)) scale = Math.max(scale, Math.abs(a), Math.abs(b));
  }
  return roundDifferences(pairedDifferences(x, y), scale > 0 ? scale : undefined);
}

/** Exact tests are used up to this many non-zero differences (with or without ties). */
export const WILCOXON_EXACT_MAX_N = 25;

/**
 * P(W+ ≤ w) under the null, for these ranks (average ranks when |differences|
 * tie, so halves): each of the 2^n sign patterns equally likely, counted by
 * the sum of the positive ranks. Sums are counted in half-rank units, which
 * are whole numbers whatever the ties.
 */
function wilcoxonExactCdf(ranks: ArrayLike<number>, w: number): number {
  const counts = signedRankCounts(ranks);
  let below = 0;
  const limit = Math.min(counts.length - 1, Math.round(2 * w));
  for (let s = 0; s <= limit; s++) below += counts[s]!;
  return below / 2 ** ranks.length;
}

/**
 * The 2^n sign patterns of `ranks` (average ranks when |differences| tie,
 * so halves) counted by the sum of their positive ranks, in half-rank units
 * (index 2w holds the patterns whose W+ is w): the null distribution of the
 * signed-rank statistic, by a subset-sum recursion, not by enumeration.
 */
export function signedRankCounts(ranks: ArrayLike<number>): Float64Array {
  const halves = Array.from(ranks, (r) => Math.round(2 * r));
  const max = halves.reduce((a, b) => a + b, 0);
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  let top = 0;
  for (const r of halves) {
    top += r;
    for (let s = top; s >= r; s--) counts[s] = counts[s]! + counts[s - r]!;
  }
  return counts;
}

/**
 * The standard deviation of W+ under the null for `n` non-zero differences
 * whose |values| are `abs`: √(n(n+1)(2n+1)/24 − Σ(t³ − t)/48) over the
 * groups of t tied |values|, and whether there are ties.
 */
export function signedRankSd(abs: ArrayLike<number>): { sd: number; ties: boolean } {
  const n = abs.length;
  const sorted = Float64Array.from(abs).sort();
  let tieTerm = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && sorted[j + 1] === sorted[i]) j++;
    const t = j - i + 1;
    if (t > 1) tieTerm += t * t * t - t;
    i = j + 1;
  }
  return { sd: Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48), ties: tieTerm > 0 };
}

/** Options of {@link wilcoxonSignedRank}. */
export interface WilcoxonOptions {
  /**
   * "auto" (default): exact up to {@link WILCOXON_EXACT_MAX_N} non-zero
   * differences, normal beyond; "exact" or "normal" to force one (exact is
   * refused above 60 differences: 2^60 sign patterns lose precision).
   */
  method?: "auto" | "exact" | "normal";
}

/**
 * Wilcoxon signed-rank test, two-sided, of paired samples (`x` − `y`) or of
 * differences (`x` alone). Pairs with a missing side are dropped; the
 * differences are rounded to 12 significant digits of the data (of the
 * largest |x| or |y|; of the largest |difference| for `x` alone:
 * {@link roundDifferences}), so that float noise neither splits a tie nor
 * passes for a difference; zero
 * differences are dropped (Wilcoxon's method); tied |differences| get average
 * ranks. With n ≤ 25 non-zero differences the p-value is exact (the null
 * distribution of W+ enumerated over the 2^n sign patterns of the ranks
 * given, average ranks included: with ties the normal approximation can give
 * p-values no sign pattern of so few pairs reaches, e.g. 0.037 for 5 equal
 * differences, whose exact p is 2/32 = 0.0625); otherwise it is the normal
 * approximation with the tie-corrected variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48
 * and a continuity correction of 0.5. With no non-zero difference, p = 1.
 * `options.method` forces one of the two.
 *
 * @example
 * // Darwin's maize data (SciPy's documentation): W = 24, exact p = 0.041259765625
 * wilcoxonSignedRank([6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75]);
 */
export function wilcoxonSignedRank(x: NumberArray, y?: NumberArray, options: WilcoxonOptions = {}): WilcoxonResult {
  const method = options.method ?? "auto";
  if (method !== "auto" && method !== "exact" && method !== "normal") throw new RangeError(`wilcoxonSignedRank: method must be "auto", "exact" or "normal", got ${JSON.stringify(method)}`);
  const d = differencesOf(x, y);
  const nonZero: number[] = [];
  for (const v of d) if (v !== 0) nonZero.push(v);
  const zeros = d.length - nonZero.length;
  const n = nonZero.length;
  const ranks = averageRanks(nonZero.map(Math.abs));
  let wPlus = 0;
  for (let i = 0; i < n; i++) if (nonZero[i]! > 0) wPlus += ranks[i]!;
  const total = (n * (n + 1)) / 2;
  const wMinus = total - wPlus;
  const statistic = Math.min(wPlus, wMinus);

  // Tie groups among |d|, and the null's spread with them.
  const { sd, ties } = signedRankSd(nonZero.map(Math.abs));

  if (method === "exact" && n > 60) throw new RangeError(`wilcoxonSignedRank: the exact method takes at most 60 non-zero differences, got ${n}; use "normal"`);
  if (method === "exact" || (method === "auto" && n <= WILCOXON_EXACT_MAX_N)) {
    const pValue = n === 0 ? 1 : Math.min(1, 2 * wilcoxonExactCdf(ranks, statistic));
    return { statistic, wPlus, wMinus, n, zeros, ties, method: "exact", z: Number.NaN, pValue };
  }
  const mean = total / 2;
  const diff = wPlus - mean;
  const z = sd > 0 ? (diff - 0.5 * Math.sign(diff)) / sd : 0;
  const pValue = Math.min(1, erfc(Math.abs(z) * Math.SQRT1_2));
  return { statistic, wPlus, wMinus, n, zeros, ties, method: "normal", z, pValue };
}

/** Result of {@link signTest}. */
export interface SignTestResult {
  /** Differences above 0 (a better). */
  positive: number;
  /** Differences below 0 (b better). */
  negative: number;
  /** Zero differences, dropped. */
  ties: number;
  /** positive + negative. */
  n: number;
  /** Exact two-sided binomial p-value with p = 0.5: 2·P(X ≤ min(positive, negative)), capped at 1. */
  pValue: number;
}

/**
 * Exact two-sided binomial test of k successes in n trials against p = 0.5:
 * min(1, 2·P(X ≤ min(k, n − k))). Exact in the binomial sense; computed in log
 * space so that it also works for n in the tens of thousands.
 *
 * @example
 * binomialTwoSidedP(9, 10) // 0.021484375
 */
export function binomialTwoSidedP(k: number, n: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0 || k < 0 || k > n) {
    throw new RangeError(`binomialTwoSidedP needs whole numbers 0 ≤ k ≤ n, got k = ${k}, n = ${n}`);
  }
  const m = Math.min(k, n - k);
  if (2 * m >= n) return 1;
  // log P(X = m) = log C(n, m) − n·log 2; then P(X = i − 1) = P(X = i)·i/(n − i + 1).
  let logTerm = -n * Math.LN2;
  for (let j = 1; j <= m; j++) logTerm += Math.log((n - m + j) / j);
  let ratio = 1;
  let sum = 1;
  for (let i = m; i >= 1; i--) {
    ratio *= i / (n - i + 1);
    sum += ratio;
    if (ratio < 1e-17 * sum) break;
  }
  return Math.min(1, 2 * Math.exp(logTerm) * sum);
}

/**
 * Exact two-sided sign test of paired samples (`x` − `y`) or of differences
 * (`x` alone): counts the positive and negative differences (zeros are ties
 * and dropped; differences rounded to 12 significant digits of the data
 * first, as in {@link wilcoxonSignedRank}) and tests them against a fair coin. The test for 0/1 scores.
 *
 * @example
 * signTest([1, 1, 1, 1, 1, 1, 1, 1, 1, -1]).pValue // 0.021484375 (9 of 10)
 */
export function signTest(x: NumberArray, y?: NumberArray): SignTestResult {
  const d = differencesOf(x, y);
  let positive = 0;
  let negative = 0;
  for (const v of d) {
    if (v > 0) positive++;
    else if (v < 0) negative++;
  }
  const n = positive + negative;
  return { positive, negative, ties: d.length - n, n, pValue: binomialTwoSidedP(positive, n) };
}

/**
 * Holm's step-down adjustment of p-values for multiple comparisons (as R's
 * `p.adjust(p, "holm")`): the i-th smallest of m p-values is multiplied by
 * m − i + 1, made non-decreasing, and capped at 1. Returned in the input's
 * order; NaN stays NaN and does not count in m.
 *
 * @example
 * holm([0.01, 0.04, 0.03, 0.005]) // [0.03, 0.06, 0.06, 0.02]
 */
export function holm(pValues: NumberArray): number[] {
  const out = new Array<number>(pValues.length).fill(Number.NaN);
  const order: number[] = [];
  for (let i = 0; i < pValues.length; i++) {
    const p = pValues[i];
    if (p === null || p === undefined || Number.isNaN(p)) continue;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-values must be between 0 and 1, got ${p} at position ${i}`);
    order.push(i);
  }
  order.sort((a, b) => (pValues[a] as number) - (pValues[b] as number) || a - b);
  const m = order.length;
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] as number)));
    out[index] = running;
  });
  return out;
}
