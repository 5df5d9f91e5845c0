/**
 * The report's tables: short ones by default (a few columns, the interval
 * beside its estimate in one cell) with the full table one click away in a
 * `<details>`; numbers right-aligned in tabular figures, text left-aligned
 * and wrapped, columns with no defined value left out (no "NaN" cells).
 */
import type { DataFrame } from "danfojs-node";
import type { Cell, Table } from "../dataset/table";
import { escapeHtml } from "../display/html";
import { tableFromDataFrame } from "../frame/dataframe";

/** One column of a {@link reportTable}. */
export interface ReportColumn {
  /** Header text. */
  label: string;
  /** Right-aligned, tabular figures, not wrapped. */
  numeric?: boolean;
  /** Tooltip of the header: what the column means. */
  title?: string;
}

/** Shown for a value that is not defined (NaN or missing). */
const UNDEFINED_CELL = `<td class="num missing" title="not defined">–</td>`;

/** An HTML table from cells that are already HTML (escape them first). */
export function reportTable(columns: readonly ReportColumn[], rows: readonly (readonly string[])[], className = "compact"): string {
  const head = columns
    .map((c) => `<th${c.numeric ? ' class="num"' : ""}${c.title ? ` title="${escapeHtml(c.title)}"` : ""}>${escapeHtml(c.label)}</th>`)
    .join("");
  const body = rows.map((r) => `<tr>${r.map((cell, i) => (cell.startsWith("<td") ? cell : `<td${columns[i]?.numeric ? ' class="num"' : ""}>${cell}</td>`)).join("")}</tr>`).join("");
  return `<div class="table-wrap"><table class="${escapeHtml(className)}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A number for a table cell: a whole number as is, else `digits` after the point (so a column's points line up); "–" when not defined. */
export function numberCell(value: number | undefined, digits = 3): string {
  if (value === undefined || !Number.isFinite(value)) return UNDEFINED_CELL;
  return `<td class="num">${escapeHtml(Number.isInteger(value) ? String(value) : value.toFixed(digits)).replace(/^-/, "−")}</td>`;
}

/** A p-value: "<0.001" below a thousandth, else three digits. */
export function pValueCell(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return UNDEFINED_CELL;
  return `<td class="num">${p < 0.001 ? "&lt;0.001" : escapeHtml(p.toFixed(3))}</td>`;
}

/**
 * An estimate with its interval in one cell: "0.62 (0.55–0.69)"; the
 * interval left out when not defined. With `tooFew` (why there is no
 * interval worth the name, e.g. "1 pair: a difference needs at least 2"),
 * the interval reads "(CI n/a)" with that reason as its tooltip.
 */
export function estimateCell(value: number | undefined, low: number | undefined, high: number | undefined, digits = 2, signed = false, tooFew?: string): string {
  if (value === undefined || !Number.isFinite(value)) return UNDEFINED_CELL;
  const f = (x: number) => `${signed && x > 0 ? "+" : ""}${x.toFixed(digits)}`.replace(/^-/, "−");
  const between = signed ? " to " : "–";
  const interval =
    tooFew !== undefined
      ? ` <span class="ci" title="${escapeHtml(tooFew)}">(CI n/a)</span>`
      : low !== undefined && high !== undefined && Number.isFinite(low) && Number.isFinite(high)
        ? ` <span class="ci">(${escapeHtml(`${f(low)}${between}${f(high)}`)})</span>`
        : "";
  return `<td class="num">${escapeHtml(f(value))}${interval}</td>`;
}

/** Whether a cell holds a value worth a column: a finite number, a boolean or non-empty text. */
function defined(value: Cell | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "string") return value.trim() !== "";
  return true;
}

/** The names of a table's columns that hold at least one defined value. */
export function definedColumns(table: Table): string[] {
  return table.columns.filter((c) => c.values.some(defined)).map((c) => c.name);
}

/**
 * Every column of a frame that holds a value (columns that are NaN or empty
 * throughout are left out and named in a note), numbers rounded to `digits`
 * for display, undefined cells shown as "–", long text cut to `maxChars`
 * with the whole text in a tooltip.
 */
export function fullTable(frame: DataFrame, options: { digits?: number; maxChars?: number; className?: string } = {}): string {
  const table = tableFromDataFrame(frame);
  const digits = options.digits ?? 3;
  const maxChars = options.maxChars ?? 300;
  const keep = new Set(definedColumns(table));
  const columns = table.columns.filter((c) => keep.has(c.name));
  const dropped = table.columns.filter((c) => !keep.has(c.name)).map((c) => c.name);
  const rows: string[][] = [];
  for (let i = 0; i < table.rowCount; i++) {
    rows.push(
      columns.map((c) => {
        const v = c.values[i];
        if (c.type === "number" || typeof v === "number") return typeof v === "number" ? numberCell(v, digits) : UNDEFINED_CELL;
        if (v === null || v === undefined) return "<td></td>";
        const s = String(v);
        const chars = Array.from(s);
        return chars.length > maxChars ? `<td title="${escapeHtml(s)}">${escapeHtml(chars.slice(0, maxChars).join(""))}…</td>` : `<td>${escapeHtml(s)}</td>`;
      }),
    );
  }
  const html = reportTable(
    columns.map((c) => ({ label: c.name, numeric: c.type === "number" })),
    rows,
    options.className ?? "full",
  );
  return dropped.length > 0 ? `${html}${leftOutNote(dropped)}` : html;
}

/**
 * The note under a full table that names the columns it leaves out and why:
 * "Not shown, as they are empty in every row: the columns std, ci_low and ci_high."
 */
function leftOutNote(names: readonly string[]): string {
  const code = names.map((n) => `<code>${escapeHtml(n)}</code>`);
  const list = code.length === 1 ? code[0]! : `${code.slice(0, -1).join(", ")} and ${code.at(-1)!}`;
  return `<p class="note left-out">Not shown, as ${names.length === 1 ? "it is" : "they are"} empty in every row: the column${names.length === 1 ? "" : "s"} ${list}.</p>`;
}

/** A full table behind a "details" toggle, for the reader who wants every column. */
export function onDemand(label: string, html: string): string {
  return `<details class="more"><summary>${escapeHtml(label)}</summary>${html}</details>`;
}

