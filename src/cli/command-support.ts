/**
 * What the commands share: loading the heavy modules after the flags are checked, reading inputs (as DataFrames or as typed tables), writing files, and option specs.
 */
import { writeFileAtomic } from "../dataset/atomic-write";
import type { DataFrame } from "danfojs-node";
import type { CanonicalColumn } from "../dataset/columns";
import { cellText, getColumn, rowAt, tableRows, type Table } from "../dataset/table";
import type { DatasetFormat, LoadDatasetOptions } from "../dataset/load";
import type { Records } from "../dataset/raw";
import { defaultScoreColumns, metricDefinitions } from "../metrics/registry";
import { inputFormat, onePositional, stringOption, type OptionSpec, type ParsedArgs } from "./args";
import { CliFailure, failOnError, UsageError } from "./errors";
import { conditionColumns, rowConditions, rowsKept, unknownColumn, type RowCondition } from "./where";
import type { CliIO } from "./command";
import { countFailure, failedRowName, type RunFailures } from "./failures";

/** danfojs and everything built on it, loaded after the arguments are checked. */
export function runtime(): typeof import("./runtime") {
  return require("./runtime") as typeof import("./runtime");
}

/** Batch mode's functions, loaded only when a batch flag or command is used. */
export function batchRuntime(): typeof import("../batch/run") {
  return require("../batch/run") as typeof import("../batch/run");
}



/** A string option. */
export const s: OptionSpec = { type: "string" };
/** A boolean option. */
export const b: OptionSpec = { type: "boolean" };

export function columnsOf(df: DataFrame | Table): string[] {
  return df.columns.map((c) => (typeof c === "string" ? c : c.name));
}

/** What the analysis commands need, loaded when one runs: tables, no DataFrames, so no danfojs. */
export function tables(): {
  loadTable: typeof import("../dataset/load").loadTable;
  refuseSplitHeader: typeof import("../dataset/load").refuseSplitHeader;
  summaryTable: typeof import("../analysis/summarize").summaryTable;
  comparisonTable: typeof import("../analysis/compare").comparisonTable;
  headline: typeof import("../analysis/headline").headline;
  formatTable: typeof import("./table").formatTable;
  frameRecords: typeof import("./table").frameRecords;
  judgeLabels: typeof import("../dataset/column-toolkit").judgeLabels;
} {
  const { loadTable, refuseSplitHeader } = require("../dataset/load") as typeof import("../dataset/load");
  const { summaryTable } = require("../analysis/summarize") as typeof import("../analysis/summarize");
  const { comparisonTable } = require("../analysis/compare") as typeof import("../analysis/compare");
  const { headline } = require("../analysis/headline") as typeof import("../analysis/headline");
  const { formatTable, frameRecords } = require("./table") as typeof import("./table");
  const { judgeLabels } = require("../dataset/column-toolkit") as typeof import("../dataset/column-toolkit");
  return { loadTable, refuseSplitHeader, summaryTable, comparisonTable, headline, formatTable, frameRecords, judgeLabels };
}

/** Reads a data file (or rows read from one already), any problem as one line (exit 1). */
export async function readInput(
  file: string | Records,
  format: DatasetFormat,
  options: { required?: readonly CanonicalColumn[]; io?: CliIO; strict?: boolean } = {},
): Promise<DataFrame> {
  const { required, io, strict } = options;
  // Warnings (bad rows, bad bytes) go to the command's stderr, through its printable filter; none when reading a scored table.
  const warn = io ? (message: string) => io.err(`${message}\n`) : false;
  return failOnError(() => runtime().loadDataset(file, { format, warn, ...(required ? { required } : {}), ...(strict ? { strict } : {}) }));
}

/**
 * Reads a scored table for analysis: no column is required beyond what the
 * analysis asks for. `load` gives a typed table (no danfojs), of the rows
 * `--where` names when the command takes it; `fileRows` says which row of
 * the file each of its rows is.
 */
