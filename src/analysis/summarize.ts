/**
 * Per-group summaries of score columns, and the helpers every analysis
 * function uses to read a scored frame: typed columns, a metric's valid
 * scores (errors are missing, never 0), and groups in order of first
 * appearance. We never use danfojs' groupby/mean: they mishandle NaN and null.
 */
import { FixableError } from "../dataset/fix-hint";
import type { DataFrame } from "danfojs-node";
import { INPUT_ERROR_COLUMN, type ColumnType } from "../dataset/columns";
import { getColumn, rowAt, type Cell, type Table, type TableColumn } from "../dataset/table";
import { REPEATED_ID_RULE } from "../dataset/validate";
import { tableToDataFrame } from "../frame/dataframe";
import { readFrame, type FrameInput } from "../dataset/frame-like";
import { cellNumber, cellString, groupRows, judgeColumnName, judgeText } from "../dataset/column-toolkit";
import { defaultScoreColumns, definitionOfColumn } from "../metrics/registry";
import { DEFAULT_SEED, seedFromData } from "../stats/random";
import { bootstrapMeanCI } from "../stats/bootstrap";
import { wilsonInterval } from "../stats/intervals";
import { nanMean, nanStd, quantileSorted7 } from "../stats/descriptive";

/** What the analysis functions, charts and tables read (the dataset layer's {@link FrameInput}, re-exported). */
export type { FrameInput };

/**
 * The score columns {@link summarize} looks for when no metric is named: the
 * metric registry's (answer_correctness, answer_correctness_continuous,
 * multimodal_relevance, then any metric registered since; a live array).
 */
export const DEFAULT_METRICS: readonly string[] = defaultScoreColumns();

/** @internal The typed table of a DataFrame or of row objects. */
export function readTable(data: FrameInput, caller: string): Table {
  return readFrame(data, caller);
}

function columnList(table: Table): string {
  return table.columns.length === 0 ? "(none)" : table.columns.map((c) => c.name).join(", ");
}

/** @internal The named column, or an error that names the columns that exist. */
export function requireColumn(table: Table, name: string, caller: string, role: string): TableColumn {
  const column = getColumn(table, name);
  if (column === undefined) {
    throw new Error(`${caller}: no ${role} column "${name}"; the columns are: ${columnList(table)}`);
  }
  return column;
}

/**
 * @internal The error column that goes with a metric: `<metric>_error`, else
 * the same with trailing `_part`s removed (`answer_correctness_continuous` →
 * `answer_correctness_error`).
 */
export function errorColumnFor(table: Table, metric: string): TableColumn | undefined {
  let base = metric;
  for (;;) {
    const column = getColumn(table, `${base}_error`);
    if (column !== undefined && column.type === "string") return column;
    const cut = base.lastIndexOf("_");
    if (cut <= 0) return undefined;
    base = base.slice(0, cut);
  }
}

/**
 * @internal A metric's scores as a Float64Array with NaN for every row that
 * did not score: NaN/null cells and rows whose error column is not empty.
 */
export function metricScores(table: Table, metric: string, caller: string): Float64Array {
  const column = requireColumn(table, metric, caller, "metric");
  if (column.type === "string") {
    throw new TypeError(`${caller}: column "${metric}" holds text, not scores; name a numeric score column`);
  }
  const errors = errorColumnFor(table, metric);
  const range = definitionOfColumn(metric)?.scoreRange;
  // A cell that was no number when the table was read is NaN now; the reading put why in input_error.
  const unread = range === undefined ? undefined : getColumn(table, INPUT_ERROR_COLUMN);
  const out = new Float64Array(table.rowCount);
  for (let i = 0; i < table.rowCount; i++) {
    const failed = cellString(errors?.values[i]).trim() !== "";
    const score = cellNumber(column.values[i]);
    if (range !== undefined && !failed) {
      const why = cellString(unread?.values[i]).split("; write")[0]!;
      if (why.startsWith(`column "${metric}" holds `)) throw new RangeError(`${caller}: ${rowAt(table, i)}: ${why}, not a score from ${range[0]} to ${range[1]}; fix the cell, or empty it and put the reason in the error column`);
      checkScore(column.values[i], score, range, rowAt(table, i), metric, caller);
    }
    out[i] = Number.isFinite(score) && !failed ? score : Number.NaN;
  }
  return out;
}

