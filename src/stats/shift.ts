/**
 * The estimates and intervals that belong to the paired tests: the
 * Hodges–Lehmann shift with the confidence interval of the Wilcoxon
 * signed-rank test (the interval that test inverts), and the Clopper–Pearson
 * interval of the share of non-tied pairs that favour the first sample,
 * which the exact sign test inverts. A verdict read from one of the tests
 * and the interval printed beside it then say the same thing: the interval
 * excludes 0 (or, for the sign test, one half) when the test rejects at
 * 1 − confidence.
 */
import type { NumberArray } from "./descriptive";
import { normalQuantile } from "./normal";
import { differencesOf, signedRankCounts, signedRankSd, WILCOXON_EXACT_MAX_N } from "./paired-tests";

/** The Hodges–Lehmann shift of paired samples with its Wilcoxon interval, from {@link hodgesLehmann}. */
export interface ShiftInterval {
  /**
   * The Hodges–Lehmann estimate: the median of the Walsh averages (d_i + d_j)/2,
   * i ≤ j, of the non-zero differences (the "pseudo-median"; how much x is
   * above y on the typical pair). 0 when every difference is 0; NaN when
   * there is no pair.
   */
  estimate: number;
  /** Lower end of the interval; NaN when so few differences cannot reach the coverage asked for. */
  low: number;
  /** Upper end of the interval; NaN as `low`. */
  high: number;
  /** Coverage asked for, e.g. 0.95. */
  confidence: number;
  /** Number of non-zero differences (the ones the Wilcoxon test ranks). */
  n: number;
  /** Number of zero differences, dropped as the test drops them. */
  zeros: number;
  /** How the interval's critical value was found: the exact null distribution (n ≤ 25) or the normal approximation. */
  method: "exact" | "normal";
}

/** Options of {@link hodgesLehmann}. */
export interface ShiftOptions {
  /** Coverage of the interval (default 0.95). */
  confidence?: number;
}

/** How many Walsh averages of the sorted `d` are at most t: pairs i ≤ j with d_i + d_j ≤ 2t (two pointers, O(n)). */
function walshAtMost(d: Float64Array, t: number): number {
  const n = d.length;
  const twice = 2 * t;
  let count = 0;
  let j = n - 1;
  for (let i = 0; i < n; i++) {
    while (j >= i && d[i]! + d[j]! > twice) j--;
    if (j < i) break;
    count += j - i + 1;
  }
  return count;
}

/**
 * The k-th smallest (1-based) of the n(n + 1)/2 Walsh averages of the sorted
 * `d`, without listing them: bisection on the value with {@link walshAtMost},
 * then the Walsh average itself (the smallest one above the last value
 * counted below k).
 */
function walshOrderStatistic(d: Float64Array, k: number): number {
  const n = d.length;
  let lo = d[0]!;
  let hi = d[n - 1]!;
  if (walshAtMost(d, lo) >= k) return lo;
  // Invariant: walshAtMost(lo) < k ≤ walshAtMost(hi).
  for (let step = 0; step < 200; step++) {
    const mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (walshAtMost(d, mid) >= k) hi = mid;
    else lo = mid;
  }
  // The k-th average is the smallest Walsh average above lo: for each i, the first j ≥ i with d_i + d_j > 2·lo.
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    let a = i;
    let b = n;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (d[i]! + d[mid]! > 2 * lo) b = mid;
      else a = mid + 1;
    }
    if (a < n) best = Math.min(best, (d[i]! + d[a]!) / 2);
  }
  return Number.isFinite(best) ? best : hi;
}

/**
 * The Hodges–Lehmann estimate of the shift between paired samples (`x` − `y`,
 * or the differences `x` alone) and its confidence interval, the one the
 * Wilcoxon signed-rank test inverts (as R's `wilcox.test(x, y, paired = TRUE,
 * conf.int = TRUE)` computes them): the differences are rounded and their
 * zeros dropped exactly as {@link wilcoxonSignedRank} does; the estimate is
 * the median of the Walsh averages of the rest; the interval runs from the
 * (K + 1)-th smallest to the (K + 1)-th largest Walsh average, where K is
 * the largest count of negative Walsh averages at which the test still
 * rejects: from the exact null distribution up to 25 non-zero differences,
 * else from the normal approximation with the test's tie-corrected variance
 * and continuity correction. So the interval excludes 0 when the test's
 * p-value is below 1 − confidence (exactly so without tied |differences|;
 * with ties the test's average ranks can move the boundary by a step).
 * With so few differences that no outcome reaches the coverage (5 or fewer
 * at 95%), `low` and `high` are NaN; with no non-zero difference the
 * estimate is 0 and the interval NaN. Works from Walsh averages it never
 * lists, so 100,000 pairs take milliseconds.
 *
 * @example
 * hodgesLehmann([0.2, 0.3, 0.1, 0.4, 0.25, 0.35, 0.15, -0.05]) // { estimate: 0.2, low: 0.05, high: 0.325, n: 8, method: "exact", … }
 */
