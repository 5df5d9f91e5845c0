/**
 * Model comparisons: paired per-question differences with a bootstrap
 * interval, win/tie/loss counts, a paired test (Wilcoxon signed-rank, or the
 * sign test for 0/1 scores) and Holm's correction across the comparisons.
 */
import type { DataFrame } from "danfojs-node";
import { DEFAULT_PAIR_BY, judgeText, keyText, type PairOptions } from "../dataset/column-toolkit";
import { comparisonSettings, MEAN_DISAGREES } from "./comparison-settings";

export { MEAN_DISAGREES } from "./comparison-settings";
import type { Table, TableColumn } from "../dataset/table";
import { DEFAULT_SEED, seedFromData } from "../stats/random";
import { bootstrapMeanCI, twoSampleBootstrap } from "../stats/bootstrap";
import { nanMean } from "../stats/descriptive";
import { holm, roundDifferences, signTest, wilcoxonSignedRank } from "../stats/paired-tests";
import { permutationTest } from "../stats/permutation";
import { tableToDataFrame } from "../frame/dataframe";
import { column, metricScores, readTable, requireColumn, type FrameInput } from "./summarize";
import { getColumn } from "../dataset/table";

/** Options of {@link compareModels}. */
export interface CompareModelsOptions extends PairOptions {
  /** Score column to compare (default "answer_correctness"). */
  metric?: string;
  /** Compare every other model with this one (model_b); default: all pairs in order of first appearance. */
  baseline?: string;
  /** Bootstrap replicates for the interval (default 2,000). */
  bootstrap?: number;
  /** Seed of the bootstrap (default {@link DEFAULT_SEED}). */
  seed?: number;
  /** Significance level for the verdict, applied to the Holm-adjusted p-value (default 0.05). */
  alpha?: number;
  /** Coverage of the interval of the mean difference (default 0.95). */
  confidence?: number;
}

/** Names of the tests {@link compareModels} reports in its `test` column. */
export type ComparisonTest =
  | "wilcoxon signed-rank (exact)"
  | "wilcoxon signed-rank (normal approx.)"
  | "sign test (exact)"
  | "permutation test (exact, unpaired)"
  | "two-sample bootstrap (unpaired)";

/** The columns of a {@link compareModels} result, in order. */
export const COMPARISON_COLUMNS = [
  "model_a",
  "model_b",
  "n_pairs",
  "n_dropped",
  "mean_a",
  "mean_b",
  "mean_diff",
  "ci_low",
  "ci_high",
  "wins",
  "ties",
  "losses",
  "test",
  "p_value",
  "p_holm",
  "verdict",
  "paired_by",
  "unpaired_because",
] as const;

/** @internal One model's scores, by question id and in order. */
export interface ModelRows {
  name: string;
  /** Score per question id (NaN when the row failed), ids in order of first appearance. */
  byId: Map<string, number>;
  /** Scores of rows without an id (NaN when failed). */
  noId: number[];
  /** Every score of the model (NaN when failed). */
  all: number[];
}

/** @internal Each model's scores by question, as {@link compareModels} pairs them (throws on a (pairBy, model) pair seen twice). */
export function modelRows(table: Table, scores: Float64Array, by: string, pairBy: string | undefined, caller: string): ModelRows[] {
  const modelColumn = requireColumn(table, by, caller, "model");
  const idColumn = pairBy === undefined ? undefined : getColumn(table, pairBy);
  const models = new Map<string, ModelRows>();
  const duplicates = new Set<string>();
  for (let i = 0; i < table.rowCount; i++) {
    const name = keyText(modelColumn.values[i]);
    if (name === undefined) continue; // a row without a model belongs to no model
    let m = models.get(name);
    if (m === undefined) {
      m = { name, byId: new Map(), noId: [], all: [] };
      models.set(name, m);
    }
    const score = scores[i]!;
    m.all.push(score);
    const id = idColumn === undefined ? undefined : keyText(idColumn.values[i]);
    if (id === undefined) {
      m.noId.push(score);
    } else if (m.byId.has(id)) {
      duplicates.add(`(${JSON.stringify(id)}, ${JSON.stringify(name)})`);
    } else {
      m.byId.set(id, score);
    }
  }
  if (duplicates.size > 0) throw new Error(repeatedPairs(caller, [...duplicates], pairBy!, by));
  return [...models.values()];
}

