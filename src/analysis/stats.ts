/**
 * Pure statistics on number arrays: NaN-aware descriptives, type-7 quantiles,
 * seeded bootstrap intervals, Wilcoxon signed-rank and sign tests, Holm's
 * adjustment, Cohen's kappa, Spearman's rho and the normal CDF.
 *
 * Everything here takes plain arrays (or typed arrays) and knows nothing of
 * DataFrames. "Valid" always means a finite number: NaN, null, undefined and
 * ±Infinity are missing values and are skipped, never counted as 0.
 *
 * simple-statistics 7.12 supplies the descriptives: `mean` (compensated sum),
 * `sampleStandardDeviation`, and `quantileSorted`, which in 7.12 is R's type 7
 * (checked against hand-computed R values in test/stats.test.ts). Its
 * `cumulativeStdNormalProbability` is a 4-digit table and its `errorFunction`
 * is good to ~1e-7 only, so the normal CDF here is our own (erfc to ~1e-14 relative).
 */
import { DEFAULT_SEED, seedToUint32 } from "./random";

/** The part of simple-statistics we use (its own typings are ESM-only, which TypeScript 5.0 cannot import from CommonJS). */
interface SimpleStatistics {
  mean(x: number[]): number;
  sampleStandardDeviation(x: number[]): number;
  quantileSorted(sorted: number[], p: number): number;
  sampleCorrelation(x: number[], y: number[]): number;
}

// simple-statistics ships a CommonJS build (its "require" export): load that.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ss = require("simple-statistics") as SimpleStatistics;

/** Numbers as the statistics accept them: an array or typed array, with missing values as NaN, null or undefined. */
export type NumberArray = ArrayLike<number | null | undefined>;

/** A label for agreement statistics: a number, text or boolean; NaN (any non-finite number), null, undefined and "" are missing. */
export type Label = number | string | boolean | null | undefined;

// ---------------------------------------------------------------------------
// NaN-aware helpers

/** True when `value` is a finite number (the only kind of value the statistics use). */
export function isValidNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * The finite numbers of an array, in order; NaN, null, undefined and
 * infinities are dropped.
 *
 * @example
 * finiteValues([0.5, NaN, null, 1]) // [0.5, 1]
 */
export function finiteValues(values: NumberArray): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isValidNumber(v)) out.push(v);
  }
  return out;
}

/** How many values are finite numbers. */
export function countValid(values: NumberArray): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (isValidNumber(values[i])) n++;
  return n;
}

/**
 * Mean of the finite values (NaN when there are none).
 *
 * @example
 * nanMean([1, NaN, 0]) // 0.5, not 1/3
 */
export function nanMean(values: NumberArray): number {
  const x = finiteValues(values);
  return x.length === 0 ? Number.NaN : ss.mean(x);
}

/** Sample standard deviation (n − 1) of the finite values; NaN with fewer than two. */
export function nanStd(values: NumberArray): number {
  const x = finiteValues(values);
  return x.length < 2 ? Number.NaN : ss.sampleStandardDeviation(x);
}

/** Smallest finite value, or NaN when there is none. */
export function nanMin(values: NumberArray): number {
  let m = Number.POSITIVE_INFINITY;
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isValidNumber(v)) {
      any = true;
      if (v < m) m = v;
    }
  }
  return any ? m : Number.NaN;
}

/** Largest finite value, or NaN when there is none. */
export function nanMax(values: NumberArray): number {
  let m = Number.NEGATIVE_INFINITY;
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (isValidNumber(v)) {
      any = true;
      if (v > m) m = v;
    }
  }
  return any ? m : Number.NaN;
}

/** The finite values sorted ascending, as a Float64Array. */
export function sortedFinite(values: NumberArray): Float64Array {
  return Float64Array.from(finiteValues(values)).sort();
}

function checkProbability(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`a quantile's probability must be between 0 and 1, got ${p}`);
}

/**
 * Type-7 quantile (R's default, NumPy's "linear") of values that are already
 * sorted ascending and all finite: with h = (n − 1)·p, x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 * NaN for an empty array.
 */
export function quantileSorted7(sorted: ArrayLike<number>, p: number): number {
  checkProbability(p);
  if (sorted.length === 0) return Number.NaN;
  // simple-statistics 7.12's quantileSorted is type 7 (see the file comment).
  return ss.quantileSorted(sorted as number[], p);
}

