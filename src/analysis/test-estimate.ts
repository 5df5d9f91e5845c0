/**
 * The estimate and interval that belong to the test a comparison's verdict
 * follows: the Hodges–Lehmann shift with its Wilcoxon interval for the
 * signed-rank test, the share of differing questions won with its
 * Clopper–Pearson interval for the sign test. Printed beside the verdict,
 * they agree with it (the mean difference and its bootstrap interval, which
 * the tables also show, can lean otherwise: skewed differences).
 */
import type { Table } from "../dataset/table";
import { getColumn } from "../dataset/table";
import { signTest } from "../stats/paired-tests";
import { hodgesLehmann, signTestInterval } from "../stats/shift";
import { modelRows, type ModelRows } from "./compare";
import { metricScores } from "./summarize";

/** What the verdict's test estimates, with its interval (see {@link testEstimates}). */
export type TestEstimate =
  | {
      /** The Hodges–Lehmann shift of a − b (the Wilcoxon signed-rank test's estimate). */
      kind: "shift";
      estimate: number;
      /** The interval the Wilcoxon test inverts; NaN when too few differences reach its coverage. */
      low: number;
      high: number;
      /** Questions with a non-zero difference. */
      n: number;
    }
  | {
      /** The share of the questions where a and b differ that a wins (the sign test's estimate). */
      kind: "share";
      estimate: number;
      /** Its Clopper–Pearson interval, which the exact sign test inverts. */
      low: number;
      high: number;
      /** Questions a wins. */
      won: number;
      /** Questions where a and b differ. */
      n: number;
    };

/** The Wilcoxon test's estimate of x − y (or of the differences `x`): the Hodges–Lehmann shift with its interval. */
export function shiftEstimate(x: readonly number[], y?: readonly number[], confidence = 0.95): TestEstimate {
  const h = hodgesLehmann(x, y, { confidence });
  return { kind: "shift", estimate: h.estimate, low: h.low, high: h.high, n: h.n };
}

/** The sign test's estimate: the share `won` of `won + lost` with its Clopper–Pearson interval. */
export function shareEstimate(won: number, lost: number, confidence = 0.95): TestEstimate {
  const s = signTestInterval(won, lost, confidence);
  return { kind: "share", estimate: s.share, low: s.low, high: s.high, won, n: s.n };
}

/**
 * @internal A reader of test estimates for the pairs of one scored table:
 * `(a, b, test)` gives the estimate of a − b that belongs to `test` (a
 * compareModels `test` cell) at `confidence`, or undefined when the test has
 * none here (an unpaired test, whose interval is the bootstrap one of the
 * mean difference, or models the table does not pair). Reading the table
 * fails quietly (undefined for every pair): the caller then prints the mean
 * alone.
 */
export function testEstimates(table: Table, metric: string, by: string, pairBy: string, confidence = 0.95): (a: string, b: string, test: string) => TestEstimate | undefined {
  let models: Map<string, ModelRows> | undefined;
  try {
    if (getColumn(table, pairBy) !== undefined) {
      const scores = metricScores(table, metric, "headline");
      models = new Map(modelRows(table, scores, by, pairBy, "headline").map((m) => [m.name, m]));
    }
  } catch {
    models = undefined;
  }
  return (a, b, test) => {
    const ma = models?.get(a);
    const mb = models?.get(b);
    if (ma === undefined || mb === undefined) return undefined;
    const sa: number[] = [];
    const sb: number[] = [];
    for (const [id, x] of ma.byId) {
      const y = mb.byId.get(id);
      if (y !== undefined && !Number.isNaN(x) && !Number.isNaN(y)) {
        sa.push(x);
        sb.push(y);
      }
    }
    if (sa.length === 0) return undefined;
    if (test.startsWith("wilcoxon")) return shiftEstimate(sa, sb, confidence);
    if (test.startsWith("sign test")) {
      // The questions won and lost as the sign test counts them.
      const { positive, negative } = signTest(sa, sb);
      return shareEstimate(positive, negative, confidence);
    }
    return undefined;
  };
}

/**
 * @internal {@link testEstimates} for any pairing column: `(a, b, test, pairBy)`,
 * with one reader per pairing column, made when a pair first asks for it.
 */
export function estimateReader(table: Table, metric: string, by: string): (a: string, b: string, test: string, pairBy: string) => TestEstimate | undefined {
  const readers = new Map<string, ReturnType<typeof testEstimates>>();
  return (a, b, test, pairBy) => {
    let read = readers.get(pairBy);
    if (read === undefined) {
      read = testEstimates(table, metric, by, pairBy);
      readers.set(pairBy, read);
    }
    return read(a, b, test);
  };
}