/**
 * A score of a metric with known bounds: a number within them, or empty
 * (a row not scored); else an error naming the row, as a damaged or rescaled
 * column would otherwise be averaged, compared and gated as if it were scores.
 */
function checkScore(cell: unknown, score: number, [low, high]: readonly [number, number], row: string, metric: string, caller: string): void {
  if (cell === null || cell === undefined || (typeof cell === "string" && cell.trim() === "") || (typeof cell === "number" && Number.isNaN(cell))) return;
  if (Number.isFinite(score) && score >= low && score <= high) return;
  const shown = typeof cell === "string" ? JSON.stringify(cell) : String(cell);
  const hint = Number.isFinite(score) && score > high && score <= 100 * high ? "; a column in percent must be divided by 100" : "; fix the cell, or empty it and put the reason in the error column";
  throw new RangeError(`${caller}: column "${metric}" ${row}: ${shown} is not a score from ${low} to ${high}${hint}`);
}

/** Whether a score cell holds no score: missing, NaN, or blank text. */
export function isBlankScore(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "number" && Number.isNaN(value)) || (typeof value === "string" && value.trim() === "");
}

/** A row that answers a question (id) its model answered in an earlier row. */
export interface RepeatedAnswer {
  /** The row repeating the answer. */
  row: number;
  /** The earlier row, when the table has the id column to find it. */
  first: number | undefined;
}

/**
 * The rows that repeat an earlier row's (id, model): found from the `id`
 * (and `model`) columns, and from an `input_error` that loading wrote for a
 * repeated id (a table read without its id column still knows them). The
 * first answer counts; `summarize` counts the others as failed, as scoring
 * leaves them unscored.
 *
 * @example
 * repeatedAnswers({ columns: [{ name: "id", type: "string", values: ["q1", "q1"] }], rowCount: 2 }) // [{ row: 1, first: 0 }]
 */
/**
 * The repeated answers (see {@link repeatedAnswers}) that scoring left
 * unscored: loading marked them in `input_error`, and none of
 * `scoreColumns` (those the table has) holds a score. Empty when the table
 * has no `input_error` or none of the columns. Repeats that were scored (a
 * table made elsewhere) are not among them.
 *
 * @example
 * unscoredRepeats(table, ["answer_correctness"]) // [{ row: 3, first: 0 }]
 */
export function unscoredRepeats(table: Table, scoreColumns: readonly string[]): RepeatedAnswer[] {
  const flagged = getColumn(table, INPUT_ERROR_COLUMN)?.values;
  const scores = scoreColumns.map((name) => getColumn(table, name)?.values).filter((values) => values !== undefined);
  if (flagged === undefined || scores.length === 0) return [];
  return repeatedAnswers(table).filter(({ row }) => {
    const reason = flagged[row];
    return typeof reason === "string" && reason.trim() !== "" && scores.every((values) => isBlankScore(values[row]));
  });
}

export function repeatedAnswers(table: Table): RepeatedAnswer[] {
  const id = getColumn(table, "id");
  const model = getColumn(table, "model");
  const flagged = getColumn(table, INPUT_ERROR_COLUMN);
  const firstRow = new Map<string, number>();
  const out: RepeatedAnswer[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    const v = cellString(id?.values[i]);
    const key = JSON.stringify([v, model?.values[i] ?? null]);
    const first = v.trim() === "" ? undefined : firstRow.get(key);
    if (first !== undefined) out.push({ row: i, first });
    else if (cellString(flagged?.values[i]).includes(REPEATED_ID_RULE)) out.push({ row: i, first: undefined });
    else if (v.trim() !== "") firstRow.set(key, i);
  }
  return out;
}

/** @internal A column name or several as a list. */
export function asList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

/** @internal A frame from typed columns. */
export function frameOf(columns: TableColumn[], rowCount: number): DataFrame {
  return tableToDataFrame({ columns, rowCount });
}

