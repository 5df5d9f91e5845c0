import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { describe, it } from "node:test";
import { PARALLEL_MIN_DRAWS, resampleActivity } from "../src/stats/resample-parallel";
import {
  averageRanks,
  binomialTwoSidedP,
  bootstrapMeanCI,
  cohenKappa,
  erf,
  erfc,
  finiteValues,
  hodgesLehmann,
  holm,
  mulberry32,
  nanMax,
  nanMean,
  nanMedian,
  nanMin,
  nanStd,
  normalCdf,
  pairedBootstrapCI,
  permutationTest,
  quantile7,
  roundDifferences,
  signTest,
  signTestInterval,
  spearman,
  twoSampleBootstrap,
  wilcoxonSignedRank,
} from "../src/stats";
import { agreement } from "../src/analysis/agreement";

const close = (actual: number, expected: number, tolerance = 1e-6) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
const closeRelative = (actual: number, expected: number, tolerance: number) =>
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.abs(expected), `${actual} is not within ${tolerance} (relative) of ${expected}`);

describe("NaN-aware helpers", () => {
  it("skip NaN, null, undefined and infinities instead of counting them as 0", () => {
    const x = [1, Number.NaN, null, 0, undefined, 0.5, Number.POSITIVE_INFINITY];
    assert.deepEqual(finiteValues(x), [1, 0, 0.5]);
    close(nanMean(x), 0.5, 1e-15);
    close(nanStd(x), 0.5, 1e-15);
    assert.equal(nanMedian(x), 0.5);
    assert.equal(nanMin(x), 0);
    assert.equal(nanMax(x), 1);
  });

  it("are NaN when nothing is left", () => {
    for (const f of [nanMean, nanStd, nanMedian, nanMin, nanMax]) assert.ok(Number.isNaN(f([Number.NaN, null])));
    assert.ok(Number.isNaN(nanStd([3])), "a sample standard deviation needs two values");
  });
});

describe("type-7 quantiles (R's quantile(x, p, type = 7))", () => {
  // Type 7: h = (n − 1)·p (0-based), Q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
  it("match values worked out by hand", () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    close(quantile7(x, 0.25), 3.25, 1e-12); // h = 2.25 → 3 + 0.25·1; R: quantile(1:10, .25) = 3.25
    close(quantile7(x, 0.9), 9.1, 1e-12); // h = 8.1 → 9 + 0.1·1
    assert.equal(quantile7(x, 0), 1);
    assert.equal(quantile7(x, 1), 10);
    // Unsorted, with a NaN: the sorted finite values are 2 4 4 5 7 9 10 (n = 7).
    const y = [10, Number.NaN, 2, 9, 4, 7, 5, 4];
    const [p10, p50, p75, p33] = quantile7(y, [0.1, 0.5, 0.75, 0.33]);
    close(p10!, 3.2, 1e-12); // h = 0.6 → 2 + 0.6·(4 − 2)
    close(p50!, 5, 1e-12); // h = 3 → x[3]
    close(p75!, 8, 1e-12); // h = 4.5 → 7 + 0.5·(9 − 7)
    close(p33!, 4, 1e-12); // h = 1.98 → 4 + 0.98·(4 − 4)
  });

  it("is not simple-statistics' old nearest-rank rule, and refuses bad probabilities", () => {
    // The pre-7.12 simple-statistics rule gives 3 here (x[ceil(n·p) − 1]); type 7 gives 3.25.
    assert.notEqual(quantile7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.25), 3);
    assert.ok(Number.isNaN(quantile7([Number.NaN], 0.5)));
    assert.throws(() => quantile7([1, 2], 1.5), /between 0 and 1/);
  });
});

