/**
 * `evalframe score` on a file of any size: the file is read, scored and
 * written a chunk of rows at a time, so that memory depends on the chunk,
 * not on the file. The judge's cache is the checkpoint: a run killed
 * half-way and started again pays only for the rows it had not reached.
 *
 * Two passes over the input: the first checks every row (so that the output
 * has the same columns from its first line: `input_error` only when some row
 * has bad input, as `score` gives it), the second scores. The output files
 * are put in place at the end, atomically.
 */
import { createHash } from "node:crypto";
import type { DataFrame } from "danfojs-node";
import { summarize } from "../analysis/summarize";
import { failureKind } from "../analysis/headline";
import { readRawChunks } from "../dataset/chunks";
import { INPUT_ERROR_COLUMN, KNOWN_COLUMN_TYPES, type ColumnType } from "../dataset/columns";
import { cellText, getColumn, setField, tableRows } from "../dataset/table";
import { AtomicFileWriter } from "../dataset/atomic-write";
import { formatCsv } from "../dataset/export";
import { PaddedKeys } from "../dataset/padded-keys";
import { IdQuestions } from "../dataset/id-questions";
import { badInputWarning, checkRawTable, formatOf, type CheckedDataset, type DatasetFormat, type LoadDatasetOptions } from "../dataset/load";
import type { RawTable } from "../dataset/raw";
import { AnsweredPairs } from "../dataset/validate";
import { newRunUsage, replacedColumns, scoreChecked, scoreRun } from "../frame/score";
import { statements } from "../frame/statements";
import type { Judge } from "../judge/judge";
import { ProgressTracker, type ProgressCallback } from "../judge/progress";
import type { UsageSummary } from "../judge/usage";
import type { Metric } from "../metrics/metric";
import { countFailure, failedRowName, type RunFailures } from "./failures";
import { frameRecords } from "./table";
import { noRowMeets, rowsMeeting, valueMatcher, valueNoRowHolds, type RowCondition } from "./where";

/** Rows read, scored and written at a time, by default. */
export const CHUNK_ROWS = 10_000;

/** What the first pass learns of the input. */
export interface InputSurvey {
  /** Column names as scoring sees them (aliases applied). */
  columns: string[];
  /** Rows to score (those `--where` names, when it is given). */
  rows: number;
  /** Of those, rows with bad input. */
  bad: number;
  /** Rows of the file, `--where` or not. */
  fileRows: number;
  /** The models of the rows to score, first seen first (at most 10,000 of them); empty without a "model" column. */
  models: string[];
  /** Of records (JSON, JSON Lines): every key some record has, which every chunk is given (missing = empty). */
  keys?: string[];
}

/**
 * Of a file of records (JSON, JSON Lines), every key any record has, first seen first; undefined
 * for a table with a header. A chunk read alone lacks a key only its other rows have, and a row
 * without "model" or "reference" must be bad input there as in the file read whole.
 */
async function recordKeys(file: string, format: DatasetFormat, strict: boolean, chunkRows: number): Promise<string[] | undefined> {
  const options = loadOptions(format, strict, false);
  const resolved = formatOf(file, options);
  if (resolved !== "json" && resolved !== "jsonl") return undefined;
  const keys: string[] = [];
  const seen = new Set<string>();
  for await (const raw of readRawChunks(file, options, chunkRows)) {
    for (const name of raw.names) if (!seen.has(name)) (seen.add(name), keys.push(name));
  }
  return keys;
}

/** `raw` with every one of `keys` it lacks as a column of empty cells. */
function withKeys(raw: RawTable, keys: readonly string[] | undefined): RawTable {
  const missing = keys?.filter((k) => !raw.names.includes(k)) ?? [];
  if (missing.length === 0) return raw;
  return { ...raw, names: [...raw.names, ...missing], columns: [...raw.columns, ...missing.map(() => new Array<unknown>(raw.rowCount).fill(null))] };
}

/** Distinct models a survey keeps at most: enough for any gate, bounded for a file of unique labels. */
const SURVEY_MODELS = 10_000;

/** The rows of a checked chunk that `where` names (all of it when there are no conditions), renumbered. */
function rowsWhereChecked(checked: CheckedDataset, where: readonly RowCondition[]): CheckedDataset {
  if (where.length === 0) return checked;
  const rows = rowsMeeting(checked.table, where);
  const kept: CheckedDataset = { table: tableRows(checked.table, rows), errors: rows.map((i) => checked.errors[i]!), source: checked.source };
  if (checked.lines) kept.lines = rows.map((i) => checked.lines![i]!);
  return kept;
}

