/**
 * Per-question differences between models: for one pair, every question as
 * a dot sorted by the difference; for several pairs (by default every pair of
 * models), one strip per pair. Outcomes differ by position (left or right of
 * zero), shape (▶ ● ◀) and colour (blue, grey, orange), and are counted in text.
 */
import { nanMax, nanMin } from "../stats/descriptive";
import { DEFAULT_SEED, mulberry32 } from "../stats/random";
import type { PairOptions } from "../dataset/column-toolkit";
import { bestGroup, chartTable, pairingOf, groupByKey, groupColumn, numberColumn, rowsWithModel, textColumn } from "./data";
import { finishSpec } from "./finish";
import { labelChars, pairLabels } from "./text";
import type { FrameInput } from "../dataset/frame-like";
import { judgeLine, type JudgeLabelOptions } from "./judge";
import { OUTCOME_COLORS, SEQUENTIAL_SCHEME } from "./palette";
import { baseSpec, MAX_INLINE_ROWS, MAX_PAIR_ROWS, type VegaLiteSpec } from "./spec";

/** Options of {@link pairedDifferences}. */
export interface PairedDifferencesOptions extends JudgeLabelOptions, PairOptions {
  /** First model (A) of a single pair; default the first model in the table. Giving `a` or `b` draws that one pair. */
  a?: string;
  /** Second model (B) of a single pair; default the first other model. */
  b?: string;
  /**
   * The pairs to draw, each [A, B] (A − B is drawn). Default: every pair of
   * models, in order of first appearance; past {@link MAX_PAIR_ROWS} pairs
   * (12 models and up), each model against the one of the highest mean score.
   */
  pairs?: readonly (readonly [string, string])[];
  /** Score column; default `answer_correctness`. */
  metric?: string;
  /** Seed of the vertical jitter of the dots when several pairs are drawn; default the analysis seed. */
  seed?: number;
}

/** One question both models of a pair answered validly. */
interface PairRow {
  pair: string;
  id: string;
  question: string;
  a: number;
  b: number;
  diff: number;
  outcome: string;
}

/** Label limit of the pairs' axis in pixels ("a − b"; longer names are cut model by model). */
const PAIR_LABEL_LIMIT = 300;

const SHAPES = { first: "triangle-right", tie: "circle", second: "triangle-left" } as const;

/**
 * Per-question difference A − B of a score. For one pair (`a`/`b` given, or
 * only two models): one dot per question both models answered, sorted, with
 * a rule at zero (right of it, A did better). For several pairs (`pairs`, or
 * by default every pair of models): one strip per pair with a dot per
 * question (jittered vertically, seeded), the mean difference as a black
 * tick, and the count of questions each model won, the ties and n written at
 * the right. Dots are ▶ blue where A is higher, ◀ orange where B is, ● grey
 * on ties. Past 5,000 dots in all they are counted in bins (a histogram for
 * one pair; a viridis strip per pair). Rows whose model cell (in `by`)
 * is empty or missing are left out, as `compareModels` leaves them out. The
 * subtitle names the judge.
 *
 * @example
 * await show(pairedDifferences(scored));                                      // every pair
 * await show(pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" }));  // one pair
 * await show(pairedDifferences(scored, { pairs: [["atlas-pro", "swift-mini"], ["chatter-xl", "swift-mini"]] }));
 */
