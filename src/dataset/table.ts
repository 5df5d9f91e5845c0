/**
 * Our own typed column store. danfojs is the container users see; this is what
 * we read, validate and compute with, so that no value is ever re-guessed or
 * read by the wrong position.
 */
import { KNOWN_COLUMN_TYPES, type ColumnType } from "./columns";

/** A cell of a typed table: numbers use NaN for missing, other types null. */
export type Cell = string | number | boolean | null;

/**
 * Names of Object.prototype's members ("constructor", "toString",
 * "__proto__", …): a model, id or column called so must never be looked up
 * in a plain object.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Sets a field of a plain record, "__proto__" included (a plain assignment
 * to "__proto__" would change the record's prototype and lose the value).
 */
export function setField<T>(record: Record<string, T>, name: string, value: T): void {
  if (name === "__proto__") Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

/** One typed column. */
export interface TableColumn {
  name: string;
  type: ColumnType;
  values: Cell[];
}

/** An ordered set of equally long typed columns. */
export interface Table {
  columns: TableColumn[];
  rowCount: number;
  /**
   * The 1-based line of its file where each row starts (a header and
   * multi-line quoted cells counted), when the table was read from a file
   * by `loadTable`; messages name it beside the row (see {@link rowAt}).
   */
  lines?: readonly number[];
  /**
   * The row of the table read that each row is, when this table holds some
   * of its rows ({@link tableRows}); messages name that row.
   */
  sourceRows?: readonly number[];
}

/**
 * A row for messages, as loading names it: "row 5 (line 7)" (the 0-based
 * row of the table read, as in a DataFrame, and the line of the file it
 * starts on) when the line is known, else "row 5".
 *
 * @example
 * rowAt({ columns: [], rowCount: 2, lines: [2, 5] }, 1) // "row 1 (line 5)"
 */
export function rowAt(table: Pick<Table, "lines" | "sourceRows">, row: number): string {
  return rowAndLine(table.sourceRows?.[row] ?? row, table.lines?.[row]);
}

/** "row 5 (line 7)", or "row 5" when the line is not known. */
export function rowAndLine(row: number, line: number | undefined): string {
  return line === undefined ? `row ${row}` : `row ${row} (line ${line})`;
}

/** Where raw cells came from: text from a CSV file, or JS values from records or a DataFrame. */
export type CellOrigin = "text" | "values";

/** Per-row problems found while typing or validating, keyed by row index. */
export class RowProblems {
  private readonly byRow = new Map<number, string[]>();

  /** Records a problem for a row; the message should name the column. */
  add(row: number, message: string): void {
    const list = this.byRow.get(row);
    if (list === undefined) this.byRow.set(row, [message]);
    else list.push(message);
  }

  /** The problems of one row joined into one message, or "" when it has none. */
  message(row: number): string {
    return (this.byRow.get(row) ?? []).join("; ");
  }

  /** Row indices with problems, ascending. */
  rows(): number[] {
    return [...this.byRow.keys()].sort((a, b) => a - b);
  }

  /** Number of rows with at least one problem. */
  get size(): number {
    return this.byRow.size;
  }
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const LEADING_ZERO_INTEGER = /^[+-]?0\d/;

/**
 * Parses a CSV cell as a number: decimal and exponent notation, `NaN`,
 * `Infinity`; empty is NaN. Integers written with a leading zero ("007") are
 * not numbers, so identifiers and postcodes stay text.
 */
export function parseNumberText(text: string): number | undefined {
  const t = text.trim();
  if (t === "" || t === "NaN") return Number.NaN;
  if (t === "Infinity" || t === "+Infinity") return Number.POSITIVE_INFINITY;
  if (t === "-Infinity") return Number.NEGATIVE_INFINITY;
  if (!NUMBER_TEXT.test(t) || LEADING_ZERO_INTEGER.test(t)) return undefined;
  return Number(t);
}

function parseBooleanText(text: string): boolean | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === "") return null;
  if (t === "true") return true;
  if (t === "false") return false;
  return undefined;
}

function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "number" && Number.isNaN(value));
}

/**
 * The type a column gets when neither the caller nor {@link KNOWN_COLUMN_TYPES}
 * fixes it: decided from every cell, never from a sample. Text cells are
 * numbers when all non-empty ones parse as numbers, booleans when all are
 * true/false, else text; JS values likewise by their JS type.
 */
export function inferColumnType(values: readonly unknown[], origin: CellOrigin): ColumnType {
  let sawValue = false;
  let allNumbers = true;
  let allBooleans = true;
  for (const v of values) {
    if (origin === "text") {
      const text = typeof v === "string" ? v : "";
      if (text.trim() === "") continue;
      sawValue = true;
      if (allNumbers && parseNumberText(text) === undefined) allNumbers = false;
      if (allBooleans && parseBooleanText(text) === undefined) allBooleans = false;
    } else {
      if (isMissing(v)) continue;
      sawValue = true;
      if (typeof v !== "number") allNumbers = false;
      if (typeof v !== "boolean") allBooleans = false;
    }
    if (!allNumbers && !allBooleans) return "string";
  }
  if (!sawValue) return "string";
  return allNumbers ? "number" : allBooleans ? "boolean" : "string";
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object" && value !== null) return "an object";
  return `${typeof value} ${String(value)}`;
}

