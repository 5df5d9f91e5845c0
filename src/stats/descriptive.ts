/**
 * NaN-aware descriptive statistics on number arrays: finite values, mean,
 * standard deviation, min, max, median, type-7 quantiles, average ranks and
 * paired differences.
 *
 * Everything here takes plain arrays (or typed arrays) and knows nothing of
 * DataFrames. "Valid" always means a finite number: NaN, null, undefined and
 * ±Infinity are missing values and are skipped, never counted as 0.
 *
 * simple-statistics 7.12 supplies the descriptives: `mean` (compensated sum),
 * `sampleStandardDeviation`, and `quantileSorted`, which in 7.12 is R's type 7
 * (checked against hand-computed R values in test/stats.test.ts).
 */
import { ss } from "./simple-statistics";

/** Numbers as the statistics accept them: an array or typed array, with missing values as NaN, null or undefined. */
export type NumberArray = ArrayLike<number | null | undefined>;

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
