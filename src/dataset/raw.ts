/**
 * Untyped tables as they arrive (CSV text, JSON records, DataFrame cells),
 * and the step that types them column by column.
 */
import { KNOWN_COLUMN_TYPES, type ColumnType } from "./columns";
import { RowProblems, typeColumn, type CellOrigin, type Table, type TypeColumnOptions } from "./table";

/** Cells as they arrived, column-major, with where each row came from. */
export interface RawTable {
  names: string[];
  columns: unknown[][];
  rowCount: number;
  origin: CellOrigin;
  /** 1-based line of each row in its file, when it came from a file. */
  lines?: number[];
  /**
   * Types the source declares (a DataFrame's dtypes). Used only for a column
   * whose cells are all missing, where the cells themselves cannot tell.
   */
  declaredTypes?: Readonly<Record<string, ColumnType>>;
}

/**
 * An array of row objects, e.g. `[{ question: "…", answer: "…" }]`: any
 * objects, so that rows typed by an interface of your own (`Row[]`, which has
 * no index signature) are taken as they are; each row's own fields are its
 * columns.
 */
export type Records = readonly object[];

/** An object of equally long columns, e.g. `{ question: ["…"], answer: ["…"] }`. */
export type ColumnData = Readonly<Record<string, readonly unknown[]>>;

/**
 * Raw table from row objects. Columns are the union of the keys in order of
 * first appearance; a key missing from a row is a missing cell, never a shift.
 */
export function rawFromRecords(records: Records, lines?: number[]): RawTable {
  const names: string[] = [];
  const index = new Map<string, number>();
  records.forEach((record, row) => {
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      const where = lines?.[row] !== undefined ? `line ${lines[row]}` : `row ${row}`;
      throw new TypeError(`${where} is not an object with named fields; every row must be like { "question": "…", "answer": "…" }`);
    }
    for (const key of Object.keys(record)) {
      if (!index.has(key)) {
        index.set(key, names.length);
        names.push(key);
      }
    }
  });
  // Own fields only: a row without "constructor" has no value there, not Object's constructor.
  const columns = names.map((name) => records.map((record) => (Object.hasOwn(record, name) ? (record as Readonly<Record<string, unknown>>)[name] : undefined)));
  const raw: RawTable = { names, columns, rowCount: records.length, origin: "values" };
  if (lines) raw.lines = lines;
  return raw;
}

/**
 * Raw table from a column object.
 *
 * @throws {RangeError} when the columns differ in length.
 */
export function rawFromColumns(data: ColumnData): RawTable {
  const names = Object.keys(data);
  const columns = names.map((name) => [...(data[name] ?? [])]);
  const rowCount = columns[0]?.length ?? 0;
  columns.forEach((column, i) => {
    if (column.length !== rowCount) {
      throw new RangeError(
        `column "${names[i]}" has ${column.length} values but column "${names[0]}" has ${rowCount}; all columns must be equally long`,
      );
    }
  });
  return { names, columns, rowCount, origin: "values" };
}

/** Options for {@link typeRawTable}. */
export interface TypeTableOptions {
  /** Types to force per column name. */
  dtypes?: Readonly<Record<string, ColumnType>>;
  /** Columns whose cells must be text when they come as JS values. */
  textColumns?: ReadonlySet<string>;
  /** Undo the formula prefix in text cells read from a file. */
  unescape?: (text: string) => string;
}

/** Types every column of a raw table; cells that do not fit are recorded in `problems`. */
export function typeRawTable(raw: RawTable, problems: RowProblems, options: TypeTableOptions = {}): Table {
  const columns = raw.names.map((name, i) => {
    const opts: TypeColumnOptions = {};
    const cells = raw.columns[i] ?? [];
    const own = <T>(record: Readonly<Record<string, T>> | undefined): T | undefined => (record && Object.hasOwn(record, name) ? record[name] : undefined);
    const declared = own(raw.declaredTypes);
    const allMissing = cells.every((v) => v === null || v === undefined || (typeof v === "number" && Number.isNaN(v)));
    const type = own(options.dtypes) ?? (declared !== undefined && allMissing && KNOWN_COLUMN_TYPES[name] === undefined ? declared : undefined);
    if (type !== undefined) opts.type = type;
    if (options.textColumns?.has(name)) opts.requireText = true;
    if (options.unescape) opts.unescape = options.unescape;
    return typeColumn(name, cells, raw.origin, problems, opts);
  });
  return { columns, rowCount: raw.rowCount };
}