/**
 * @internal The message for (pairBy, by) pairs that appear more than once:
 * each pair named once (the first five), worded for the grouping used.
 */
export function repeatedPairs(caller: string, pairs: readonly string[], pairBy: string, by: string): string {
  const n = pairs.length;
  const shown = `${pairs.slice(0, 5).join(", ")}${n > 5 ? ", …" : ""}`;
  const rule =
    by === "model"
      ? `each model may answer each ${pairBy} once`
      : `rows grouped by "${by}" are paired by "${pairBy}", so each ${by} may have one row per ${pairBy}; group by a column with one row per ${pairBy} in each group (such as model)`;
  return `${caller}: ${n.toLocaleString("en-US")} (${pairBy}, ${by}) pair${n === 1 ? "" : "s"} appear${n === 1 ? "s" : ""} more than once: ${shown}; ${rule}`;
}

/** One comparison, before Holm's adjustment: the paired statistics of two models, with their names and counts. */
interface Comparison extends PairedStats {
  a: string;
  b: string;
  nPairs: number;
  nDropped: number;
  /** The verdict when there is nothing to test (no scored answers, or too few for a p-value). */
  untested?: string;
}

function isBinary(values: readonly number[]): boolean {
  for (const v of values) if (v !== 0 && v !== 1) return false;
  return true;
}

/** @internal The paired statistics of two score lists of the same questions (both finite at each index). */
export interface PairedStats {
  meanA: number;
  meanB: number;
  /** mean(a − b). */
  meanDiff: number;
  ciLow: number;
  ciHigh: number;
  /** Questions where a − b > 0, = 0, < 0. */
  wins: number;
  ties: number;
  losses: number;
  test: ComparisonTest;
  pValue: number;
  /** +1 when the test leans towards a, −1 towards b, 0 neither. */
  direction: number;
}

/** What a verdict may say of a comparison: a's side, b's side, neither, or that the test and the mean point opposite ways. */
export type VerdictSide = "a" | "b" | "none" | "disagree";

/**
 * @internal The side a comparison's verdict may name. "disagree" when the
 * test leans one way and the mean difference the other (or nowhere), and
 * either of them is beyond chance (p < alpha, or the mean's interval
 * excludes 0): the rank test speaks of the typical question, the mean of the
 * total, and skewed differences (most questions slightly better, a few much
 * worse) can send them opposite ways; a winner must agree with the mean the
 * table reports. Else a's or b's side when p < alpha, else "none".
 */
export function verdictSide(stats: Pick<PairedStats, "direction" | "meanDiff" | "ciLow" | "ciHigh">, p: number, alpha: number): VerdictSide {
  const meanBeyondChance = stats.ciLow > 0 || stats.ciHigh < 0;
  if (!meanAgrees(stats) && (p < alpha || meanBeyondChance)) return "disagree";
  if (!(p < alpha) || stats.direction === 0) return "none";
  return stats.direction > 0 ? "a" : "b";
}

/** @internal True unless the test leans one way and the mean difference (0 below 1e-12) the other or nowhere. */
export function meanAgrees(stats: Pick<PairedStats, "direction" | "meanDiff">): boolean {
  if (stats.direction === 0) return true;
  const mean = Math.abs(stats.meanDiff) < 1e-12 ? 0 : Math.sign(stats.meanDiff);
  return mean === stats.direction;
}

/**
 * @internal Paired comparison of a and b (same length, every value finite):
 * the mean difference with a paired bootstrap interval, wins/ties/losses,
 * and the exact sign test when every score is 0 or 1, else Wilcoxon
 * signed-rank. `compareModels` and `compareRuns` share it.
 */