/** Reading options of both passes: every column that is not one of evalframe's own is text, kept as written. */
function loadOptions(format: DatasetFormat, strict: boolean, warn: LoadDatasetOptions["warn"], names: readonly string[] = []): LoadDatasetOptions {
  const dtypes: Record<string, ColumnType> = {};
  for (const name of names) if (!Object.hasOwn(KNOWN_COLUMN_TYPES, name)) setField(dtypes, name, "string");
  return { format, strict, warn, dtypes, required: [] };
}

/**
 * First pass: the input's columns and row count, and how many rows have bad
 * input (warned about once, as `loadDataset` does). Problems of the file
 * itself (bad bytes, a malformed line) are reported or thrown here.
 */
export async function surveyInput(
  file: string,
  format: DatasetFormat,
  options: { strict: boolean; warn: (message: string) => void; chunkRows?: number; where?: readonly RowCondition[]; command?: string },
): Promise<InputSurvey> {
  const where = options.where ?? [];
  const columns: string[] = [];
  let rows = 0;
  let bad = 0;
  let fileRows = 0;
  let first: { row: number; line: number | undefined; message: string } | undefined;
  const models = new Set<string>();
  const pairs = new AnsweredPairs();
  const padded = new PaddedKeys();
  const ids = new IdQuestions();
  // A few of the values each condition's column holds, for the message when no row meets them.
  const seen = new Map(where.map((c) => [c.column, new Set<string>()]));
  // The values each condition asks for that some row holds (a value none holds is likely misspelt).
  const found = where.map(() => new Set<string>());
  const keys = await recordKeys(file, format, options.strict, options.chunkRows ?? CHUNK_ROWS);
  for await (const read of readRawChunks(file, loadOptions(format, options.strict, options.warn), options.chunkRows ?? CHUNK_ROWS)) {
    const raw = withKeys(read, keys);
    const all = checkRawTable(raw, file, loadOptions(format, options.strict, false, raw.names), { firstRow: fileRows, pairs });
    for (const c of all.table.columns) if (!columns.includes(c.name)) columns.push(c.name);
    padded.note(all.table, fileRows, all.lines);
    ids.note(all.table, fileRows, all.lines);
    for (const [name, values] of seen) {
      const column = getColumn(all.table, name);
      for (let i = 0; column !== undefined && i < all.table.rowCount && values.size < 12; i++) values.add(cellText(column.values[i]) ?? "");
    }
    where.forEach((c, k) => {
      const column = getColumn(all.table, c.column);
      const match = valueMatcher(c);
      for (let i = 0; column !== undefined && i < all.table.rowCount && found[k]!.size < c.values.length; i++) {
        const value = match(column.values[i]);
        if (value !== undefined) found[k]!.add(value);
      }
    });
    fileRows += all.table.rowCount;
    const checked = rowsWhereChecked(all, where);
    checked.errors.forEach((message, row) => {
      if (message === "") return;
      bad++;
      // The file's row, as the line beside it (with --where, not the row's place among those scored).
      first ??= { row: fileRows - all.table.rowCount + (checked.table.sourceRows?.[row] ?? row), line: checked.lines?.[row], message };
    });
    const modelColumn = getColumn(checked.table, "model");
    for (let i = 0; modelColumn !== undefined && i < checked.table.rowCount && models.size < SURVEY_MODELS; i++) {
      const model = cellText(modelColumn.values[i]);
      if (model !== null && model !== "") models.add(model);
    }
    rows += checked.table.rowCount;
  }
  if (where.length > 0 && (rows === 0 || where.some((c) => !columns.includes(c.column)))) {
    throw noRowMeets(options.command ?? "score", file, where, columns, seen);
  }
  where.forEach((c, k) => {
    const absent = valueNoRowHolds(options.command ?? "score", file, c, found[k]!, seen.get(c.column) ?? []);
    if (absent !== undefined) throw absent;
  });
  if (first !== undefined) options.warn(badInputWarning(file, bad, rows, first));
  const paddedWarning = padded.warning(file);
  if (paddedWarning !== undefined) options.warn(paddedWarning);
  const idWarning = ids.warning(file);
  if (idWarning !== undefined) options.warn(idWarning);
  return { columns, rows, bad, fileRows, models: [...models], ...(keys ? { keys } : {}) };
}

