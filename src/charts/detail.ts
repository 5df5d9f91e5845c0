/** Looking inside the scores: the two parts of answer correctness, questions × models, statement verdicts. */
import { nanMax, nanMin } from "../stats/descriptive";
import { DEFAULT_SEED, mulberry32 } from "../stats/random";
import type { PairOptions } from "../dataset/column-toolkit";
import { chartTable, pairingOf, excludedNote, groupByKey, groupColumn, groupLabels, numberColumn, rowsWithModel, textColumn } from "./data";
import type { FrameInput } from "../dataset/frame-like";
import { counted } from "../display/words";
import { finishSpec } from "./finish";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { DIVERGING_SCHEME, VERDICT_COLORS } from "./palette";
import { stackedSegmentLayers } from "./segments";
import { baseSpec, MAX_INLINE_ROWS, modelColorEncoding, modelShapeEncoding, POINT_OUTLINE, type VegaLiteSpec } from "./spec";

/** Options of {@link factualVsSemantic}. */
export interface ScatterOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
  /** Spread dots that share a value a little (seeded), so that piles at 0 and 1 show their size; default true. */
  jitter?: boolean;
  /** Seed of the jitter; default the analysis seed. */
  seed?: number;
}

/** Largest jitter: a fraction of the factual axis (0 to 1) and of the semantic axis' range. */
const JITTER_FACTUAL = 0.025;
const JITTER_SEMANTIC = 0.006;

/**
 * Scatter of the factual part (F-beta of statements) against the semantic
 * part (embedding cosine) of answer correctness, one dot per row, coloured
 * and shaped by model. The factual part takes few values (0, ½, 1, …), so
 * dots are jittered by a seeded amount (at most ±0.025 factual, ±0.6% of the
 * semantic range; the subtitle says so and tooltips give the exact values)
 * instead of hiding each other at 0 and 1. Past 5,000 rows, dots are counted
 * on a 25 × 25 grid per model (size: count). The subtitle names the judge.
 *
 * @example
 * await show(factualVsSemantic(scored));
 * await show(factualVsSemantic(scored, { jitter: false, judgeLabel: false }));
 */
export function factualVsSemantic(scored: FrameInput, options: ScatterOptions = {}): VegaLiteSpec {
  const table = chartTable(scored, "factualVsSemantic");
  const by = groupColumn(table, options.by, "factualVsSemantic");
  const factual = numberColumn(table, "answer_correctness_factual", "factualVsSemantic");
  const semantic = numberColumn(table, "answer_correctness_semantic", "factualVsSemantic");
  const scores = numberColumn(table, "answer_correctness", "factualVsSemantic");
  const models = groupLabels(table, by);
  const ids = textColumn(table, "id");
  const valid = models.flatMap((model, i) => (Number.isFinite(factual[i]!) && Number.isFinite(semantic[i]!) ? [i] : []));
  const names = [...groupByKey(models).keys()];
  const color = modelColorEncoding(names, "model", by);
  const shape = modelShapeEncoding(names, "model", by);
  const judge = judgeLine(options.judgeLabel, [table], ["answer_correctness"]);
  const note = excludedNote(table.rowCount - valid.length);
  // Loops, not Math.min(...): spreading 200,000 values as arguments overflows the stack.
  const lo = nanMin(valid.map((i) => semantic[i]!));
  const hi = nanMax(valid.map((i) => semantic[i]!));
  const yScale = { domain: [-0.05, 1.05], nice: false };
  const yAxis = { values: [0, 0.25, 0.5, 0.75, 1], format: ".2~f" };
  if (valid.length > MAX_INLINE_ROWS) {
    const cells = new Map<string, { model: string; semantic: number; factual: number; count: number }>();
    const cell = (v: number, a: number, b: number) => Math.min(24, Math.floor(((v - a) / (b - a || 1)) * 25));
    for (const i of valid) {
      const sx = cell(semantic[i]!, lo, hi);
      const fy = cell(factual[i]!, 0, 1);
      const key = `${models[i]}|${sx}|${fy}`;
      const entry = cells.get(key) ?? { model: models[i]!, semantic: lo + ((sx + 0.5) * (hi - lo)) / 25, factual: (fy + 0.5) / 25, count: 0 };
      entry.count++;
      cells.set(key, entry);
    }
    return finishSpec({
      ...baseSpec("Factual vs semantic part of answer correctness", [[`${valid.length.toLocaleString("en-US")} rows counted on a 25 × 25 grid (size: rows)`, note].filter(Boolean).join(" · "), judge]),
      width: 420,
      height: 320,
      data: { values: [...cells.values()] },
      mark: { type: "point", filled: true, opacity: 0.6 },
      encoding: {
        x: { field: "semantic", type: "quantitative", title: "semantic (cosine of embeddings)", scale: { zero: false } },
        y: { field: "factual", type: "quantitative", title: "factual (F-beta of statements)", scale: yScale, axis: yAxis },
        color,
        shape,
        size: { field: "count", type: "quantitative", title: "Rows" },
        tooltip: [{ field: "model", type: "nominal", title: by }, { field: "count", type: "quantitative", title: "rows" }],
      },
    });
  }
  const jitter = options.jitter ?? true;
  const rng = mulberry32(options.seed ?? DEFAULT_SEED);
  const spread = (hi - lo || 1) * JITTER_SEMANTIC;
  const values = valid.map((i) => ({
    model: models[i],
    id: ids[i],
    factual: factual[i],
    semantic: semantic[i],
    score: scores[i],
    factual_shown: jitter ? factual[i]! + (rng() * 2 - 1) * JITTER_FACTUAL : factual[i],
    semantic_shown: jitter ? semantic[i]! + (rng() * 2 - 1) * spread : semantic[i],
  }));
  const jitterNote = jitter ? "dots jittered (seeded) by up to ±0.025 factual so equal scores stay visible; tooltips: exact values" : undefined;
  return finishSpec({
    ...baseSpec("Factual vs semantic part of answer correctness", [[jitterNote, note].filter(Boolean).join(" · "), judge]),
    width: 420,
    height: 320,
    data: { values },
    mark: { type: "point", filled: true, opacity: 0.7, size: 55, ...POINT_OUTLINE },
    encoding: {
      x: { field: "semantic_shown", type: "quantitative", title: "semantic (cosine of embeddings)", scale: { zero: false } },
      y: { field: "factual_shown", type: "quantitative", title: "factual (F-beta of statements)", scale: yScale, axis: yAxis },
      color,
      shape,
      tooltip: [
        { field: "id", type: "nominal", title: "id" },
        { field: "model", type: "nominal", title: by },
        { field: "factual", type: "quantitative", title: "factual", format: ".3f" },
        { field: "semantic", type: "quantitative", title: "semantic", format: ".3f" },
        { field: "score", type: "quantitative", title: "answer_correctness", format: ".3f" },
      ],
    },
  });
}