export function pairedStats(sa: readonly number[], sb: readonly number[], replicates: number, confidence: number, seed: number): PairedStats {
  const d = sa.map((x, i) => x - sb[i]!);
  let wins = 0;
  let losses = 0;
  // Win, tie or loss as the tests see the difference: to 12 significant digits of the scores.
  let scale = 0;
  for (let i = 0; i < sa.length; i++) scale = Math.max(scale, Math.abs(sa[i]!), Math.abs(sb[i]!));
  for (const v of roundDifferences(d, scale > 0 ? scale : undefined)) {
    if (v > 0) wins++;
    else if (v < 0) losses++;
  }
  // One pair gives no interval (a bootstrap of one difference is that difference, a CI of zero width).
  const ci = d.length < 2 ? { low: Number.NaN, high: Number.NaN } : bootstrapMeanCI(d, { replicates, confidence, seed });
  let test: ComparisonTest;
  let pValue: number;
  let direction: number;
  if (isBinary(sa) && isBinary(sb)) {
    const s = signTest(sa, sb);
    test = "sign test (exact)";
    pValue = s.pValue;
    direction = Math.sign(s.positive - s.negative);
  } else {
    const w = wilcoxonSignedRank(sa, sb);
    test = w.method === "exact" ? "wilcoxon signed-rank (exact)" : "wilcoxon signed-rank (normal approx.)";
    pValue = w.pValue;
    direction = Math.sign(w.wPlus - w.wMinus);
  }
  return {
    meanA: nanMean(sa),
    meanB: nanMean(sb),
    meanDiff: nanMean(d),
    ciLow: ci.low,
    ciHigh: ci.high,
    wins,
    ties: d.length - wins - losses,
    losses,
    test,
    pValue,
    direction,
  };
}

/** One pair of models; the bootstrap is seeded from `seed` and the scores compared, not the models' names. */
function compareTwo(a: ModelRows, b: ModelRows, paired: boolean, replicates: number, confidence: number, seed: number): Comparison {
  const sa: number[] = [];
  const sb: number[] = [];
  let union = 0;
  if (paired) {
    for (const [id, x] of a.byId) {
      union++;
      const y = b.byId.get(id);
      if (y !== undefined && !Number.isNaN(x) && !Number.isNaN(y)) {
        sa.push(x);
        sb.push(y);
      }
    }
    for (const id of b.byId.keys()) if (!a.byId.has(id)) union++;
  }
  if (sa.length > 0) {
    const n = sa.length;
    const stats = pairedStats(sa, sb, replicates, confidence, seedFromData(seed, sa, sb));
    return {
      a: a.name,
      b: b.name,
      nPairs: n,
      nDropped: union - n + a.noId.length + b.noId.length,
      ...stats,
      // One question says nothing about chance: no p-value and no verdict, as one score a side unpaired.
      ...(n < 2 ? { pValue: Number.NaN, untested: "too few questions scored by both to test (1; 2 needed)" } : {}),
    };
  }
  return unpairedComparison(a, b, replicates, confidence, seedFromData(seed, a.all, b.all));
}

/**
 * No question answered validly by both: the difference of the means of all
 * valid scores. Fewer than 2 scores a side give no interval and no p-value
 * (one score says nothing about chance); up to
 * PERMUTATION_EXACT_MAX_SPLITS splits of the pooled scores, the exact
 * permutation test; beyond, the two-sample bootstrap's p-value.
 */
function unpairedComparison(a: ModelRows, b: ModelRows, replicates: number, confidence: number, seed: number): Comparison {
  const validA = a.all.filter((v) => !Number.isNaN(v));
  const validB = b.all.filter((v) => !Number.isNaN(v));
  const r = twoSampleBootstrap(validA, validB, { replicates, confidence, seed });
  const tooFew = validA.length < 2 || validB.length < 2;
  const exact = permutationTest(validA, validB);
  const noScores = [a, b].filter((_, k) => [validA, validB][k]!.length === 0).map((m) => m.name);
  const untested =
    noScores.length > 0
      ? `no scored answers from ${noScores.join(" or ")}`
      : tooFew
        ? `too few scored answers to test (${validA.length} and ${validB.length}; 2 a side needed)`
        : undefined;
  return {
    a: a.name,
    b: b.name,
    nPairs: 0,
    nDropped: a.all.length - validA.length + b.all.length - validB.length,
    meanA: r.meanA,
    meanB: r.meanB,
    meanDiff: r.estimate,
    // Fewer than two scores a side give no interval, as one pair gives none.
    ciLow: tooFew ? Number.NaN : r.low,
    ciHigh: tooFew ? Number.NaN : r.high,
    wins: 0,
    ties: 0,
    losses: 0,
    test: exact !== undefined ? "permutation test (exact, unpaired)" : "two-sample bootstrap (unpaired)",
    pValue: tooFew ? Number.NaN : (exact?.pValue ?? r.pValue),
    direction: Number.isNaN(r.estimate) ? 0 : Math.sign(r.estimate),
    ...(untested !== undefined ? { untested } : {}),
  };
}