/** What the streamed run leaves: counts, the summary, the usage. */
export interface StreamedScore {
  rows: number;
  /** Failed rows per metric, and the first reason. */
  failures: RunFailures[];
  statements: number;
  summary: DataFrame;
  /** Per row: model, pairing key (id, or a digest of the question), scores and failed flags — what the summary and the comparison need. */
  scores: Record<string, unknown>[];
  usage: UsageSummary;
  judges: string[];
}

/** Options of {@link scoreFileInChunks}. */
export interface StreamOptions {
  input: string;
  format: DatasetFormat;
  survey: InputSurvey;
  metrics: readonly Metric[];
  judge: Judge;
  out: string;
  statementsOut: string | undefined;
  progress: ProgressCallback | false;
  strict: boolean;
  /** Rows per chunk; default {@link CHUNK_ROWS}. */
  chunkRows?: number;
  /** Only the rows that meet these conditions are scored and written (`--where`). */
  where?: readonly RowCondition[];
}

/**
 * Second pass: scores the input a chunk at a time and writes the scored
 * table (and the statements) as it goes. The caller has checked that the
 * survey's columns hold what the metrics need (`evalframe score` does,
 * before it creates the judge).
 */
export async function scoreFileInChunks(options: StreamOptions): Promise<StreamedScore> {
  const { input, format, survey, metrics, judge } = options;
  const usage = newRunUsage(metrics, judge);
  const progress = new ProgressTracker(survey.rows * metrics.length, options.progress === false ? undefined : options.progress);
  progress.report();
  const out = await AtomicFileWriter.open(options.out);
  const statementsOut = options.statementsOut === undefined ? undefined : await AtomicFileWriter.open(options.statementsOut);
  const failures: RunFailures[] = metrics.map((m) => ({ metric: m.name, failed: 0, first: undefined, firstRow: undefined }));
  // The columns score() gives the whole table: the input's (a metric's old columns replaced), input_error when a row has bad input, the metrics'.
  const produced = metrics.flatMap((m) => m.columns().map((c) => c.name));
  const replaced = replacedColumns(metrics);
  const columns = [
    ...survey.columns.filter((c) => !replaced.has(c)),
    ...(survey.bad > 0 ? [INPUT_ERROR_COLUMN] : []),
    ...produced,
  ];
  const kept: Record<string, unknown>[] = [];
  const failureKinds = new Map<string, string>();
  const judges = new Set<string>();
  let done = 0;
  let statementCount = 0;
  // While one chunk's rows are written, the next chunk is being scored (the worker threads of the
  // offline judge, or the judge's HTTP requests, are never left waiting on the writing).
  const chunks = readRawChunks(input, loadOptions(format, options.strict, false), options.chunkRows ?? CHUNK_ROWS)[Symbol.asyncIterator]();
  // A pair of (id, model) answered in an earlier chunk is a repeat in a later one, as the survey found.
  const pairs = new AnsweredPairs();
  let fileRows = 0;
  const start = async (): Promise<Promise<DataFrame> | undefined> => {
    const next = await chunks.next();
    if (next.done) return undefined;
    const part = { firstRow: fileRows, pairs };
    fileRows += next.value.rowCount;
    const raw = withKeys(next.value, survey.keys);
    const checked = rowsWhereChecked(checkRawTable(raw, input, loadOptions(format, options.strict, false, raw.names), part), options.where ?? []);
    const scoring = scoreChecked(checked, metrics, judge, { usage, quiet: true }, progress);
    scoring.catch(() => undefined); // awaited below; a failure there ends the run
    return scoring;
  };
  try {
    for (let scoring = await start(); scoring !== undefined; ) {
      const scored = await scoring;
      scoring = await start();
      const records = frameRecords(scored);
      // A column this chunk's rows lack (a JSONL key seen only in other rows, input_error) is empty here.
      for (const r of records) for (const c of columns) if (!Object.hasOwn(r, c)) setField(r, c, null);
      if (records.length > 0) await out.write(formatCsv(records, { columns, header: done === 0 }));
      if (statementsOut) {
        const rows = frameRecords(statements(scored)).map((r) => ({ ...r, row: (r["row"] as number) + done }));
        if (rows.length > 0) {
          await statementsOut.write(formatCsv(rows, { header: statementCount === 0 }));
          statementCount += rows.length;
        }
      }
      for (const f of failures) countFailures(records, f, done);
      for (const r of records) kept.push(summaryRow(r, metrics, failureKinds));
      for (const label of scoreRun(scored)?.judges ?? []) judges.add(label);
      done += records.length;
      collectGarbage();
    }
    if (done === 0) await out.write(formatCsv([Object.fromEntries(columns.map((c) => [c, ""]))], { columns }).split("\n")[0] + "\n");
    if (statementsOut && statementCount === 0) await statementsOut.write(formatCsv([emptyStatement()]).split("\n")[0] + "\n");
    await out.commit();
    await statementsOut?.commit();
  } catch (error) {
    await out.abort();
    await statementsOut?.abort();
    throw error;
  }
  usage.rows = done;
  const hasModel = survey.columns.includes("model");
  const summary = summarize(kept, hasModel ? { by: "model" } : {});
  return { rows: done, failures, statements: statementCount, summary, scores: kept, usage: usage.summary(), judges: judges.size > 0 ? [...judges] : [judge.label] };
}

