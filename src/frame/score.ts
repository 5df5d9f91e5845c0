/**
 * Scoring a table: rows in (checked, typed), metrics run, columns out as a
 * new DataFrame with the same rows in the same order.
 */
import type { DataFrame } from "danfojs-node";
import { INPUT_ERROR_COLUMN, type CanonicalColumn } from "../dataset/columns";
import { checkDataset, type CheckedDataset, type DatasetSource, type LoadDatasetOptions } from "../dataset/load";
import { isDataFrame } from "../dataset/frame-like";
import { getColumn, type Cell, type Table, type TableColumn } from "../dataset/table";
import { MissingColumnError, parseContexts } from "../dataset/validate";
import type { JudgeOptions } from "../judge/config";
import { createJudge } from "../judge/create";
import type { Embedder, Judge } from "../judge/judge";
import { autoProgress, ProgressTracker, type ProgressCallback } from "../judge/progress";
import { formatUsage, type UsageRecorder, type UsageSummary } from "../judge/usage";
import { answerCorrectness, type AnswerCorrectnessOptions } from "../metrics/answer-correctness/metric";
import type { EvalRow, Metric } from "../metrics/metric";
import { multimodalRelevance, type MultimodalRelevanceOptions } from "../metrics/multimodal-relevance/metric";
import { metricDefinition } from "../metrics/registry";
import { tableToDataFrame } from "./dataframe";
import { INTERRUPTED, notebookInterrupt } from "./interrupt";

/** Options of {@link score}. */
export interface ScoreOptions {
  /** A judge from `createJudge`, or options to create one (default: from the environment). */
  judge?: Judge | JudgeOptions;
  /** Record usage here too (default: a new recorder for this run). */
  usage?: UsageRecorder;
  /**
   * Progress callback; default (or undefined, which `notebookProgress()` gives
   * outside a notebook) a line updated in place in a notebook, a bar on a
   * terminal. `false` for none.
   */
  progress?: ProgressCallback | false | undefined;
  /** Do not print the usage line at the end. */
  quiet?: boolean;
  /** How to read the input (aliases, dtypes…), as for `loadDataset`. */
  load?: LoadDatasetOptions;
}

/** What a scoring run leaves with its DataFrame. */
export interface ScoreRun {
  usage: UsageSummary;
  /** Labels of the judges that answered. */
  judges: string[];
  metrics: string[];
}

const RUNS = new WeakMap<DataFrame, ScoreRun>();

/**
 * The usage summary and judges of the run that produced a scored DataFrame
 * (undefined for a frame that `score` did not return, e.g. one read from CSV).
 *
 * @example
 * const scored = await scoreAnswerCorrectness(df);
 * scoreRun(scored)?.usage.costUSD
 */
export function scoreRun(scored: DataFrame): ScoreRun | undefined {
  return RUNS.get(scored);
}

/** Records what produced a scored DataFrame (batch mode replaces the last pass's record with the run's). */
export function setScoreRun(scored: DataFrame, run: ScoreRun): void {
  RUNS.set(scored, run);
}

/** Whether a value is a judge (rather than options to create one). */
export function isJudge(value: unknown): value is Judge {
  return typeof value === "object" && value !== null && typeof (value as Judge).complete === "function" && typeof (value as Judge).embed === "function";
}

function cell(table: Table, name: string, row: number): Cell {
  return getColumn(table, name)?.values[row] ?? null;
}

/** The rows of a checked table that metrics score (rows with bad input are left out), with canonical fields. */
export function evalRows(table: Table, errors: readonly string[]): EvalRow[] {
  const text = (name: string, row: number): string | undefined => {
    const v = cell(table, name, row);
    return typeof v === "string" ? v : undefined;
  };
  const rows: EvalRow[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    if (errors[i] !== "") continue;
    const contexts = getColumn(table, "retrieved_contexts") ? parseContexts(text("retrieved_contexts", i) ?? null) : undefined;
    rows.push({
      index: i,
      user_input: text("user_input", i) ?? "",
      response: text("response", i) ?? "",
      reference: text("reference", i),
      retrieved_contexts: contexts && "contexts" in contexts ? contexts.contexts : undefined,
      model: text("model", i),
      id: text("id", i),
    });
  }
  return rows;
}

/**
 * Scores a table with one or more metrics and returns a new DataFrame: the
 * input columns, then each metric's columns. Row order and count always
 * equal the input's, and a DataFrame's index is kept (the labels of
 * `df.query(…)` or `setIndex`). A row with bad input, or whose judge call fails for
 * good, gets NaN and the reason in the metric's error column; the other rows
 * are scored. One judge (one scheduler, one cache) serves the whole run, and
 * a usage line is printed at the end.
 *
 * @example
 * const df = await loadDataset("data/qa-models.csv");
 * const scored = await score(df, [answerCorrectness({ weights: [0.75, 0.25] })]);
 * scored.loc({ columns: ["model", "answer_correctness"] }).head().print();
 */
