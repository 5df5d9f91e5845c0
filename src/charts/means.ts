/**
 * One number per model with its interval and its n: mean scores with seeded
 * bootstrap intervals, and rates (relevance, or any 0/1 score) with Wilson
 * score intervals, which stay honest at n = 1 and at rates of 0 or 1 (the
 * intervals `summarize` gives).
 */
import { getColumn, type Table } from "../dataset/table";
import type { PairOptions } from "../dataset/column-toolkit";
import { summarize } from "../analysis/summarize";
import { wilsonInterval } from "../stats/intervals";
import { chartTable, excludedNote, groupColumn, groupLabels, inChartWords, numberColumn, textColumn, unscoredNote } from "./data";
import { finishSpec } from "./finish";
import type { FrameInput } from "../dataset/frame-like";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { baseSpec, modelColorEncoding, POINT_OUTLINE, type VegaLiteSpec } from "./spec";

/** Options of {@link meanWithCI} and {@link relevanceRate}. */
export interface MeanChartOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
  /** Score column; default `answer_correctness` (`multimodal_relevance` for relevanceRate). */
  metric?: string;
  /** Bootstrap seed, when the chart summarises a scored frame itself. */
  seed?: number;
}

interface SummaryRow {
  model: string;
  mean: number;
  ci_low: number;
  ci_high: number;
  n: number;
  pass_rate: number;
}

/** Rows of a summary for one metric: group, mean, CI, n; summarises a scored frame first if needed (a `by` given must name a column of the input). */
function summaryRows(data: FrameInput, metric: string, byOption: string | undefined, seed: number | undefined, caller: string): { rows: SummaryRow[]; failed: number; unscored: string[]; input: Table; by: string } {
  const input = chartTable(data, caller);
  const by = groupColumn(input, byOption, caller);
  let table = input;
  if (!getColumn(table, "ci_low")) {
    // A table without the default model column is one group, as the other charts draw it.
    const options: { by?: string; metrics: string[]; seed?: number } = getColumn(input, by) ? { by, metrics: [metric] } : { metrics: [metric] };
    if (seed !== undefined) options.seed = seed;
    // The chart was asked for, not summarize: its name leads the message.
    table = chartTable(inChartWords(caller, "summarize", () => summarize(data, options)), caller);
  }
  const metrics = textColumn(table, "metric");
  const groups = groupLabels(table, by);
  const [mean, low, high, nValid, nError] = ["mean", "ci_low", "ci_high", "n_valid", "n_error"].map((c) => numberColumn(table, c, caller)) as [number[], number[], number[], number[], number[]];
  const passRate = getColumn(table, "pass_rate") ? numberColumn(table, "pass_rate", caller) : mean.map(() => Number.NaN);
  const rows: SummaryRow[] = [];
  let failed = 0;
  const unscored: string[] = [];
  metrics.forEach((m, i) => {
    if (m !== metric) return;
    failed += Number.isFinite(nError[i]!) ? nError[i]! : 0;
    if (!Number.isFinite(mean[i]!)) {
      unscored.push(groups[i]!);
      return;
    }
    rows.push({ model: groups[i]!, mean: mean[i]!, ci_low: low[i]!, ci_high: high[i]!, n: nValid[i]!, pass_rate: passRate[i]! });
  });
  if (rows.length === 0) throw new Error(`${caller}: the summary has no valid "${metric}" rows by "${by}"`);
  return { rows, failed, unscored, input, by };
}

/**
 * The groups ordered from the highest value down (ties keep their order), so
 * that the chart reads as a ranking: the best model on top. Colours stay
 * those of the groups' order in the table.
 */
function highestFirst(rows: readonly SummaryRow[], value: (row: SummaryRow) => number): string[] {
  return [...rows].sort((a, b) => value(b) - value(a)).map((r) => r.model);
}

/** "n = 1 234" with a thin grouping that renders in every font. */
function nText(n: number): string {
  return `n = ${Number.isFinite(n) ? n.toLocaleString("en-US") : "?"}`;
}