/**
 * Type-7 quantile(s) of the finite values (R's `quantile(x, p, type = 7)`,
 * NumPy's default). NaN when there are no finite values.
 *
 * @example
 * quantile7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.25)   // 3.25
 * quantile7([0.2, NaN, 0.9, 0.4], [0.25, 0.5, 0.75]) // [0.3, 0.4, 0.65]
 */
export function quantile7(values: NumberArray, p: number): number;
export function quantile7(values: NumberArray, p: readonly number[]): number[];
export function quantile7(values: NumberArray, p: number | readonly number[]): number | number[] {
  const sorted = sortedFinite(values);
  if (typeof p === "number") return quantileSorted7(sorted, p);
  return p.map((q) => quantileSorted7(sorted, q));
}

/** Median of the finite values (type-7 quantile at 0.5); NaN when there are none. */
export function nanMedian(values: NumberArray): number {
  return quantile7(values, 0.5);
}

/**
 * Average ranks (1-based) of the values: tied values share the mean of the
 * ranks they span. Values must be finite.
 *
 * @example
 * averageRanks([10, 20, 20, 30]) // Float64Array [1, 2.5, 2.5, 4]
 */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const v = Float64Array.from(values as ArrayLike<number>);
  order.sort((a, b) => v[a]! - v[b]! || a - b);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && v[order[j + 1]!] === v[order[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = rank;
    i = j + 1;
  }
  return ranks;
}

// ---------------------------------------------------------------------------
// Normal distribution

const TWO_OVER_SQRT_PI = 1.1283791670955126; // 2/√π
const ONE_OVER_SQRT_PI = 0.5641895835477563; // 1/√π

/** erf(x) for |x| < 0.5 from its Maclaurin series (alternating, little cancellation this close to 0). */
function erfSmall(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 60; n++) {
    term *= -x2 / n;
    const add = term / (2 * n + 1);
    sum += add;
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * sum;
}

/** e^(−x²) with x² split into an exact part and a small remainder, to keep the digits of x² for large x. */
function expMinusSquare(x: number): number {
  const hi = Math.trunc(x * 16) / 16;
  return Math.exp(-hi * hi) * Math.exp(-(x - hi) * (x + hi));
}

/**
 * erfc(x) for x ≥ 0.5 from Laplace's continued fraction
 * erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …)))),
 * evaluated with the modified Lentz method.
 */
function erfcLarge(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 2000; n++) {
    // At most ~750 terms (at x = 0.5), ~60 at x = 2, ~30 beyond 3.
    const a = n / 2;
    d = x + a * d;
    if (d === 0) d = tiny;
    c = x + a / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return (ONE_OVER_SQRT_PI * expMinusSquare(x)) / f;
}

/**
 * The complementary error function erfc(x) = 1 − erf(x), accurate to about
 * 1e-14 relative (Maclaurin series below 0.5, Laplace's continued fraction
 * above; checked against 40-digit mpmath values from −6 to 26), so that
 * small tail probabilities keep their digits.
 *
 * @example
 * erfc(0)   // 1
 * erfc(1)   // ≈ 0.157299207050285
 * erfc(6)   // ≈ 2.15197367124989e-17 (1 − erf(6) would be 0)
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 0.5) return 1 - erfSmall(x);
  if (x > 27.3) return 0; // below the smallest double
  return erfcLarge(x);
}

/**
 * The error function erf(x).
 *
 * @example
 * erf(1) // ≈ 0.842700792949715
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (Math.abs(x) < 0.5) return erfSmall(x);
  return x > 0 ? 1 - erfc(x) : erfc(-x) - 1;
}

/**
 * The standard normal cumulative distribution function Φ(z) = erfc(−z/√2)/2,
 * accurate to about 1e-14 relative (also far in the tails, e.g. Φ(−8) ≈ 6.2e-16).
 *
 * @example
 * normalCdf(1.96) // 0.9750021048517795
 * normalCdf(-3)   // 0.0013498980316301
 */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z * Math.SQRT1_2);
}

// ---------------------------------------------------------------------------
// Bootstrap

/** Options of the bootstrap functions. */
export interface BootstrapOptions {
  /** Number of bootstrap replicates (default 2,000). */
  replicates?: number;
  /** Coverage of the percentile interval (default 0.95). */
  confidence?: number;
  /** Seed of the random stream (default {@link DEFAULT_SEED}); the same seed gives the same interval. */
  seed?: number;
}