export function readScored(
  command: string,
  args: ParsedArgs,
): {
  file: string;
  /** The file's format (`--format`, else its extension). */
  format: DatasetFormat;
  where: readonly RowCondition[];
  load: (columns?: readonly string[], cellText?: CellText, named?: readonly NamedColumn[]) => Promise<Table>;
  fileRows: (table: Table) => readonly number[];
} {
  const file = onePositional(command, args, "scored table (a CSV that evalframe score wrote)");
  refuseStdin(command, [file]);
  const format = inputFormat(command, file, stringOption(args, "format"));
  // `--where COLUMN=VALUE`, for the commands that take it: only the rows it names are read.
  const where = rowConditions(command, args);
  const rowsOfFile = new WeakMap<Table, number[]>();
  return {
    file,
    format,
    where,
    load: async (columns, cellText, named = []) => {
      const read = columns === undefined ? undefined : [...columns, ...conditionColumns(where)];
      const loaded = await failOnError(async () => {
        const table = await tables().loadTable(file, { format, warn: false, required: [], ...(read ? { columns: read, columnsIfPresent: true } : {}), ...(cellText ? { cellText } : {}) });
        // A whole file read (report, chart, calibrate) is refused as a file read by its columns is, when its header is one column split by semicolons.
        if (read === undefined) tables().refuseSplitHeader(columnsOf(table), file);
        return table;
      });
      await requireNamedColumns(command, file, format, loaded, columns !== undefined, [...named, ...where.map((w) => ({ option: "--where", column: w.column }))]);
      if (where.length === 0) return loaded;
      const { table, rows } = rowsKept(command, file, loaded, where);
      rowsOfFile.set(table, rows);
      return table;
    },
    // The file's row (as `cellText` is given it) of each row of a table `load` gave.
    fileRows: (table) => rowsOfFile.get(table) ?? Array.from({ length: table.rowCount }, (_, i) => i),
  };
}

/**
 * A usage error for "-" among a command's input files: only `score` reads
 * standard input; the analysis commands read their files more than once.
 */
export function refuseStdin(command: string, files: readonly string[]): void {
  if (!files.includes("-")) return;
  throw new UsageError(`${command}: "-" (standard input) is read by evalframe score only; ${command} reads its file more than once: give the file's path, e.g. evalframe ${command} scored.csv`, command);
}

/** Writes `text` to `file` atomically; a failure is one line (exit 1) naming the file. */
export async function writeText(file: string, text: string): Promise<void> {
  await failOnError(async () => {
    await writeFileAtomic(file, text);
  }, `cannot write "${file}": `);
}

/** A scored table's failed rows of one metric: how many, and the first one's reason and row ("row 41 (id q7, model m2)"). */
export function errorCount(df: DataFrame, metric: string): Omit<RunFailures, "metric"> {
  const columns = columnsOf(df);
  const j = columns.indexOf(`${metric}_error`);
  const counted: Omit<RunFailures, "metric"> = { failed: 0, first: undefined, firstRow: undefined };
  if (j < 0) return counted;
  (df.values as unknown[][]).forEach((row, i) => countFailure(counted, row[j], () => failedRowName(Object.fromEntries(columns.map((c, k) => [c, row[k]])), i)));
  return counted;
}

/**
 * The columns an analysis of scores reads: `also` (grouping, pairing), and
 * each metric's score, error and judge columns — of the metrics named (with
 * the `_error` and `_judge` of each shorter `_`-prefix, where the analysis
 * looks for them), else of every registered metric. Texts and statements are
 * not among them, so a large scored file loads in a fraction of its size.
 *
 * @example
 * scoreColumnsRead(["model"], ["answer_correctness_continuous"]);
 * // ["model", "judge", "answer_correctness_continuous", "answer_correctness_error", "answer_correctness_judge", ...]
 */
export function scoreColumnsRead(also: readonly string[], metrics: readonly string[] | undefined): string[] {
  const columns = new Set([...also, "judge"]);
  if (metrics === undefined) {
    for (const d of metricDefinitions()) for (const name of [d.scoreColumn, ...d.extraScoreColumns, d.errorColumn, d.judgeColumn]) columns.add(name);
  }
  for (const metric of metrics ?? []) {
    columns.add(metric);
    const parts = metric.split("_");
    for (let k = parts.length; k >= 1; k--) for (const role of ["error", "judge"]) columns.add(`${parts.slice(0, k).join("_")}_${role}`);
  }
  return [...columns];
}

/** A column the user named with an option (`--metric answer_correctness`), which the file must have. */
export interface NamedColumn {
  option: string;
  column: string;
}

/** The columns of `options` that were given (`[["--by", by], …]`), as {@link NamedColumn}s. */
export function namedColumns(options: readonly (readonly [option: string, columns: string | readonly string[] | undefined])[]): NamedColumn[] {
  return options.flatMap(([option, columns]) => (columns === undefined ? [] : (typeof columns === "string" ? [columns] : columns).map((column) => ({ option, column }))));
}