/** The layers shared by both charts: interval rule with end caps, and the value · n label right of it. */
function intervalLayers(y: Record<string, unknown>, tooltip: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const interval = { filter: "isValid(datum.ci_low) && isFinite(datum.ci_low)" };
  return [
    { transform: [interval], mark: { type: "rule", strokeWidth: 1.5, color: "#333" }, encoding: { y, x: { field: "ci_low", type: "quantitative" }, x2: { field: "ci_high" }, tooltip } },
    { transform: [interval], mark: { type: "tick", thickness: 1.5, size: 10, color: "#333" }, encoding: { y, x: { field: "ci_low", type: "quantitative" }, tooltip } },
    { transform: [interval], mark: { type: "tick", thickness: 1.5, size: 10, color: "#333" }, encoding: { y, x: { field: "ci_high", type: "quantitative" }, tooltip } },
    { mark: { type: "text", align: "left", baseline: "middle", dx: 7, fontSize: 10, color: "#333" }, encoding: { y, x: { field: "label_x", type: "quantitative" }, text: { field: "label" }, tooltip } },
  ];
}

/**
 * Mean score per model as a dot (the highest on top), its 95% interval as an error bar, and
 * "mean · n" written beside it (with "no CI" when fewer than two scores give
 * no interval), from a `summarize` result (or a scored frame, summarised with
 * a seeded bootstrap). The interval is `summarize`'s: the bootstrap CI of the
 * mean, or for 0/1 scores (a pass rate) the Wilson score interval, and the
 * subtitle names the one drawn. The subtitle names the judge (see
 * {@link JudgeLabelOptions}; a summary table has no judge column, so pass
 * `judgeLabel` with it).
 *
 * @example
 * await show(meanWithCI(summarize(scored, { by: "model" }), { judgeLabel: judge.label }));
 * await show(meanWithCI(scored)); // judge read from answer_correctness_judge
 */
export function meanWithCI(data: FrameInput, options: MeanChartOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const { rows, failed, unscored, input, by } = summaryRows(data, metric, options.by, options.seed, "meanWithCI");
  const axis = `mean ${metric}`;
  const values = rows.map((r) => {
    // A bootstrap of scores that never vary (every score 0) is a point, not a certain mean: no bar, and the label says why.
    const flat = Number.isFinite(r.ci_low) && r.ci_low === r.ci_high && !Number.isFinite(r.pass_rate);
    const hasCI = Number.isFinite(r.ci_low) && Number.isFinite(r.ci_high) && !flat;
    return {
      ...r,
      ci_low: hasCI ? r.ci_low : null,
      ci_high: hasCI ? r.ci_high : null,
      label_x: hasCI ? Math.max(r.ci_high, r.mean) : r.mean,
      label: `${r.mean.toFixed(3)} · ${nText(r.n)}${hasCI ? "" : flat ? " · no CI: every score the same" : " · no CI"}`,
    };
  });
  const models = rows.map((r) => r.model);
  const y = { field: "model", type: "nominal", title: by, sort: highestFirst(rows, (r) => r.mean) };
  const tooltip = [
    { field: "model", type: "nominal", title: by },
    { field: "mean", type: "quantitative", title: axis, format: ".3f" },
    { field: "ci_low", type: "quantitative", title: "95% CI from", format: ".3f" },
    { field: "ci_high", type: "quantitative", title: "95% CI to", format: ".3f" },
    { field: "n", type: "quantitative", title: "scored rows" },
  ];
  // summarize gives 0/1 scores (a pass rate for every row) the Wilson score interval, others the bootstrap CI.
  const binary = rows.every((r) => Number.isFinite(r.pass_rate));
  const small = !binary && rows.some((r) => !(r.n >= 2));
  const bars = binary ? "bars: 95% Wilson score interval (scores are 0 or 1)" : "bars: 95% bootstrap CI of the mean";
  const note = ["highest first", bars, small ? "no CI with fewer than 2 scores" : undefined].filter(Boolean).join(" · ");
  // What is left out on a line of its own: one long line would widen the chart.
  const left = [excludedNote(failed), unscoredNote(unscored)].filter(Boolean).join(" · ");
  return finishSpec({
    ...baseSpec(`Mean ${metric} by ${by}`, [note, left, judgeLine(options.judgeLabel, [input], [metric])]),
    width: 420,
    height: { step: 36 },
    data: { values },
    layer: [
      ...intervalLayers(y, tooltip).slice(0, 3),
      {
        mark: { type: "point", filled: true, size: 90, opacity: 1, ...POINT_OUTLINE },
        encoding: { y, x: { field: "mean", type: "quantitative", title: axis, scale: pointScale(values) }, color: { ...modelColorEncoding(models, "model", by), legend: null }, tooltip },
      },
      intervalLayers(y, tooltip)[3]!,
    ],
  });
}