/** A percentile bootstrap confidence interval. */
export interface BootstrapInterval {
  /** The statistic on the data itself (a mean, or a difference of means). */
  estimate: number;
  /** Lower end: the type-7 quantile (1 − confidence)/2 of the replicates. */
  low: number;
  /** Upper end: the type-7 quantile (1 + confidence)/2 of the replicates. */
  high: number;
  confidence: number;
  replicates: number;
  /** Number of (finite) values resampled; for two samples, the sum of both. */
  n: number;
}

/** A two-sample bootstrap: interval of the difference in means and a two-sided p-value. */
export interface TwoSampleBootstrap extends BootstrapInterval {
  /** Mean of the first sample. */
  meanA: number;
  /** Mean of the second sample. */
  meanB: number;
  nA: number;
  nB: number;
  /** Two-sided p-value: 2·min(#{d* ≤ 0} + 1, #{d* ≥ 0} + 1)/(B + 1), capped at 1. */
  pValue: number;
}

function bootstrapSettings(options: BootstrapOptions): { B: number; confidence: number; seed: number } {
  const B = options.replicates ?? 2000;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`bootstrap replicates must be a positive integer, got ${B}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be between 0 and 1 (exclusive), got ${confidence}`);
  return { B, confidence, seed: seedToUint32(options.seed ?? DEFAULT_SEED) };
}

function percentileInterval(replicates: Float64Array, confidence: number): [number, number] {
  replicates.sort();
  const alpha = 1 - confidence;
  return [quantileSorted7(replicates, alpha / 2), quantileSorted7(replicates, 1 - alpha / 2)];
}

/**
 * Means of B bootstrap resamples of `x` into `out` (or, with `subtract`,
 * subtracted from what `out` holds), drawing the indices from mulberry32
 * inlined: the same stream as `mulberry32(state)`, index ⌊u·n⌋. Unrolled by
 * two with two accumulators (about twice as fast), no allocation per
 * replicate. Returns the generator state after the last draw.
 */
function resampleMeans(x: Float64Array, B: number, state: number, out: Float64Array, subtract = false): number {
  const n = x.length;
  const scale = n / 4294967296; // u·n = (32-bit draw)·n/2^32, exactly as ⌊mulberry32()·n⌋
  const even = n - (n % 2);
  let s = state | 0;
  for (let b = 0; b < B; b++) {
    let sum0 = 0;
    let sum1 = 0;
    let i = 0;
    let t = 0;
    for (; i < even; i += 2) {
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum0 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum1 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
    }
    if (i < n) {
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum0 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
    }
    const m = (sum0 + sum1) / n;
    out[b] = subtract ? out[b]! - m : m;
  }
  return s;
}

/**
 * One draw from Binomial(m, p) by inversion of its distribution function over
 * mode ± (10σ + 10) (the mass outside is below 1e-20), with the probabilities
 * built from the ratio P(k+1)/P(k) = (m − k)/(k + 1)·p/(1 − p): no log-gamma,
 * no allocation. `u` is uniform in [0, 1).
 */
function binomialDraw(m: number, p: number, u: number): number {
  if (m <= 0 || p <= 0) return 0;
  if (p >= 1) return m;
  const odds = p / (1 - p);
  const mode = Math.min(m, Math.floor((m + 1) * p));
  const spread = 10 * Math.sqrt(m * p * (1 - p)) + 10;
  const lo = Math.max(0, Math.floor(mode - spread));
  const hi = Math.min(m, Math.ceil(mode + spread));
  // Unnormalised weights with w(mode) = 1: their total, and w(lo).
  let total = 1;
  let w = 1;
  for (let k = mode; k < hi; k++) {
    w *= ((m - k) / (k + 1)) * odds;
    total += w;
  }
  w = 1;
  for (let k = mode; k > lo; k--) {
    w *= k / (m - k + 1) / odds;
    total += w;
  }
  let target = u * total;
  for (let k = lo; k < hi; k++) {
    target -= w;
    if (target < 0) return k;
    w *= ((m - k) / (k + 1)) * odds;
  }
  return hi;
}

/** The distinct values of x (ascending) with their counts, or undefined when there are more than `limit`. */
function distinctCounts(x: Float64Array, limit: number): { values: number[]; counts: number[] } | undefined {
  const index = new Map<number, number>();
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    const j = index.get(v);
    if (j === undefined) {
      if (values.length === limit) return undefined;
      index.set(v, values.length);
      values.push(v);
      counts.push(1);
    } else {
      counts[j]!++;
    }
  }
  const order = values.map((_, j) => j).sort((a, b) => values[a]! - values[b]!);
  return { values: order.map((j) => values[j]!), counts: order.map((j) => counts[j]!) };
}

