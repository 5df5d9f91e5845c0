/**
 * The Wilson score interval of a proportion, which stays inside [0, 1] and
 * keeps a sensible width at n = 1 and at 0 or n successes, where the normal ("Wald") interval collapses to a point.
 */
import { normalQuantile } from "./normal";

/** A proportion with its interval, from {@link wilsonInterval}. */
export interface ProportionInterval {
  /** successes / n (NaN when n = 0). */
  rate: number;
  /** Lower end of the interval (0 when there are no successes). */
  low: number;
  /** Upper end of the interval (1 when every trial succeeded). */
  high: number;
  /** Number of trials. */
  n: number;
  /** Coverage asked for, e.g. 0.95. */
  confidence: number;
}

/**
 * The Wilson score interval of a proportion (Wilson, 1927): the rates p whose
 * normal test against successes / n does not reject at the given coverage.
 * Unlike the normal ("Wald") interval it is never a single point at 0 or n
 * successes and never leaves [0, 1], so it is honest at small n: 0 of 1
 * gives [0, 0.79]. With n = 0 every field is NaN except `n` and `confidence`.
 *
 * @example
 * wilsonInterval(3, 10)  // { rate: 0.3, low: ≈ 0.1078, high: ≈ 0.6032, n: 10, confidence: 0.95 }
 * wilsonInterval(0, 1)   // { rate: 0, low: 0, high: ≈ 0.7935, … }
 * wilsonInterval(1, 1, 0.9).low // ≈ 0.2699
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): ProportionInterval {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`wilsonInterval: n must be a whole number ≥ 0, got ${n}`);
  if (!Number.isFinite(successes) || successes < 0 || successes > n) throw new RangeError(`wilsonInterval: successes must be between 0 and n = ${n}, got ${successes}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`wilsonInterval: confidence must be between 0 and 1, got ${confidence}`);
  if (n === 0) return { rate: Number.NaN, low: Number.NaN, high: Number.NaN, n, confidence };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const rate = successes / n;
  const denominator = 1 + z2 / n;
  const centre = (rate + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n));
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return { rate, low, high, n, confidence };
}
