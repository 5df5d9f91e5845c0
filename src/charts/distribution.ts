/** How scores are distributed per model: histograms and box plots, binned and summarised in TypeScript. */
import { quantileSorted7 } from "../stats/descriptive";
import { nanMax, nanMin } from "../stats/descriptive";
import type { PairOptions } from "../dataset/column-toolkit";
import { chartTable, excludedNote, groupByKey, groupColumn, groupLabels, numberColumn, unscoredNote } from "./data";
import { finishSpec } from "./finish";
import type { FrameInput } from "../dataset/frame-like";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { baseSpec, MAX_INLINE_ROWS, modelColorEncoding, type VegaLiteSpec } from "./spec";
import { fitLabels, labelChars } from "./text";

/** The room of a histogram panel's header label, in pixels (as much as an axis label has). */
const HEADER_LABEL_PX = 180;

/** Options of {@link scoreHistogram}. */
export interface HistogramOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Number of bins over [0, 1] (widened to the data); default 10. */
  bins?: number;
  /** One panel per model (`facet`, default) or overlaid bars (`layer`). */
  layout?: "facet" | "layer";
}

/**
 * Histogram of a score per model. Bins are counted in TypeScript, so the spec
 * holds at most bins × models rows whatever the table's size. Each panel's
 * header gives the model's n; the subtitle names the judge.
 *
 * @example
 * await show(scoreHistogram(scored));
 * await show(scoreHistogram(scored, { layout: "layer", bins: 20 }));
 */
export function scoreHistogram(scored: FrameInput, options: HistogramOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const bins = options.bins ?? 10;
  if (!Number.isInteger(bins) || bins < 1 || bins > 200) throw new RangeError(`bins must be a whole number from 1 to 200, got ${bins}`);
  const table = chartTable(scored, "scoreHistogram");
  const by = groupColumn(table, options.by, "scoreHistogram");
  const scores = numberColumn(table, metric, "scoreHistogram");
  const groups = groupByKey(groupLabels(table, by));
  const valid = scores.filter((s) => Number.isFinite(s));
  // Loops, not Math.min(...): spreading 200,000 values as arguments overflows the stack.
  const lo = valid.length > 0 ? Math.min(0, nanMin(valid)) : 0;
  const hi = valid.length > 0 ? Math.max(1, nanMax(valid)) : 1;
  const step = (hi - lo) / bins;
  const values: Record<string, unknown>[] = [];
  // A panel's header is its model's name, cut in the middle as an axis label is (the tooltip keeps it whole).
  const names = [...groups.keys()];
  const cut = fitLabels(names, labelChars(HEADER_LABEL_PX));
  const headers = new Map(names.map((model, k) => [model, cut[k]!]));
  for (const [model, rows] of groups) {
    const counts = new Array<number>(bins).fill(0);
    for (const i of rows) {
      const s = scores[i]!;
      if (!Number.isFinite(s)) continue;
      counts[Math.min(bins - 1, Math.floor((s - lo) / step))]!++;
    }
    const n = counts.reduce((sum, c) => sum + c, 0);
    counts.forEach((count, b) => values.push({ model, bin_start: lo + b * step, bin_end: lo + (b + 1) * step, count, panel: `${headers.get(model)!} (n = ${n})` }));
  }
  const models = [...groups.keys()];
  const panels = [...new Set(values.map((v) => String(v["panel"])))];
  const encoding: Record<string, unknown> = {
    x: { field: "bin_start", type: "quantitative", bin: { binned: true, step }, title: metric, scale: { domain: [lo, hi] } },
    x2: { field: "bin_end" },
    // At least 0 to 1, whole numbers: a model with no scored row gets an empty panel, not an axis of "0.000000".
    y: { field: "count", type: "quantitative", title: "Rows", stack: options.layout === "layer" ? null : "zero", scale: { domain: { unionWith: [0, 1] } }, axis: { tickMinStep: 1 } },
    color: modelColorEncoding(models, "model", by),
    tooltip: [
      { field: "model", type: "nominal", title: by },
      { field: "bin_start", type: "quantitative", title: "from", format: ".2f" },
      { field: "bin_end", type: "quantitative", title: "to", format: ".2f" },
      { field: "count", type: "quantitative", title: "rows" },
    ],
  };
  const spec = baseSpec(`Distribution of ${metric}`, [excludedNote(scores.length - valid.length), judgeLine(options.judgeLabel, [table], [metric])]);
  spec["data"] = { values };
  if (options.layout === "layer") {
    return finishSpec({ ...spec, width: 480, height: 240, mark: { type: "bar", opacity: 0.55 }, encoding });
  }
  return finishSpec({
    ...spec,
    facet: { row: { field: "panel", type: "nominal", title: by, sort: panels, header: { labelAngle: 0, labelAlign: "left" } } },
    spec: { width: 420, height: 90, mark: "bar", encoding },
    resolve: { scale: { y: "independent" } },
  });
}

