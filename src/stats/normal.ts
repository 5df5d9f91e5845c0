/**
 * The standard normal distribution: erf, erfc, the CDF and its inverse.
 * simple-statistics' `cumulativeStdNormalProbability` is a 4-digit table and
 * its `errorFunction` is good to ~1e-7 only, so these are our own (erfc to
 * ~1e-14 relative).
 */

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

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/**
 * The standard normal quantile Φ⁻¹(p): the z with `normalCdf(z) = p`, found
 * by Newton steps on {@link normalCdf} (kept inside a shrinking bracket), so
 * it is as accurate as `normalCdf` (about 1e-14). p = 0 and p = 1 give −∞ and
 * +∞; p outside [0, 1] or NaN throws.
 *
 * @example
 * normalQuantile(0.975) // ≈ 1.959963984540054
 * normalQuantile(0.5)   // 0
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p must be between 0 and 1, got ${p}`);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  // A rough start (Abramowitz & Stegun 26.2.23, good to 4.5e-4), then Newton.
  const q = Math.min(p, 1 - p);
  const t = Math.sqrt(-2 * Math.log(q));
  let z = (p < 0.5 ? -1 : 1) * (t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 100; i++) {
    const error = normalCdf(z) - p;
    if (error === 0) break;
    if (error > 0) hi = Math.min(hi, z);
    else lo = Math.max(lo, z);
    const density = Math.exp(-0.5 * z * z) / SQRT_2PI;
    let next = z - error / density;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - z) <= 1e-15 * Math.max(1, Math.abs(z))) {
      z = next;
      break;
    }
    z = next;
  }
  return z;
}
