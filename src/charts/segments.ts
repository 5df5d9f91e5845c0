/**
 * Horizontal stacked bars whose segments say what they are: each segment
 * carries its name and count as text (when it fits), segments keep a fixed
 * left-to-right order, and the total is written at the end of the bar. Used
 * by winTieLoss and verdictBars so that colour is never the only cue.
 */
import { textColorOn } from "./palette";

/** One category of the stack, in left-to-right order. */
export interface SegmentCategory {
  /** Value of the colour field (legend label). */
  name: string;
  /** Short word drawn in the segment with its count, e.g. "win". */
  short: string;
  /** Fill colour. */
  colour: string;
}

/** One segment: a row of the chart, its category and count, plus tooltip fields. */
export interface SegmentInput {
  row: string;
  category: string;
  count: number;
  [field: string]: unknown;
}

/** What {@link stackedSegmentLayers} needs. */
export interface StackedSegmentsSpec {
  /** Rows top to bottom. */
  rows: readonly string[];
  categories: readonly SegmentCategory[];
  segments: readonly SegmentInput[];
  /** Plot width in pixels (to decide which labels fit). */
  width: number;
  /** y field title (null for none). */
  rowTitle: string | null;
  /** x axis title. */
  countTitle: string;
  /** Legend title. */
  legendTitle: string;
  /** Text at the end of each bar, e.g. "n = 40". */
  totalLabel: (row: string, total: number) => string;
  /** Tooltip fields besides row, category and count. */
  tooltip?: readonly Record<string, unknown>[];
  /** Label limit of the row axis in pixels. */
  rowLabelLimit?: number;
}

/** Average width of one character of the 10 px label font, in pixels (DejaVu Sans). */
const CHAR_PX = 6.2;

/**
 * The data and layers of a labelled stacked bar chart: start and end of every
 * segment computed here (no Vega stacking), a text layer inside the segments
 * ("win 12", or just "12" when the words do not fit, nothing when neither
 * does) and the total at each bar's end.
 *
 * @example
 * const { values, layer } = stackedSegmentLayers({ rows: ["a vs b"], categories, segments, width: 420,
 *   rowTitle: null, countTitle: "Questions", legendTitle: "Result", totalLabel: (_, n) => `n = ${n}` });
 * const spec = { ...baseSpec("Wins"), width: 420, data: { values }, layer };
 */
export function stackedSegmentLayers(spec: StackedSegmentsSpec): { values: Record<string, unknown>[]; layer: Record<string, unknown>[]; domainMax: number } {
  const order = new Map(spec.categories.map((c, i) => [c.name, i]));
  const totals = new Map<string, number>(spec.rows.map((r) => [r, 0]));
  for (const s of spec.segments) totals.set(s.row, (totals.get(s.row) ?? 0) + (Number.isFinite(s.count) ? s.count : 0));
  let domainMax = 1;
  for (const total of totals.values()) domainMax = Math.max(domainMax, total);
  const pxPerUnit = spec.width / (domainMax * 1.12);
  const start = new Map<string, number>();
  const values: Record<string, unknown>[] = [];
  const rowIndex = new Map<string, number>();
  spec.rows.forEach((r, i) => rowIndex.has(r) || rowIndex.set(r, i));
  const at = (row: string) => rowIndex.get(row) ?? -1;
  const sorted = [...spec.segments].sort((p, q) => at(p.row) - at(q.row) || order.get(p.category)! - order.get(q.category)!);
  for (const s of sorted) {
    const count = Number.isFinite(s.count) ? s.count : 0;
    const from = start.get(s.row) ?? 0;
    start.set(s.row, from + count);
    const category = spec.categories[order.get(s.category)!]!;
    const px = count * pxPerUnit;
    const long = `${category.short} ${count}`;
    const label = count === 0 ? "" : px >= long.length * CHAR_PX + 6 ? long : px >= String(count).length * CHAR_PX + 4 ? String(count) : "";
    values.push({ ...s, count, from, to: from + count, mid: from + count / 2, label, text_colour: textColorOn(category.colour), order: order.get(s.category) });
  }
  for (const row of spec.rows) values.push({ row, total: totals.get(row) ?? 0, total_label: spec.totalLabel(row, totals.get(row) ?? 0) });
  const y = { field: "row", type: "nominal", title: spec.rowTitle, sort: [...spec.rows], axis: { labelLimit: spec.rowLabelLimit ?? 200 } };
  const tooltip = [
    { field: "row", type: "nominal", title: spec.rowTitle ?? "row" },
    { field: "category", type: "nominal", title: spec.legendTitle.toLowerCase() },
    { field: "count", type: "quantitative", title: spec.countTitle.toLowerCase() },
    ...(spec.tooltip ?? []),
  ];
  const segmentsOnly = { filter: "isValid(datum.category)" };
  const layer: Record<string, unknown>[] = [
    {
      transform: [segmentsOnly],
      mark: { type: "bar", stroke: "white", strokeWidth: 1 },
      encoding: {
        y,
        // Counts: whole-number ticks only (one question must not read 0.1, 0.2, … questions).
        x: { field: "from", type: "quantitative", title: spec.countTitle, scale: { domain: [0, domainMax * 1.12], nice: false }, axis: { tickMinStep: 1, format: "d" } },
        x2: { field: "to" },
        color: {
          field: "category",
          type: "nominal",
          title: spec.legendTitle,
          scale: { domain: spec.categories.map((c) => c.name), range: spec.categories.map((c) => c.colour) },
          legend: { orient: "bottom", direction: "horizontal", labelLimit: 280 },
        },
        tooltip,
      },
    },
    {
      transform: [segmentsOnly],
      mark: { type: "text", fontSize: 10, baseline: "middle", align: "center" },
      encoding: { y, x: { field: "mid", type: "quantitative" }, text: { field: "label" }, color: { condition: { test: "datum.text_colour === 'white'", value: "white" }, value: "black" }, tooltip },
    },
    {
      transform: [{ filter: "isValid(datum.total_label)" }],
      mark: { type: "text", fontSize: 10, baseline: "middle", align: "left", dx: 4, color: "#333" },
      encoding: { y, x: { field: "total", type: "quantitative" }, text: { field: "total_label" } },
    },
  ];
  return { values, layer, domainMax };
}