/** @internal A new typed column. */
export function column(name: string, type: ColumnType, values: Cell[]): TableColumn {
  return { name, type, values };
}

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /** Column(s) to group by, e.g. "model" or ["model", "domain"]; none: one row per metric. */
  by?: string | readonly string[];
  /** Score column(s); default: those of answer_correctness, answer_correctness_continuous and multimodal_relevance present. */
  metrics?: string | readonly string[];
  /**
   * Bootstrap replicates for the confidence interval of the mean of a
   * continuous metric (default 2,000); 0 for no interval at all (neither the
   * bootstrap nor, for a 0/1 metric, the Wilson score interval).
   */
  bootstrap?: number;
  /** Seed of the bootstrap (default {@link DEFAULT_SEED}), mixed with the scores (not the group's name): the same scores and seed give the same interval. */
  seed?: number;
  /** Coverage of the interval, bootstrap or Wilson (default 0.95). */
  confidence?: number;
}

/** The columns of a {@link summarize} result after the group columns. */
export const SUMMARY_COLUMNS = [
  "metric",
  "n",
  "n_valid",
  "n_error",
  "mean",
  "std",
  "median",
  "p25",
  "p75",
  "min",
  "max",
  "ci_low",
  "ci_high",
  "pass_rate",
] as const;

/**
 * Summary statistics of score columns, per group and metric (metric by
 * metric, groups in order of first appearance): `n` rows, `n_valid` scored,
 * `n_error` failed (NaN/null score or a non-empty `<metric>_error`; never
 * averaged in as 0; also a row repeating an earlier row's (id, model), see
 * {@link repeatedAnswers}: the first answer is the one scored), and over the valid scores `mean`, `std` (sample, n − 1),
 * `median`, `p25`, `p75` (type-7 quantiles), `min`, `max`, `ci_low`/`ci_high`
 * and `pass_rate`; and, when the scored table names its judge
 * (`<metric>_judge`), `judge`: who scored the group, which a chart of the
 * summary puts in its subtitle.
 *
 * The interval (`ci_low`/`ci_high`, 95% unless `confidence` says otherwise)
 * depends on the metric's scores:
 *
 * - a 0/1 metric (every valid score of the metric, in every group, is 0 or 1:
 *   multimodal_relevance, or answer_correctness with a threshold) gets the
 *   Wilson score interval of its pass rate ({@link wilsonInterval}, the one
 *   `relevanceRate` draws): never a single point at a rate of 0 or 1 and
 *   defined from one valid score on (1 of 1 gives 0.21–1), where a bootstrap
 *   of the mean collapses to zero width ("1–1"); its `pass_rate` is the mean;
 * - any other metric gets the percentile bootstrap interval of the mean
 *   (seeded; NaN with fewer than two valid scores), and `pass_rate` is NaN.
 *
 * `bootstrap: 0` gives no interval of either kind.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * showTable(summarize(scored, { by: "model" }));
 * summarize(scored, { by: ["model", "domain"], metrics: "answer_correctness", seed: 7 }).print();
 *
 * @throws {Error} when a metric or group column does not exist (the message lists the columns).
 */
export function summarize(data: FrameInput, options: SummarizeOptions = {}): DataFrame {
  return tableToDataFrame(summaryTable(data, options));
}

