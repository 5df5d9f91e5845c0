/**
 * Comparing models: means with bootstrap CIs, per-question differences,
 * wins/ties/losses, pass rates across thresholds, relevance rates. Every
 * interval comes from our seeded bootstrap, never from Vega's random ci0/ci1.
 */
import { getColumn } from "../dataset/table";
import { compareModels } from "../analysis/compare";
import { summarize } from "../analysis/summarize";
import { chartTable, excludedNote, groupRows, numberColumn, textColumn, type ChartInput } from "./data";
import { baseSpec, MAX_INLINE_ROWS, modelColorEncoding, type VegaLiteSpec } from "./spec";

/** Options of {@link meanWithCI} and {@link relevanceRate}. */
export interface MeanChartOptions {
  /** Score column; default `answer_correctness` (`multimodal_relevance` for relevanceRate). */
  metric?: string;
  /** Group column; default `model`. */
  by?: string;
  /** Bootstrap seed, when the chart summarises a scored frame itself. */
  seed?: number;
}

/** Rows of a summary for one metric: group, mean and CI; summarises a scored frame first if needed. */
function summaryRows(data: ChartInput, metric: string, by: string, seed: number | undefined, caller: string) {
  let table = chartTable(data, caller);
  if (!getColumn(table, "ci_low")) {
    const options: { by: string; metrics: string[]; seed?: number } = { by, metrics: [metric] };
    if (seed !== undefined) options.seed = seed;
    table = chartTable(summarize(data, options), caller);
  }
  const metrics = textColumn(table, "metric");
  const groups = textColumn(table, by);
  const [mean, low, high, nValid, nError] = ["mean", "ci_low", "ci_high", "n_valid", "n_error"].map((c) => numberColumn(table, c, caller)) as [number[], number[], number[], number[], number[]];
  const rows: Record<string, unknown>[] = [];
  let failed = 0;
  metrics.forEach((m, i) => {
    if (m !== metric) return;
    failed += nError[i]!;
    if (!Number.isFinite(mean[i]!)) return;
    rows.push({ model: groups[i], mean: mean[i], ci_low: low[i], ci_high: high[i], n: nValid[i] });
  });
  if (rows.length === 0) throw new Error(`${caller}: the summary has no valid "${metric}" rows by "${by}"`);
  return { rows, failed };
}

function meanSpec(title: string, axis: string, rows: Record<string, unknown>[], failed: number, by: string, bars: boolean): VegaLiteSpec {
  const models = rows.map((r) => String(r["model"]));
  const y = { field: "model", type: "nominal", title: by, sort: models };
  const tooltip = [
    { field: "model", type: "nominal", title: by },
    { field: "mean", type: "quantitative", title: axis, format: ".3f" },
    { field: "ci_low", type: "quantitative", title: "95% CI from", format: ".3f" },
    { field: "ci_high", type: "quantitative", title: "95% CI to", format: ".3f" },
    { field: "n", type: "quantitative", title: "scored rows" },
  ];
  const color = modelColorEncoding(models, "model", by);
  return {
    ...baseSpec(title, ["bars: 95% bootstrap CI of the mean", excludedNote(failed)].filter(Boolean).join(" · ")),
    width: 420,
    height: { step: 36 },
    data: { values: rows },
    layer: [
      bars
        ? { mark: { type: "bar", opacity: 0.6, size: 22 }, encoding: { y, x: { field: "mean", type: "quantitative", title: axis, scale: { domain: [0, 1] } }, color, tooltip } }
        : { mark: { type: "point", filled: true, size: 90 }, encoding: { y, x: { field: "mean", type: "quantitative", title: axis, scale: { zero: false } }, color, tooltip } },
      { mark: { type: "rule", strokeWidth: 2, color: "#333" }, encoding: { y, x: { field: "ci_low", type: "quantitative" }, x2: { field: "ci_high" }, tooltip } },
    ],
  };
}

/**
 * Mean score per model with its 95% bootstrap CI as an error bar, from a
 * `summarize` result (or a scored frame, summarised with a seeded bootstrap).
 *
 * @example
 * await show(meanWithCI(summarize(scored, { by: "model" })));
 */
export function meanWithCI(data: ChartInput, options: MeanChartOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const by = options.by ?? "model";
  const { rows, failed } = summaryRows(data, metric, by, options.seed, "meanWithCI");
  return meanSpec(`Mean ${metric} by ${by}`, `mean ${metric}`, rows, failed, by, false);
}

/**
 * Multimodal relevance rate (share of rows judged relevant) per model, with
 * its 95% bootstrap CI.
 *
 * @example
 * await show(relevanceRate(judged));
 */