describe("normal CDF and erfc", () => {
  it("match reference values (R's pnorm, 40-digit mpmath)", () => {
    close(normalCdf(1.96), 0.9750021048517795, 1e-15);
    close(normalCdf(-3), 0.0013498980316301, 1e-16);
    assert.equal(normalCdf(0), 0.5);
    close(normalCdf(-1), 0.15865525393145707, 1e-15);
    closeRelative(normalCdf(-5), 2.866515718791939e-7, 1e-12);
    closeRelative(normalCdf(-8), 6.22096057427178e-16, 1e-12);
    closeRelative(1 - normalCdf(1.96), 0.0249978951482204, 1e-10);
  });

  it("erfc keeps relative precision in the tail, where 1 − erf loses it", () => {
    close(erfc(0), 1, 0);
    closeRelative(erfc(1), 0.157299207050285130658, 1e-14);
    closeRelative(erfc(0.3), 0.671373240540872583, 1e-14);
    closeRelative(erfc(2.5), 4.06952017444958939e-4, 1e-14);
    closeRelative(erfc(6), 2.15197367124989131e-17, 1e-13);
    closeRelative(erfc(-1), 1.842700792949714869, 1e-15);
    closeRelative(erf(0.2), 0.222702589210478466, 1e-14);
    closeRelative(erf(-2), -0.995322265018952734, 1e-15);
    assert.ok(Number.isNaN(erfc(Number.NaN)));
  });
});

describe("Wilcoxon signed-rank test", () => {
  it("Darwin's maize data (SciPy's documentation): W = 24, exact two-sided p = 0.041259765625", () => {
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const r = wilcoxonSignedRank(d);
    assert.equal(r.method, "exact");
    assert.equal(r.statistic, 24);
    assert.equal(r.wMinus, 24); // ranks of |−48| = 10 and |−67| = 14
    assert.equal(r.wPlus, 96);
    close(r.pValue, 0.041259765625, 1e-12);
    // The same from two paired samples.
    const y = d.map((_, i) => 100 + i);
    close(wilcoxonSignedRank(d.map((v, i) => v + y[i]!), y).pValue, 0.041259765625, 1e-12);
  });

  it("normal approximation with ties and a zero, z worked out by hand", () => {
    // d = 1 2 2 3 3 3 −1 4 5 −2 0. The zero is dropped: n = 10.
    // |d| sorted: 1 1 | 2 2 2 | 3 3 3 | 4 | 5 → average ranks 1.5, 4, 7, 9, 10.
    // W+ = 1.5 + 4 + 4 + 7·3 + 9 + 10 = 49.5;  W− = 1.5 + 4 = 5.5;  W+ + W− = 55 = 10·11/2.
    // mean = 27.5; var = 10·11·21/24 − [(2³−2) + (3³−3) + (3³−3)]/48 = 96.25 − 54/48 = 95.125.
    // z = (49.5 − 27.5 − 0.5)/√95.125 = 21.5/9.7532046… = 2.2044036681593…
    // p = 2·(1 − Φ(2.2044036681593)) = 0.027495967938017 (SciPy: wilcoxon(d, correction=True, method="approx")).
    const r = wilcoxonSignedRank([1, 2, 2, 3, 3, 3, -1, 4, 5, -2, 0], undefined, { method: "normal" });
    assert.equal(r.method, "normal");
    assert.equal(r.ties, true);
    assert.equal(r.zeros, 1);
    assert.equal(r.n, 10);
    assert.equal(r.wPlus, 49.5);
    assert.equal(r.statistic, 5.5);
    close(r.z, 21.5 / Math.sqrt(95.125), 1e-12);
    close(r.z, 2.20440366815937, 1e-12);
    close(r.pValue, 0.0274959679380172, 1e-12);
  });

  it("is exact with ties too, over their average ranks: the data above, counted by hand", () => {
    // Ranks 1.5 1.5 4 4 4 7 7 7 9 10; W− = 5.5. Sign patterns with W+ ≤ 5.5: none positive (1),
    // one 1.5 (2), both 1.5s (1), one 4 (3), a 1.5 and a 4 (2·3 = 6): 13 of 2^10. p = 2·13/1024.
    const r = wilcoxonSignedRank([1, 2, 2, 3, 3, 3, -1, 4, 5, -2, 0]);
    assert.equal(r.method, "exact");
    assert.equal(r.ties, true);
    assert.equal(r.statistic, 5.5);
    close(r.pValue, 26 / 1024, 1e-15);
  });

  it("never reports a p-value that so few tied pairs cannot reach (5 equal differences: 2/32, not 0.037)", () => {
    const five = wilcoxonSignedRank([0.25, 0.25, 0.25, 0.25, 0.25]);
    assert.equal(five.method, "exact");
    close(five.pValue, 2 / 32, 1e-15);
    // Brute force over every sign pattern agrees on tied data of mixed signs.
    const d = [0.5, -0.5, 0.25, 0.25, 1, -0.25, 0.5, 0.75, 0.5];
    const ranks = averageRanks(d.map(Math.abs));
    const observed = Math.min(...[1, -1].map((sign) => d.reduce((s, v, i) => s + (Math.sign(v) === sign ? ranks[i]! : 0), 0)));
    let atMost = 0;
    for (let mask = 0; mask < 2 ** d.length; mask++) {
      let w = 0;
      for (let i = 0; i < d.length; i++) if (mask & (1 << i)) w += ranks[i]!;
      if (w <= observed + 1e-9) atMost++;
    }
    close(wilcoxonSignedRank(d).pValue, Math.min(1, (2 * atMost) / 2 ** d.length), 1e-15);
    assert.throws(() => wilcoxonSignedRank(d, undefined, { method: "sideways" as "exact" }), /method must be "auto", "exact" or "normal"/);
  });

  it("is exact up to n = 25, normal beyond, and p = 1 with no non-zero difference", () => {
    const up = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -(i + 1) : i + 1));
    assert.equal(wilcoxonSignedRank(up(25)).method, "exact");
    assert.equal(wilcoxonSignedRank(up(26)).method, "normal");
    const none = wilcoxonSignedRank([0, 0, Number.NaN]);
    assert.equal(none.n, 0);
    assert.equal(none.pValue, 1);
    // The smallest exact p with n = 5, all positive: 2/2^5.
    close(wilcoxonSignedRank([1, 2, 3, 4, 5]).pValue, 0.0625, 1e-15);
  });
});

