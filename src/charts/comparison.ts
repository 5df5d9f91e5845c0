/**
 * Comparing models: means with bootstrap CIs and rates with Wilson intervals
 * (./means), per-question differences (./paired), wins/ties/losses and pass
 * rates across thresholds. Every interval is computed here, never by Vega's
 * random ci0/ci1.
 */
import { getColumn } from "../dataset/table";
import { DEFAULT_BY, type PairOptions } from "../dataset/column-toolkit";
import { compareModels } from "../analysis/compare";
import { chartTable, excludedNote, groupByKey, numberColumn, textColumn } from "./data";
import type { FrameInput } from "../dataset/frame-like";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { OUTCOME_COLORS } from "./palette";
import { stackedSegmentLayers } from "./segments";
import { baseSpec, modelColorEncoding, modelShapeEncoding, type VegaLiteSpec } from "./spec";

export { meanWithCI, relevanceRate } from "./means";
export type { MeanChartOptions } from "./means";
export { pairedDifferences } from "./paired";
export type { PairedDifferencesOptions } from "./paired";

/** Options of {@link winTieLoss}. */
export interface WinTieLossOptions extends JudgeLabelOptions {
  /** Score column, when a scored frame is given; default `answer_correctness`. */
  metric?: string;
  /** Compare every model with this one (when a scored frame is given). */
  baseline?: string;
}

/**
 * Wins, ties and losses per model pair, as stacked bars, from a
 * `compareModels` result (or a scored frame, compared first). The segments
 * keep their order (win, tie, loss from left to right), differ in lightness
 * (dark blue, grey, orange) and carry their counts as text ("win 12"); the
 * number of questions paired is written at the end of each bar. The subtitle
 * names the judge when the scored frame is given (pass `judgeLabel` with a
 * `compareModels` result, which has no judge column).
 *
 * @example
 * await show(winTieLoss(scored));
 * await show(winTieLoss(compareModels(scored), { judgeLabel: judge.label }));
 */
export function winTieLoss(data: FrameInput, options: WinTieLossOptions = {}): VegaLiteSpec {
  const input = chartTable(data, "winTieLoss");
  const metric = options.metric ?? "answer_correctness";
  let table = input;
  if (!getColumn(table, "wins")) {
    const compare: { metric: string; baseline?: string } = { metric };
    if (options.baseline !== undefined) compare.baseline = options.baseline;
    table = chartTable(compareModels(data, compare), "winTieLoss");
  }
  const a = textColumn(table, "model_a");
  const b = textColumn(table, "model_b");
  const [wins, ties, losses] = ["wins", "ties", "losses"].map((c) => numberColumn(table, c, "winTieLoss")) as [number[], number[], number[]];
  const pairs = a.map((x, i) => `${x} vs ${b[i]}`);
  const unpaired = new Set(pairs.filter((_, i) => ![wins[i], ties[i], losses[i]].some((v) => Number.isFinite(v!) && v! > 0)));
  const categories = [
    { name: "win (first higher)", short: "win", colour: OUTCOME_COLORS.first },
    { name: "tie", short: "tie", colour: OUTCOME_COLORS.tie },
    { name: "loss (second higher)", short: "loss", colour: OUTCOME_COLORS.second },
  ];
  const segments = pairs.flatMap((pair, i) => [
    { row: pair, category: categories[0]!.name, count: wins[i]!, outcome: `${a[i]} higher` },
    { row: pair, category: categories[1]!.name, count: ties[i]!, outcome: "tie" },
    { row: pair, category: categories[2]!.name, count: losses[i]!, outcome: `${b[i]} higher` },
  ]);
  const width = 420;
  const { values, layer } = stackedSegmentLayers({
    rows: pairs,
    categories,
    segments,
    width,
    rowTitle: null,
    countTitle: "Questions",
    legendTitle: "Result",
    totalLabel: (row, total) => (unpaired.has(row) ? "no questions paired" : `n = ${total}`),
    tooltip: [{ field: "outcome", type: "nominal", title: "outcome" }],
    rowLabelLimit: 260,
  });
  const notes = ["first model vs second, on the questions both answered; n: questions paired"];
  return {
    ...baseSpec("Wins, ties and losses per question", [notes.join(" · "), judgeLine(options.judgeLabel, [input], [metric])]),
    width,
    height: { step: 32 },
    data: { values },
    layer,
  };
}

/** Options of {@link thresholdSweep}. */
export interface ThresholdSweepOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
  /** Score column; default `answer_correctness_continuous` when present, else `answer_correctness`. */
  metric?: string;
  /** Thresholds to try; default 0, 0.05, …, 1. */
  thresholds?: readonly number[];
}

/**
 * Pass rate (share of valid scores ≥ threshold) against the threshold, one
 * line per model (colour and point shape per model): where lines cross, the
 * ranking depends on the bar you set. The subtitle gives each model's n and
 * the judge.
 *
 * @example
 * await show(thresholdSweep(scored));
 */
export function thresholdSweep(scored: FrameInput, options: ThresholdSweepOptions = {}): VegaLiteSpec {
  const table = chartTable(scored, "thresholdSweep");
  const metric = options.metric ?? (getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness");
  const by = options.by ?? DEFAULT_BY;
  const thresholds = options.thresholds ?? Array.from({ length: 21 }, (_, i) => i / 20);
  const scores = numberColumn(table, metric, "thresholdSweep");
  const groups = groupByKey(textColumn(table, by));
  const values: Record<string, unknown>[] = [];
  const sizes: [string, number][] = [];
  let failed = 0;
  for (const [model, rows] of groups) {
    const valid = rows.map((i) => scores[i]!).filter((s) => Number.isFinite(s));
    failed += rows.length - valid.length;
    sizes.push([model, valid.length]);
    if (valid.length === 0) continue;
    for (const t of thresholds) values.push({ model, threshold: t, pass_rate: valid.filter((s) => s >= t).length / valid.length, n: valid.length });
  }
  const models = [...groups.keys()];
  const sameN = sizes.every(([, n]) => n === sizes[0]![1]);
  const nNote = sizes.length === 0 ? undefined : sameN ? `n = ${sizes[0]![1]} scored answers per ${by}` : `n: ${sizes.map(([m, n]) => `${m} ${n}`).join(", ")}`;
  return {
    ...baseSpec(`Pass rate of ${metric} by threshold`, [[nNote, excludedNote(failed)].filter(Boolean).join(" · "), judgeLine(options.judgeLabel, [table], [metric])]),
    width: 480,
    height: 260,
    data: { values },
    mark: { type: "line", point: { filled: true, size: 45 } },
    encoding: {
      x: { field: "threshold", type: "quantitative", title: "Threshold (pass when score ≥ threshold)" },
      y: { field: "pass_rate", type: "quantitative", title: "Pass rate", axis: { format: "%" }, scale: { domain: [0, 1] } },
      color: modelColorEncoding(models, "model", by),
      shape: modelShapeEncoding(models, "model", by),
      tooltip: [
        { field: "model", type: "nominal", title: by },
        { field: "threshold", type: "quantitative", title: "threshold", format: ".2f" },
        { field: "pass_rate", type: "quantitative", title: "pass rate", format: ".1%" },
        { field: "n", type: "quantitative", title: "scored rows" },
      ],
    },
  };
}
