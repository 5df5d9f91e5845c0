/** `toCSV`: tables out as RFC 4180 CSV that spreadsheets open safely. */
import { writeFileAtomic } from "./atomic-write";
import { readFrame, type FrameInput } from "./frame-like";
import { escapeFormula, quoteCsvField, type CsvWriteOptions } from "./csv";
import { cellText, type Cell } from "./table";

/**
 * What `toCSV` writes: a DataFrame, row objects or a typed table.
 *
 * @deprecated The same as {@link FrameInput}; use that name.
 */
export type CsvSource = FrameInput;

/** Options for {@link formatCsv} and {@link toCSV}. */
export interface ToCsvOptions extends CsvWriteOptions {
  /** Columns to write, in this order; default all, in the table's order. With no rows to write from row objects (`[]`), the header of these columns. */
  columns?: readonly string[];
  /** Write the header line; default true. `false` gives rows to append to a file that has one. */
  header?: boolean;
}

/** One field as written: numbers exactly, text escaped (then always quoted: see escapeFormula) and quoted as needed. */
function csvField(value: Cell, escape: boolean, delimiter: string): string {
  if (typeof value === "number") {
    return Number.isNaN(value) ? "" : String(value);
  }
  if (typeof value === "boolean") return String(value);
  return csvText(cellText(value) ?? "", escape, delimiter);
}

function csvText(text: string, escape: boolean, delimiter: string): string {
  const escaped = escape ? escapeFormula(text) : text;
  return escaped !== text ? `"${escaped.replace(/"/g, '""')}"` : quoteCsvField(text, delimiter);
}

/**
 * Formats a DataFrame or row objects as CSV text: RFC 4180 quoting, NaN and
 * null as empty fields, lists and objects as JSON text, numbers written so they
 * read back exactly, and formula-like text prefixed with `'` (see
 * {@link CsvWriteOptions.escapeFormulas}).
 *
 * @example
 * formatCsv([{ q: "Sum?", a: "=1+2" }, { q: "x, y", a: 3 }])
 * // 'q,a\nSum?,"\'=1+2"\n"x, y",3\n'
 */
export function formatCsv(data: FrameInput, options: ToCsvOptions = {}): string {
  const table = readFrame(data, "toCSV");
  const eol = options.lineEnding ?? "\n";
  const delimiter = options.delimiter ?? ",";
  // Options from plain JavaScript are checked: each of these would write a file that does not read back.
  if (eol !== "\n" && eol !== "\r\n") throw new RangeError(`toCSV: lineEnding must be "\\n" or "\\r\\n", got ${JSON.stringify(eol)}`);
  if (Array.from(delimiter).length !== 1 || /["\r\n]/.test(delimiter)) throw new RangeError(`toCSV: delimiter must be one character other than a quote or a line break, got ${JSON.stringify(delimiter)}`);
  const twice = options.columns?.find((name, i) => options.columns!.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`toCSV: columns names "${twice}" twice; a CSV header with a column twice does not read back`);
  const escape = options.escapeFormulas !== false;
  let columns = table.columns;
  if (options.columns) {
    columns = options.columns.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      // No row objects name no columns: the header alone is written (e.g. no changed answers).
      if (!column && table.rowCount === 0 && table.columns.length === 0) return { name, type: "string" as const, values: [] };
      if (!column) {
        throw new Error(`toCSV: no column "${name}"; the columns are ${table.columns.map((c) => `"${c.name}"`).join(", ")}`);
      }
      return column;
    });
  }
  // No column at all (no rows from row objects, no columns named): an empty file rather than empty lines.
  if (columns.length === 0) return options.bom ? "\uFEFF" : "";
  const lines: string[] = options.header === false ? [] : [columns.map((c) => csvText(c.name, escape, delimiter)).join(delimiter)];
  for (let row = 0; row < table.rowCount; row++) {
    lines.push(columns.map((c) => csvField(c.values[row] ?? null, escape, delimiter)).join(delimiter));
  }
  if (lines.length === 0) return options.bom ? "\uFEFF" : "";
  return (options.bom ? "\uFEFF" : "") + lines.join(eol) + eol;
}

/**
 * Writes a DataFrame or row objects to a CSV file (UTF-8), creating the
 * folder if needed. The file is written to a temporary name and renamed, so
 * a reader never sees half a file. See {@link formatCsv} for the format.
 *
 * @example
 * await toCSV(scored, "out/scored.csv");
 * await toCSV(scored, "out/for-excel.csv", { bom: true, lineEnding: "\r\n" });
 */
export async function toCSV(data: FrameInput, file: string, options: ToCsvOptions = {}): Promise<void> {
  await writeFileAtomic(file, formatCsv(data, options));
}
