/**
 * Comparing models: means with bootstrap CIs and rates with Wilson intervals
 * (./means), per-question differences (./paired), wins/ties/losses and pass
 * rates across thresholds. Every interval is computed here, never by Vega's
 * random ci0/ci1.
 */
import { getColumn, type Table } from "../dataset/table";
import { cellString, type PairOptions } from "../dataset/column-toolkit";
import { compareModels } from "../analysis/compare";
import { bestGroup, chartTable, excludedNote, groupByKey, groupColumn, groupLabels, inChartWords, numberColumn, textColumn } from "./data";
import { finishSpec } from "./finish";
import { labelChars, pairLabels } from "./text";
import type { FrameInput } from "../dataset/frame-like";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { OUTCOME_COLORS } from "./palette";
import { stackedSegmentLayers } from "./segments";
import { baseSpec, MAX_PAIR_ROWS, modelColorEncoding, modelShapeEncoding, POINT_OUTLINE, type VegaLiteSpec } from "./spec";

export { meanWithCI, relevanceRate } from "./means";
export type { MeanChartOptions } from "./means";
export { pairedDifferences } from "./paired";
export type { PairedDifferencesOptions } from "./paired";

/** Options of {@link winTieLoss}. */
export interface WinTieLossOptions extends JudgeLabelOptions, PairOptions {
  /** Score column, when a scored frame is given; default `answer_correctness`. */
  metric?: string;
  /** Compare every model with this one (when a scored frame is given). */
  baseline?: string;
  /** The column that tells the models apart, when a scored frame is given; default `model`. A column the table lacks is an error. */
  by?: string;
  /** The column that pairs the answers to one question, when a scored frame is given; default as `compareModels` pairs them. */
  pairBy?: string;
}

/** The rows of a comparison that winTieLoss draws. */
interface PairCounts {
  a: string[];
  b: string[];
  wins: number[];
  ties: number[];
  losses: number[];
}

/**
 * Past {@link MAX_PAIR_ROWS} rows, the rows of a comparison with one model:
 * all of them when one model is in every row (a comparison with a baseline),
 * else those with the model of the highest mean (`mean_a`/`mean_b`), each
 * turned to read "model vs best". Undefined when the rows fit.
 */
function rowsWithBest(table: Table, rows: PairCounts): { rows: PairCounts; note: string } | undefined {
  const count = rows.a.length;
  if (count <= MAX_PAIR_ROWS) return undefined;
  const models = [...new Set([...rows.a, ...rows.b])];
  if (models.some((m) => rows.a.every((x, i) => x === m || rows.b[i] === m))) return undefined;
  const hasMeans = getColumn(table, "mean_a") !== undefined && getColumn(table, "mean_b") !== undefined;
  const means = hasMeans ? [...numberColumn(table, "mean_a", "winTieLoss"), ...numberColumn(table, "mean_b", "winTieLoss")] : [];
  const highest = hasMeans ? bestGroup([...rows.a, ...rows.b], means)?.name : undefined;
  const best = highest ?? rows.a[0]!;
  const out: PairCounts = { a: [], b: [], wins: [], ties: [], losses: [] };
  const push = (a: string, b: string, wins: number, ties: number, losses: number) => {
    out.a.push(a);
    out.b.push(b);
    out.wins.push(wins);
    out.ties.push(ties);
    out.losses.push(losses);
  };
  rows.a.forEach((a, i) => {
    const b = rows.b[i]!;
    if (b === best) push(a, b, rows.wins[i]!, rows.ties[i]!, rows.losses[i]!);
    else if (a === best) push(b, a, rows.losses[i]!, rows.ties[i]!, rows.wins[i]!);
  });
  const why = highest !== undefined ? "the highest mean" : "the first model";
  return { rows: out, note: `each model against ${best} (${why}), not all ${count.toLocaleString("en-US")} pairs` };
}

/**
 * Wins, ties and losses per model pair, as stacked bars, from a
 * `compareModels` result (or a scored frame, compared first). The segments
 * keep their order (win, tie, loss from left to right), differ in lightness
 * (dark blue, grey, orange) and carry their counts as text ("win 12"); the
 * number of questions paired is written at the end of each bar. The subtitle
 * names the judge when the scored frame is given (pass `judgeLabel` with a
 * `compareModels` result, which has no judge column). With more pairs than
 * {@link MAX_PAIR_ROWS} (12 models and up) and no `baseline`, each model is
 * drawn against the one of the highest mean score, as the subtitle says.
 *
 * @example
 * await show(winTieLoss(scored));
 * await show(winTieLoss(compareModels(scored), { judgeLabel: judge.label }));
 */