/** {@link summarize} as a typed table, for callers that need no DataFrame (the command line: no danfojs to load). */
export function summaryTable(data: FrameInput, options: SummarizeOptions = {}): Table {
  const caller = "summarize";
  const table = readTable(data, caller);
  const by = asList(options.by).map((name) => requireColumn(table, name, caller, "group"));
  let metrics = asList(options.metrics);
  if (options.metrics === undefined) {
    metrics = DEFAULT_METRICS.filter((m) => getColumn(table, m) !== undefined);
    if (metrics.length === 0) {
      throw new FixableError(`${caller}: none of the score columns ${DEFAULT_METRICS.join(", ")} is present (the columns are: ${columnList(table)})`, {
        api: 'name one with { metrics: "…" }',
        cli: "name one with --metrics COLUMN",
      });
    }
  }
  const replicates = options.bootstrap ?? 2000;
  if (!Number.isInteger(replicates) || replicates < 0) {
    throw new RangeError(`${caller}: bootstrap must be a whole number of replicates (0 for no interval), got ${replicates}`);
  }
  const seed = options.seed ?? DEFAULT_SEED;
  const confidence = options.confidence ?? 0.95;
  const groups = groupRows(table, by);
  // A repeated answer is not a second score of its question: it counts as failed (see repeatedAnswers).
  const repeated = new Set(repeatedAnswers(table).map((r) => r.row));

  const groupValues: Cell[][] = by.map(() => []);
  const cells: Record<(typeof SUMMARY_COLUMNS)[number], Cell[]> = Object.fromEntries(
    SUMMARY_COLUMNS.map((name) => [name, [] as Cell[]]),
  ) as Record<(typeof SUMMARY_COLUMNS)[number], Cell[]>;

  for (const metric of metrics) {
    const scores = metricScores(table, metric, caller);
    // A 0/1 metric is one whose every valid score, in every group, is 0 or 1: one kind of interval per metric.
    const binary = scores.every((v) => Number.isNaN(v) || v === 0 || v === 1);
    groups.rows.forEach((rows, g) => {
      by.forEach((c, k) => groupValues[k]!.push(c.values[groups.first[g]!] ?? null));
      const valid: number[] = [];
      for (const i of rows) {
        const v = scores[i]!;
        if (!Number.isNaN(v) && !repeated.has(i)) valid.push(v);
      }
      const s = describe(valid, binary, replicates, confidence, seedFromData(seed, valid));
      cells.metric.push(metric);
      cells.n.push(rows.length);
      cells.n_valid.push(valid.length);
      cells.n_error.push(rows.length - valid.length);
      cells.mean.push(s.mean);
      cells.std.push(s.std);
      cells.median.push(s.median);
      cells.p25.push(s.p25);
      cells.p75.push(s.p75);
      cells.min.push(s.min);
      cells.max.push(s.max);
      cells.ci_low.push(s.ciLow);
      cells.ci_high.push(s.ciHigh);
      cells.pass_rate.push(s.passRate);
    });
  }
  const rowCount = metrics.length * groups.rows.length;
  const columns: TableColumn[] = by.map((c, k) => column(c.name, c.type, groupValues[k]!));
  for (const name of SUMMARY_COLUMNS) columns.push(column(name, name === "metric" ? "string" : "number", cells[name]));
  // Who judged each group's scores, so that a chart of the summary can say so.
  if (!by.some((c) => c.name === "judge") && metrics.some((m) => judgeColumnName(table, m) !== undefined)) {
    columns.push(column("judge", "string", metrics.flatMap((m) => groups.rows.map((rows) => judgeText(table, m, rows)))));
  }
  return { columns, rowCount };
}

interface Description {
  mean: number;
  std: number;
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  ciLow: number;
  ciHigh: number;
  passRate: number;
}

/**
 * The statistics of one group's valid scores; `binary`: the metric's scores
 * are all 0 or 1 (a Wilson score interval and a pass rate), else a bootstrap
 * interval of the mean.
 */
function describe(valid: number[], binary: boolean, replicates: number, confidence: number, seed: number): Description {
  const n = valid.length;
  const nan = Number.NaN;
  if (n === 0) {
    return { mean: nan, std: nan, median: nan, p25: nan, p75: nan, min: nan, max: nan, ciLow: nan, ciHigh: nan, passRate: nan };
  }
  const sorted = Float64Array.from(valid).sort();
  const mean = nanMean(valid);
  let ciLow = nan;
  let ciHigh = nan;
  if (binary && replicates > 0) {
    let successes = 0;
    for (const v of valid) successes += v;
    const ci = wilsonInterval(successes, n, confidence);
    ciLow = ci.low;
    ciHigh = ci.high;
  } else if (n >= 2 && replicates > 0) {
    const ci = bootstrapMeanCI(valid, { replicates, confidence, seed });
    ciLow = ci.low;
    ciHigh = ci.high;
  }
  return {
    mean,
    std: nanStd(valid),
    median: quantileSorted7(sorted, 0.5),
    p25: quantileSorted7(sorted, 0.25),
    p75: quantileSorted7(sorted, 0.75),
    min: sorted[0]!,
    max: sorted[n - 1]!,
    ciLow,
    ciHigh,
    passRate: binary ? mean : nan,
  };
}