/**
 * Throws a usage error when `loaded` (the table read from `file`, only some
 * of its columns when `partial`) lacks a column named on the command line,
 * listing the file's columns, not the few read (the file is read again, its
 * cells left empty, on this error only).
 */
export async function requireNamedColumns(command: string, file: string, format: DatasetFormat, loaded: Table, partial: boolean, named: readonly NamedColumn[]): Promise<void> {
  const has = (column: string) => getColumn(loaded, column) !== undefined;
  const absent = named.find((n) => !has(n.column));
  if (absent === undefined) return;
  const names = await fileColumns(file, format);
  if (absent.option === "--where") throw unknownColumn(command, file, absent.column, names);
  throw new UsageError(`${command}: ${absent.option} names column "${absent.column}", which ${file} does not have; its columns are: ${names.join(", ")}`, command);
}

/**
 * The columns of a file (aliases as loading names them), read again with
 * every cell empty: for a message about a table read only in part.
 * `input_error` is there only when the file has one (a load adds its own
 * when a row has bad input, e.g. ids repeated once the model column is not read).
 */
async function fileColumns(file: string, format: DatasetFormat): Promise<string[]> {
  const { checkDataset } = require("../dataset/load") as typeof import("../dataset/load");
  return (await failOnError(() => checkDataset(file, { format, required: [], warn: false, cellText: () => "" }))).table.columns.map((c) => c.name);
}

/**
 * Throws (exit 1) when `table`, read from `file` with only the columns an
 * analysis needs, has none of `scoreColumns` (the score column the
 * command uses by default): the message lists the file's own columns, not
 * the few read, and says to score a table that holds the question and the
 * answer but no score yet, else to name its score column with `option`.
 */
export async function requireScoreColumn(command: string, file: string, format: DatasetFormat, table: Table, scoreColumns: readonly string[], option: string): Promise<void> {
  if (scoreColumns.some((name) => getColumn(table, name) !== undefined)) return;
  const names = await fileColumns(file, format);
  const which = scoreColumns.length === 1 ? `score column "${scoreColumns[0]!}"` : `score column (${scoreColumns.join(", ")})`;
  const unscored = names.includes("user_input") && names.includes("response");
  const fix = unscored
    ? `it looks like a table that was not scored yet: score it first (evalframe score ${file} --out scored.csv), then ${command} the scored table`
    : `name the column that holds the scores with ${option} COLUMN`;
  throw new CliFailure(`${file}: ${command}: no ${which}; the file's columns are: ${names.join(", ")}; ${fix}`);
}

/**
 * Throws a usage error (exit 2) when a value named with `option` (a
 * `--baseline` model) is not in column `column` of the table read from
 * `file`, listing the values it has. Nothing to check when the column is
 * absent: the analysis says so.
 */
export function requireNamedValues(command: string, file: string, table: Table, option: string, column: string, values: readonly string[]): void {
  const cells = getColumn(table, column)?.values;
  if (cells === undefined) return;
  const present = new Set(cells.map((v) => (v === null ? "" : String(v))));
  const absent = values.find((v) => !present.has(v));
  if (absent === undefined) return;
  throw new UsageError(`${command}: ${option} names ${JSON.stringify(absent)}, which is not a value of column "${column}" in ${file}; its values are: ${[...present].filter(Boolean).join(", ")}`, command);
}

/** Repeated answers a warning names (the rest are counted). */
export const REPEATS_NAMED = 3;

/**
 * A repeated answer's row as the warnings name it, with its id and model
 * and the row that answered them first:
 * `row 5 (line 7) (id "q1", model "m1", first at row 2 (line 4))`.
 */
export function repeatedRowName(table: Table, row: number, first: number | undefined): string {
  const keys = (["id", "model"] as const).flatMap((name) => {
    const column = getColumn(table, name);
    return column ? [`${name} ${JSON.stringify(cellText(column.values[row]) ?? "")}`] : [];
  });
  return `${rowAt(table, row)} (${[...keys, ...(first === undefined ? [] : [`first at ${rowAt(table, first)}`])].join(", ")})`;
}

/**
 * `table` without the rows that `evalframe score` left unscored because they
 * repeat an (id, model) an earlier row answered (their `input_error` says
 * so, and it has no score): a comparison pairs answers by id, and such a
 * row has no score to pair. One warning on `io.err` names the first few, with the row each
 * repeats. Repeated rows that were scored (a table made elsewhere) are kept:
 * which of them to pair is for the user to say, and the comparison refuses them.
 */