export function winTieLoss(data: FrameInput, options: WinTieLossOptions = {}): VegaLiteSpec {
  const caller = "winTieLoss";
  const input = chartTable(data, caller);
  const metric = options.metric ?? "answer_correctness";
  let table = input;
  let limited: string | undefined;
  if (!getColumn(table, "wins")) {
    const by = groupColumn(input, options.by, caller);
    const compare: { metric: string; by: string; baseline?: string; pairBy?: string } = { metric, by };
    if (options.pairBy !== undefined) compare.pairBy = options.pairBy;
    if (options.baseline !== undefined) compare.baseline = options.baseline;
    else {
      // Raw names, as compareModels reads them.
      const column = getColumn(input, by);
      const keys = Array.from({ length: input.rowCount }, (_, i) => cellString(column?.values[i]));
      const count = new Set(keys).size;
      const pairs = (count * (count - 1)) / 2;
      const best = pairs > MAX_PAIR_ROWS ? bestGroup(keys, numberColumn(input, metric, caller)) : undefined;
      if (best !== undefined) {
        compare.baseline = best.name;
        limited = `${count} models: each against ${best.name} (highest mean ${metric}), not all ${pairs.toLocaleString("en-US")} pairs; give baseline to choose`;
      }
    }
    table = chartTable(inChartWords(caller, "compareModels", () => compareModels(data, compare)), caller);
  }
  let rows: PairCounts = {
    a: textColumn(table, "model_a"),
    b: textColumn(table, "model_b"),
    ...(Object.fromEntries(["wins", "ties", "losses"].map((c) => [c, numberColumn(table, c, caller)])) as { wins: number[]; ties: number[]; losses: number[] }),
  };
  const cut = rowsWithBest(table, rows);
  if (cut !== undefined) {
    rows = cut.rows;
    limited = cut.note;
  }
  const { a, b, wins, ties, losses } = rows;
  // Long names are cut model by model, so that every row keeps both models apart; tooltips name them in full.
  const rowLabelLimit = 300;
  const pairs = pairLabels(a.map((x, i): [string, string] => [x, b[i]!]), " vs ", labelChars(rowLabelLimit));
  const unpaired = new Set(pairs.filter((_, i) => ![wins[i], ties[i], losses[i]].some((v) => Number.isFinite(v!) && v! > 0)));
  const categories = [
    { name: "win (first higher)", short: "win", colour: OUTCOME_COLORS.first },
    { name: "tie", short: "tie", colour: OUTCOME_COLORS.tie },
    { name: "loss (second higher)", short: "loss", colour: OUTCOME_COLORS.second },
  ];
  const segments = pairs.flatMap((pair, i) => [
    { row: pair, category: categories[0]!.name, count: wins[i]!, outcome: `${a[i]} higher`, first: a[i], second: b[i] },
    { row: pair, category: categories[1]!.name, count: ties[i]!, outcome: "tie", first: a[i], second: b[i] },
    { row: pair, category: categories[2]!.name, count: losses[i]!, outcome: `${b[i]} higher`, first: a[i], second: b[i] },
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
    tooltip: [
      { field: "first", type: "nominal", title: "first model" },
      { field: "second", type: "nominal", title: "second model" },
      { field: "outcome", type: "nominal", title: "outcome" },
    ],
    rowLabelLimit,
  });
  const notes = ["first model vs second, on the questions both answered; n: questions paired"];
  return finishSpec({
    ...baseSpec("Wins, ties and losses per question", [notes.join(" · "), limited, judgeLine(options.judgeLabel, [input], [metric])]),
    width,
    height: { step: 32 },
    data: { values },
    layer,
  });
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
  const by = groupColumn(table, options.by, "thresholdSweep");
  const thresholds = options.thresholds ?? Array.from({ length: 21 }, (_, i) => i / 20);
  const scores = numberColumn(table, metric, "thresholdSweep");
  const groups = groupByKey(groupLabels(table, by));
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
  return finishSpec({
    ...baseSpec(`Pass rate of ${metric} by threshold`, [[nNote, excludedNote(failed)].filter(Boolean).join(" · "), judgeLine(options.judgeLabel, [table], [metric])]),
    width: 480,
    height: 260,
    data: { values },
    mark: { type: "line", point: { filled: true, size: 45, ...POINT_OUTLINE } },
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
  });
}
