/**
 * Run against run: the change of each model's mean score since the previous
 * run, with its paired bootstrap interval, from a `compareRuns` result.
 */
import { ALL_MODELS, type RunComparison } from "../analysis/compare-runs";
import { isDataFrame } from "../frame/dataframe";
import { chartCategory, chartTable, numberColumn, textColumn } from "./data";
import type { FrameInput } from "../dataset/frame-like";
import { finishSpec } from "./finish";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { baseSpec, modelColors, type VegaLiteSpec } from "./spec";
import { isPointInterval } from "../stats/bootstrap";

/** Options of {@link changeWithCI}. */
export interface ChangeChartOptions extends JudgeLabelOptions {
  /** Metric named in the title when a bare summary table is given (a `compareRuns` result names its own). */
  metric?: string;
}

/**
 * What the label says of an interval that cannot be drawn: none (one pair),
 * or none of any width (every answer changed by the same amount, so the
 * bootstrap had nothing to resample: a bar of no width would look certain).
 */
function intervalNote(low: number, high: number): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return " · CI n/a";
  return isPointInterval(low, high) ? " · CI n/a: every answer changed alike" : "";
}

function isRunComparison(data: RunComparison | FrameInput): data is RunComparison {
  return !Array.isArray(data) && !isDataFrame(data) && typeof data === "object" && data !== null && "summary" in data && "changes" in data;
}

/**
 * The change of each model's mean score between two runs (after − before)
 * with its 95% paired bootstrap interval, a rule at zero, and the pooled
 * `(all)` row in grey at the bottom: right of zero, the model improved.
 * Models without pairs (in one run only) are left out and named in the
 * subtitle. Each row has "change · n" written beside its interval (n:
 * answers paired). Takes a {@link compareRuns} result or its `summary` table;
 * neither records the judge, so name it with `judgeLabel` (e.g.
 * `["gpt-4o-mini @ api.openai.com"]`, or both runs' judges when they differ).
 *
 * @example
 * await show(changeWithCI(compareRuns(before, after)));
 * await saveChart(changeWithCI(runs), "out/change.png");
 */
export function changeWithCI(data: RunComparison | FrameInput, options: ChangeChartOptions = {}): VegaLiteSpec {
  const caller = "changeWithCI";
  const metric = isRunComparison(data) ? data.metric : (options.metric ?? "score");
  const table = chartTable(isRunComparison(data) ? data.summary : data, caller);
  const models = textColumn(table, "model");
  const verdicts = textColumn(table, "verdict");
  const [change, low, high, before, after, paired, pHolm] = ["change", "ci_low", "ci_high", "mean_before", "mean_after", "n_paired", "p_holm"].map((c) =>
    numberColumn(table, c, caller),
  ) as [number[], number[], number[], number[], number[], number[], number[]];
  const all = chartCategory(ALL_MODELS);
  const rows: Record<string, unknown>[] = [];
  const unpaired: string[] = [];
  models.forEach((model, i) => {
    if (!Number.isFinite(change[i]!)) {
      unpaired.push(model);
      return;
    }
    rows.push({
      model,
      change: change[i],
      // No interval (one pair): no bar, and the label says so.
      ci_low: Number.isFinite(low[i]!) ? low[i] : null,
      ci_high: Number.isFinite(high[i]!) ? high[i] : null,
      mean_before: before[i],
      mean_after: after[i],
      n: paired[i],
      p_holm: pHolm[i],
      verdict: verdicts[i],
      label_x: Number.isFinite(high[i]!) ? Math.max(high[i]!, change[i]!) : change[i],
      label: `${change[i]! >= 0 ? "+" : "−"}${Math.abs(change[i]!).toFixed(3)} · n = ${Number.isFinite(paired[i]!) ? paired[i] : "?"}${intervalNote(low[i]!, high[i]!)}`,
    });
  });
  if (rows.length === 0) throw new Error(`${caller}: no model has answers scored in both runs, so there is no change to draw`);
  const order = rows.map((r) => String(r["model"]));
  const drawn = order.filter((m) => m !== all);
  const drawnColours = modelColors(drawn);
  const colours = order.map((m) => (m === all ? "#555555" : drawnColours[drawn.indexOf(m)]!));
  const subtitle = [
    "after − before, answers paired · bars: 95% paired bootstrap CI",
    unpaired.length > 0 ? `no pairs: ${unpaired.join(", ")}` : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
  const y = { field: "model", type: "nominal", title: null, sort: order, axis: { labelLimit: 220 } };
  const tooltip = [
    { field: "model", type: "nominal", title: "model" },
    { field: "change", type: "quantitative", title: "change", format: "+.3f" },
    { field: "ci_low", type: "quantitative", title: "95% CI from", format: "+.3f" },
    { field: "ci_high", type: "quantitative", title: "95% CI to", format: "+.3f" },
    { field: "mean_before", type: "quantitative", title: "mean before", format: ".3f" },
    { field: "mean_after", type: "quantitative", title: "mean after", format: ".3f" },
    { field: "n", type: "quantitative", title: "answers paired" },
    { field: "p_holm", type: "quantitative", title: "p (Holm)", format: ".3g" },
    { field: "verdict", type: "nominal", title: "verdict" },
  ];
  const color = { field: "model", type: "nominal", title: "Model", scale: { domain: order, range: colours }, legend: null };
  return finishSpec({
    ...baseSpec(`Change in ${metric} since the previous run`, [subtitle, judgeLine(options.judgeLabel, [table], [metric])]),
    width: 420,
    height: { step: 36 },
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#333", strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: "quantitative" } } },
      { mark: { type: "rule", strokeWidth: 2, color: "#333" }, encoding: { y, x: { field: "ci_low", type: "quantitative" }, x2: { field: "ci_high" }, tooltip } },
      {
        mark: { type: "point", filled: true, size: 90 },
        encoding: { y, x: { field: "change", type: "quantitative", title: `change in mean ${metric} (after − before)` }, color, tooltip },
      },
      { mark: { type: "text", align: "left", baseline: "middle", dx: 7, fontSize: 10, color: "#333" }, encoding: { y, x: { field: "label_x", type: "quantitative" }, text: { field: "label" } } },
    ],
  });
}