export async function score(data: DatasetSource, metrics: readonly Metric[], options: ScoreOptions = {}): Promise<DataFrame> {
  if (metrics.length === 0) throw new Error("score: give at least one metric, e.g. score(df, [answerCorrectness()])");
  const judge = isJudge(options.judge) ? options.judge : createJudge(options.judge ?? {});
  const required = [...new Set(metrics.flatMap((m) => m.requiredColumns))] as CanonicalColumn[];
  const checked = await checkDataset(data, { ...options.load, required }).catch((error: unknown) => {
    throw withScoreAliasHint(error);
  });
  const scored = await scoreStoppable(checked, metrics, judge, options);
  // A DataFrame's own index (labels, or the row numbers of a filtered frame) stays, to join the scores back by.
  if (isDataFrame(data) && data.index.some((label, i) => label !== i)) scored.setIndex({ index: [...data.index], inplace: true });
  return scored;
}

/**
 * A missing column's error with the fix worded for `score` and its
 * `scoreAnswerCorrectness`-like shortcuts, which take a load's aliases under
 * `load` (the error says `{ aliases: … }`, as `loadDataset` takes them: in a
 * call to score that is a type error that does not say where they go).
 */
function withScoreAliasHint(error: unknown): unknown {
  if (!(error instanceof MissingColumnError) || !error.fixedByAliases || error.missing[0] === undefined) return error;
  return error.withApiFix(`rename a column, or pass { load: { aliases: { yourName: "${error.missing[0]}" } } } in the options of the scoring call (or to loadDataset: { aliases: … })`);
}

/**
 * {@link scoreChecked}, stopped by the notebook's interrupt in a tslab kernel
 * (see interrupt.ts): then it sends nothing more, draws no more progress,
 * prints no usage line, and rejects.
 */
async function scoreStoppable(checked: CheckedDataset, metrics: readonly Metric[], judge: Judge, options: ScoreOptions): Promise<DataFrame> {
  const stop = notebookInterrupt();
  if (stop === undefined) return scoreChecked(checked, metrics, judge, options);
  try {
    const progress = (options.progress === false ? undefined : stop.progress(options.progress ?? autoProgress())) ?? false;
    const scored = await scoreChecked(checked, metrics, stop.gate(judge), { ...options, progress, quiet: true }, undefined, (j) => stop.gate(j));
    if (stop.interrupted) throw new Error(INTERRUPTED);
    const summary = RUNS.get(scored)?.usage;
    if (!options.quiet && summary) console.log(formatUsage(summary));
    return scored;
  } finally {
    stop.dispose();
  }
}

/**
 * {@link score} of a table checked already (a chunk of a large file, in the
 * CLI's streamed run): the scored DataFrame of its rows. A streamed run
 * passes its own `tracker`, which then counts every chunk's rows and calls.
 * `hold` wraps the judges metrics bring themselves as `judge` was wrapped
 * (the notebook's interrupt).
 */
export async function scoreChecked(
  checked: CheckedDataset,
  metrics: readonly Metric[],
  judge: Judge,
  options: ScoreOptions = {},
  tracker?: ProgressTracker,
  hold?: <J extends Embedder>(judge: J) => J,
): Promise<DataFrame> {
  const { table, errors } = checked;
  const usage = options.usage ?? newRunUsage(metrics, judge);
  usage.rows = table.rowCount;
  const rows = evalRows(table, errors);
  // A run's tracker (a streamed run's spans its chunks), or this table's own, drawn at once.
  const progress = tracker ?? new ProgressTracker(table.rowCount * metrics.length, options.progress === false ? undefined : (options.progress ?? autoProgress()));
  for (const metric of metrics) progress.plan(metric.planCalls?.(rows, judge) ?? [], table.rowCount);
  if (!tracker) progress.report();
  for (let i = 0; i < table.rowCount - rows.length; i++) for (const _ of metrics) progress.step(true);

  const judges = new Set<string>();
  const outputs = await Promise.all(
    metrics.map(async (metric) => {
      const metricJudge = metric.judge === undefined ? judge : (hold?.(metric.judge) ?? metric.judge);
      const label = metricJudgeLabel(metric, judge);
      judges.add(label);
      const context = { judge: metricJudge, usage, rowDone: (failed: boolean) => progress.step(failed), calls: progress };
      const results = await metric.scoreRows(rows, hold === undefined ? context : { ...context, hold });
      const byRow = new Map<number, Record<string, Cell>>();
      rows.forEach((row, k) => byRow.set(row.index, metric.cells(results[k]!)));
      const columns: TableColumn[] = metric.columns().map((c) => ({
        name: c.name,
        type: c.type,
        values: Array.from({ length: table.rowCount }, (_, i) => {
          const cells = byRow.get(i) ?? metric.failedCells(`input: ${errors[i]}`, label);
          return cells[c.name] ?? null;
        }),
      }));
      return columns;
    }),
  );
  // Columns of an earlier run of the same metrics, and a stale input_error, are replaced.
  const replaced = replacedColumns(metrics);
  const columns = table.columns.filter((c) => !replaced.has(c.name));
  if (errors.some((e) => e !== "")) columns.push({ name: INPUT_ERROR_COLUMN, type: "string", values: [...errors] });
  columns.push(...outputs.flat());
  const scored = tableToDataFrame({ columns, rowCount: table.rowCount });
  const summary = usage.summary();
  RUNS.set(scored, { usage: summary, judges: [...judges], metrics: metrics.map((m) => m.name) });
  if (!options.quiet) console.log(formatUsage(summary));
  return scored;
}