/** Options of {@link questionHeatmap}. */
export interface HeatmapOptions extends JudgeLabelOptions, PairOptions {
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Most questions shown (those with the largest spread); default as many as fit in 5,000 cells. */
  maxQuestions?: number;
  /** Write each score in its cell (two decimals); default true when the scores lie in [0, 1]. */
  cellLabels?: boolean;
}

/**
 * Heatmap of a score, questions × models, questions sorted by the spread
 * between models (largest first): the top rows are where models disagree.
 * Colours run on the blue–orange diverging scale (orange 0, light 0.5, blue
 * 1), readable with red–green colour blindness, and each cell also carries
 * its score as text; failed rows are grey and marked "×". Rows whose
 * model cell (in `by`) is empty or missing are left out, as `compareModels`
 * leaves them out. The subtitle names the judge.
 *
 * @example
 * await show(questionHeatmap(scored, { maxQuestions: 30 }));
 */
export function questionHeatmap(scored: FrameInput, options: HeatmapOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const whole = chartTable(scored, "questionHeatmap");
  const by = groupColumn(whole, options.by, "questionHeatmap");
  // Rows without a model are left out, as compareModels leaves them out.
  const table = rowsWithModel(whole, by);
  const scores = numberColumn(table, metric, "questionHeatmap");
  const models = textColumn(table, by);
  const pairBy = pairingOf(table, by, options.pairBy, "questionHeatmap");
  const ids = textColumn(table, pairBy);
  const questions = textColumn(table, "user_input");
  const names = [...groupByKey(models).keys()];
  const byQuestion = groupByKey(ids);
  const spread = new Map<string, number>();
  for (const [id, rows] of byQuestion) {
    const valid = rows.map((i) => scores[i]!).filter((s) => Number.isFinite(s));
    spread.set(id, valid.length >= 2 ? nanMax(valid) - nanMin(valid) : -1);
  }
  const limit = options.maxQuestions ?? Math.floor(MAX_INLINE_ROWS / Math.max(1, names.length));
  const order = [...byQuestion.keys()].sort((p, q) => spread.get(q)! - spread.get(p)! || p.localeCompare(q)).slice(0, limit);
  const shown = new Set(order);
  const finite = scores.filter((s) => Number.isFinite(s));
  const unit = finite.every((s) => s >= 0 && s <= 1);
  const labelled = options.cellLabels ?? unit;
  const values = models.flatMap((model, i) => {
    if (!shown.has(ids[i]!)) return [];
    const score = Number.isFinite(scores[i]!) ? scores[i]! : null;
    // White text on the dark ends of the scale, black in the light middle.
    const text = score === null ? "×" : labelled ? score.toFixed(2).replace(/^0\./, ".") : "";
    const dark = score !== null && unit && Math.abs(score - 0.5) > 0.34;
    return [{ id: ids[i], model, score, question: questions[i], spread: Math.max(0, spread.get(ids[i]!)!), text, text_colour: dark ? "white" : "black" }];
  });
  const hidden = byQuestion.size - order.length;
  const lo = unit ? 0 : nanMin(finite);
  const hi = unit ? 1 : nanMax(finite);
  const y = { field: "id", type: "nominal", title: pairBy, sort: order, axis: { labelFontSize: 9 } };
  const x = { field: "model", type: "nominal", title: by, sort: names, axis: { labelAngle: -30 } };
  const note = ["sorted by the spread between models", hidden > 0 ? `top ${order.length} of ${byQuestion.size} questions` : undefined, values.some((v) => v.score === null) ? "×: failed" : undefined]
    .filter(Boolean)
    .join(" · ");
  return finishSpec({
    ...baseSpec(`${metric}, question × ${by}`, [note, judgeLine(options.judgeLabel, [table], [metric])]),
    width: { step: 70 },
    height: { step: 16 },
    data: { values },
    encoding: { y, x },
    layer: [
      {
        mark: { type: "rect", stroke: "white", strokeWidth: 0.5 },
        encoding: {
          color: {
            condition: { test: "!isValid(datum.score)", value: "#cccccc" },
            field: "score",
            type: "quantitative",
            title: metric,
            scale: { scheme: DIVERGING_SCHEME, reverse: true, domain: [lo, hi], domainMid: (lo + hi) / 2 },
          },
          tooltip: [
            { field: "id", type: "nominal", title: pairBy },
            { field: "question", type: "nominal", title: "question" },
            { field: "model", type: "nominal", title: by },
            { field: "score", type: "quantitative", title: metric, format: ".3f" },
            { field: "spread", type: "quantitative", title: "spread", format: ".3f" },
          ],
        },
      },
      {
        mark: { type: "text", fontSize: 9, baseline: "middle" },
        encoding: { text: { field: "text" }, color: { condition: { test: "datum.text_colour === 'white'", value: "white" }, value: "black" } },
      },
    ],
  });
}