/**
 * Compares models on one score column, one row per pair of models: each model
 * against `baseline` (model_b) when given, else every pair in order of first
 * appearance. Answers are paired by question (`pairBy`, default "id", or the
 * question text when there is no id column and each model answers each
 * question once; else the comparison is unpaired): only questions both models
 * answered validly count (`n_pairs`); the others, and rows without an id, are
 * `n_dropped`. Columns:
 *
 * - `mean_a`, `mean_b` over the pairs, `mean_diff` (a − b) with `ci_low`/`ci_high`,
 *   a paired bootstrap interval (questions resampled, seeded);
 * - `wins`/`ties`/`losses` of a against b per question;
 * - `test` and `p_value`: the exact sign test when every score is 0 or 1, else
 *   Wilcoxon signed-rank (exact for ≤ 25 non-zero differences, tied or not,
 *   else the normal approximation); with no question in common (or, when
 *   `pairBy` is not given, no id column and no question text to pair by), the difference in means over
 *   all valid scores (n_pairs 0, n_dropped the failed rows), tested by the
 *   exact permutation test when the pooled scores split into at most 20,000
 *   ways ("permutation test (exact, unpaired)"), else by a two-sample
 *   bootstrap ("two-sample bootstrap (unpaired)"); with fewer than 2 valid
 *   scores a side there is no interval and no p-value (NaN);
 * - `p_holm`: Holm's adjustment across the rows of this result, and `verdict`:
 *   "A better than B" when p_holm < alpha and the test and the mean
 *   difference lean the same way; {@link MEAN_DISAGREES} when they lean
 *   opposite ways and either is beyond chance (p_holm < alpha, or the
 *   interval of the mean excludes 0): skewed differences, where a winner
 *   could contradict the mean the table reports; "no scored answers
 *   from A" or "too few scored answers to test (…)" when there is nothing to
 *   test; else "no detectable difference";
 * - `paired_by`: the column the pairs came from, "" for an unpaired row, and
 *   `unpaired_because`: why a row is unpaired ("" when paired);
 * - `judge`, when the scored table names its judge: who scored the answers.
 *
 * Failed rows (NaN score or a non-empty `<metric>_error`) are never scores
 * of 0. Rows without a model are ignored.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * showTable(compareModels(scored));                           // all pairs
 * showTable(compareModels(scored, { baseline: "swift-mini" })); // each model vs swift-mini
 *
 * @throws {Error} when a column (the metric's, `by`, or a `pairBy` given) or the baseline does not exist, when fewer than two
 *   models are present, or when a (pairBy, model) pair occurs twice.
 */
export function compareModels(data: FrameInput, options: CompareModelsOptions = {}): DataFrame {
  return tableToDataFrame(comparisonTable(data, options));
}

