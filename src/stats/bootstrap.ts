/**
 * Seeded percentile bootstrap intervals: of a mean, of a paired mean
 * difference, and of the difference of two independent means (with its
 * two-sided p-value).
 */
import { finiteValues, pairedDifferences, quantileSorted7, type NumberArray } from "./descriptive";
import { DEFAULT_SEED, seedToUint32 } from "./random";
import { resampleMeansParallel } from "./resample-parallel";
import { ss } from "./simple-statistics";

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
 * subtracted from what `out` holds): n indices per replicate from the
 * seeded stream, on several threads when the bootstrap is large
 * (resample-parallel.ts; the same numbers either way). Returns the
 * generator state after the last draw.
 */
function resampleMeans(x: Float64Array, B: number, state: number, out: Float64Array, subtract = false): number {
  if (!subtract) return resampleMeansParallel(x, B, state, out);
  const means = new Float64Array(B);
  const after = resampleMeansParallel(x, B, state, means);
  for (let b = 0; b < B; b++) out[b] = out[b]! - means[b]!;
  return after;
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
 * Whether a bootstrap interval is a point: its two ends equal but for
 * rounding (values that never vary, e.g. every pair differing by the same
 * 0.01, whose resampled means differ only in the 17th digit). Such an
 * interval says nothing of the uncertainty, and is shown as none rather
 * than as a certain-looking "0.01–0.01". NaN ends are not a point.
 *
 * @example
 * isPointInterval(0.010000000000000005, 0.010000000000000009) // true
 * isPointInterval(0.01, 0.0101) // false
 */
export function isPointInterval(low: number, high: number): boolean {
  return Number.isFinite(low) && Number.isFinite(high) && Math.abs(high - low) <= 1e-12 * Math.max(1, Math.abs(low), Math.abs(high));
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
