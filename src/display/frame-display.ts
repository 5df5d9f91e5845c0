/**
 * How a DataFrame looks when it is printed, or is the last value of a
 * notebook cell (tslab prints that value with console.log): as a table, not
 * as danfojs' internals (`$dataIncolumnFormat`, `$index`, …). In a notebook
 * the table is an HTML table; elsewhere aligned text.
 */
import { inspect, type InspectOptionsStylized } from "node:util";
import type { DataFrame } from "danfojs-node";
import { isDataFrame } from "../dataset/frame-like";
import type { Cell } from "../dataset/table";
import { whenDanfoLoads } from "../frame/dataframe";
import { tableHTML } from "./table";
import { formatTable } from "./text-table";
import { tslab } from "./tslab";

/** Rows shown when a frame is printed whole (the rest are counted). */
const ROWS_SHOWN = 20;

function shape(frame: DataFrame): string {
  const [rows = 0, columns = 0] = frame.shape;
  return `DataFrame: ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"} × ${columns} column${columns === 1 ? "" : "s"}`;
}

/** The printed form of a frame: in a notebook, an HTML table shown and its shape returned; elsewhere the text table and its shape. */
function printed(frame: DataFrame, depth: number, options: InspectOptionsStylized): string {
  // Inside another value (an array of frames, an object): the shape only.
  if (depth < (options.depth ?? 2)) return `[${shape(frame)}]`;
  const notebook = tslab();
  if (notebook) {
    notebook.display.html(tableHTML(frame, { maxRows: ROWS_SHOWN }));
    return shape(frame);
  }
  return `${formatTable(frame, { maxRows: ROWS_SHOWN, maxWidth: 40 })}\n${shape(frame)}`;
}

/** The parts of a danfojs Series its printed form reads. */
interface SeriesLike {
  $isSeries: true;
  values: unknown[];
  index: unknown[];
  columns: unknown[];
  dtypes: unknown[];
}

function isSeries(value: unknown): value is SeriesLike {
  const v = value as Partial<SeriesLike> | null;
  return v !== null && typeof v === "object" && v.$isSeries === true && Array.isArray(v.values) && Array.isArray(v.index);
}

/**
 * The printed form of a Series (`df["answer_correctness"]`): its first 20
 * values beside their index labels, as a table, then its name, length and
 * dtype.
 */
function printedSeries(series: SeriesLike, depth: number, options: InspectOptionsStylized): string {
  const name = String(series.columns[0] ?? "values");
  const count = series.values.length;
  const summary = `Series ${JSON.stringify(name)}: ${count.toLocaleString("en-US")} value${count === 1 ? "" : "s"}${series.dtypes[0] ? ` (${String(series.dtypes[0])})` : ""}`;
  if (depth < (options.depth ?? 2)) return `[${summary}]`;
  const labelColumn = name === "index" ? "label" : "index";
  const rows = series.values.slice(0, ROWS_SHOWN).map((value, i) => ({ [labelColumn]: series.index[i] as Cell, [name]: value as Cell }));
  const notebook = tslab();
  if (notebook) {
    notebook.display.html(tableHTML(rows, { maxRows: ROWS_SHOWN }));
    return summary;
  }
  return `${formatTable(rows, { maxRows: ROWS_SHOWN, maxWidth: 40 })}\n${summary}`;
}

let installed = false;

/**
 * Gives danfojs DataFrames a readable printed form (`console.log(df)`, and a
 * frame as a notebook cell's last value): an HTML table in a tslab notebook,
 * aligned text elsewhere, the first 20 rows and the shape. A Series
 * (`df["answer_correctness"]`) the same way: its first 20 values beside their
 * index labels, then its name, length and dtype. Importing evalframe
 * calls it: in a notebook it applies at once, to frames built with danfojs
 * alone too; elsewhere once danfojs is loaded (by the first frame evalframe
 * builds, or by your own import of danfojs-node). A frame's own `print()` is
 * unchanged.
 *
 * @example
 * installDataFrameDisplay();
 * console.log(await loadDataset("data/qa-models.csv")); // a table, not $dataIncolumnFormat
 */
export function installDataFrameDisplay(): void {
  if (installed) return;
  installed = true;
  // Outside a notebook, waits for danfojs to be loaded, by the first frame evalframe builds or by
  // the user's own import of danfojs-node: importing evalframe does not load it (the command line
  // starts faster). In a notebook it loads now, as any frame the user builds there, with danfojs
  // alone too (`new dfd.DataFrame(…)`, `dfd.readCSV`), must show as a table.
  // danfojs-node's DataFrame extends danfojs' own, and a frame's methods (head, loc, …) return
  // the parent class: every class of the chain gets the printed form, and only frames use it.
  whenDanfoLoads(
    (danfo) => {
      for (let proto: object | null = danfo.DataFrame.prototype; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
        patch(proto as Record<symbol, unknown>);
      }
    },
    { now: tslab() !== undefined },
  );
}

function patch(proto: Record<symbol, unknown>): void {
  if (Object.prototype.hasOwnProperty.call(proto, inspect.custom)) return;
  Object.defineProperty(proto, inspect.custom, {
    value(this: DataFrame, depth: number, options: InspectOptionsStylized): string {
      // A Series shares a parent class with frames: its values beside their labels.
      if (isSeries(this)) {
        try {
          return printedSeries(this, depth, options);
        } catch {
          return inspect(this, { ...options, customInspect: false });
        }
      }
      if (!isDataFrame(this)) return inspect(this, { ...options, customInspect: false });
      try {
        return printed(this, depth, options);
      } catch {
        return shape(this);
      }
    },
    configurable: true,
    writable: true,
  });
}