/** {@link compareModels} as a typed table, for callers that need no DataFrame (the command line). */
export function comparisonTable(data: FrameInput, options: CompareModelsOptions = {}): Table {
  const caller = "compareModels";
  const { metric, by, replicates, seed, alpha, confidence } = comparisonSettings(options, caller);

  const table = readTable(data, caller);
  const scores = metricScores(table, metric, caller);
  // A column named to pair by must exist (a misspelt name would quietly give an unpaired test);
  // without one, answers are paired by id, or by question text, or not at all.
  if (options.pairBy !== undefined) requireColumn(table, options.pairBy, caller, "pairBy");
  const pairBy = options.pairBy ?? defaultPairing(table, by);
  const paired = getColumn(table, pairBy) !== undefined;
  const models = modelRows(table, scores, by, paired ? pairBy : undefined, caller);
  const names = models.map((m) => m.name);
  if (models.length < 2) {
    throw new Error(`${caller}: needs at least two models in column "${by}"; found ${models.length}${names.length ? `: ${names.join(", ")}` : ""}`);
  }

  const pairs: [ModelRows, ModelRows][] = [];
  if (options.baseline !== undefined) {
    const base = models.find((m) => m.name === options.baseline);
    if (base === undefined) {
      throw new Error(`${caller}: baseline "${options.baseline}" is not a model in column "${by}"; the models are: ${names.join(", ")}`);
    }
    for (const m of models) if (m !== base) pairs.push([m, base]);
  } else {
    for (let i = 0; i < models.length; i++) for (let j = i + 1; j < models.length; j++) pairs.push([models[i]!, models[j]!]);
  }

  const rows = pairs.map(([a, b]) =>
    compareTwo(a, b, paired, replicates, confidence, seed),
  );
  const adjusted = holm(rows.map((r) => r.pValue));
  const verdicts = rows.map((r, i) => {
    if (r.untested !== undefined) return r.untested;
    const side = verdictSide(r, adjusted[i]!, alpha);
    if (side === "disagree") return MEAN_DISAGREES;
    if (side === "none") return "no detectable difference";
    return side === "a" ? `${r.a} better than ${r.b}` : `${r.b} better than ${r.a}`;
  });

  const num = (pick: (r: Comparison) => number) => rows.map(pick);
  const columns: TableColumn[] = [
    column("model_a", "string", rows.map((r) => r.a)),
    column("model_b", "string", rows.map((r) => r.b)),
    column("n_pairs", "number", num((r) => r.nPairs)),
    column("n_dropped", "number", num((r) => r.nDropped)),
    column("mean_a", "number", num((r) => r.meanA)),
    column("mean_b", "number", num((r) => r.meanB)),
    column("mean_diff", "number", num((r) => r.meanDiff)),
    column("ci_low", "number", num((r) => r.ciLow)),
    column("ci_high", "number", num((r) => r.ciHigh)),
    column("wins", "number", num((r) => r.wins)),
    column("ties", "number", num((r) => r.ties)),
    column("losses", "number", num((r) => r.losses)),
    column("test", "string", rows.map((r) => r.test)),
    column("p_value", "number", num((r) => r.pValue)),
    column("p_holm", "number", adjusted),
    column("verdict", "string", verdicts),
    column("paired_by", "string", rows.map((r) => (r.nPairs > 0 ? pairBy : ""))),
    column("unpaired_because", "string", rows.map((r) => (r.nPairs > 0 ? "" : paired ? `no ${pairBy} was answered validly by both models` : unpairedReason(table, by)))),
  ];
  // Who judged the scores compared, so that a chart of the comparison can say so.
  const judge = judgeText(table, metric);
  if (judge !== "") columns.push(column("judge", "string", rows.map(() => judge)));
  return { columns, rowCount: rows.length };
}

/** Why a table's answers cannot be paired at all (its pairing column is absent). */
function unpairedReason(table: Table, by: string): string {
  if (getColumn(table, "user_input") === undefined) return 'there is no "id" column and no question column (user_input)';
  return `there is no "id" column, and a model in "${by}" answers the same question text more than once, so answers cannot be matched by question`;
}

/**
 * "id" when the table has it; else "user_input" when each model answers each
 * question once (answers to the same question text are the natural pairs);
 * else "id" (absent: unpaired).
 */
function defaultPairing(table: Table, by: string): string {
  return pairingColumn(table, by) ?? DEFAULT_PAIR_BY;
}

/**
 * @internal The column that pairs a table's answers to the same question:
 * "id" when the table has it; else "user_input" when each model (in column
 * `by`) answers each question once; else undefined.
 */
export function pairingColumn(table: Table, by: string): "id" | "user_input" | undefined {
  if (getColumn(table, "id") !== undefined) return "id";
  return answersOnceEach(table, by, "user_input") ? "user_input" : undefined;
}

/**
 * @internal True when column `key` exists and no (model, key) pair occurs
 * twice (rows without a `by` column all belong to one model).
 */
export function answersOnceEach(table: Table, by: string, key: string): boolean {
  const keys = getColumn(table, key);
  if (keys === undefined) return false;
  const models = getColumn(table, by);
  const seen = new Set<string>();
  for (let i = 0; i < table.rowCount; i++) {
    const pair = JSON.stringify([models?.values[i] ?? null, keys.values[i] ?? null]);
    if (seen.has(pair)) return false;
    seen.add(pair);
  }
  return true;
}
