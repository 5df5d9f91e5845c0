/**
 * DataFrames as readable HTML tables in a notebook: every cell escaped,
 * numbers rounded for display only (the frame keeps every digit).
 */
import type { DataFrame } from "danfojs-node";
import type { Records } from "../dataset/raw";
import type { Cell } from "../dataset/table";
import { isDataFrame, readFrame, toDataFrame } from "../frame/dataframe";
import { displayNumber, escapeHtml } from "./html";
import { tslab } from "./tslab";

/** Options of {@link tableHTML} and {@link showTable}. */
export interface TableHTMLOptions {
  /** Digits after the decimal point for non-integers (default 3); the data is not changed. */
  digits?: number;
  /** Rows shown (default 50); a caption says how many there are when some are left out. */
  maxRows?: number;
  /** Longer text cells are cut to this many characters with "…", the full text in a tooltip (its first 5,000 characters for a longer one) (default 300). */
  maxChars?: number;
}

/** @internal Re-exported for the readers that import it from here. */
export { readFrame };

/**
 * Text cells read left to right and wrap (Jupyter's own style right-aligns
 * every cell, and leaves long text on one line): at most about 40 characters
 * wide, long words broken.
 */
const TEXT_STYLE = "text-align:left;white-space:normal;overflow-wrap:anywhere;max-width:40em;vertical-align:top";

/**
 * Characters of a cut cell's tooltip at most: a 10 MB cell would otherwise
 * put all of itself in the notebook's output (and its saved file), once per
 * cell shown.
 */
const MAX_TOOLTIP_CHARS = 5000;

/**
 * The first `n` characters (code points) of `text`, or undefined when it has
 * no more than `n`: read no further than that, so that a 10 MB cell costs no
 * more than a short one.
 */
function firstChars(text: string, n: number): string | undefined {
  if (text.length <= n) return undefined;
  let units = 0;
  for (let count = 0; count < n && units < text.length; count++) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return units < text.length ? text.slice(0, units) : undefined;
}

function cellHTML(value: Cell | undefined, digits: number, maxChars: number): string {
  if (value === null || value === undefined) return `<td class="ef-missing"></td>`;
  if (typeof value === "number") return `<td class="ef-num" style="text-align:right;font-variant-numeric:tabular-nums;vertical-align:top">${escapeHtml(displayNumber(value, digits))}</td>`;
  if (typeof value === "boolean") return `<td style="text-align:left">${value ? "true" : "false"}</td>`;
  const shown = firstChars(value, maxChars);
  if (shown !== undefined) {
    const tip = firstChars(value, MAX_TOOLTIP_CHARS);
    const title = tip === undefined ? value : `${tip}… (first ${MAX_TOOLTIP_CHARS.toLocaleString("en-US")} characters)`;
    return `<td style="${TEXT_STYLE}" title="${escapeHtml(title)}">${escapeHtml(shown)}…</td>`;
  }
  return `<td style="${TEXT_STYLE}">${escapeHtml(value)}</td>`;
}

/**
 * A DataFrame (or row objects) as an HTML table: column names and cells
 * escaped, numbers rounded to `digits` for display only, NaN shown as "NaN",
 * empty cells for missing text, at most `maxRows` rows with a caption giving
 * the total when rows are left out.
 *
 * @example
 * const html = tableHTML(summarize(scored, { by: "model" }), { digits: 2 });
 */
export function tableHTML(df: DataFrame | Records, options: TableHTMLOptions = {}): string {
  const digits = options.digits ?? 3;
  const maxRows = options.maxRows ?? 50;
  const maxChars = options.maxChars ?? 300;
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new RangeError(`tableHTML: digits must be a whole number from 0 to 20, got ${digits}`);
  if (!(maxRows === Number.POSITIVE_INFINITY || (Number.isInteger(maxRows) && maxRows >= 0))) {
    throw new RangeError(`tableHTML: maxRows must be a whole number ≥ 0 (or Infinity), got ${maxRows}`);
  }
  const table = readFrame(df, "tableHTML");
  const shown = Math.min(table.rowCount, maxRows);
  const parts: string[] = [`<table class="evalframe-table" style="border-collapse:collapse">`];
  if (shown < table.rowCount) {
    parts.push(`<caption style="caption-side:bottom;text-align:left">first ${shown} of ${table.rowCount} rows</caption>`);
  }
  parts.push("<thead><tr>");
  for (const c of table.columns) {
    parts.push(`<th style="text-align:${c.type === "number" ? "right" : "left"}">${escapeHtml(c.name)}</th>`);
  }
  parts.push("</tr></thead><tbody>");
  for (let i = 0; i < shown; i++) {
    parts.push("<tr>");
    for (const c of table.columns) parts.push(cellHTML(c.values[i], digits, maxChars));
    parts.push("</tr>");
  }
  parts.push("</tbody></table>");
  return parts.join("");
}

/**
 * Shows a DataFrame (or row objects) in a tslab notebook as an HTML table
 * (see {@link tableHTML}); outside a notebook, prints it with `df.print()`.
 * `undefined` (a part of a report that does not apply, such as
 * `calibrate(…).statements` for a score column of labels) shows a one-line note.
 *
 * @example
 * showTable(compareModels(scored));
 * showTable(worst(scored, { n: 5 }), { digits: 2, maxChars: 120 });
 * showTable(calibrate(scored, labels).statements);
 */
export function showTable(df: DataFrame | Records | undefined, options: TableHTMLOptions = {}): void {
  const notebook = tslab();
  if (df === undefined) {
    const note = "(no table: this part does not apply to this data)";
    if (notebook) notebook.display.html(`<p><em>${note}</em></p>`);
    else console.log(note);
    return;
  }
  if (notebook) {
    notebook.display.html(tableHTML(df, options));
    return;
  }
  const frame = isDataFrame(df) ? df : toDataFrame(df);
  frame.print();
}
