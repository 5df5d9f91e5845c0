/** Reading DataFrames in tests. */
import type { DataFrame } from "danfojs-node";

/** The rows of a frame as objects, read by column name from `df.values` (danfojs reads records by position). */
export function records(df: DataFrame): Record<string, unknown>[] {
  return (df.values as unknown[][]).map((row) => Object.fromEntries(df.columns.map((c, j) => [c, row[j]])));
}
