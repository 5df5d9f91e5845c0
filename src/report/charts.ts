/**
 * The charts of the HTML report: which apply to a scored table (each only
 * when its columns exist; one set per registered metric with scores, see
 * {@link reportCharts}), built with the chart builders, specs stripped of
 * their `$schema` URL so the report references nothing outside itself.
 */
import type { DataFrame } from "danfojs-node";
import type { FrameInput } from "../dataset/frame-like";
import { factualVsSemantic, questionHeatmap, verdictBars } from "../charts/detail";
import { meanWithCI, pairedDifferences, relevanceRate, thresholdSweep, winTieLoss } from "../charts/comparison";
import { scoreBox } from "../charts/distribution";
import type { VegaLiteSpec } from "../charts/spec";
import { getColumn, type Table } from "../dataset/table";
import { metricDefinitions, type MetricDefinition, type PreferredChart } from "../metrics/registry";
import { errorText } from "../display/words";
import { bestGroup, textColumn } from "../charts/data";
import { metricScores } from "../analysis/summarize";

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
  scored: FrameInput;
  table: Table;
  /** Models in order of first appearance (empty without a `model` column). */
  models: string[];
  /** `summarize(scored, { by: "model" })`, when there is a model column. */
  summary: DataFrame | undefined;
  /** `compareModels` of each metric whose comparison could be computed, by score column. */
  comparisons: ReadonlyMap<string, DataFrame>;
  /** The pairs (a, b) in the per-question differences chart; default every pair, or past {@link MAX_DEFAULT_PAIRS} each model against the one of the highest mean. */
  pairs?: readonly (readonly [string, string])[];
}

/**
 * Most questions in the report's questions × models heatmap: those where the
 * models disagree most (every question is under "Answers by question"). A
 * row per question of a 5,000-row table would be a chart thousands of pixels
 * tall, pushing the charts after it out of sight.
 */
export const MAX_HEATMAP_QUESTIONS = 60;

/** How many pairs the per-question differences chart holds when no pairs are named. */
export const MAX_DEFAULT_PAIRS = 10;

/**
 * The model pairs in the per-question differences chart: the ones named
 * (each model checked), else every pair in order of first appearance; past
 * {@link MAX_DEFAULT_PAIRS} pairs, each model against `best` (the model of
 * the highest mean, as the wins/ties/losses chart draws them past its
 * limit), with a note saying so. `against` is that model when it was used.
 */
export function chartPairs(
  models: readonly string[],
  named: readonly (readonly [string, string])[] | undefined,
  best?: string,
): { pairs: [string, string][]; notes: string[]; against?: string } {
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
  if (all.length <= MAX_DEFAULT_PAIRS) return { pairs: all, notes };
  if (best !== undefined && models.includes(best)) {
    notes.push(`Per-question differences: each model against ${best} (the highest mean), not all ${all.length} model pairs; name the pairs you want with buildReport's pairs option.`);
    return { pairs: models.filter((m) => m !== best).map((m): [string, string] => [m, best]), notes, against: best };
  }
  notes.push(`Per-question differences: the first ${MAX_DEFAULT_PAIRS} of ${all.length} model pairs are drawn; name the pairs you want with buildReport's pairs option.`);
  return { pairs: all.slice(0, MAX_DEFAULT_PAIRS), notes };
}