export function pairedDifferences(scored: FrameInput, options: PairedDifferencesOptions = {}): VegaLiteSpec {
  const caller = "pairedDifferences";
  const metric = options.metric ?? "answer_correctness";
  const whole = chartTable(scored, caller);
  const by = groupColumn(whole, options.by, caller);
  // Rows without a model are left out, as compareModels leaves them out.
  const table = rowsWithModel(whole, by);
  const scores = numberColumn(table, metric, caller);
  const models = textColumn(table, by);
  const pairBy = pairingOf(table, by, options.pairBy, caller);
  const ids = textColumn(table, pairBy);
  const questions = textColumn(table, "user_input");
  const names = [...groupByKey(models).keys()];
  const listed = names.map((n) => `"${n}"`).join(", ");
  if (names.length < 2 && options.pairs === undefined && options.a === undefined && options.b === undefined) {
    throw new Error(`${caller}: draws the differences between two models' answers to the same questions, and column "${by}" holds ${names.length === 0 ? "no model" : `one model, ${listed}`}; score a second model's answers to compare with (scoreBox or scoreHistogram draw one model's scores)`);
  }
  let pairs: [string, string][];
  let title = "Per-question differences, every pair of models";
  let limited: string | undefined;
  if (options.pairs !== undefined) {
    pairs = options.pairs.map(([a, b]) => [a, b]);
    if (pairs.length === 0) throw new Error(`${caller}: pairs is empty; name at least one pair of models among ${listed}`);
    title = "Per-question differences";
  } else if (options.a !== undefined || options.b !== undefined) {
    const a = options.a ?? names[0];
    const b = options.b ?? names.find((n) => n !== a);
    pairs = a === undefined || b === undefined ? [] : [[a, b]];
  } else {
    const count = (names.length * (names.length - 1)) / 2;
    const best = count > MAX_PAIR_ROWS ? bestGroup(models, scores) : undefined;
    if (best !== undefined) {
      // Too many strips to read: each model against the best one.
      pairs = names.filter((n) => n !== best.name).map((n): [string, string] => [n, best.name]);
      title = `Per-question differences, each model − ${best.name}`;
      limited = `${names.length} models: each against ${best.name} (highest mean ${metric}), not all ${count.toLocaleString("en-US")} pairs; give pairs to choose`;
    } else {
      pairs = names.flatMap((a, i) => names.slice(i + 1).map((b): [string, string] => [a, b]));
    }
  }
  const bad = pairs.find(([a, b]) => a === b || !names.includes(a) || !names.includes(b));
  if (pairs.length === 0 || bad) {
    throw new Error(`${caller}: need two different models among ${listed}; got ${bad ? `a = ${bad[0]}, b = ${bad[1]}` : `a = ${options.a}, b = ${options.b}`}`);
  }
  const byModel = new Map<string, Map<string, number>>();
  models.forEach((m, i) => {
    if (ids[i] === "") return;
    let map = byModel.get(m);
    if (!map) byModel.set(m, (map = new Map()));
    map.set(ids[i]!, i);
  });
  const questionOf = new Map<string, string>();
  ids.forEach((id, i) => {
    if (!questionOf.has(id)) questionOf.set(id, questions[i]!);
  });
  const judge = judgeLine(options.judgeLabel, [table], [metric]);
  const rowsOf = (a: string, b: string, label: string) => {
    const sa = byModel.get(a) ?? new Map<string, number>();
    const sb = byModel.get(b) ?? new Map<string, number>();
    const rows: PairRow[] = [];
    let dropped = 0;
    for (const [id, i] of sa) {
      const j = sb.get(id);
      if (j === undefined || !Number.isFinite(scores[i]!) || !Number.isFinite(scores[j]!)) {
        dropped++;
        continue;
      }
      const diff = scores[i]! - scores[j]!;
      rows.push({ pair: label, id, question: questionOf.get(id) ?? "", a: scores[i]!, b: scores[j]!, diff, outcome: diff > 0 ? "first" : diff < 0 ? "second" : "tie" });
    }
    rows.sort((p, q) => q.diff - p.diff || p.id.localeCompare(q.id));
    return { label, rows, dropped };
  };
  // Long names are cut model by model, so that every strip keeps both models apart.
  const labels = pairLabels(pairs, " − ", labelChars(PAIR_LABEL_LIMIT));
  const drawn = pairs.map(([a, b], k) => ({ a, b, ...rowsOf(a, b, labels[k]!) }));
  if (drawn.length === 1) return finishSpec(onePair(drawn[0]!, metric, pairBy, judge));
  return finishSpec(manyPairs(drawn, { title, limited }, metric, pairBy, judge, options.seed ?? DEFAULT_SEED));
}

interface DrawnPair {
  a: string;
  b: string;
  label: string;
  rows: PairRow[];
  dropped: number;
}

function counts(rows: readonly PairRow[]): { first: number; tie: number; second: number } {
  const c = { first: 0, tie: 0, second: 0 };
  for (const r of rows) c[r.outcome as keyof typeof c]++;
  return c;
}

function outcomeEncoding(names: readonly [string, string, string], title: string): { color: Record<string, unknown>; shape: Record<string, unknown> } {
  const domain = [...names];
  const legend = { orient: "bottom", direction: "horizontal", labelLimit: 280 };
  return {
    color: { field: "outcome_label", type: "nominal", title, scale: { domain, range: [OUTCOME_COLORS.first, OUTCOME_COLORS.tie, OUTCOME_COLORS.second] }, legend },
    shape: { field: "outcome_label", type: "nominal", title, scale: { domain, range: [SHAPES.first, SHAPES.tie, SHAPES.second] }, legend },
  };
}