/** Options of {@link verdictBars}. */
export interface VerdictOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
}

/**
 * TP, FP and FN statement counts per model, stacked in that order: how much
 * of each model's answers is supported (TP, dark blue), unsupported (FP,
 * orange), and how much of the references it missed (FN, light grey). Each
 * segment is labelled with its verdict and count, and the number of answers
 * counted (n) is written at the end of each bar. The subtitle names the judge.
 *
 * @example
 * await show(verdictBars(scored));
 */
export function verdictBars(scored: FrameInput, options: VerdictOptions = {}): VegaLiteSpec {
  const table = chartTable(scored, "verdictBars");
  const by = groupColumn(table, options.by, "verdictBars");
  const counts = ["tp", "fp", "fn"].map((k) => numberColumn(table, `answer_correctness_${k}`, "verdictBars"));
  const groups = groupByKey(groupLabels(table, by));
  const segments: { row: string; category: string; count: number; model: string }[] = [];
  const answers = new Map<string, number>();
  let failed = 0;
  for (const [model, rows] of groups) {
    const sums = [0, 0, 0];
    let n = 0;
    for (const i of rows) {
      if (!Number.isFinite(counts[0]![i]!)) {
        failed++;
        continue;
      }
      n++;
      for (let k = 0; k < 3; k++) sums[k]! += counts[k]![i]!;
    }
    answers.set(model, n);
    (["TP", "FP", "FN"] as const).forEach((verdict, k) => segments.push({ row: model, category: verdict, count: sums[k]!, model }));
  }
  const models = [...groups.keys()];
  const width = 420;
  const { values, layer } = stackedSegmentLayers({
    rows: models,
    categories: (["TP", "FP", "FN"] as const).map((v) => ({ name: v, short: v, colour: VERDICT_COLORS[v] })),
    segments,
    width,
    rowTitle: by,
    countTitle: "Statements",
    legendTitle: "Verdict",
    totalLabel: (row) => `n = ${counted(answers.get(row) ?? 0, "answer")}`,
  });
  return finishSpec({
    ...baseSpec("Statement verdicts by model", [
      ["TP: supported · FP: unsupported · FN: reference statements missed", excludedNote(failed)].filter(Boolean).join(" · "),
      judgeLine(options.judgeLabel, [table], ["answer_correctness"]),
    ]),
    width,
    height: { step: 32 },
    data: { values },
    layer,
  });
}