/** Text for a JS value in a text column: lists and objects become JSON. */
export function cellText(value: unknown): string | null {
  if (isMissing(value)) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Options for {@link typeColumn}. */
export interface TypeColumnOptions {
  /** Force this type instead of the known or inferred one (forced to numbers, "007" reads as 7). */
  type?: ColumnType;
  /** In text columns, reports cells that are not strings (numbers, lists…) as problems. */
  requireText?: boolean;
  /** Undo the `'` prefix that `toCSV` puts before formula-like text. */
  unescape?: (text: string) => string;
}

/**
 * Types one column of raw cells. Cells that cannot take the column's type get
 * NaN/null and a problem naming the column and saying how to fix it.
 */
export function typeColumn(
  name: string,
  raw: readonly unknown[],
  origin: CellOrigin,
  problems: RowProblems,
  options: TypeColumnOptions = {},
): TableColumn {
  const type = options.type ?? KNOWN_COLUMN_TYPES[name] ?? inferColumnType(raw, origin);
  const values: Cell[] = raw.map((v, row) => {
    if (type === "string") {
      if (origin === "text") {
        const text = typeof v === "string" ? v : "";
        return options.unescape ? options.unescape(text) : text;
      }
      if (options.requireText && !isMissing(v) && typeof v !== "string") {
        problems.add(row, `column "${name}" holds ${describe(v)}, not text; write it as a string`);
      }
      return cellText(v);
    }
    if (type === "number") {
      if (origin === "text" || typeof v === "string") {
        const text = typeof v === "string" ? v : "";
        // "007" is left as text when types are inferred (ids, postcodes); a column forced to numbers reads it as 7.
        const parsed = parseNumberText(text) ?? (options.type === "number" && LEADING_ZERO_INTEGER.test(text.trim()) && NUMBER_TEXT.test(text.trim()) ? Number(text.trim()) : undefined);
        if (parsed === undefined) {
          // A decimal comma (0,8), as spreadsheets write numbers in many locales: say the number meant. Not for
          // what may be a thousands separator (1,000): three digits after the comma of a whole part other than 0.
          const decimal = /^\s*[+-]?(\d+),(\d+)\s*$/.exec(text);
          const comma = decimal && (decimal[2]!.length !== 3 || /^0+$/.test(decimal[1]!)) ? ` (a decimal comma: write ${text.trim().replace(",", ".")})` : "";
          problems.add(row, `column "${name}" holds ${JSON.stringify(v)}, which is not a number${comma}; write a number or leave it empty`);
          return Number.NaN;
        }
        return parsed;
      }
      if (isMissing(v)) return Number.NaN;
      if (typeof v === "number") return v;
      if (typeof v === "boolean") return v ? 1 : 0;
      problems.add(row, `column "${name}" holds ${describe(v)}, not a number; write a number or leave it empty`);
      return Number.NaN;
    }
    if (origin === "text" || typeof v === "string") {
      const parsed = parseBooleanText(typeof v === "string" ? v : "");
      if (parsed === undefined) {
        problems.add(row, `column "${name}" holds ${JSON.stringify(v)}, not true or false`);
        return null;
      }
      return parsed;
    }
    if (isMissing(v)) return null;
    if (typeof v === "boolean") return v;
    problems.add(row, `column "${name}" holds ${describe(v)}, not true or false`);
    return null;
  });
  return { name, type, values };
}

/** The column with this name, or undefined. */
export function getColumn(table: Table, name: string): TableColumn | undefined {
  return table.columns.find((c) => c.name === name);
}

/**
 * The rows of a table at these indices, in the order given, as a table of
 * their own, which remembers the row (and line) each came from for messages.
 *
 * @example
 * tableRows(table, [0, 2]).rowCount // 2
 */
export function tableRows(table: Table, rows: readonly number[]): Table {
  const out: Table = { rowCount: rows.length, columns: table.columns.map((c) => ({ ...c, values: rows.map((i) => c.values[i] ?? null) })) };
  const { lines, sourceRows } = table;
  if (lines !== undefined) out.lines = rows.map((i) => lines[i]!);
  out.sourceRows = rows.map((i) => sourceRows?.[i] ?? i);
  return out;
}

/** Row `i` of a table as a plain record, in column order. */
export function tableRecord(table: Table, i: number): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const c of table.columns) setField(out, c.name, c.values[i] ?? null);
  return out;
}
