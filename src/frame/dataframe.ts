/**
 * danfojs glue: our typed tables in and out of DataFrames. danfojs reads
 * records by position and guesses dtypes from 20 rows, so we always build
 * frames from a column object with explicit dtypes, and read them back by
 * column name from `df.values`.
 */
import type { DataFrame } from "danfojs-node";
import type { ColumnType } from "../dataset/columns";
import { rawFromColumns, rawFromRecords, typeRawTable, type ColumnData, type Records } from "../dataset/raw";
import { PROTOTYPE_NAMES, RowProblems, type Table } from "../dataset/table";
import { deferModule } from "./defer-module";

export { isDataFrame, rawFromDataFrame, readFrame, tableFromDataFrame } from "../dataset/frame-like";

type Danfo = typeof import("danfojs-node");

let loaded: Danfo | undefined;
const onLoad: ((danfo: Danfo) => void)[] = [];

/**
 * danfojs, loaded on the first frame built (it takes seconds to load: tfjs,
 * mathjs): reading tables never needs it. mathjs, xlsx and request wait
 * until danfojs uses them (defer-module.ts).
 */
function danfo(): Danfo {
  if (loaded === undefined) {
    // The user's own danfojs when they imported it first; what waits for danfojs runs either way.
    loaded = loadedElsewhere() ?? loadDanfo();
    for (const listener of onLoad.splice(0)) listener(loaded);
  }
  return loaded;
}

/** Loads danfojs-node, its slow parts deferred until used. */
function loadDanfo(): Danfo {
  const from = require.resolve("danfojs-node");
  deferModule("mathjs", from);
  deferModule("xlsx", from);
  deferModule("request", from, { callable: true, commonJs: true });
  return require("danfojs-node") as Danfo;
}

/**
 * danfojs as the user's own code loaded it (`import * as dfd from
 * "danfojs-node"` before evalframe built a frame), else undefined: the module
 * Node's cache holds under the file that evalframe would load.
 */
function loadedElsewhere(): Danfo | undefined {
  let file: string;
  try {
    file = require.resolve("danfojs-node");
  } catch {
    return undefined;
  }
  const cached = require.cache[file];
  return cached?.loaded ? (cached.exports as Danfo) : undefined;
}

/**
 * Calls `listener` with danfojs once it is loaded (at once if it is, by
 * evalframe or by the user's own import of danfojs-node): what must happen
 * to danfojs itself (the printed form of a frame) waits for it, instead of
 * loading it. With `now`, danfojs is loaded at once if nothing has loaded it
 * yet (in a notebook, where a frame the user builds with danfojs alone must
 * print as a table too).
 */
export function whenDanfoLoads(listener: (danfo: Danfo) => void, options: { now?: boolean } = {}): void {
  if (loaded === undefined && (options.now === true || loadedElsewhere() !== undefined)) danfo();
  if (loaded !== undefined) listener(loaded);
  else onLoad.push(listener);
}

const DANFO_DTYPE: Readonly<Record<ColumnType, string>> = {
  string: "string",
  number: "float32",
  boolean: "boolean",
};

/** Builds a DataFrame from a typed table with explicit dtypes; numbers keep full double precision. */
export function tableToDataFrame(table: Table): DataFrame {
  const { DataFrame } = danfo();
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