export function withoutUnscoredRepeats(file: string, table: Table, io: CliIO, what: string): Table {
  const { unscoredRepeats } = require("../analysis/summarize") as typeof import("../analysis/summarize");
  // Not scored: loading found it repeats (input_error), and it has no score at all.
  const unscored = unscoredRepeats(table, defaultScoreColumns());
  if (unscored.length === 0) return table;
  const named = unscored.slice(0, REPEATS_NAMED).map(({ row, first }) => repeatedRowName(table, row, first));
  const more = unscored.length > named.length ? `; and ${unscored.length - named.length} more` : "";
  const n = unscored.length;
  io.err(
    `evalframe: warning: ${file}: ${n === 1 ? "1 row repeats" : `${n.toLocaleString("en-US")} rows repeat`} an (id, model) that an earlier row answered and ${n === 1 ? "was" : "were"} not scored (see input_error), ` +
      `so ${n === 1 ? "it is" : "they are"} left out of the ${what}: ${named.join("; ")}${more}\n`,
  );
  const dropped = new Set(unscored.map((r) => r.row));
  return tableRows(table, Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => !dropped.has(i)));
}

/**
 * Throws (exit 1) when rows of `table` that are scored answer the same
 * (id, model), naming the first few with their rows and lines: a comparison
 * cannot tell which to pair. Said here, where the lines are known, rather
 * than by the analysis, which names the pairs only.
 */
export function refuseScoredRepeats(command: string, file: string, table: Table): void {
  const { repeatedAnswers } = require("../analysis/summarize") as typeof import("../analysis/summarize");
  const repeats = repeatedAnswers(table).filter((r) => r.first !== undefined);
  if (repeats.length === 0) return;
  const id = getColumn(table, "id");
  const model = getColumn(table, "model");
  const named = repeats.slice(0, REPEATS_NAMED).map(({ row, first }) => {
    const keys = [id ? `id ${JSON.stringify(cellText(id.values[row]) ?? "")}` : "", model ? `of model ${JSON.stringify(cellText(model.values[row]) ?? "")}` : ""].filter(Boolean).join(" ");
    return `${keys} at ${rowAt(table, first!)} and again at ${rowAt(table, row)}`;
  });
  const more = repeats.length > named.length ? `; and ${repeats.length - named.length} more` : "";
  throw new CliFailure(
    `${file}: ${command}: ${named.join("; ")}${more}; each model may answer each id once, so the answers can be paired: remove or re-id the repeated rows, or pick rows with --where`,
  );
}

/** A CSV field rewritten as it is read (`LoadDatasetOptions.cellText`). */
export type CellText = NonNullable<LoadDatasetOptions["cellText"]>;

/**
 * A `cellText` that keeps, of each metric's long cells (the statements),
 * only how the row was scored (`MetricDefinition.scoringPart`); other cells
 * as they are.
 */
export function scoringPartsOnly(): CellText {
  const definitions = metricDefinitions();
  return (column, text) => definitions.reduce((t, d) => d.scoringPart?.(column, t) ?? t, text);
}

/** The first registered metric whose score column the table has (else the first registered). */
export function defaultMetric(df: DataFrame | Table): string {
  const columns = columnsOf(df);
  const definitions = metricDefinitions();
  return (definitions.find((d) => columns.includes(d.scoreColumn)) ?? definitions[0]!).scoreColumn;
}

/**
 * Runs `work`, and an error it throws that starts with the library
 * function's name (`compareModels: …`) starts with the command's instead
 * (`compare: …`), as the user ran the command, not the function.
 */
export function asCommand<T>(command: string, internal: string | readonly string[], work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw inCommandWords(error, command, typeof internal === "string" ? [internal] : internal);
  }
}

/**
 * `error` with a leading library function's name (`scoreBox: …`, one of
 * `internal`) replaced by the command's (`chart --kind box: …`), in its
 * message and in its command-line wording alike.
 */
export function inCommandWords(error: unknown, command: string, internal: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  const rename = (text: string): string => {
    const name = internal.find((n) => text.startsWith(`${n}: `));
    return name === undefined ? text : `${command}: ${text.slice(name.length + 2)}`;
  };
  error.message = rename(error.message);
  const worded = (error as { cliMessage?: unknown }).cliMessage;
  if (typeof worded === "string") Object.defineProperty(error, "cliMessage", { value: rename(worded), configurable: true });
  return error;
}