let fullCollection: (() => void) | undefined | null;
/** Below this much heap in use a chunk's end does not collect. */
const COLLECT_ABOVE_BYTES = 256 * 1024 * 1024;

/**
 * A full garbage collection between chunks, once the heap in use is past
 * 256 MB. Left to itself V8 lets the chunks' garbage pile up to about 1 GB
 * before it collects (measured: 200,000 rows peaked at 0.9-1.1 GB, of which
 * some 400 MB garbage); collected after each chunk the peak stays near
 * 600-800 MB, for about 50 ms a chunk. A run whose heap stays small pays
 * nothing (a collection after each of many small chunks cost more than
 * their scoring). The collector is reached as Node's own --expose-gc flag
 * does; where that is not possible, nothing is done.
 */
function collectGarbage(): void {
  const v8 = require("node:v8") as typeof import("node:v8");
  if (v8.getHeapStatistics().used_heap_size < COLLECT_ABOVE_BYTES) return;
  if (fullCollection === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      fullCollection = (require("node:vm") as typeof import("node:vm")).runInNewContext("gc") as () => void;
    } catch {
      fullCollection = null;
    }
  }
  fullCollection?.();
}

/** The columns of the statements table, for a run that has no statement. */
function emptyStatement(): Record<string, unknown> {
  return { row: 0, id: "", model: "", side: "", n: 0, statement: "", verdict: "", reason: "" };
}

/**
 * Counts a chunk's failed rows of one metric, keeping the first reason and which row it was
 * ("row 41 (id q7, model m2)"; `offset` is the chunk's first row in the output).
 */
function countFailures(records: readonly Record<string, unknown>[], f: RunFailures, offset: number): void {
  records.forEach((r, i) => countFailure(f, r[`${f.metric}_error`], () => failedRowName(r, offset + i)));
}

/** `kind` as the one string kept for it, or "failed" once {@link MAX_FAILURE_KINDS} kinds are kept. */
function sharedKind(kind: string, kinds: Map<string, string>): string {
  const kept = kinds.get(kind);
  if (kept !== undefined) return kept;
  if (kinds.size >= MAX_FAILURE_KINDS) return "failed";
  kinds.set(kind, kind);
  return kind;
}

/** Distinct kinds of failure a run keeps for its headline; rows past them keep "failed". */
const MAX_FAILURE_KINDS = 1_000;

/**
 * What the summary and the headline need of a scored row: the model and each
 * metric's score and, for a failed row, the kind of its failure
 * ({@link failureKind}), one shared string per kind (`kinds`) so that a
 * million failed rows hold a million references, not a million texts.
 */
function summaryRow(r: Record<string, unknown>, metrics: readonly Metric[], kinds: Map<string, string>): Record<string, unknown> {
  const row: Record<string, unknown> = { model: r["model"] ?? null };
  // What pairs answers for the comparison: the id, else the question text as a short digest (kept for every row, so kept small).
  if ("id" in r) row["id"] = r["id"] ?? null;
  else if (typeof r["user_input"] === "string") row["user_input"] = createHash("sha256").update(r["user_input"]).digest("base64url").slice(0, 16);
  for (const m of metrics) {
    row[m.name] = r[m.name] ?? null;
    const e = r[`${m.name}_error`];
    row[`${m.name}_error`] = typeof e === "string" && e.trim() !== "" ? sharedKind(failureKind(e), kinds) : "";
  }
  return row;
}
