/**
 * The report's "Failed rows" section: rows a metric could not score, grouped
 * by the kind of failure, with a count per group and the rows (and their
 * whole reasons) under each group.
 */
import { getColumn, type Table } from "../dataset/table";
import { escapeHtml } from "../display/html";
import { reportTable } from "./tables";
import { textAt } from "../dataset/column-toolkit";
import { failureKind } from "../analysis/headline";

/** One failed row of one metric. */
interface Failure {
  row: number;
  metric: string;
  reason: string;
}

/** The kind of a failure reason ({@link failureKind}), shared with the headline, which names the commonest. */
export { failureKind };

/**
 * The "Failed rows" section for the metrics given (each with its error
 * column), or undefined when no row failed. Groups are listed largest
 * first; each lists at most `perGroup` rows.
 */
export function failedRowsSection(table: Table, metrics: readonly { metric: string; error: string }[], perGroup = 50): string | undefined {
  const failures: Failure[] = [];
  const counts: string[] = [];
  for (const { metric, error } of metrics) {
    const column = getColumn(table, error);
    if (!column || !getColumn(table, metric)) continue;
    let n = 0;
    column.values.forEach((v, row) => {
      if (typeof v === "string" && v.trim() !== "") {
        n++;
        failures.push({ row, metric, reason: v });
      }
    });
    if (n > 0) counts.push(`${n.toLocaleString("en-US")} for ${metric}`);
  }
  if (failures.length === 0) return undefined;
  const groups = new Map<string, { metric: string; kind: string; rows: Failure[] }>();
  for (const f of failures) {
    const kind = failureKind(f.reason);
    const key = `${f.metric}\u0000${kind}`;
    let group = groups.get(key);
    if (!group) {
      group = { metric: f.metric, kind, rows: [] };
      groups.set(key, group);
    }
    group.rows.push(f);
  }
  const ordered = [...groups.values()].sort((a, b) => b.rows.length - a.rows.length);
  const hasModel = getColumn(table, "model") !== undefined;
  const hasId = getColumn(table, "id") !== undefined;
  const blocks = ordered.map((g) => {
    const shown = g.rows.slice(0, perGroup);
    const columns = [{ label: "row", numeric: true }, ...(hasId ? [{ label: "id" }] : []), ...(hasModel ? [{ label: "model" }] : []), { label: "reason" }];
    const rows = shown.map((f) => [
      String(f.row),
      ...(hasId ? [escapeHtml(textAt(table, "id", f.row))] : []),
      ...(hasModel ? [escapeHtml(textAt(table, "model", f.row))] : []),
      `<td class="error">${escapeHtml(f.reason)}</td>`,
    ]);
    const models = hasModel ? [...new Set(g.rows.map((f) => textAt(table, "model", f.row)))] : [];
    return (
      `<details class="group" data-failure-group="${escapeHtml(g.kind)}"><summary><span class="count">${g.rows.length.toLocaleString("en-US")} row${g.rows.length === 1 ? "" : "s"}</span> · ${escapeHtml(g.metric)} · ${escapeHtml(g.kind)}` +
      `${models.length > 0 ? ` <span class="note">(${escapeHtml(models.join(", "))})</span>` : ""}</summary>` +
      reportTable(columns, rows) +
      (g.rows.length > shown.length ? `<p class="note">The first ${shown.length} of ${g.rows.length.toLocaleString("en-US")} are listed.</p>` : "") +
      `</details>`
    );
  });
  return [
    `<p>Rows that could not be scored (${counts.join(", ")}), grouped by the kind of failure (numbers, quoted text and details in parentheses left out; each row's whole reason is under its group). ` +
      `They count as errors in the summary (n_error) and are never averaged in as 0.</p>`,
    ...blocks,
  ].join("\n");
}