/** The label of the model that answers `metric`'s calls: its own judge's, or the run's `judge`'s (for multimodal relevance, its vision model's). */
export function metricJudgeLabel(metric: Metric, judge: Judge): string {
  const metricJudge = metric.judge ?? judge;
  return metric.labelOf?.(metricJudge) ?? metricJudge.label;
}

/**
 * What answers a run's calls, as one label: the label of the model every
 * metric asks, or, when they ask different models, each label with its
 * metrics.
 *
 * @example
 * runJudgeLabel([multimodalRelevance()], judge); // "gpt-4o @ api.openai.com" (the vision model), not the chat model
 * runJudgeLabel([answerCorrectness(), multimodalRelevance()], judge);
 * // "gpt-4o-mini @ api.openai.com (answer_correctness), gpt-4o @ api.openai.com (multimodal_relevance)"
 */
export function runJudgeLabel(metrics: readonly Metric[], judge: Judge): string {
  const byLabel = new Map<string, string[]>();
  for (const metric of metrics) {
    const label = metricJudgeLabel(metric, judge);
    byLabel.set(label, [...(byLabel.get(label) ?? []), metric.name]);
  }
  if (byLabel.size <= 1) return [...byLabel.keys()][0] ?? judge.label;
  return [...byLabel].map(([label, names]) => `${label} (${names.join(", ")})`).join(", ");
}

/** A usage recorder for one run of `metrics`: `judge`'s prices, named after what answers the metrics' calls ({@link runJudgeLabel}). */
export function newRunUsage(metrics: readonly Metric[], judge: Judge): UsageRecorder {
  const usage = judge.newUsage();
  usage.answeredBy(runJudgeLabel(metrics, judge));
  return usage;
}

/**
 * The input columns a scoring run with these metrics leaves out of its
 * table: every column each metric may write (a threshold's `_continuous`
 * column too, which a run without one does not write again), and
 * `input_error`, which the run writes anew.
 */
export function replacedColumns(metrics: readonly Metric[]): Set<string> {
  return new Set([INPUT_ERROR_COLUMN, ...metrics.flatMap((m) => [...m.columns().map((c) => c.name), ...(metricDefinition(m.name)?.columns ?? [])])]);
}

/** Splits a one-metric call's options into the run's and the metric's. */
function splitRunOptions<T extends object>(options: T & ScoreOptions): { run: ScoreOptions; metric: Omit<T, keyof ScoreOptions> } {
  const { judge, usage, progress, quiet, load, ...metric } = options;
  return { run: { judge, usage, progress, quiet, load }, metric };
}

/**
 * Scores answer correctness (see {@link answerCorrectness}) and returns a new
 * DataFrame with the `answer_correctness*` columns.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * const strict = await scoreAnswerCorrectness(df, { weights: [1, 0], threshold: 0.6 });
 */
export async function scoreAnswerCorrectness(
  data: DatasetSource,
  options: Omit<AnswerCorrectnessOptions, "judge"> & ScoreOptions = {},
): Promise<DataFrame> {
  const { run, metric } = splitRunOptions(options);
  return score(data, [answerCorrectness(metric)], run);
}

/**
 * Scores multimodal relevance (see {@link multimodalRelevance}) and returns a
 * new DataFrame with the `multimodal_relevance*` columns.
 *
 * @example
 * const df = await loadDataset("data/multimodal.csv");
 * const scored = await scoreMultimodalRelevance(df, { imageRoot: "data" });
 */
export async function scoreMultimodalRelevance(
  data: DatasetSource,
  options: Omit<MultimodalRelevanceOptions, "judge"> & ScoreOptions = {},
): Promise<DataFrame> {
  const { run, metric } = splitRunOptions(options);
  return score(data, [multimodalRelevance(metric)], run);
}
