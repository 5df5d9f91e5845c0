/**
 * The charts of the HTML report: which apply to a scored table (each only
 * when its columns exist), built with the chart builders, specs stripped of
 * their `$schema` URL so the report references nothing outside itself.
 */
import type { DataFrame } from "danfojs-node";
import { factualVsSemantic, questionHeatmap, verdictBars } from "../charts/detail";
import { meanWithCI, pairedDifferences, relevanceRate, thresholdSweep, winTieLoss } from "../charts/comparison";
import { scoreBox } from "../charts/distribution";
import type { VegaLiteSpec } from "../charts/spec";
import { getColumn, type Table } from "../dataset/table";

/** One chart of the report. */
export interface ReportChart {
  /** Element id of its container. */
  id: string;
  /** Short name for the caption and the table of contents. */
  title: string;
  /** What to read from it. */
  caption: string;
  /** The Vega-Lite spec, without `$schema`. */
  spec: Record<string, unknown>;
}

/** What the chart section needs to know about the table. */
export interface ChartContext {
  scored: DataFrame;
  table: Table;
  /** Models in order of first appearance (empty without a `model` column). */
  models: string[];
  /** `summarize(scored, { by: "model" })`, when there is a model column. */
  summary: DataFrame | undefined;
  /** `compareModels` of answer correctness, when it could be computed. */
  comparison: DataFrame | undefined;
  /** The pairs (a, b) in the per-question differences chart; default every pair (the first {@link MAX_DEFAULT_PAIRS}). */
  pairs?: readonly (readonly [string, string])[];
}

/** How many pairs the per-question differences chart holds when no pairs are named. */
export const MAX_DEFAULT_PAIRS = 10;

/**
 * The model pairs in the per-question differences chart: the ones named
 * (each model checked), else every pair in order of first appearance, at
 * most {@link MAX_DEFAULT_PAIRS}; with a note for what was left out.
 */
export function chartPairs(models: readonly string[], named: readonly (readonly [string, string])[] | undefined): { pairs: [string, string][]; notes: string[] } {
  const notes: string[] = [];
  if (named !== undefined) {
    const known = new Set(models);
    const pairs: [string, string][] = [];
    for (const [a, b] of named) {
      const missing = [a, b].filter((m) => !known.has(m));
      if (missing.length > 0) notes.push(`Per-question difference, ${a} − ${b}: not drawn (no model ${missing.join(" or ")}; the models are ${models.join(", ")})`);
      else if (a === b) notes.push(`Per-question difference, ${a} − ${b}: not drawn (a model against itself)`);
      else pairs.push([a, b]);
    }
    return { pairs, notes };
  }
  const all: [string, string][] = [];
  for (let i = 0; i < models.length; i++) for (let j = i + 1; j < models.length; j++) all.push([models[i]!, models[j]!]);
  if (all.length > MAX_DEFAULT_PAIRS) {
    notes.push(`Per-question differences: the first ${MAX_DEFAULT_PAIRS} of ${all.length} model pairs are drawn; name the pairs you want with buildReport's pairs option.`);
  }
  return { pairs: all.slice(0, MAX_DEFAULT_PAIRS), notes };
}

function finiteCount(table: Table, name: string): number {
  const column = getColumn(table, name);
  if (!column) return 0;
  return column.values.filter((v) => typeof v === "number" && Number.isFinite(v)).length;
}

/** A spec without its `$schema` URL (vega-embed is told the mode instead). */
export function withoutSchema(spec: VegaLiteSpec): Record<string, unknown> {
  const { $schema: _schema, ...rest } = spec;
  return rest;
}

/**
 * The report's charts for a scored table, and a note for each chart that
 * applied but could not be built (so one odd column never sinks the report).
 */
export function reportCharts(context: ChartContext): { charts: ReportChart[]; notes: string[] } {
  const { scored, table, models, summary, comparison } = context;
  const has = (name: string) => getColumn(table, name) !== undefined;
  const charts: ReportChart[] = [];
  const notes: string[] = [];
  const add = (id: string, title: string, caption: string, applies: boolean, build: () => VegaLiteSpec) => {
    if (!applies) return;
    try {
      charts.push({ id: `chart-${id}`, title, caption, spec: withoutSchema(build()) });
    } catch (error) {
      notes.push(`${title}: not drawn (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  const byModel = models.length > 0;
  const ac = has("answer_correctness") && finiteCount(table, "answer_correctness") > 0;
  const paired = byModel && models.length >= 2 && has("id");

  add("box", "Score distribution", "Box: quartiles and median of each model's scores; whiskers: min to max; ticks: every score.", ac && byModel, () =>
    scoreBox(scored),
  );
  add("mean", "Mean with 95% CI", "Mean answer correctness per model with its seeded 95% bootstrap confidence interval.", ac && byModel && summary !== undefined, () =>
    meanWithCI(summary!),
  );
  add("sweep", "Pass rate by threshold", "Share of answers at or above each threshold: where lines cross, the ranking depends on the bar you set.", ac && byModel, () =>
    thresholdSweep(scored),
  );
  add(
    "verdicts",
    "Statement verdicts",
    "TP: answer statements the reference supports; FP: unsupported ones; FN: reference statements the answer missed.",
    ac && byModel && ["tp", "fp", "fn"].every((k) => has(`answer_correctness_${k}`)),
    () => verdictBars(scored),
  );
  add(
    "scatter",
    "Factual vs semantic",
    "Each dot is one answer: the F-score of its statements against the cosine similarity of its embedding to the reference's.",
    ac && byModel && finiteCount(table, "answer_correctness_factual") > 0 && finiteCount(table, "answer_correctness_semantic") > 0,
    () => factualVsSemantic(scored),
  );
  add("heatmap", "Questions × models", "Answer correctness per question and model, the questions where models disagree most on top.", ac && byModel && has("id"), () =>
    questionHeatmap(scored),
  );
  if (ac && paired) {
    const chosen = chartPairs(models, context.pairs);
    notes.push(...chosen.notes);
    const pairs = chosen.pairs;
    const one = pairs.length === 1 ? pairs[0] : undefined;
    add(
      "paired",
      one ? `Per-question difference, ${one[0]} − ${one[1]}` : "Per-question differences",
      one
        ? `One dot per question both answered: right of zero, ${one[0]} scored higher; left, ${one[1]} did.`
        : `One strip per pair of models (${pairs.map(([a, b]) => `${a} − ${b}`).join("; ")}), one dot per question both answered: right of zero, the first model scored higher; the black bar is the mean difference.`,
      pairs.length > 0,
      () => (one ? pairedDifferences(scored, { a: one[0], b: one[1] }) : pairedDifferences(scored, { pairs })),
    );
  }
  add("wtl", "Wins, ties and losses", "For each pair of models, the questions each one scored higher on, and the ties.", ac && comparison !== undefined, () =>
    winTieLoss(comparison!),
  );
  add(
    "relevance",
    "Relevance rate",
    "Share of answers the judge found in line with the retrieved contexts, with a 95% bootstrap confidence interval.",
    has("multimodal_relevance") && finiteCount(table, "multimodal_relevance") > 0 && byModel,
    () => relevanceRate(scored),
  );
  return { charts, notes };
}
