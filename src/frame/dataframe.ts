/**
 * danfojs glue: our typed tables in and out of DataFrames. danfojs reads
 * records by position and guesses dtypes from 20 rows, so we always build
 * frames from a column object with explicit dtypes, and read them back by
 * column name from `df.values`.
 */
import { DataFrame } from "danfojs-node";
import type { ColumnType } from "../dataset/columns";
import { rawFromColumns, rawFromRecords, typeRawTable, type ColumnData, type RawTable, type Records } from "../dataset/raw";
import { PROTOTYPE_NAMES, RowProblems, type Table } from "../dataset/table";

const DANFO_DTYPE: Readonly<Record<ColumnType, string>> = {
  string: "string",
  number: "float32",
  boolean: "boolean",
};

/** True for a danfojs DataFrame (also one from another copy of danfojs). */
export function isDataFrame(value: unknown): value is DataFrame {
  if (value instanceof DataFrame) return true;
  if (value === null || typeof value !== "object") return false;
  const v = value as { columns?: unknown; values?: unknown; shape?: unknown; dtypes?: unknown };
  return Array.isArray(v.columns) && Array.isArray(v.values) && Array.isArray(v.shape) && Array.isArray(v.dtypes);
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

/** Builds a DataFrame from a typed table with explicit dtypes; numbers keep full double precision. */
export function tableToDataFrame(table: Table): DataFrame {
  const columns = table.columns.map((c) => c.name);
  if (table.rowCount === 0) return new DataFrame([], { columns });
  const dtypes = table.columns.map((c) => DANFO_DTYPE[c.type]);
  if (columns.some((name) => PROTOTYPE_NAMES.has(name))) {
    // A column named "constructor" or "__proto__" (a model's name, in disagreements()) is lost as
    // a key of a plain object; danfojs takes rows of values under a list of names too.
    const rows = Array.from({ length: table.rowCount }, (_, i) => table.columns.map((c) => c.values[i]));
    return new DataFrame(rows, { columns, dtypes });
  }
  const data: Record<string, unknown[]> = {};
  for (const c of table.columns) data[c.name] = c.values;
  return new DataFrame(data, { columns, dtypes });
}


/** Reads a DataFrame into a typed table, typing each column from all of its values. */
export function tableFromDataFrame(df: DataFrame): Table {
  return typeRawTable(rawFromDataFrame(df), new RowProblems());
}

/**
 * The typed table of a DataFrame or of row objects, for every reader that
 * takes either (analysis, charts, tables, CSV out). A DataFrame column whose
 * cells are all missing keeps danfojs' numeric dtype.
 *
 * @throws {TypeError} naming `caller` for anything else.
 */
export function readFrame(data: DataFrame | Records, caller: string): Table {
  if (isDataFrame(data)) return tableFromDataFrame(data);
  if (Array.isArray(data)) return typeRawTable(rawFromRecords(data as Records), new RowProblems());
  throw new TypeError(`${caller}: expected a danfojs DataFrame or an array of row objects`);
}

/** Options for {@link toDataFrame}. */
export interface ToDataFrameOptions {
  /** Types to force per column; others are decided from every value of the column. */
  dtypes?: Readonly<Record<string, ColumnType>>;
}

/**
 * Builds a danfojs DataFrame from row objects or from a column object, with
 * each column's dtype decided from all of its values (never a 20-row guess)
 * and each value placed by column name (never by position). Lists and objects
 * become JSON text; missing numbers become NaN.
 *
 * @example
 * const df = toDataFrame([
 *   { question: "Capital of France?", answer: "Paris", score: 1 },
 *   { question: "2 + 2?", answer: "4" },               // score missing → NaN
 * ]);
 * df.print();
 */
export function toDataFrame(data: Records | ColumnData, options: ToDataFrameOptions = {}): DataFrame {
  const raw = Array.isArray(data) ? rawFromRecords(data as Records) : rawFromColumns(data as ColumnData);
  const problems = new RowProblems();
  const table = typeRawTable(raw, problems, options.dtypes ? { dtypes: options.dtypes } : {});
  const first = problems.rows()[0];
  if (first !== undefined) {
    throw new TypeError(`toDataFrame: row ${first}: ${problems.message(first)}`);
  }
  return tableToDataFrame(table);
}
