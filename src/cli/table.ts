/**
 * Tables for the command line: aligned plain text (from the display layer)
 * and rows ready for JSON.
 */
import type { DataFrame } from "danfojs-node";
import type { Records } from "../dataset/raw";
import type { Table } from "../dataset/table";
import { readFrame } from "../dataset/frame-like";

export { formatTable, type TextTableOptions } from "../display/text-table";

/**
 * The rows of a DataFrame (or row objects) as plain objects ready for
 * `JSON.stringify`: NaN and ±Infinity become null.
 *
 * @example
 * JSON.stringify(frameRecords(compareModels(scored)), null, 2)
 */
export function frameRecords(data: DataFrame | Records | Table): Record<string, string | number | boolean | null>[] {
  const table = readFrame(data, "frameRecords");
  return Array.from({ length: table.rowCount }, (_, i) =>
    Object.fromEntries(
      table.columns.map((c) => {
        const v = c.values[i] ?? null;
        return [c.name, typeof v === "number" && !Number.isFinite(v) ? null : v];
      }),
    ),
  );
}