describe("sign test", () => {
  it("exact two-sided binomial p-values", () => {
    const nineOfTen = signTest([1, 1, 1, 1, 1, 1, 1, 1, 1, -1, 0, 0]); // ties dropped
    assert.equal(nineOfTen.n, 10);
    assert.equal(nineOfTen.ties, 2);
    close(nineOfTen.pValue, 0.021484375, 1e-12); // 2·(1 + 10)/1024
    close(binomialTwoSidedP(0, 5), 0.0625, 1e-15); // 2/32
    close(binomialTwoSidedP(3, 8), 0.7265625, 1e-12); // 2·(1 + 8 + 28 + 56)/256
    assert.equal(binomialTwoSidedP(5, 10), 1);
    assert.equal(signTest([0, 0]).pValue, 1);
    // Large n stays finite (2^-6200 underflows): SciPy binomtest(3000, 6200).pvalue.
    closeRelative(binomialTwoSidedP(3000, 6200), 0.011488253770871584, 1e-9);
  });

  it("from paired samples", () => {
    const r = signTest([1, 1, 0, 1, Number.NaN], [0, 1, 1, 0, 1]);
    assert.deepEqual([r.positive, r.negative, r.ties], [2, 1, 1]);
  });
});

describe("the estimates that belong to the paired tests", () => {
  /** Every Walsh average (d_i + d_j)/2, i ≤ j, of the non-zero differences, sorted: the brute force the fast code avoids. */
  const walsh = (d: number[]) => {
    const nz = d.filter((v) => v !== 0);
    const out: number[] = [];
    for (let i = 0; i < nz.length; i++) for (let j = i; j < nz.length; j++) out.push((nz[i]! + nz[j]!) / 2);
    return out.sort((a, b) => a - b);
  };

  it("Hodges–Lehmann on Darwin's maize data: the pseudo-median 25 and the 26th to the 95th of the 120 Walsh averages (R's rule for n = 15)", () => {
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    const h = hodgesLehmann(d);
    const w = walsh(d);
    assert.equal(h.estimate, 25);
    // qsignrank(0.025, 15) = 26: the interval runs from the 26th smallest to the 26th largest Walsh average.
    assert.equal(h.low, w[25]);
    assert.equal(h.high, w[120 - 26]);
    assert.deepEqual([h.low, h.high], [4, 41.5]);
    assert.equal(h.method, "exact");
    // Paired samples give the same as their differences.
    assert.deepEqual(hodgesLehmann(d.map((v) => v + 100), d.map(() => 100)), h);
  });

  it("its interval excludes 0 exactly when the Wilcoxon test rejects, on 2,000 random samples without ties (exact and normal)", () => {
    const rng = mulberry32(7);
    let mismatches = 0;
    let rejected = 0;
    for (let t = 0; t < 2000; t++) {
      const n = 6 + Math.floor(rng() * 55);
      const shift = (rng() - 0.5) * 0.8;
      const d = Array.from({ length: n }, () => shift + (rng() - 0.5) * 1.5);
      const h = hodgesLehmann(d);
      const reject = wilcoxonSignedRank(d).pValue < 0.05;
      if (reject) rejected++;
      if ((h.low > 0 || h.high < 0) !== reject) mismatches++;
      if (n <= 30 && t % 10 === 0) {
        const w = walsh(roundDifferences(d)); // as the test sees them: 12 significant digits
        const m = w.length;
        assert.equal(h.estimate, m % 2 === 1 ? w[(m - 1) / 2] : (w[m / 2 - 1]! + w[m / 2]!) / 2);
        assert.ok(w.includes(h.low) && w.includes(h.high), "the bounds are Walsh averages");
      }
    }
    assert.equal(mismatches, 0);
    assert.ok(rejected > 300 && rejected < 1700, `both outcomes are exercised (${rejected} rejected)`);
  });

  it("drops zero differences as the test does, and gives no interval where no outcome reaches 95%", () => {
    const h = hodgesLehmann([0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    assert.equal(h.zeros, 3);
    assert.equal(h.n, 6);
    close(h.estimate, 0.35, 1e-12);
    // Five differences cannot reach p < 0.05 (the smallest exact p is 2/32): no 95% interval, not a too-narrow one.
    const five = hodgesLehmann([1, 2, 3, 4, 5]);
    assert.equal(five.estimate, 3);
    assert.ok(Number.isNaN(five.low) && Number.isNaN(five.high));
    assert.equal(hodgesLehmann([0, 0]).estimate, 0);
    assert.ok(Number.isNaN(hodgesLehmann([]).estimate));
    assert.throws(() => hodgesLehmann([1, 2], undefined, { confidence: 1 }), /confidence must be between 0 and 1/);
  });

  it("100,000 pairs take one pass of bisection, not 5 billion Walsh averages", () => {
    const rng = mulberry32(3);
    const d = Array.from({ length: 100_000 }, () => 0.02 + rng() - 0.5);
    const h = hodgesLehmann(d);
    assert.equal(h.method, "normal");
    assert.ok(h.low < h.estimate && h.estimate < h.high && h.low > -0.05 && h.high < 0.1, JSON.stringify(h));
  });

  it("the sign test's share with its Clopper–Pearson interval: excludes one half exactly when the test's p ≤ 0.05", () => {
    const nine = signTestInterval(9, 1);
    close(nine.share, 0.9, 1e-15);
    // R: binom.test(9, 10)$conf.int = 0.5549839 0.9974714
    close(nine.low, 0.5549839, 1e-6);
    close(nine.high, 0.9974714, 1e-6);
    assert.deepEqual([signTestInterval(0, 3).low, signTestInterval(3, 0).high], [0, 1]);
    assert.ok(Number.isNaN(signTestInterval(0, 0).share));
    for (let n = 1; n <= 60; n++) {
      for (let k = 0; k <= n; k++) {
        const s = signTestInterval(k, n - k);
        assert.equal(s.low > 0.5 || s.high < 0.5, binomialTwoSidedP(k, n) < 0.05, `${k} of ${n}`);
      }
    }
  });
});

describe("Holm's adjustment", () => {
  it("worked example: [0.01, 0.04, 0.03, 0.005] → [0.03, 0.06, 0.06, 0.02]", () => {
    // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max(0.06, 0.04) = 0.06
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((p, i) => close(adjusted[i]!, p, 1e-15));
  });

  it("is capped at 1 and leaves NaN out of m", () => {
    assert.deepEqual(holm([0.5, 0.6]), [1, 1]);
    const withNaN = holm([0.01, Number.NaN, 0.5]);
    close(withNaN[0]!, 0.02, 1e-15);
    assert.ok(Number.isNaN(withNaN[1]!));
    close(withNaN[2]!, 0.5, 1e-15);
    assert.throws(() => holm([1.2]), /between 0 and 1/);
  });
});

describe("Cohen's kappa", () => {
  // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15.
  // p_o = 35/50 = 0.7; p_yes = 25/50 · 30/50 = 0.3, p_no = 25/50 · 20/50 = 0.2, p_e = 0.5; κ = 0.2/0.5 = 0.4.
  const rater = (pairs: [string, string, number][]) => {
    const a: string[] = [];
    const b: string[] = [];
    for (const [x, y, count] of pairs) for (let i = 0; i < count; i++) a.push(x), b.push(y);
    return [a, b] as const;
  };
  const [a, b] = rater([
    ["yes", "yes", 20],
    ["yes", "no", 5],
    ["no", "yes", 10],
    ["no", "no", 15],
  ]);

  it("worked example → 0.4, with labels or 0/1", () => {
    close(cohenKappa(a, b), 0.4, 1e-15);
    const bits = (v: string) => (v === "yes" ? 1 : 0);
    close(cohenKappa(a.map(bits), b.map(bits)), 0.4, 1e-15);
  });

  it("skips missing labels; 1 for perfect agreement; NaN when undefined", () => {
    close(cohenKappa([...a, null, "yes"], [...b, "no", ""]), 0.4, 1e-15);
    assert.equal(cohenKappa([1, 0, 1], [1, 0, 1]), 1);
    assert.ok(Number.isNaN(cohenKappa([1, 1], [1, 1])));
    assert.throws(() => cohenKappa([1], [1, 0]), /differ in length/);
  });
});

describe("Spearman's rank correlation", () => {
  it("without ties: IQ vs hours of TV (Wikipedia), Σd² = 194 → ρ = 1 − 6·194/(10·99) = −29/165", () => {
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    close(spearman(iq, tv), -29 / 165, 1e-12);
  });

  it("with ties: Pearson on average ranks", () => {
    // x = 1 2 2 3 → ranks 1 2.5 2.5 4; y = 1 3 2 4 → ranks 1 3 2 4; both means 2.5.
    // Sxy = 2.25 + 0 + 0 + 2.25 = 4.5; Sxx = 4.5; Syy = 5 → ρ = 4.5/√22.5 = √0.9 = 0.9486832980505138
    close(spearman([1, 2, 2, 3], [1, 3, 2, 4]), Math.sqrt(0.9), 1e-12);
    assert.deepEqual(Array.from(averageRanks([1, 2, 2, 3])), [1, 2.5, 2.5, 4]);
  });

  it("a perfect (anti-)correlation is exactly 1 (-1), two pairs included; agreement() says the same", () => {
    assert.equal(spearman([0.2, 0.7], [0.9, 0.1]), -1);
    assert.equal(spearman([0.2, 0.7], [0.1, 0.9]), 1);
    assert.equal(spearman([1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1]), -1);
    assert.equal(spearman([1, 1, 2, 3, 3, 9], [5, 5, 4, 2, 2, 0]), -1, "with ties");
    assert.equal(spearman([3, 1, 2, Number.NaN], [30, 10, 20, 5]), 1);
    assert.deepEqual(agreement([0.2, 0.7], [0.9, 0.1]), { method: "spearman", value: -1, n: 2, n_dropped: 0 });
    // The doc comment's example, exactly.
    assert.equal(spearman([1, 2, 3, 4], [10, 20, 40, 30]), 0.8);
  });

  it("other values are Pearson's r of the ranks, as before to within rounding", () => {
    const random = mulberry32(7);
    for (const n of [3, 10, 57, 400]) {
      // Scores on a coarse grid, so that ties are common.
      const x = Array.from({ length: n }, () => Math.round(random() * 20) / 20);
      const y = x.map((v) => Math.round((v + random() - 0.5) * 10) / 10);
      const ranksX = Array.from(averageRanks(x));
      const ranksY = Array.from(averageRanks(y));
      const pearson = (a: number[], b: number[]) => {
        const ma = a.reduce((s, v) => s + v, 0) / a.length;
        const mb = b.reduce((s, v) => s + v, 0) / b.length;
        let sab = 0;
        let saa = 0;
        let sbb = 0;
        for (let i = 0; i < a.length; i++) {
          sab += (a[i]! - ma) * (b[i]! - mb);
          saa += (a[i]! - ma) ** 2;
          sbb += (b[i]! - mb) ** 2;
        }
        return sab / Math.sqrt(saa * sbb);
      };
      close(spearman(x, y), pearson(ranksX, ranksY), 1e-12);
    }
  });

  it("drops incomplete pairs; NaN when undefined", () => {
    close(spearman([1, 2, 2, 3, Number.NaN], [1, 3, 2, 4, 5]), Math.sqrt(0.9), 1e-12);
    assert.ok(Number.isNaN(spearman([1, 1, 1], [1, 2, 3])));
    assert.ok(Number.isNaN(spearman([1], [2])));
  });
});

describe("seeded bootstrap", () => {
  const rng = mulberry32(11);
  const x = Array.from({ length: 60 }, () => rng());

  it("is seeded: the same seed gives the identical interval, another seed a different one", () => {
    const a = bootstrapMeanCI(x, { seed: 1 });
    const b = bootstrapMeanCI(x, { seed: 1 });
    const c = bootstrapMeanCI(x, { seed: 2 });
    assert.deepEqual(a, b);
    assert.ok(a.low !== c.low || a.high !== c.high);
    assert.deepEqual(bootstrapMeanCI(x), bootstrapMeanCI(x), "the default seed is fixed");
  });

  it("contains the mean, and is the percentile interval of mulberry32 resamples", () => {
    const ci = bootstrapMeanCI(x, { seed: 5, replicates: 500 });
    assert.ok(ci.low < ci.estimate && ci.estimate < ci.high);
    close(ci.estimate, nanMean(x), 1e-15);
    // A plain re-implementation: same stream, same index rule, same quantiles.
    const r = mulberry32(5);
    const means: number[] = [];
    for (let b = 0; b < 500; b++) {
      let s = 0;
      for (let i = 0; i < x.length; i++) s += x[Math.floor(r() * x.length)]!;
      means.push(s / x.length);
    }
    close(ci.low, quantile7(means, 0.025), 1e-12);
    close(ci.high, quantile7(means, 0.975), 1e-12);
  });

  it("a bootstrap large enough to share between threads gives the numbers of one pass, whoever computes which replicates", async () => {
    const r = mulberry32(17);
    const n = 10_000;
    const big = Array.from({ length: n }, () => r());
    assert.ok(n * 2000 >= PARALLEL_MIN_DRAWS, "large enough for the threads");
    // A plain re-implementation, one replicate after another from one stream.
    const plain = mulberry32(23);
    const means: number[] = [];
    for (let b = 0; b < 2000; b++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += big[Math.floor(plain() * n)]!;
      means.push(sum / n);
    }
    const before = { ...resampleActivity };
    const byWorkers = () => resampleActivity.chunks - resampleActivity.chunksByCaller - (before.chunks - before.chunksByCaller);
    // Worker threads start while the caller computes; by a later run they take chunks of their own.
    // On a loaded machine they may take a while to come up: each later run waits a little longer first.
    for (let run = 0; run < 12 && (run === 0 || byWorkers() === 0); run++) {
      if (run > 0) await new Promise((resolve) => setTimeout(resolve, 50 * run));
      const ci = bootstrapMeanCI(big, { seed: 23 });
      close(ci.low, quantile7(means, 0.025), 1e-12);
      close(ci.high, quantile7(means, 0.975), 1e-12);
    }
    assert.ok(resampleActivity.parallelRuns > before.parallelRuns, "the threaded path ran");
    if (availableParallelism() > 1) assert.ok(byWorkers() > 0, "worker threads computed some of the replicates");
    // Two samples: the second sample's stream starts where the first's ended, across threads too.
    const other = big.map((v) => v * 0.9);
    const two = twoSampleBootstrap(big, other, { seed: 29 });
    const stream = mulberry32(29);
    const diffs = new Array<number>(2000).fill(0);
    for (const [sample, sign] of [[big, 1], [other, -1]] as const) {
      for (let b = 0; b < 2000; b++) {
        let sum = 0;
        for (let i = 0; i < n; i++) sum += sample[Math.floor(stream() * n)]!;
        diffs[b] = diffs[b]! + (sign * sum) / n;
      }
    }
    close(two.low, quantile7(diffs, 0.025), 1e-12);
    close(two.high, quantile7(diffs, 0.975), 1e-12);
  });

  it("draws resample counts directly for large 0/1 samples, with the same distribution", () => {
    const r = mulberry32(3);
    const n = 20000;
    const bits = Array.from({ length: n }, () => (r() < 0.3 ? 1 : 0));
    const p = nanMean(bits);
    const se = Math.sqrt((p * (1 - p)) / n);
    const ci = bootstrapMeanCI(bits, { seed: 9, replicates: 4000 });
    // The bootstrap distribution of a proportion is Binomial(n, p)/n: close to p ± 1.96·se.
    close(ci.low, p - 1.959964 * se, 0.0008);
    close(ci.high, p + 1.959964 * se, 0.0008);
  });

  it("paired: resamples pairs and drops incomplete ones", () => {
    const ci = pairedBootstrapCI([0.9, 0.8, 0.7, 1], [0.5, 0.8, 0.6, Number.NaN], { seed: 7 });
    assert.equal(ci.n, 3);
    close(ci.estimate, 0.5 / 3, 1e-15);
    assert.throws(() => pairedBootstrapCI([1], [1, 2]), /differ in length/);
  });

  it("two-sample: interval of the difference in means and a p-value", () => {
    const far = twoSampleBootstrap([0.9, 0.95, 0.85, 0.9, 0.92, 0.88], [0.1, 0.2, 0.15, 0.12, 0.18], { seed: 1 });
    close(far.estimate, 0.9 - 0.15, 1e-12);
    assert.ok(far.low > 0.6 && far.high < 0.9);
    close(far.pValue, 2 / 2001, 1e-12); // no replicate at or below 0
    const same = twoSampleBootstrap([0.2, 0.4, 0.6], [0.6, 0.4, 0.2], { seed: 1 });
    assert.ok(same.pValue > 0.5);
    assert.ok(Number.isNaN(twoSampleBootstrap([], [1]).pValue));
  });
});

describe("float noise in paired differences", () => {
  // Ten questions, every difference 0.1 on paper (one of them −0.1); in binary, 0.3 − 0.2 and 0.2 − 0.1 differ in their last digits.
  const a = [0.3, 0.2, 0.7, 0.4, 0.9, 0.6, 0.5, 0.8, 1.0, 0.15];
  const b = [0.2, 0.1, 0.6, 0.3, 0.8, 0.5, 0.6, 0.7, 0.9, 0.05];

  it("Wilcoxon ranks differences that are equal to 12 significant digits as ties, as it would the decimals themselves", () => {
    const raw = wilcoxonSignedRank(a, b);
    const decimal = wilcoxonSignedRank([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, -0.1, 0.1, 0.1, 0.1]);
    assert.equal(raw.ties, true);
    assert.equal(raw.method, "exact");
    assert.equal(raw.wPlus, decimal.wPlus);
    // Every rank 5.5: the sign patterns with W+ ≤ 5.5 are the one with no positive and the ten with one, 11 of 2^10.
    close(raw.pValue, (2 * 11) / 1024, 1e-15);
    close(raw.pValue, decimal.pValue, 1e-15);
    // Every |d| tied at rank 5.5: W+ = 9·5.5 = 49.5, W− = 5.5.
    assert.equal(raw.wPlus, 49.5);
  });

  it("a difference that is 0 but for float noise is a zero, dropped, in both tests; real small differences stay", () => {
    assert.deepEqual(roundDifferences([0.3 - 0.2, 0.2 - 0.1, 0.1 + 0.2 - 0.3]), [0.1, 0.1, 0]);
    const w = wilcoxonSignedRank([0.1 + 0.2, 0.5, 0.6], [0.3, 0.4, 0.4]);
    assert.deepEqual([w.zeros, w.n], [1, 2]);
    assert.deepEqual([signTest([0.1 + 0.2, 0.5], [0.3, 0.4]).ties, signTest([0.1 + 0.2, 0.5], [0.3, 0.4]).positive], [1, 1]);
    // Tiny data keep their digits: the rounding is relative to the data, not to 1.
    assert.equal(wilcoxonSignedRank([3e-15, 1e-15, -2e-15]).n, 3);
  });
});

describe("permutationTest (exact, two samples)", () => {
  it("cannot go below 2/C(4, 2) = 1/3 with two scores a side, however far apart", () => {
    const r = permutationTest([0.2, 0.21], [0.9, 0.91])!;
    assert.equal(r.splits, 6);
    close(r.pValue, 1 / 3, 1e-15);
    close(r.estimate, -0.7, 1e-12);
  });

  it("counts the splits at least as extreme as the observed one, ties in |difference| included", () => {
    // Pooled 1, 2, 3, 4 split 2/2: differences ±2 (once each), ±1 (twice each), 0 (twice); observed 3,4 vs 1,2: 2 of 6 splits.
    close(permutationTest([3, 4], [1, 2])!.pValue, 2 / 6, 1e-15);
    // Observed 1,4 vs 2,3 (difference 0): every split is as extreme.
    assert.equal(permutationTest([1, 4], [2, 3])!.pValue, 1);
    // Six against six, fully separated: 2 of C(12, 6) = 924.
    close(permutationTest([0.9, 0.8, 0.95, 0.85, 0.9, 0.88], [0.2, 0.3, 0.1, 0.25, 0.2, 0.15])!.pValue, 2 / 924, 1e-15);
  });

  it("returns undefined with fewer than 2 values a side, or more splits than it enumerates", () => {
    assert.equal(permutationTest([0.2], [0.9, 0.8]), undefined);
    assert.equal(permutationTest([0.2, Number.NaN], [0.9, 0.8]), undefined);
    const ten = Array.from({ length: 10 }, (_, i) => i / 10);
    assert.equal(permutationTest(ten, ten), undefined, "C(20, 10) = 184,756 splits");
    assert.ok(permutationTest(ten, ten, 200_000) !== undefined);
  });
});