/** Options of {@link scoreBox}. */
export interface BoxOptions extends JudgeLabelOptions, Pick<PairOptions, "by"> {
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Draw every score as a tick next to the box when the table has at most 5,000 rows; default true. */
  strip?: boolean;
}

/** Gap between a whisker's end and its "n = …" label, in pixels. */
const N_LABEL_DX = 6;
/** Width of a character of that 10 px label, in pixels, rounded up (DejaVu Sans digits are 6.4 px). */
const N_LABEL_CHAR = 6.5;

/**
 * Box plot of a score per model (min, quartiles by R's type 7, median, max,
 * computed in TypeScript), with every score drawn as a tick when the table is
 * small enough to inline, and each model's n written at the end of its
 * whisker. The subtitle names the judge.
 *
 * @example
 * await show(scoreBox(scored));
 */
export function scoreBox(scored: FrameInput, options: BoxOptions = {}): VegaLiteSpec {
  const metric = options.metric ?? "answer_correctness";
  const table = chartTable(scored, "scoreBox");
  const by = groupColumn(table, options.by, "scoreBox");
  const scores = numberColumn(table, metric, "scoreBox");
  const groups = groupByKey(groupLabels(table, by));
  const stats: Record<string, unknown>[] = [];
  let failed = 0;
  const unscored: string[] = [];
  for (const [model, rows] of groups) {
    const values = rows.map((i) => scores[i]!).filter((s) => Number.isFinite(s));
    failed += rows.length - values.length;
    if (values.length === 0) {
      unscored.push(model);
      continue;
    }
    const sorted = Float64Array.from(values).sort();
    stats.push({
      model,
      n: values.length,
      min: sorted[0],
      p25: quantileSorted7(sorted, 0.25),
      median: quantileSorted7(sorted, 0.5),
      p75: quantileSorted7(sorted, 0.75),
      max: sorted[sorted.length - 1],
      label: `n = ${values.length.toLocaleString("en-US")}`,
    });
  }
  const models = [...groups.keys()];
  // The "n = …" written right of each whisker runs past the plot when a model's best score is the
  // axis's end (0/1 scores, a perfect answer): the legend keeps clear of the widest one.
  const widest = Math.max(0, ...stats.map((s) => String(s["label"]).length));
  const color = { ...modelColorEncoding(models, "model", by), legend: { offset: N_LABEL_DX + widest * N_LABEL_CHAR + 12 } };
  const y = { field: "model", type: "nominal", title: by, sort: models };
  const tooltip = [
    { field: "model", type: "nominal", title: by },
    { field: "n", type: "quantitative", title: "scored rows" },
    ...["min", "p25", "median", "p75", "max"].map((f) => ({ field: f, type: "quantitative", title: f, format: ".3f" })),
  ];
  const layers: Record<string, unknown>[] = [
    // With no scored row at all, an axis from 0 to 1 rather than one tick reading "0.000000".
    { mark: { type: "rule" }, encoding: { y, x: { field: "min", type: "quantitative", title: metric, ...(stats.length === 0 ? { scale: { domain: [0, 1] } } : {}) }, x2: { field: "max" }, tooltip } },
    { mark: { type: "bar", size: 18, opacity: 0.5 }, encoding: { y, x: { field: "p25", type: "quantitative" }, x2: { field: "p75" }, color, tooltip } },
    { mark: { type: "tick", color: "black", size: 18, thickness: 2 }, encoding: { y, x: { field: "median", type: "quantitative" }, tooltip } },
    { mark: { type: "text", align: "left", baseline: "middle", dx: N_LABEL_DX, fontSize: 10, color: "#333" }, encoding: { y, x: { field: "max", type: "quantitative" }, text: { field: "label" } } },
  ];
  const spec = baseSpec(`${metric} by ${by}`, [[excludedNote(failed), unscoredNote(unscored)].filter(Boolean).join(" · "), judgeLine(options.judgeLabel, [table], [metric])]);
  const strip = (options.strip ?? true) && table.rowCount <= MAX_INLINE_ROWS;
  if (!strip) return finishSpec({ ...spec, width: 480, height: { step: 40 }, data: { values: stats }, layer: layers });
  const points = [...groups].flatMap(([model, rows]) => rows.filter((i) => Number.isFinite(scores[i]!)).map((i) => ({ model, score: scores[i]!, row: i })));
  return finishSpec({
    ...spec,
    width: 480,
    height: { step: 40 },
    layer: [
      { data: { values: stats }, layer: layers },
      {
        data: { values: points },
        mark: { type: "tick", opacity: 0.35, thickness: 1, size: 10, yOffset: 14 },
        encoding: {
          y,
          x: { field: "score", type: "quantitative" },
          color,
          tooltip: [
            { field: "model", type: "nominal", title: by },
            { field: "score", type: "quantitative", title: metric, format: ".3f" },
            { field: "row", type: "quantitative", title: "row" },
          ],
        },
      },
    ],
  });
}