/** The model of the highest mean score of a metric (the first on ties), from the scored table; undefined without scores. */
function highestMean(table: Table, metric: string): string | undefined {
  try {
    return bestGroup(textColumn(table, "model"), Array.from(metricScores(table, metric, "buildReport")))?.name;
  } catch {
    return undefined;
  }
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

/** A chart kind a metric may prefer, as the report draws it when it is not part of the lead metric's set. */
const PREFERRED_ID: Readonly<Record<PreferredChart, string>> = { meanWithCI: "mean", relevanceRate: "relevance", scoreDistribution: "box" };

/**
 * Wording of a metric's preferred chart where the label alone would say less:
 * the built-in metrics' (multimodal relevance's rate is "in line with the
 * retrieved contexts"). Other metrics' titles and captions are made from
 * their label. A caption ends with the interval drawn (see {@link intervalWords}).
 */
const PREFERRED_WORDING: Readonly<Record<string, { title: string; caption: (interval: string) => string }>> = {
  multimodal_relevance: {
    title: "Relevance rate",
    caption: (interval) => `Share of answers the judge found in line with the retrieved contexts, with ${interval}.`,
  },
};

/**
 * Whether every valid score of a metric in the table is 0 or 1: then
 * `summarize` and the charts give it the Wilson score interval, else the
 * bootstrap CI of the mean.
 */
export function zeroOneScores(table: Table, metric: string): boolean {
  try {
    return metricScores(table, metric, "buildReport").every((v) => Number.isNaN(v) || v === 0 || v === 1);
  } catch {
    return false;
  }
}

/** The interval the charts draw for a metric, in a caption's words. */
export function intervalWords(zeroOne: boolean): string {
  return zeroOne ? "its 95% Wilson score interval" : "its seeded 95% bootstrap confidence interval";
}

/** A label with its first letter in upper case ("answer correctness" → "Answer correctness"). */
function capitalized(label: string): string {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/**
 * The metric whose scores get the report's full set of charts: the first
 * registered metric with scores that are not 0/1 (answer correctness when
 * there), or undefined when every charted metric is 0/1.
 *
 * @example
 * leadMetric(charted)?.name // "answer_correctness"
 */
export function leadMetric(charted: readonly MetricDefinition[]): MetricDefinition | undefined {
  return charted.find((d) => !d.binary);
}

/**
 * The report's charts for a scored table, and a note for each chart that
 * applied but could not be built (so one odd column never sinks the report).
 * Every registered metric with at least one finite score is charted, in
 * registry order, when the table has a model column:
 *
 * - the lead metric ({@link leadMetric}: the first whose scores are not 0/1)
 *   gets the full set: score distribution, mean with CI, pass rate by
 *   threshold (of its first extra score column when the table has it, e.g.
 *   the continuous score), the views of that metric alone (answer
 *   correctness: statement verdicts, factual vs semantic), questions ×
 *   models, the per-question differences, and wins/ties/losses;
 * - every metric gets its preferred chart (`display.chart` of its
 *   definition: mean with CI, rate, or score distribution), titled and
 *   captioned from its label (and its `binary` flag), unless the lead's set
 *   already holds it.
 *
 * The lead's charts and the first chart of each other kind have the ids
 * `chart-<kind>` (`chart-box`, `chart-relevance`, …); a further chart of a
 * kind already drawn is `chart-<kind>-<metric>`.
 */
export function reportCharts(context: ChartContext): { charts: ReportChart[]; notes: string[] } {
  const { scored, table, models, summary, comparisons } = context;
  const has = (name: string) => getColumn(table, name) !== undefined;
  const charts: ReportChart[] = [];
  const notes: string[] = [];
  const add = (id: string, title: string, caption: string, applies: boolean, build: () => VegaLiteSpec) => {
    if (!applies) return;
    try {
      const spec = withoutSchema(build());
      // The accessible name of the drawn chart: its heading, what the spec says it shows, and the caption.
      const shows = typeof spec["description"] === "string" ? `${spec["description"]}. ` : "";
      charts.push({ id: `chart-${id}`, title, caption, spec: { ...spec, description: `${title}: ${shows}${caption}` } });
    } catch (error) {
      notes.push(`${title}: not drawn (${errorText(error)})`);
    }
  };
  if (models.length === 0) return { charts, notes };
  const charted = metricDefinitions().filter((d) => finiteCount(table, d.scoreColumn) > 0);
  const lead = leadMetric(charted);
  const drawnKinds = new Set<string>();

  const leadCharts = (d: MetricDefinition) => {
    const metric = d.scoreColumn;
    const heading = capitalized(d.label);
    add("box", "Score distribution", "Box: quartiles and median of each model's scores; whiskers: min to max; ticks: every score.", true, () => scoreBox(scored, { metric }));
    const zeroOne = zeroOneScores(table, metric);
    add("mean", "Mean with 95% CI", `${zeroOne ? `Pass rate (mean ${d.label}, scores 0 or 1)` : `Mean ${d.label}`} per model with ${intervalWords(zeroOne)}.`, summary !== undefined, () =>
      meanWithCI(summary!, { metric }),
    );
    const sweepMetric = d.extraScoreColumns.find(has) ?? metric;
    add("sweep", "Pass rate by threshold", "Share of answers at or above each threshold: where lines cross, the ranking depends on the bar you set.", true, () =>
      thresholdSweep(scored, { metric: sweepMetric }),
    );
    for (const view of OWN_VIEWS[d.name] ?? []) add(view.id, view.title, view.caption, view.applies(has, table), () => view.build(scored));
    add("heatmap", "Questions × models", `${heading} per question and model, the questions where models disagree most on top (at most ${MAX_HEATMAP_QUESTIONS}).`, has("id"), () =>
      questionHeatmap(scored, { metric, maxQuestions: MAX_HEATMAP_QUESTIONS }),
    );
    if (models.length >= 2 && has("id")) {
      const chosen = chartPairs(models, context.pairs, highestMean(table, metric));
      notes.push(...chosen.notes);
      const pairs = chosen.pairs;
      const one = pairs.length === 1 ? pairs[0] : undefined;
      add(
        "paired",
        one ? `Per-question difference, ${one[0]} − ${one[1]}` : "Per-question differences",
        one
          ? `One dot per question both answered: right of zero, ${one[0]} scored higher; left, ${one[1]} did.`
          : chosen.against !== undefined
            ? `One strip per model against ${chosen.against}, the model of the highest mean ${d.label}, one dot per question both answered: left of zero, ${chosen.against} scored higher; the black bar is the mean difference.`
            : `One strip per pair of models (${pairs.map(([a, b]) => `${a} − ${b}`).join("; ")}), one dot per question both answered: right of zero, the first model scored higher; the black bar is the mean difference.`,
        pairs.length > 0,
        () => (one ? pairedDifferences(scored, { metric, a: one[0], b: one[1] }) : pairedDifferences(scored, { metric, pairs })),
      );
    }
    const comparison = comparisons.get(metric);
    add("wtl", "Wins, ties and losses", "For each pair of models, the questions each one scored higher on, and the ties.", comparison !== undefined, () => winTieLoss(comparison!));
    drawnKinds.add("box").add("mean");
  };

  const preferredChart = (d: MetricDefinition) => {
    const metric = d.scoreColumn;
    const kind = PREFERRED_ID[d.display.chart];
    const id = drawnKinds.has(kind) ? `${kind}-${d.name}` : kind;
    drawnKinds.add(kind);
    const own = PREFERRED_WORDING[d.name];
    const zeroOne = zeroOneScores(table, metric);
    const interval = intervalWords(zeroOne);
    const rate = zeroOne ? "Share of answers scored 1" : "Mean score";
    switch (d.display.chart) {
      case "relevanceRate":
        add(id, own?.title ?? `Rate: ${d.label}`, own?.caption(interval) ?? `${rate} (${d.label}) per model, with ${interval}.`, true, () => relevanceRate(scored, { metric }));
        return;
      case "meanWithCI":
        add(id, own?.title ?? `Mean with 95% CI: ${d.label}`, own?.caption(interval) ?? `${zeroOne ? `Pass rate (${d.label})` : `Mean ${d.label}`} per model with ${interval}.`, summary !== undefined, () =>
          meanWithCI(summary!, { metric }),
        );
        return;
      case "scoreDistribution":
        add(id, own?.title ?? `Score distribution: ${d.label}`, own?.caption(interval) ?? `Box: quartiles and median of each model's ${d.label} scores; whiskers: min to max; ticks: every score.`, true, () =>
          scoreBox(scored, { metric }),
        );
        return;
    }
  };

  for (const d of charted) {
    if (d === lead) {
      leadCharts(d);
      if (d.display.chart === "relevanceRate") preferredChart(d);
    } else {
      preferredChart(d);
    }
  }
  return { charts, notes };
}

/** A chart of one metric alone (its own columns), drawn in the lead metric's set after the threshold sweep. */
interface OwnView {
  id: string;
  title: string;
  caption: string;
  applies(has: (name: string) => boolean, table: Table): boolean;
  build(scored: FrameInput): VegaLiteSpec;
}

/** The views that read one metric's own columns, by metric name. */
const OWN_VIEWS: Readonly<Record<string, readonly OwnView[]>> = {
  answer_correctness: [
    {
      id: "verdicts",
      title: "Statement verdicts",
      caption: "TP: answer statements the reference supports; FP: unsupported ones; FN: reference statements the answer missed.",
      applies: (has) => ["tp", "fp", "fn"].every((k) => has(`answer_correctness_${k}`)),
      build: (scored) => verdictBars(scored),
    },
    {
      id: "scatter",
      title: "Factual vs semantic",
      caption: "Each dot is one answer: the F-score of its statements against the cosine similarity of its embedding to the reference's.",
      applies: (_has, table) => finiteCount(table, "answer_correctness_factual") > 0 && finiteCount(table, "answer_correctness_semantic") > 0,
      build: (scored) => factualVsSemantic(scored),
    },
  ],
};

/** Most rows of a chart's data shown in the table under it. */
export const MAX_CHART_TABLE_ROWS = 300;

type Node = Record<string, unknown>;
interface TooltipField {
  field: string;
  title: string;
  format: string;
  quantitative: boolean;
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The nodes a spec node holds: its layers, its repeated or faceted spec, its concatenated views. */
function childNodes(node: Node): Node[] {
  return ["layer", "spec", "vconcat", "hconcat", "concat"].flatMap((key) => {
    const children = node[key];
    return (Array.isArray(children) ? children : isNode(children) ? [children] : []).filter(isNode);
  });
}

/** The first tooltip list in a spec node or the layers under it. */
function firstTooltip(node: Node): TooltipField[] | undefined {
  const encoding = node["encoding"];
  if (isNode(encoding) && Array.isArray(encoding["tooltip"])) {
    return encoding["tooltip"].filter(isNode).flatMap((t) =>
      typeof t["field"] === "string"
        ? [{ field: t["field"], title: typeof t["title"] === "string" ? t["title"] : t["field"], format: typeof t["format"] === "string" ? t["format"] : "", quantitative: t["type"] === "quantitative" }]
        : [],
    );
  }
  for (const child of childNodes(node)) {
    if (isNode(child["data"])) continue; // its own data: found on its own turn
    const found = firstTooltip(child);
    if (found) return found;
  }
  return undefined;
}

/** The first node with inline data and a tooltip over it: the rows a chart draws and the fields it names. */
function chartRows(node: Node): { rows: Node[]; fields: TooltipField[] } | undefined {
  const data = node["data"];
  if (isNode(data) && Array.isArray(data["values"])) {
    const fields = firstTooltip(node);
    if (fields && fields.length > 0) return { rows: data["values"].filter(isNode), fields };
  }
  for (const child of childNodes(node)) {
    const found = chartRows(child);
    if (found) return found;
  }
  return undefined;
}

/** A value as the chart's tooltip shows it (its d3 format, roughly: fixed decimals, percent, sign). */
function formatted(value: unknown, field: TooltipField): string {
  if (typeof value !== "number") return value === null || value === undefined ? (field.quantitative ? "–" : "") : String(value);
  if (!Number.isFinite(value)) return "–";
  const decimals = /\.(\d+)/.exec(field.format)?.[1];
  const digits = decimals === undefined ? (Number.isInteger(value) ? 0 : 3) : Number(decimals);
  const percent = field.format.includes("%");
  const text = (percent ? value * 100 : value).toFixed(digits) + (percent ? "%" : "");
  return (field.format.startsWith("+") && value > 0 ? `+${text}` : text).replace(/^-/, "−");
}

/**
 * The numbers a chart draws, as an HTML table (escaped): its inline data
 * rows, under the fields its tooltip names, so that a reader who cannot see
 * the chart (a screen reader, a page without JavaScript) has them too. At
 * most {@link MAX_CHART_TABLE_ROWS} rows, the rest counted; undefined when
 * the spec has no inline data with a tooltip.
 *
 * @example
 * chartDataTable(withoutSchema(thresholdSweep(scored)), escapeHtml) // "<table>…model, threshold, pass rate…</table>"
 */
export function chartDataTable(spec: Record<string, unknown>, escape: (text: string) => string): string | undefined {
  const found = chartRows(spec);
  if (found === undefined) return undefined;
  // A row of the chart: its first field (what it is) and some number given; rows of labels only (a total's text) are not.
  const given = (r: Node, f: TooltipField) => r[f.field] !== undefined && r[f.field] !== null && r[f.field] !== "";
  const numbers = found.fields.filter((f) => f.quantitative);
  const rows = found.rows.filter((r) => given(r, found.fields[0]!) && (numbers.length === 0 || numbers.some((f) => given(r, f))));
  if (rows.length === 0) return undefined;
  const shown = rows.slice(0, MAX_CHART_TABLE_ROWS);
  const head = found.fields.map((f) => `<th${f.quantitative ? ' class="num"' : ""}>${escape(f.title)}</th>`).join("");
  const body = shown.map((r) => `<tr>${found.fields.map((f) => `<td${f.quantitative ? ' class="num"' : ""}>${escape(formatted(r[f.field], f))}</td>`).join("")}</tr>`).join("");
  const more = rows.length > shown.length ? `<p class="note">The first ${shown.length.toLocaleString("en-US")} of ${rows.length.toLocaleString("en-US")} rows.</p>` : "";
  return `<div class="table-wrap"><table class="compact"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>${more}`;
}