/**
 * Bootstrap means of `x` into `out` (or subtracted from it). When x has few
 * distinct values (0/1 scores, −1/0/1 differences) and n is large, a
 * resample's counts of each value are drawn straight from their multinomial
 * distribution (one binomial per value): the same bootstrap distribution
 * without drawing n indices. Otherwise n indices per replicate. Returns the
 * generator state.
 */
function bootstrapMeans(x: Float64Array, B: number, state: number, out: Float64Array, subtract = false): number {
  const n = x.length;
  const levels = distinctCounts(x, 16);
  if (levels === undefined || levels.values.length * (20 * Math.sqrt(n) + 40) * 2 >= n) {
    return resampleMeans(x, B, state, out, subtract);
  }
  const { values, counts } = levels;
  const K = values.length;
  let s = state | 0;
  let t = 0;
  for (let b = 0; b < B; b++) {
    let left = n; // draws still to place
    let pool = n; // count of the values not yet placed
    let sum = 0;
    for (let j = 0; j < K - 1; j++) {
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      const c = counts[j]!;
      const k = binomialDraw(left, c / pool, ((t ^ (t >>> 14)) >>> 0) / 4294967296);
      sum += values[j]! * k;
      left -= k;
      pool -= c;
    }
    sum += values[K - 1]! * left;
    const m = sum / n;
    out[b] = subtract ? out[b]! - m : m;
  }
  return s;
}

/**
 * Percentile bootstrap confidence interval of the mean of the finite values:
 * B resamples with replacement (seeded), the interval between the
 * (1 − confidence)/2 and (1 + confidence)/2 type-7 quantiles of their means.
 * NaN ends when there are no finite values.
 *
 * @example
 * bootstrapMeanCI([0.2, 0.4, 0.9, NaN, 0.7], { seed: 1 })
 * // { estimate: 0.55, low: …, high: …, confidence: 0.95, replicates: 2000, n: 4 }
 */
export function bootstrapMeanCI(values: NumberArray, options: BootstrapOptions = {}): BootstrapInterval {
  const { B, confidence, seed } = bootstrapSettings(options);
  const x = Float64Array.from(finiteValues(values));
  if (x.length === 0) return { estimate: Number.NaN, low: Number.NaN, high: Number.NaN, confidence, replicates: B, n: 0 };
  const out = new Float64Array(B);
  bootstrapMeans(x, B, seed, out);
  const [low, high] = percentileInterval(out, confidence);
  return { estimate: ss.mean(Array.from(x)), low, high, confidence, replicates: B, n: x.length };
}

/**
 * The differences a[i] − b[i] of the pairs where both are finite numbers.
 *
 * @throws {RangeError} when the arrays differ in length.
 */
export function pairedDifferences(a: NumberArray, b: NumberArray): number[] {
  if (a.length !== b.length) throw new RangeError(`paired samples differ in length (${a.length} and ${b.length})`);
  const d: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (isValidNumber(x) && isValidNumber(y)) d.push(x - y);
  }
  return d;
}

/**
 * Paired bootstrap confidence interval of the mean difference a − b: pairs
 * (i.e. questions) are resampled, so each resample keeps a's and b's answers
 * to the same question together. Pairs with a missing side are dropped.
 *
 * @example
 * pairedBootstrapCI([0.9, 0.8, 0.7, 1], [0.5, 0.8, 0.6, NaN], { seed: 7 })
 * // { estimate: 0.1666…, low: 0, high: 0.4, n: 3, … }  (three complete pairs)
 */
export function pairedBootstrapCI(a: NumberArray, b: NumberArray, options: BootstrapOptions = {}): BootstrapInterval {
  return bootstrapMeanCI(pairedDifferences(a, b), options);
}

/**
 * Two-sample (unpaired) bootstrap of the difference in means mean(a) − mean(b):
 * each replicate resamples a and b independently. Gives the percentile
 * interval and a two-sided p-value read from the same replicates (the share
 * of replicates on the other side of 0, doubled; +1 in numerator and
 * denominator so that it is never 0). Use it when the answers cannot be
 * paired by question.
 *
 * @example
 * const r = twoSampleBootstrap([1, 1, 0, 1, 1], [0, 0, 1, 0], { seed: 3 });
 * r.estimate; // 0.55
 * r.pValue;   // about 0.07
 */
