/**
 * A score run's failed rows as the command line tells them: how many of each
 * metric, and the first one's row, id, model and reason.
 */
import { printable } from "../display/printable";
import { shortened } from "../display/words";

/** One metric's failed rows in a run: how many, the first reason, and the row it was in ("row 41 (id q7, model m2)"). */
export interface RunFailures {
  metric: string;
  failed: number;
  first: string | undefined;
  firstRow: string | undefined;
}

/** A failed row as the failure line names it: its row in the output, with its id and model ("row 41 (id q7, model m2)"). */
export function failedRowName(record: Readonly<Record<string, unknown>>, row: number): string {
  const keys = (["id", "model"] as const).flatMap((k) => {
    const v = record[k];
    return (typeof v === "string" && v !== "") || typeof v === "number" ? [`${k} ${v}`] : [];
  });
  return `row ${row}${keys.length > 0 ? ` (${keys.join(", ")})` : ""}`;
}

/**
 * Counts one row's `<metric>_error` cell in `f` when it holds a reason,
 * keeping the first reason and its row (`name`, asked only for that one).
 */
export function countFailure(f: Omit<RunFailures, "metric">, error: unknown, name: () => string): void {
  if (typeof error !== "string" || error.trim() === "") return;
  f.failed++;
  if (f.first !== undefined) return;
  f.first = error;
  f.firstRow = name();
}

/**
 * The line a score run prints of its failed rows: how many of each metric, and the first's row and
 * reason, so a CI log says which row to look at ("answer_correctness: 1 of 3 rows failed; first:
 * row 2 (id q3, model m): …; every reason is in column answer_correctness_error").
 */
export function failuresLine(failures: readonly RunFailures[], rows: number): string {
  return failures
    .map((f) => {
      const counted = `${f.metric}: ${f.failed.toLocaleString("en-US")} of ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"} failed`;
      if (f.failed === 0 || f.first === undefined) return counted;
      const reason = shortened(f.first, 200);
      return `${counted}; first: ${f.firstRow ?? "a row"}: ${printable(reason)}; every reason is in column ${f.metric}_error`;
    })
    .join(" · ");
}