/**
 * The mean axis's scale: not from zero, and 0.1 wide around the point when
 * every mean and interval is one value (one score, or equal scores), which
 * Vega would draw as an axis of one tick reading "0.901351".
 */
function pointScale(values: readonly { mean: number; ci_low: number | null; ci_high: number | null }[]): Record<string, unknown> {
  const ends = values.flatMap((v) => [v.mean, v.ci_low, v.ci_high]).filter((x): x is number => typeof x === "number" && Number.isFinite(x));
  if (ends.length === 0) return { zero: false };
  const lo = Math.min(...ends);
  const hi = Math.max(...ends);
  return hi - lo > 1e-9 ? { zero: false } : { zero: false, domain: [lo - 0.05, hi + 0.05] };
}

/**
 * Rate per model (share of valid rows scored 1, e.g. judged relevant) as a
 * bar (the highest on top), its 95% Wilson score interval as an error bar (drawn at any n, also
 * n = 1), a tick at the rate so that a rate of 0 is seen as a zero rather
 * than a missing bar, and "rate · n" written on every bar. For a score that
 * is not always 0 or 1 the interval is the bootstrap CI of the mean, and the
 * subtitle says so. The subtitle names the judge (see {@link JudgeLabelOptions}).
 *
 * @example
 * await show(relevanceRate(judged));
 * await show(relevanceRate(judged, { judgeLabel: false })); // no judge line
 */
export function relevanceRate(data: FrameInput, options: MeanChartOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "multimodal_relevance";
  const { rows, failed, unscored, input, by } = summaryRows(data, metric, options.by, options.seed, "relevanceRate");
  const binary = rows.every((r) => Number.isFinite(r.pass_rate));
  const values = rows.map((r) => {
    const n = Math.round(r.n);
    const successes = Math.round(r.mean * n);
    const interval = binary && n > 0 ? wilsonInterval(successes, n) : undefined;
    const low = interval ? interval.low : r.ci_low;
    const high = interval ? interval.high : r.ci_high;
    const hasCI = Number.isFinite(low) && Number.isFinite(high);
    return {
      model: r.model,
      rate: r.mean,
      successes: binary ? successes : null,
      n,
      ci_low: hasCI ? low : null,
      ci_high: hasCI ? high : null,
      label_x: hasCI ? Math.max(high, r.mean) : r.mean,
      label: `${(r.mean * 100).toFixed(0)}% · ${nText(n)}`,
    };
  });
  const models = rows.map((r) => r.model);
  const y = { field: "model", type: "nominal", title: by, sort: highestFirst(rows, (r) => r.mean) };
  const tooltip = [
    { field: "model", type: "nominal", title: by },
    { field: "rate", type: "quantitative", title: "rate", format: ".1%" },
    ...(binary ? [{ field: "successes", type: "quantitative", title: "judged 1" }] : []),
    { field: "n", type: "quantitative", title: "scored rows" },
    { field: "ci_low", type: "quantitative", title: "95% CI from", format: ".1%" },
    { field: "ci_high", type: "quantitative", title: "95% CI to", format: ".1%" },
  ];
  const color = { ...modelColorEncoding(models, "model", by), legend: null };
  const note = ["highest first", binary ? "bars: 95% Wilson score interval" : "bars: 95% bootstrap CI of the mean (scores are not all 0 or 1)"].join(" · ");
  const left = [excludedNote(failed), unscoredNote(unscored)].filter(Boolean).join(" · ");
  return finishSpec({
    ...baseSpec(`Relevance rate by ${by}`, [note, left, judgeLine(options.judgeLabel, [input], [metric])]),
    width: 420,
    height: { step: 36 },
    data: { values },
    layer: [
      {
        mark: { type: "bar", opacity: 0.55, size: 22 },
        encoding: { y, x: { field: "rate", type: "quantitative", title: "share judged relevant", scale: { domain: [0, 1] }, axis: { format: "%" } }, color, tooltip },
      },
      { mark: { type: "tick", thickness: 3, size: 22, opacity: 1 }, encoding: { y, x: { field: "rate", type: "quantitative" }, color, tooltip } },
      ...intervalLayers(y, tooltip),
    ],
  });
}