export function relevanceRate(data: ChartInput, options: MeanChartOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "multimodal_relevance";
  const by = options.by ?? "model";
  const { rows, failed } = summaryRows(data, metric, by, options.seed, "relevanceRate");
  return meanSpec(`Relevance rate by ${by}`, "share judged relevant", rows, failed, by, true);
}

/** Options of {@link pairedDifferences}. */
export interface PairedDifferencesOptions {
  /** First model (A); default the first model in the table. */
  a?: string;
  /** Second model (B); default the second model in the table. */
  b?: string;
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Model column; default `model`. */
  by?: string;
  /** Question column that pairs answers; default `id`. */
  pairBy?: string;
}

/**
 * Per-question difference A − B of a score, one dot per question both models
 * answered, sorted, with a rule at zero: dots right of the rule are questions
 * A did better on. Past 5,000 questions the dots become a histogram.
 *
 * @example
 * await show(pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" }));
 */
export function pairedDifferences(scored: ChartInput, options: PairedDifferencesOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const by = options.by ?? "model";
  const pairBy = options.pairBy ?? "id";
  const table = chartTable(scored, "pairedDifferences");
  const scores = numberColumn(table, metric, "pairedDifferences");
  const models = textColumn(table, by);
  const ids = textColumn(table, pairBy);
  const names = [...groupRows(models).keys()];
  const a = options.a ?? names[0];
  const b = options.b ?? names.find((n) => n !== a);
  if (a === undefined || b === undefined || !names.includes(a) || !names.includes(b)) {
    throw new Error(`pairedDifferences: need two models among ${names.map((n) => `"${n}"`).join(", ")}; got a = ${a}, b = ${b}`);
  }
  const questions = textColumn(table, "user_input");
  const scoreOf = (model: string) => {
    const map = new Map<string, { score: number; question: string }>();
    models.forEach((m, i) => {
      if (m === model && ids[i] !== "") map.set(ids[i]!, { score: scores[i]!, question: questions[i]! });
    });
    return map;
  };
  const sa = scoreOf(a);
  const sb = scoreOf(b);
  const rows: Record<string, unknown>[] = [];
  let dropped = 0;
  for (const [id, x] of sa) {
    const y = sb.get(id);
    if (!y || !Number.isFinite(x.score) || !Number.isFinite(y.score)) {
      dropped++;
      continue;
    }
    rows.push({ id, question: x.question, diff: x.score - y.score, a: x.score, b: y.score });
  }
  rows.sort((p, q) => (q["diff"] as number) - (p["diff"] as number) || String(p["id"]).localeCompare(String(q["id"])));
  const axis = `${metric}: ${a} − ${b}`;
  const note = [`${rows.length} questions`, dropped > 0 ? `${dropped} without a valid pair left out` : undefined].filter(Boolean).join(" · ");
  if (rows.length > MAX_INLINE_ROWS) {
    const bins = 40;
    const diffs = rows.map((r) => r["diff"] as number);
    const lo = Math.min(...diffs);
    const hi = Math.max(...diffs);
    const step = (hi - lo) / bins || 1;
    const counts = new Array<number>(bins).fill(0);
    for (const d of diffs) counts[Math.min(bins - 1, Math.floor((d - lo) / step))]!++;
    return {
      ...baseSpec(`Per-question difference, ${a} − ${b}`, note),
      width: 480,
      height: 240,
      data: { values: counts.map((count, i) => ({ from: lo + i * step, to: lo + (i + 1) * step, count })) },
      layer: [
        { mark: "bar", encoding: { x: { field: "from", type: "quantitative", bin: { binned: true, step }, title: axis }, x2: { field: "to" }, y: { field: "count", type: "quantitative", title: "Questions" } } },
        { mark: { type: "rule", color: "#333" }, encoding: { x: { datum: 0, type: "quantitative" } } },
      ],
    };
  }
  const order = rows.map((r) => String(r["id"]));
  return {
    ...baseSpec(`Per-question difference, ${a} − ${b}`, note),
    width: 420,
    height: { step: 12 },
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#333" }, encoding: { x: { datum: 0, type: "quantitative" } } },
      {
        mark: { type: "point", filled: true, size: 50 },
        encoding: {
          y: { field: "id", type: "nominal", title: pairBy, sort: order, axis: { labelFontSize: 9 } },
          x: { field: "diff", type: "quantitative", title: axis },
          color: { condition: { test: "datum.diff > 0", value: "#59a14f" }, value: "#e15759" },
          tooltip: [
            { field: "id", type: "nominal", title: pairBy },
            { field: "question", type: "nominal", title: "question" },
            { field: "a", type: "quantitative", title: a, format: ".3f" },
            { field: "b", type: "quantitative", title: b, format: ".3f" },
            { field: "diff", type: "quantitative", title: "difference", format: ".3f" },
          ],
        },
      },
    ],
  };
}