/** The chart of one pair: every question, sorted. */
function onePair(pair: DrawnPair, metric: string, pairBy: string, judge: string | undefined): VegaLiteSpec {
  const { a, b, rows, dropped } = pair;
  const axis = `${metric}: ${a} − ${b}`;
  const c = counts(rows);
  const note = [`${a} higher on ${c.first}, tie on ${c.tie}, ${b} higher on ${c.second} of ${rows.length} questions`, dropped > 0 ? `${dropped} without a valid pair left out` : undefined]
    .filter(Boolean)
    .join(" · ");
  const title = `Per-question difference, ${a} − ${b}`;
  if (rows.length > MAX_INLINE_ROWS) {
    const bins = 40;
    const diffs = rows.map((r) => r.diff);
    const lo = nanMin(diffs);
    const hi = nanMax(diffs);
    const step = (hi - lo) / bins || 1;
    const histogram = new Array<number>(bins).fill(0);
    for (const d of diffs) histogram[Math.min(bins - 1, Math.floor((d - lo) / step))]!++;
    return {
      ...baseSpec(title, [note, judge]),
      width: 480,
      height: 240,
      data: { values: histogram.map((count, i) => ({ from: lo + i * step, to: lo + (i + 1) * step, count })) },
      layer: [
        { mark: { type: "bar", color: OUTCOME_COLORS.first, opacity: 0.8 }, encoding: { x: { field: "from", type: "quantitative", bin: { binned: true, step }, title: axis }, x2: { field: "to" }, y: { field: "count", type: "quantitative", title: "Questions" } } },
        { mark: { type: "rule", color: "#333" }, encoding: { x: { datum: 0, type: "quantitative" } } },
      ],
    };
  }
  const labels: [string, string, string] = [`${a} higher`, "tie", `${b} higher`];
  const values = rows.map((r) => ({ ...r, outcome_label: labels[r.outcome === "first" ? 0 : r.outcome === "tie" ? 1 : 2] }));
  const order = rows.map((r) => r.id);
  const reach = Math.max(0.05, nanMax(rows.map((r) => Math.abs(r.diff))) || 0);
  return {
    ...baseSpec(title, [note, judge]),
    width: 420,
    height: { step: 12 },
    data: { values },
    layer: [
      { mark: { type: "rule", color: "#333" }, encoding: { x: { datum: 0, type: "quantitative" } } },
      {
        mark: { type: "point", filled: true, size: 55, opacity: 0.9 },
        encoding: {
          y: { field: "id", type: "nominal", title: pairBy, sort: order, axis: { labelFontSize: 9 } },
          x: { field: "diff", type: "quantitative", title: axis, scale: { domain: [-reach, reach], nice: false } },
          ...outcomeEncoding(labels, "Question"),
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

/** The chart of several pairs: one strip each, dots jittered, counts written. */
function manyPairs(pairs: readonly DrawnPair[], heading: { title: string; limited: string | undefined }, metric: string, pairBy: string, judge: string | undefined, seed: number): VegaLiteSpec {
  const order = pairs.map((p) => p.label);
  const total = pairs.reduce((n, p) => n + p.rows.length, 0);
  const dropped = pairs.reduce((n, p) => n + p.dropped, 0);
  // A loop, not Math.max(...): spreading 200,000 values as arguments overflows the stack.
  const reach = Math.max(0.05, nanMax(pairs.flatMap((p) => p.rows.map((r) => Math.abs(r.diff)))) || 0);
  const xScale = { domain: [-reach, reach], nice: false };
  const axis = `${metric} difference (first model − second)`;
  const y = { field: "pair", type: "nominal", title: null, sort: order, axis: { labelLimit: PAIR_LABEL_LIMIT } };
  const summary = pairs.map((p) => {
    const c = counts(p.rows);
    const mean = p.rows.length > 0 ? p.rows.reduce((s, r) => s + r.diff, 0) / p.rows.length : null;
    return { pair: p.label, first: p.a, second: p.b, summary_x: reach, summary: `▶ ${c.first} · ● ${c.tie} · ◀ ${c.second} · n = ${p.rows.length}`, mean };
  });
  const title = pairs.length === 1 ? `Per-question difference, ${order[0]}` : heading.title;
  const note = (drawnAs: string) =>
    [`${drawnAs} · black bar: mean difference`, dropped > 0 ? `${dropped} answers without a valid pair left out` : undefined].filter(Boolean).join(" · ");
  const pairTooltip = [
    { field: "first", type: "nominal", title: "first model" },
    { field: "second", type: "nominal", title: "second model" },
  ];
  const rule = { data: { values: [{ zero: 0 }] }, mark: { type: "rule", color: "#333", strokeDash: [4, 3] }, encoding: { x: { field: "zero", type: "quantitative", scale: xScale } } };
  const summaryLayers = [
    { data: { values: summary }, transform: [{ filter: "isValid(datum.mean)" }], mark: { type: "tick", color: "black", thickness: 2, size: 30 }, encoding: { y, x: { field: "mean", type: "quantitative", scale: xScale }, tooltip: [...pairTooltip, { field: "mean", type: "quantitative", title: "mean difference", format: "+.3f" }] } },
    { data: { values: summary }, mark: { type: "text", align: "left", baseline: "middle", dx: 10, fontSize: 10, color: "#333" }, encoding: { y, x: { field: "summary_x", type: "quantitative", scale: xScale }, text: { field: "summary" } } },
  ];
  if (total > MAX_INLINE_ROWS) {
    const bins = 40;
    const step = (2 * reach) / bins;
    const cells: Record<string, unknown>[] = [];
    for (const p of pairs) {
      const histogram = new Array<number>(bins).fill(0);
      for (const r of p.rows) histogram[Math.min(bins - 1, Math.floor((r.diff + reach) / step))]!++;
      histogram.forEach((count, i) => {
        if (count > 0) cells.push({ pair: p.label, first: p.a, second: p.b, from: -reach + i * step, to: -reach + (i + 1) * step, count });
      });
    }
    return {
      ...baseSpec(title, [note(`${total.toLocaleString("en-US")} questions counted in ${bins} bins per pair`), heading.limited, judge]),
      width: 480,
      height: { step: 44 },
      layer: [
        {
          data: { values: cells },
          mark: { type: "rect", height: 26 },
          encoding: {
            y,
            x: { field: "from", type: "quantitative", title: axis, scale: xScale },
            x2: { field: "to" },
            color: { field: "count", type: "quantitative", title: "Questions", scale: { scheme: SEQUENTIAL_SCHEME }, legend: { orient: "bottom", direction: "horizontal" } },
            tooltip: [...pairTooltip, { field: "from", type: "quantitative", title: "from", format: ".2f" }, { field: "to", type: "quantitative", title: "to", format: ".2f" }, { field: "count", type: "quantitative", title: "questions" }],
          },
        },
        rule,
        ...summaryLayers,
      ],
    };
  }
  const rng = mulberry32(seed);
  const labels: [string, string, string] = ["first model higher", "tie", "second model higher"];
  const values = pairs.flatMap((p) =>
    p.rows.map((r) => ({ ...r, first: p.a, second: p.b, outcome_label: labels[r.outcome === "first" ? 0 : r.outcome === "tie" ? 1 : 2], jitter: rng() * 2 - 1 })),
  );
  return {
    ...baseSpec(title, [note("one mark per question, jittered up and down (seeded)"), heading.limited, judge]),
    width: 480,
    height: { step: 56 },
    layer: [
      rule,
      {
        data: { values },
        mark: { type: "point", filled: true, size: 40, opacity: 0.75 },
        encoding: {
          y,
          yOffset: { field: "jitter", type: "quantitative", scale: { domain: [-1.6, 1.6] } },
          x: { field: "diff", type: "quantitative", title: axis, scale: xScale },
          ...outcomeEncoding(labels, "Question"),
          tooltip: [
            { field: "pair", type: "nominal", title: "pair" },
            { field: "id", type: "nominal", title: pairBy },
            { field: "question", type: "nominal", title: "question" },
            { field: "first", type: "nominal", title: "first model" },
            { field: "a", type: "quantitative", title: "first score", format: ".3f" },
            { field: "second", type: "nominal", title: "second model" },
            { field: "b", type: "quantitative", title: "second score", format: ".3f" },
            { field: "diff", type: "quantitative", title: "difference", format: "+.3f" },
          ],
        },
      },
      ...summaryLayers,
    ],
  };
}
