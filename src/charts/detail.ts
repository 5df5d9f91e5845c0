/** Looking inside the scores: the two parts of answer correctness, questions × models, statement verdicts. */
import { chartTable, excludedNote, groupRows, numberColumn, textColumn, type ChartInput } from "./data";
import { baseSpec, MAX_INLINE_ROWS, modelColorEncoding, type VegaLiteSpec } from "./spec";

/**
 * Scatter of the factual part (F-beta of statements) against the semantic
 * part (embedding cosine) of answer correctness, one dot per row, coloured
 * by model. Past 5,000 rows, dots are counted on a 25 × 25 grid per model.
 *
 * @example
 * await show(factualVsSemantic(scored));
 */
export function factualVsSemantic(scored: ChartInput, options: { by?: string } = {}): VegaLiteSpec {
  const by = options.by ?? "model";
  const table = chartTable(scored, "factualVsSemantic");
  const factual = numberColumn(table, "answer_correctness_factual", "factualVsSemantic");
  const semantic = numberColumn(table, "answer_correctness_semantic", "factualVsSemantic");
  const scores = numberColumn(table, "answer_correctness", "factualVsSemantic");
  const models = textColumn(table, by);
  const ids = textColumn(table, "id");
  const valid = models.flatMap((model, i) => (Number.isFinite(factual[i]!) && Number.isFinite(semantic[i]!) ? [i] : []));
  const names = [...groupRows(models).keys()];
  const color = modelColorEncoding(names, "model", by);
  const x = { field: "semantic", type: "quantitative", title: "semantic (cosine of embeddings)", scale: { zero: false } };
  const y = { field: "factual", type: "quantitative", title: "factual (F-beta of statements)", scale: { domain: [0, 1] } };
  const note = excludedNote(table.rowCount - valid.length);
  if (valid.length > MAX_INLINE_ROWS) {
    const cells = new Map<string, { model: string; semantic: number; factual: number; count: number }>();
    const lo = Math.min(...valid.map((i) => semantic[i]!));
    const hi = Math.max(...valid.map((i) => semantic[i]!));
    const cell = (v: number, a: number, b: number) => Math.min(24, Math.floor(((v - a) / (b - a || 1)) * 25));
    for (const i of valid) {
      const sx = cell(semantic[i]!, lo, hi);
      const fy = cell(factual[i]!, 0, 1);
      const key = `${models[i]}|${sx}|${fy}`;
      const entry = cells.get(key) ?? { model: models[i]!, semantic: lo + ((sx + 0.5) * (hi - lo)) / 25, factual: (fy + 0.5) / 25, count: 0 };
      entry.count++;
      cells.set(key, entry);
    }
    return {
      ...baseSpec("Factual vs semantic part of answer correctness", [`${valid.length.toLocaleString("en-US")} rows counted on a 25 × 25 grid`, note].filter(Boolean).join(" · ")),
      width: 420,
      height: 320,
      data: { values: [...cells.values()] },
      mark: { type: "circle", opacity: 0.6 },
      encoding: { x, y, color, size: { field: "count", type: "quantitative", title: "Rows" }, tooltip: [{ field: "model", type: "nominal", title: by }, { field: "count", type: "quantitative", title: "rows" }] },
    };
  }
  const values = valid.map((i) => ({ model: models[i], id: ids[i], factual: factual[i], semantic: semantic[i], score: scores[i] }));
  return {
    ...baseSpec("Factual vs semantic part of answer correctness", note),
    width: 420,
    height: 320,
    data: { values },
    mark: { type: "circle", opacity: 0.7, size: 60 },
    encoding: {
      x,
      y,
      color,
      tooltip: [
        { field: "id", type: "nominal", title: "id" },
        { field: "model", type: "nominal", title: by },
        { field: "factual", type: "quantitative", title: "factual", format: ".3f" },
        { field: "semantic", type: "quantitative", title: "semantic", format: ".3f" },
        { field: "score", type: "quantitative", title: "answer_correctness", format: ".3f" },
      ],
    },
  };
}

/** Options of {@link questionHeatmap}. */
export interface HeatmapOptions {
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Model column; default `model`. */
  by?: string;
  /** Question column; default `id`. */
  pairBy?: string;
  /** Most questions shown (those with the largest spread); default as many as fit in 5,000 cells. */
  maxQuestions?: number;
}

/**
 * Heatmap of a score, questions × models, questions sorted by the spread
 * between models (largest first): the top rows are where models disagree.
 *
 * @example
 * await show(questionHeatmap(scored, { maxQuestions: 30 }));
 */
