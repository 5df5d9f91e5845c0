/**
 * DataFrames as the dataset layer sees them: recognised by their shape and
 * read by column name, without loading danfojs (a frame from any copy of
 * danfojs works). Building frames is the frame layer's job (frame/dataframe.ts).
 */
import type { DataFrame } from "danfojs-node";
import type { ColumnType } from "./columns";
import { rawFromRecords, typeRawTable, type RawTable, type Records } from "./raw";
import { RowProblems, type Table } from "./table";

/**
 * What the analysis functions, charts, tables and `toCSV` read: a danfojs
 * DataFrame, an array of row objects, or a typed table from `loadTable`.
 * The one name for "a DataFrame or records" across the package.
 */
export type FrameInput = DataFrame | Records | Table;

/** True for a danfojs DataFrame (from any copy of danfojs): it has columns, values, shape and dtypes, and is not a Series. */
export function isDataFrame(value: unknown): value is DataFrame {
  if (value === null || typeof value !== "object") return false;
  const v = value as { columns?: unknown; values?: unknown; shape?: unknown; dtypes?: unknown; $isSeries?: unknown };
  // A Series has the same four arrays, and says what it is.
  return v.$isSeries !== true && Array.isArray(v.columns) && Array.isArray(v.values) && Array.isArray(v.shape) && Array.isArray(v.dtypes);
}

/** The cells of a DataFrame, column by column, untouched. */
export function rawFromDataFrame(df: DataFrame): RawTable {
  const names = df.columns.map(String);
  const rows = df.values as unknown[][];
  const columns = names.map((_, j) => rows.map((row) => (Array.isArray(row) ? row[j] : row)));
  const declaredTypes = Object.create(null) as Record<string, ColumnType>;
  names.forEach((name, j) => {
    const dtype = String(df.dtypes[j]);
    declaredTypes[name] = dtype.startsWith("float") || dtype.startsWith("int") ? "number" : dtype === "boolean" ? "boolean" : "string";
  });
  return { names, columns, rowCount: rows.length, origin: "values", declaredTypes };
}

/** Reads a DataFrame into a typed table, typing each column from all of its values. */
export function tableFromDataFrame(df: DataFrame): Table {
  return typeRawTable(rawFromDataFrame(df), new RowProblems());
}

/**
 * A typed table of values given in memory, refused when a cell does not fit
 * its column's type (text in a score column, say): typed silently it would
 * become an empty cell, counted as a failed row or written out blank.
 */
function typedOrRefused(raw: RawTable, caller: string): Table {
  const problems = new RowProblems();
  const table = typeRawTable(raw, problems);
  const rows = problems.rows();
  if (rows.length > 0) {
    const first = rows[0]!;
    const more = rows.length > 1 ? ` (and ${rows.length - 1} more row${rows.length === 2 ? "" : "s"})` : "";
    throw new TypeError(`${caller}: row ${first}: ${problems.message(first)}${more}`);
  }
  return table;
}

/** True for a typed table (`loadTable`'s result): columns that carry their values, and a row count. */
export function isTable(value: unknown): value is Table {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as { columns?: unknown; rowCount?: unknown };
  return typeof v.rowCount === "number" && Array.isArray(v.columns) && v.columns.every((c) => c !== null && typeof c === "object" && Array.isArray((c as { values?: unknown }).values));
}

/**
 * The typed table of a DataFrame, of row objects, or of a typed table (given
 * back as it is), for every reader that takes them (analysis, charts,
 * tables, CSV out). A DataFrame column whose cells are all missing keeps
 * danfojs' numeric dtype.
 *
 * @throws {TypeError} naming `caller` for anything else, and naming the row
 * and column of a cell that does not fit its column's type (text in a score
 * column such as `answer_correctness`), which would otherwise be read as empty.
 */
export function readFrame(data: FrameInput, caller: string): Table {
  if (isTable(data)) return data;
  if (isDataFrame(data)) return typedOrRefused(rawFromDataFrame(data), caller);
  if (Array.isArray(data)) return typedOrRefused(rawFromRecords(data as Records), caller);
  throw new TypeError(`${caller}: expected a danfojs DataFrame, an array of row objects or a table from loadTable`);
}

/**
 * The rows of a DataFrame (or row objects) as plain objects ready for
 * `JSON.stringify`: NaN and ±Infinity become null.
 *
 * @example
 * JSON.stringify(frameRecords(compareModels(scored)), null, 2)
 */
export function frameRecords(data: FrameInput): Record<string, string | number | boolean | null>[] {
  const table = readFrame(data, "frameRecords");
  return Array.from({ length: table.rowCount }, (_, i) =>
    Object.fromEntries(
      table.columns.map((c) => {
        const v = c.values[i] ?? null;
        return [c.name, typeof v === "number" && !Number.isFinite(v) ? null : v];
      }),
    ),
  );
}