export function hodgesLehmann(x: NumberArray, y?: NumberArray, options: ShiftOptions = {}): ShiftInterval {
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`hodgesLehmann: confidence must be between 0 and 1, got ${confidence}`);
  const all = differencesOf(x, y);
  const nonZero = all.filter((v) => v !== 0);
  const n = nonZero.length;
  const zeros = all.length - n;
  const method: "exact" | "normal" = n <= WILCOXON_EXACT_MAX_N ? "exact" : "normal";
  if (n === 0) return { estimate: all.length > 0 ? 0 : Number.NaN, low: Number.NaN, high: Number.NaN, confidence, n, zeros, method };
  const d = Float64Array.from(nonZero).sort();
  const m = (n * (n + 1)) / 2;
  const estimate = m % 2 === 1 ? walshOrderStatistic(d, (m + 1) / 2) : (walshOrderStatistic(d, m / 2) + walshOrderStatistic(d, m / 2 + 1)) / 2;
  const alpha = 1 - confidence;
  // K: the test rejects (on the lower side) exactly when W− ≤ K.
  let k: number;
  if (method === "exact") {
    // The null distribution of untied ranks 1..n (counted in half-rank units: index 2w for W = w).
    const counts = signedRankCounts(Array.from({ length: n }, (_, i) => i + 1));
    const patterns = 2 ** n;
    let below = counts[0]!;
    k = -1;
    while (k + 1 <= m && below / patterns < alpha / 2) {
      k++;
      below += counts[2 * (k + 1)] ?? 0;
    }
  } else {
    // The test's variance, ties among |d| included, and its continuity correction of 0.5.
    const { sd } = signedRankSd(nonZero.map(Math.abs));
    k = Math.floor(m / 2 - normalQuantile(1 - alpha / 2) * sd - 0.5);
  }
  if (k < 0) return { estimate, low: Number.NaN, high: Number.NaN, confidence, n, zeros, method };
  return { estimate, low: walshOrderStatistic(d, k + 1), high: walshOrderStatistic(d, m - k), confidence, n, zeros, method };
}

/** log P(X ≤ k) for X ~ Binomial(n, p), 0 < p < 1, summed in log space. */
function binomialLowerTail(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  // log C(n, i) built up term by term.
  let logChoose = 0;
  let maxLog = Number.NEGATIVE_INFINITY;
  const logs: number[] = [];
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log((n - i + 1) / i);
    const l = logChoose + i * lp + (n - i) * lq;
    logs.push(l);
    if (l > maxLog) maxLog = l;
  }
  let sum = 0;
  for (const l of logs) sum += Math.exp(l - maxLog);
  return Math.min(1, Math.exp(maxLog) * sum);
}

/** The p in (0, 1) where the decreasing function f(p) crosses `target`, by bisection. */
function crossing(f: (p: number) => number, target: number): number {
  let lo = 0;
  let hi = 1;
  for (let step = 0; step < 200; step++) {
    const mid = (lo + hi) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The share of non-tied pairs favouring the first sample with its interval, from {@link signTestInterval}. */
export interface SignShareInterval {
  /** positive / (positive + negative); NaN when every pair is tied. */
  share: number;
  /** Lower end of the Clopper–Pearson interval (0 when positive is 0). */
  low: number;
  /** Upper end (1 when negative is 0). */
  high: number;
  /** Pairs that favour the first sample. */
  positive: number;
  /** positive + negative: the pairs the sign test counts. */
  n: number;
  /** Coverage asked for, e.g. 0.95. */
  confidence: number;
}

/**
 * The share of the non-tied pairs that favour the first sample
 * (`positive` of `positive + negative`) with its Clopper–Pearson ("exact")
 * interval: the shares whose one-sided binomial tails are both above
 * (1 − confidence)/2. It is the interval the exact sign test
 * (`signTest`, `binomialTwoSidedP`) inverts: it excludes one half exactly when
 * the test's two-sided p-value is at most 1 − confidence.
 *
 * @example
 * signTestInterval(9, 1) // { share: 0.9, low: ≈ 0.555, high: ≈ 0.9975, positive: 9, n: 10, confidence: 0.95 }
 */
export function signTestInterval(positive: number, negative: number, confidence = 0.95): SignShareInterval {
  if (!Number.isInteger(positive) || !Number.isInteger(negative) || positive < 0 || negative < 0) {
    throw new RangeError(`signTestInterval: positive and negative must be whole numbers ≥ 0, got ${positive} and ${negative}`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`signTestInterval: confidence must be between 0 and 1, got ${confidence}`);
  const n = positive + negative;
  if (n === 0) return { share: Number.NaN, low: Number.NaN, high: Number.NaN, positive, n, confidence };
  const tail = (1 - confidence) / 2;
  // Lower end: P(X ≥ positive | p) = tail, i.e. P(X ≤ positive − 1 | p) = 1 − tail (decreasing in p).
  const low = positive === 0 ? 0 : crossing((p) => binomialLowerTail(positive - 1, n, p), 1 - tail);
  // Upper end: P(X ≤ positive | p) = tail.
  const high = positive === n ? 1 : crossing((p) => binomialLowerTail(positive, n, p), tail);
  return { share: positive / n, low, high, positive, n, confidence };
}