export function questionHeatmap(scored: ChartInput, options: HeatmapOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const by = options.by ?? "model";
  const pairBy = options.pairBy ?? "id";
  const table = chartTable(scored, "questionHeatmap");
  const scores = numberColumn(table, metric, "questionHeatmap");
  const models = textColumn(table, by);
  const ids = textColumn(table, pairBy);
  const questions = textColumn(table, "user_input");
  const names = [...groupRows(models).keys()];
  const byQuestion = groupRows(ids);
  const spread = new Map<string, number>();
  for (const [id, rows] of byQuestion) {
    const valid = rows.map((i) => scores[i]!).filter((s) => Number.isFinite(s));
    spread.set(id, valid.length >= 2 ? Math.max(...valid) - Math.min(...valid) : -1);
  }
  const limit = options.maxQuestions ?? Math.floor(MAX_INLINE_ROWS / Math.max(1, names.length));
  const order = [...byQuestion.keys()].sort((p, q) => spread.get(q)! - spread.get(p)! || p.localeCompare(q)).slice(0, limit);
  const shown = new Set(order);
  const values = models.flatMap((model, i) =>
    shown.has(ids[i]!) ? [{ id: ids[i], model, score: Number.isFinite(scores[i]!) ? scores[i] : null, question: questions[i], spread: Math.max(0, spread.get(ids[i]!)!) }] : [],
  );
  const hidden = byQuestion.size - order.length;
  return {
    ...baseSpec(`${metric}, question × ${by}`, [`sorted by the spread between models`, hidden > 0 ? `top ${order.length} of ${byQuestion.size} questions` : undefined].filter(Boolean).join(" · ")),
    width: { step: 70 },
    height: { step: 14 },
    data: { values },
    mark: "rect",
    encoding: {
      y: { field: "id", type: "nominal", title: pairBy, sort: order, axis: { labelFontSize: 9 } },
      x: { field: "model", type: "nominal", title: by, sort: names, axis: { labelAngle: -30 } },
      color: { field: "score", type: "quantitative", title: metric, scale: { scheme: "redyellowgreen", domain: [0, 1] } },
      tooltip: [
        { field: "id", type: "nominal", title: pairBy },
        { field: "question", type: "nominal", title: "question" },
        { field: "model", type: "nominal", title: by },
        { field: "score", type: "quantitative", title: metric, format: ".3f" },
        { field: "spread", type: "quantitative", title: "spread", format: ".3f" },
      ],
    },
  };
}

/**
 * TP, FP and FN statement counts per model, stacked: how much of each
 * model's answers is supported (TP), unsupported (FP), and how much of the
 * references it missed (FN).
 *
 * @example
 * await show(verdictBars(scored));
 */
export function verdictBars(scored: ChartInput, options: { by?: string } = {}): VegaLiteSpec {
  const by = options.by ?? "model";
  const table = chartTable(scored, "verdictBars");
  const counts = ["tp", "fp", "fn"].map((k) => numberColumn(table, `answer_correctness_${k}`, "verdictBars"));
  const groups = groupRows(textColumn(table, by));
  const values: Record<string, unknown>[] = [];
  let failed = 0;
  for (const [model, rows] of groups) {
    const sums = [0, 0, 0];
    for (const i of rows) {
      if (!Number.isFinite(counts[0]![i]!)) {
        failed++;
        continue;
      }
      for (let k = 0; k < 3; k++) sums[k]! += counts[k]![i]!;
    }
    ["TP", "FP", "FN"].forEach((verdict, k) => values.push({ model, verdict, order: k, statements: sums[k] }));
  }
  const models = [...groups.keys()];
  return {
    ...baseSpec("Statement verdicts by model", ["TP: supported · FP: unsupported · FN: reference statements missed", excludedNote(failed)].filter(Boolean).join(" · ")),
    width: 420,
    height: { step: 32 },
    data: { values },
    mark: "bar",
    encoding: {
      y: { field: "model", type: "nominal", title: by, sort: models },
      x: { field: "statements", type: "quantitative", title: "Statements", stack: "zero" },
      color: { field: "verdict", type: "nominal", title: "Verdict", scale: { domain: ["TP", "FP", "FN"], range: ["#59a14f", "#f28e2b", "#e15759"] } },
      order: { field: "order", type: "quantitative" },
      tooltip: [
        { field: "model", type: "nominal", title: by },
        { field: "verdict", type: "nominal", title: "verdict" },
        { field: "statements", type: "quantitative", title: "statements" },
      ],
    },
  };
}
