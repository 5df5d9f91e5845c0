/**
 * The column toolkit: reading a typed table's cells as text or numbers,
 * grouping its rows, and the options that pair rows (`PairOptions`: `by`,
 * `pairBy`, and their defaults) shared by the analysis functions, the charts
 * and the report.
 * The default metric lives with the metric registry (`DEFAULT_METRICS`).
 */
import { getColumn, type Cell, type Table, type TableColumn } from "./table";

/** The column that tells the models (or systems) apart when `by` is not given. */
export const DEFAULT_BY = "model";

/** The column that pairs the rows of different models or runs (the question's id) when `pairBy` is not given. */
export const DEFAULT_PAIR_BY = "id";

/**
 * The options that say which column tells the models apart and which pairs
 * their rows: shared by the comparisons (compareModels, compareRuns), the
 * drill-down tables and the charts, whose options extend this type (or its
 * `by` alone).
 *
 * @example
 * compareModels(scored, { by: "system", pairBy: "question_id" });
 */
export interface PairOptions {
  /** The column that tells the models (or systems, or other groups) apart; default {@link DEFAULT_BY} (`model`). */
  by?: string;
  /**
   * The column that pairs the rows of different models (or runs) that answer
   * the same question; default {@link DEFAULT_PAIR_BY} (`id`). The
   * comparisons (compareModels, compareRuns) fall back to the question text
   * (`user_input`) when there is no `id` column.
   */
  pairBy?: string;
}

/**
 * How {@link cellString} and {@link textAt} read a missing cell (null,
 * undefined, or no such column).
 */
export interface TextReadOptions {
  /**
   * What a missing cell reads as: "" (the default: missing and empty read
   * the same), or null, to tell a missing cell from an empty one (to copy
   * it into a new text column, or to skip it rather than compare it).
   */
  missing?: "" | null;
}

/**
 * A cell as text: `String(value)` (a number's NaN reads "NaN"), a missing
 * cell (null or undefined) as "" or, with `{ missing: null }`, as null.
 *
 * @example
 * cellString(null)                      // ""
 * cellString(null, { missing: null })   // null
 * cellString(0.5)                       // "0.5"
 */
export function cellString(value: Cell | undefined, options?: TextReadOptions & { missing?: "" }): string;
export function cellString(value: Cell | undefined, options: TextReadOptions): string | null;
export function cellString(value: Cell | undefined, options: TextReadOptions = {}): string | null {
  return value === null || value === undefined ? (options.missing === null ? null : "") : String(value);
}

/**
 * A cell as a number: the number itself, 1 or 0 for true or false (as a
 * number column types them), NaN for anything else (text, missing).
 *
 * @example
 * cellNumber(true) // 1
 * cellNumber("3")  // NaN: text is not read as a number
 */
export function cellNumber(value: Cell | undefined): number {
  return typeof value === "number" ? value : typeof value === "boolean" ? (value ? 1 : 0) : Number.NaN;
}

/**
 * A column's value at a row as text, read as {@link cellString} reads it; no
 * such column reads as a missing cell ("", or null with `{ missing: null }`).
 *
 * @example
 * textAt(table, "response", 3)                      // "" when the cell or the column is missing
 * textAt(table, "response", 3, { missing: null })   // null then
 */
export function textAt(table: Table, name: string, row: number, options?: TextReadOptions & { missing?: "" }): string;
export function textAt(table: Table, name: string, row: number, options: TextReadOptions): string | null;
export function textAt(table: Table, name: string, row: number, options: TextReadOptions = {}): string | null {
  return cellString(getColumn(table, name)?.values[row], options);
}

/** A column's value at a row as a number, read as {@link cellNumber} reads it (NaN when there is no such column). */
export function numberAt(table: Table, name: string, row: number): number {
  return cellNumber(getColumn(table, name)?.values[row]);
}

/**
 * @internal Text of a key cell (model, id, a question to pair by), or
 * undefined when it is missing; in Unicode's composed form, so that the same
 * key written decomposed by another tool ("Zu\u0308rich") is the same key.
 */
export function keyText(value: Cell | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number" && Number.isNaN(value)) return undefined;
  const text = String(value);
  if (text === "") return undefined;
  return NON_ASCII.test(text) ? text.normalize("NFC") : text;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** @internal Rows grouped by the values of some columns, groups in order of first appearance. */
export interface Groups {
  /** The first row of each group (to read its key values). */
  first: number[];
  /** The rows of each group, ascending. */
  rows: number[][];
  /** Each group's key as text (for seeds and messages). */
  keys: string[];
}

/** @internal Groups rows by the cells of `columns` (none: one group of every row). */
export function groupRows(table: Table, columns: readonly TableColumn[]): Groups {
  const index = new Map<string, number>();
  const groups: Groups = { first: [], rows: [], keys: [] };
  for (let i = 0; i < table.rowCount; i++) {
    const key = columns.length === 0 ? "" : JSON.stringify(columns.map((c) => c.values[i] ?? null));
    let g = index.get(key);
    if (g === undefined) {
      g = groups.rows.length;
      index.set(key, g);
      groups.first.push(i);
      groups.rows.push([]);
      groups.keys.push(key);
    }
    groups.rows[g]!.push(i);
  }
  return groups;
}

/** Row indices per key (one key per row), groups in order of first appearance. */
export function groupByKey(keys: readonly string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  return groups;
}

/**
 * The column that names the judge of a score column: `<metric>_judge` for the
 * metric itself or for the metric it belongs to (`answer_correctness_continuous`
 * → `answer_correctness_judge`), else a plain `judge` column (a summary's or a
 * comparison's), else undefined.
 *
 * @example
 * judgeColumnName(scored, "answer_correctness_continuous") // "answer_correctness_judge"
 */
export function judgeColumnName(table: Table, metric: string): string | undefined {
  const parts = metric.split("_");
  for (let k = parts.length; k >= 1; k--) {
    const name = `${parts.slice(0, k).join("_")}_judge`;
    if (getColumn(table, name)) return name;
  }
  return getColumn(table, "judge") ? "judge" : undefined;
}

/**
 * The distinct judge labels of some metrics' scores (of some rows; all rows
 * when `rows` is left out), in order of first appearance, read from each
 * metric's judge column (see {@link judgeColumnName}).
 *
 * @example
 * judgeLabels(scored, ["answer_correctness"]) // ["offline (approximate)"]
 */
export function judgeLabels(table: Table, metrics: readonly string[], rows?: readonly number[]): string[] {
  const labels = new Set<string>();
  for (const metric of metrics) {
    const name = judgeColumnName(table, metric);
    if (name === undefined) continue;
    const values = getColumn(table, name)!.values;
    for (const i of rows ?? values.keys()) {
      const text = cellString(values[i]).trim();
      if (text !== "") labels.add(text);
    }
  }
  return [...labels];
}

/** The judge labels of one metric's scores (of some rows), joined with "; ": a summary's or a comparison's `judge` cell. */
export function judgeText(table: Table, metric: string, rows?: readonly number[]): string {
  return judgeLabels(table, [metric], rows).join("; ");
}
