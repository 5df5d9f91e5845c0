/**
 * Tables as aligned plain text for terminals and logs (the CLI, the demo):
 * numbers rounded for display only and right-aligned, text left-aligned,
 * line breaks flattened, control characters shown as escapes before the
 * columns are measured, long cells cut with "…" (in the middle, in a column
 * where cutting the end would make cells of different text read the same).
 * No box drawing.
 */
import type { DataFrame } from "danfojs-node";
import type { Records } from "../dataset/raw";
import type { Cell, Table } from "../dataset/table";
import { displayNumber } from "./html";
import { printable } from "./printable";
import { cutMiddleToWidth, cutToWidth, displayWidth } from "./width";
import { readFrame } from "../dataset/frame-like";

/** Options of {@link formatTable}. */
export interface TextTableOptions {
  /** Digits after the decimal point for non-integers (default 3); the data is not changed. */
  digits?: number;
  /** Widest cell, in terminal columns (a Hangul or CJK character takes two), before it is cut with "…" (default 48). */
  maxWidth?: number;
  /** Only these columns, in this order (default: all). */
  columns?: readonly string[];
  /** Rows shown (default: all); a last line says how many were left out. */
  maxRows?: number;
  /** Text between columns (default two spaces). */
  gap?: string;
}

function cellText(value: Cell | undefined, digits: number, maxWidth: number): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return displayNumber(value, digits);
  if (typeof value === "boolean") return value ? "true" : "false";
  // Only the start of a long cell can show (every character takes a column or more, but for marks):
  // a 10 MB cell is not flattened and escaped whole to show 48 columns of it.
  const limit = 8 * maxWidth + 8;
  if (value.length <= limit) return oneLine(value);
  const end = value.charCodeAt(limit - 1) >= 0xd800 && value.charCodeAt(limit - 1) <= 0xdbff ? limit - 1 : limit;
  return `${oneLine(value.slice(0, end))}…`;
}

/** Text on one line (line breaks shown as ⏎, tabs as spaces), control characters escaped. */
function oneLine(text: string): string {
  return printable(text.replace(/\r\n|\r|\n/g, " ⏎ ").replace(/\t/g, " "));
}

/** Text cut to `width` terminal columns (a wide character counts two). */
function cut(text: string, width: number): string {
  return cutToWidth(text, width);
}

/** Terminal columns the text takes, so that Hangul and CJK cells line up. */
function length(text: string): number {
  return displayWidth(text);
}

/** Cut cells that read the same as a cell of different text (in any column), by column. */
function clashes(full: readonly string[][], body: readonly string[][]): number[] {
  const texts = new Map<string, Set<string>>();
  body.forEach((row, i) => row.forEach((shown, j) => {
    if (shown === full[i]![j]) return;
    let set = texts.get(shown);
    if (!set) texts.set(shown, (set = new Set()));
    set.add(full[i]![j]!);
  }));
  const count = (body[0] ?? []).map(() => 0);
  body.forEach((row, i) => row.forEach((shown, j) => {
    if (shown !== full[i]![j] && texts.get(shown)!.size > 1) count[j]!++;
  }));
  return count;
}

/**
 * Where cutting the end makes cells of different text read the same (two
 * long model names that differ in their last characters, in one column or in
 * model_a and model_b), such a column is cut in the middle instead, when that
 * leaves fewer cells reading alike (a verdict that starts with a name keeps
 * its start). Changes `body` in place.
 */
function apartWhereCutAlike(full: readonly string[][], body: string[][], maxWidth: number): void {
  let count = clashes(full, body);
  for (let j = 0; j < count.length; j++) {
    if (count[j] === 0) continue;
    const before = body.map((row) => row[j]!);
    const total = count.reduce((a, b) => a + b, 0);
    body.forEach((row, i) => (row[j] = cutMiddleToWidth(full[i]![j]!, maxWidth)));
    const after = clashes(full, body);
    if (after.reduce((a, b) => a + b, 0) < total) count = after;
    else body.forEach((row, i) => (row[j] = before[i]!));
  }
}

/**
 * A DataFrame (or row objects) as aligned plain text: a header line, a line
 * of dashes, one line per row. Numbers are right-aligned and rounded to
 * `digits` for display (NaN shows as "NaN"), text is left-aligned, missing
 * text is blank.
 *
 * @example
 * console.log(formatTable(summarize(scored, { by: "model" })));
 * // model       metric              n   n_valid  …  mean   …
 * // ----------  ------------------  --  -------  …  -----  …
 * // atlas-pro   answer_correctness  42  42       …  0.446  …
 */
export function formatTable(data: DataFrame | Records | Table, options: TextTableOptions = {}): string {
  const digits = options.digits ?? 3;
  const maxWidth = options.maxWidth ?? 48;
  const gap = options.gap ?? "  ";
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new RangeError(`formatTable: digits must be a whole number from 0 to 20, got ${digits}`);
  if (!Number.isInteger(maxWidth) || maxWidth < 2) throw new RangeError(`formatTable: maxWidth must be a whole number ≥ 2, got ${maxWidth}`);
  const table: Table = readFrame(data, "formatTable");
  let columns = table.columns;
  if (options.columns !== undefined) {
    columns = options.columns.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      if (!column) throw new Error(`formatTable: no column "${name}"; the columns are ${table.columns.map((c) => c.name).join(", ")}`);
      return column;
    });
  }
  const maxRows = options.maxRows ?? table.rowCount;
  const shown = Math.min(table.rowCount, Math.max(0, maxRows));
  const header = columns.map((c) => cut(oneLine(c.name), maxWidth));
  const full = Array.from({ length: shown }, (_, i) => columns.map((c) => cellText(c.values[i], digits, maxWidth)));
  const body = full.map((row) => row.map((text) => cut(text, maxWidth)));
  apartWhereCutAlike(full, body, maxWidth);
  const widths = columns.map((_, j) => Math.max(length(header[j]!), ...body.map((row) => length(row[j]!))));
  const pad = (text: string, j: number) => {
    const fill = " ".repeat(widths[j]! - length(text));
    return columns[j]!.type === "number" ? fill + text : text + fill;
  };
  const line = (cells: string[]) => cells.map(pad).join(gap).replace(/\s+$/, "");
  const lines = [line(header), widths.map((w) => "-".repeat(w)).join(gap)];
  for (const row of body) lines.push(line(row));
  if (shown < table.rowCount) lines.push(`(${table.rowCount - shown} more row${table.rowCount - shown === 1 ? "" : "s"} not shown)`);
  return lines.join("\n");
}