/** Options of {@link winTieLoss}. */
export interface WinTieLossOptions {
  /** Score column, when a scored frame is given; default `answer_correctness`. */
  metric?: string;
  /** Compare every model with this one (when a scored frame is given). */
  baseline?: string;
}

/**
 * Wins, ties and losses per model pair, as stacked bars, from a
 * `compareModels` result (or a scored frame, compared first).
 *
 * @example
 * await show(winTieLoss(compareModels(scored, { metric: "answer_correctness" })));
 */
export function winTieLoss(data: ChartInput, options: WinTieLossOptions = {}): VegaLiteSpec {
  let table = chartTable(data, "winTieLoss");
  if (!getColumn(table, "wins")) {
    const compare: { metric: string; baseline?: string } = { metric: options.metric ?? "answer_correctness" };
    if (options.baseline !== undefined) compare.baseline = options.baseline;
    table = chartTable(compareModels(data, compare), "winTieLoss");
  }
  const a = textColumn(table, "model_a");
  const b = textColumn(table, "model_b");
  const [wins, ties, losses] = ["wins", "ties", "losses"].map((c) => numberColumn(table, c, "winTieLoss")) as [number[], number[], number[]];
  const pairs = a.map((x, i) => `${x} vs ${b[i]}`);
  const values = pairs.flatMap((pair, i) => [
    { pair, outcome: `${a[i]} better`, order: 0, count: wins[i] },
    { pair, outcome: "tie", order: 1, count: ties[i] },
    { pair, outcome: `${b[i]} better`, order: 2, count: losses[i] },
  ]);
  return {
    ...baseSpec("Wins, ties and losses per question", "first model vs second, questions both answered"),
    width: 420,
    height: { step: 32 },
    data: { values },
    transform: [{ calculate: "datum.order === 0 ? 'win' : datum.order === 1 ? 'tie' : 'loss'", as: "result" }],
    mark: "bar",
    encoding: {
      y: { field: "pair", type: "nominal", title: null, sort: pairs, axis: { labelLimit: 260 } },
      x: { field: "count", type: "quantitative", title: "Questions", stack: "zero" },
      color: { field: "result", type: "nominal", title: "Result", scale: { domain: ["win", "tie", "loss"], range: ["#59a14f", "#bab0ac", "#e15759"] } },
      order: { field: "order", type: "quantitative" },
      tooltip: [
        { field: "pair", type: "nominal", title: "pair" },
        { field: "outcome", type: "nominal", title: "outcome" },
        { field: "count", type: "quantitative", title: "questions" },
      ],
    },
  };
}

/** Options of {@link thresholdSweep}. */
export interface ThresholdSweepOptions {
  /** Score column; default `answer_correctness_continuous` when present, else `answer_correctness`. */
  metric?: string;
  /** Group column; default `model`. */
  by?: string;
  /** Thresholds to try; default 0, 0.05, …, 1. */
  thresholds?: readonly number[];
}

/**
 * Pass rate (share of valid scores ≥ threshold) against the threshold, one
 * line per model: where lines cross, the ranking depends on the bar you set.
 *
 * @example
 * await show(thresholdSweep(scored));
 */
export function thresholdSweep(scored: ChartInput, options: ThresholdSweepOptions = {}): VegaLiteSpec {
  const table = chartTable(scored, "thresholdSweep");
  const metric = options.metric ?? (getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness");
  const by = options.by ?? "model";
  const thresholds = options.thresholds ?? Array.from({ length: 21 }, (_, i) => i / 20);
  const scores = numberColumn(table, metric, "thresholdSweep");
  const groups = groupRows(textColumn(table, by));
  const values: Record<string, unknown>[] = [];
  let failed = 0;
  for (const [model, rows] of groups) {
    const valid = rows.map((i) => scores[i]!).filter((s) => Number.isFinite(s));
    failed += rows.length - valid.length;
    if (valid.length === 0) continue;
    for (const t of thresholds) values.push({ model, threshold: t, pass_rate: valid.filter((s) => s >= t).length / valid.length, n: valid.length });
  }
  const models = [...groups.keys()];
  return {
    ...baseSpec(`Pass rate of ${metric} by threshold`, excludedNote(failed)),
    width: 480,
    height: 260,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "threshold", type: "quantitative", title: "Threshold (pass when score ≥ threshold)" },
      y: { field: "pass_rate", type: "quantitative", title: "Pass rate", axis: { format: "%" }, scale: { domain: [0, 1] } },
      color: modelColorEncoding(models, "model", by),
      tooltip: [
        { field: "model", type: "nominal", title: by },
        { field: "threshold", type: "quantitative", title: "threshold", format: ".2f" },
        { field: "pass_rate", type: "quantitative", title: "pass rate", format: ".1%" },
        { field: "n", type: "quantitative", title: "scored rows" },
      ],
    },
  };
}