export function twoSampleBootstrap(a: NumberArray, b: NumberArray, options: BootstrapOptions = {}): TwoSampleBootstrap {
  const { B, confidence, seed } = bootstrapSettings(options);
  const xa = Float64Array.from(finiteValues(a));
  const xb = Float64Array.from(finiteValues(b));
  const nA = xa.length;
  const nB = xb.length;
  const meanA = nA === 0 ? Number.NaN : ss.mean(Array.from(xa));
  const meanB = nB === 0 ? Number.NaN : ss.mean(Array.from(xb));
  const base = { estimate: meanA - meanB, confidence, replicates: B, n: nA + nB, meanA, meanB, nA, nB };
  if (nA === 0 || nB === 0) return { ...base, low: Number.NaN, high: Number.NaN, pValue: Number.NaN };
  const out = new Float64Array(B);
  const state = bootstrapMeans(xa, B, seed, out);
  bootstrapMeans(xb, B, state, out, true);
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let i = 0; i < B; i++) {
    const d = out[i]!;
    if (d <= 0) atOrBelow++;
    if (d >= 0) atOrAbove++;
  }
  const pValue = Math.min(1, (2 * (Math.min(atOrBelow, atOrAbove) + 1)) / (B + 1));
  const [low, high] = percentileInterval(out, confidence);
  return { ...base, low, high, pValue };
}

// ---------------------------------------------------------------------------
// Paired tests

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
  /** True when some |differences| are tied (then the normal approximation is used). */
  ties: boolean;
  /** "exact" (n ≤ 25, no ties) or "normal" (tie-corrected variance, continuity correction 0.5). */
  method: "exact" | "normal";
  /** The z statistic of the normal approximation (NaN for the exact method). */
  z: number;
  /** Two-sided p-value. */
  pValue: number;
}

/** Exact tests are used up to this many non-zero differences (when there are no ties). */
export const WILCOXON_EXACT_MAX_N = 25;

/** P(W+ ≤ w) under the null, for n untied ranks: counts of subsets of {1..n} by sum, over 2^n. */
function wilcoxonExactCdf(n: number, w: number): number {
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  let top = 0;
  for (let r = 1; r <= n; r++) {
    top += r;
    for (let s = top; s >= r; s--) counts[s] = counts[s]! + counts[s - r]!;
  }
  let below = 0;
  for (let s = 0; s <= Math.min(max, Math.floor(w)); s++) below += counts[s]!;
  return below / 2 ** n;
}

/**
 * Wilcoxon signed-rank test, two-sided, of paired samples (`x` − `y`) or of
 * differences (`x` alone). Pairs with a missing side are dropped; zero
 * differences are dropped (Wilcoxon's method); tied |differences| get average
 * ranks. With n ≤ 25 non-zero differences and no ties the p-value is exact
 * (the null distribution of W+ enumerated); otherwise it is the normal
 * approximation with the tie-corrected variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48
 * and a continuity correction of 0.5. With no non-zero difference, p = 1.
 *
 * @example
 * // Darwin's maize data (SciPy's documentation): W = 24, exact p = 0.041259765625
 * wilcoxonSignedRank([6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75]);
 */
export function wilcoxonSignedRank(x: NumberArray, y?: NumberArray): WilcoxonResult {
  const d = y === undefined ? finiteValues(x) : pairedDifferences(x, y);
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

  // Tie groups among |d|.
  const sortedAbs = Float64Array.from(nonZero.map(Math.abs)).sort();
  let tieTerm = 0;
  let ties = false;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && sortedAbs[j + 1] === sortedAbs[i]) j++;
    const t = j - i + 1;
    if (t > 1) {
      ties = true;
      tieTerm += t * t * t - t;
    }
    i = j + 1;
  }

  if (n <= WILCOXON_EXACT_MAX_N && !ties) {
    const pValue = Math.min(1, 2 * wilcoxonExactCdf(n, statistic));
    return { statistic, wPlus, wMinus, n, zeros, ties, method: "exact", z: Number.NaN, pValue };
  }
  const mean = total / 2;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
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
 * and dropped) and tests them against a fair coin. The test for 0/1 scores.
 *
 * @example
 * signTest([1, 1, 1, 1, 1, 1, 1, 1, 1, -1]).pValue // 0.021484375 (9 of 10)
 */
export function signTest(x: NumberArray, y?: NumberArray): SignTestResult {
  const d = y === undefined ? finiteValues(x) : pairedDifferences(x, y);
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

// ---------------------------------------------------------------------------
// Agreement

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
