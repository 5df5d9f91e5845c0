/**
 * The report's "Change since the previous run" section: `compareRuns` of the
 * previous scored run against this one, per metric both runs have, as a
 * table, a chart and the answers that changed most.
 */
import type { DataFrame } from "danfojs-node";
import { compareRuns, type RunComparison } from "../analysis/compare-runs";
import type { FrameInput } from "../analysis/summarize";
import { changeWithCI } from "../charts/runs";
import { getColumn, tableRows, type Table } from "../dataset/table";
import { unscoredRepeats } from "../analysis/summarize";
import { escapeHtml } from "../display/html";
import { readFrame } from "../display/table";
import { tableFromDataFrame, tableToDataFrame } from "../frame/dataframe";
import { withoutSchema, type ReportChart } from "./charts";
import { estimateCell, fullTable, numberCell, onDemand, pValueCell, reportTable } from "./tables";
import { numberAt, textAt } from "../dataset/column-toolkit";
import { errorText } from "../display/words";

/** The section's HTML and the charts it places (drawn with the report's other charts). */
export interface ChangeSection {
  html: string;
  charts: ReportChart[];
  /** The comparison shown for each metric that could be compared (the headline's sentence on the change reads the same one). */
  runs: Map<string, RunComparison>;
  /** Why a metric could not be compared, by metric (shown as "Not computed"). */
  problems: Map<string, string>;
  /** What the page says it could not compare, for a caller to pass on (see {@link PreviousRunProblem}). */
  refused: PreviousRunProblem[];
}

/**
 * Something the "Change since the previous run" section could not compare:
 * a metric `compareRuns` refused (with its error), or, with no metric, that
 * the previous run has none of the report's score columns (`metrics`).
 */
export type PreviousRunProblem = { metric: string; error: unknown } | { metric: undefined; metrics: readonly string[] };

/** Columns of the changed-answers table in the report (the long answer texts stay in the CSV). */
const SHOWN_CHANGE_COLUMNS = ["model", "user_input", "before", "after", "change", "status", "answer_changed", "error"];

/** The first `n` rows of a frame, with only the columns named (and present), the pairing column first. */
function topChanges(changes: DataFrame, pairedBy: string, n: number): DataFrame {
  const table = tableFromDataFrame(changes);
  const names = [pairedBy, ...SHOWN_CHANGE_COLUMNS.filter((c) => c !== pairedBy)];
  const columns = names.flatMap((name) => {
    const c = getColumn(table, name);
    return c === undefined ? [] : [{ ...c, values: c.values.slice(0, n) }];
  });
  return tableToDataFrame({ columns, rowCount: Math.min(n, table.rowCount) });
}

/** The change per model, short: model, pairs, before, after, change with CI, improved/worsened, p_holm, verdict. */
function changeTable(summary: DataFrame): string {
  const t = tableFromDataFrame(summary);
  const rows: string[][] = [];
  for (let i = 0; i < t.rowCount; i++) {
    const moved = ["improved", "worsened"].map((k) => numberAt(t, k, i));
    rows.push([
      escapeHtml(textAt(t, "model", i)),
      numberCell(numberAt(t, "n_paired", i)),
      numberCell(numberAt(t, "mean_before", i), 2),
      numberCell(numberAt(t, "mean_after", i), 2),
      estimateCell(numberAt(t, "change", i), numberAt(t, "ci_low", i), numberAt(t, "ci_high", i), 2, true, numberAt(t, "n_paired", i) === 1 ? "1 pair: a change needs at least 2" : undefined),
      moved.every(Number.isFinite) ? escapeHtml(moved.join(" / ")) : "–",
      pValueCell(numberAt(t, "p_holm", i)),
      escapeHtml(textAt(t, "verdict", i)),
    ]);
  }
  return reportTable(
    [
      { label: "model" },
      { label: "pairs", numeric: true, title: "answers scored validly in both runs" },
      { label: "before", numeric: true },
      { label: "after", numeric: true },
      { label: "change (95% CI)", numeric: true, title: "mean after − mean before, paired bootstrap 95% interval" },
      { label: "improved / worsened", numeric: true },
      { label: "p_holm", numeric: true },
      { label: "verdict" },
    ],
    rows,
  );
}

function oneMetric(metric: string, runs: RunComparison, top: number, index: number): { html: string; charts: ReportChart[] } {
  const charts: ReportChart[] = [];
  const parts: string[] = [`<h3>${escapeHtml(metric)}</h3>`];
  for (const w of runs.warnings) parts.push(`<p class="note">${escapeHtml(w)}</p>`);
  parts.push(changeTable(runs.summary), onDemand("All columns", fullTable(runs.summary)));
  try {
    const chart: ReportChart = {
      id: `chart-change-${index + 1}`,
      title: `Change in ${metric}`,
      caption: "Mean change per model (after − before) over the answers scored in both runs, with its 95% paired bootstrap CI; right of zero, the model improved.",
      spec: withoutSchema(changeWithCI(runs)),
    };
    charts.push(chart);
    parts.push(
      `<figure><div class="chart" id="${escapeHtml(chart.id)}" role="img" aria-label="${escapeHtml(chart.title)}"></div><figcaption>${escapeHtml(chart.caption)}</figcaption></figure>`,
    );
  } catch (error) {
    parts.push(`<p class="note">Chart not drawn: ${escapeHtml(errorText(error))}</p>`);
  }
  const total = runs.changes.shape[0] ?? 0;
  if (total === 0) {
    parts.push(`<p>No answer changed: every answer scored the same in both runs, and none was added or dropped.</p>`);
  } else if (top > 0) {
    parts.push(
      `<p class="note">The ${Math.min(top, total)} largest of ${total.toLocaleString("en-US")} changed answers (scores that moved, largest first; then newly failed, no longer failing, dropped and added). ` +
        `<code>evalframe diff</code> writes them all, with both answers' texts, to CSV.</p>`,
      fullTable(topChanges(runs.changes, runs.pairedBy, top), { maxChars: 160, className: "compact" }),
    );
  }
  return { html: parts.join("\n"), charts };
}

/**
 * `table` without the rows that scoring left unscored because they repeat an
 * earlier row's (id, model) (an `input_error`, no `metric` score): they have no
 * score to pair, and `compareRuns` would refuse the repeat. Repeats that were
 * scored are kept (the comparison says which). `left`: the rows left out.
 */
function withoutUnscoredRepeats(table: Table, metric: string): { table: Table; left: number } {
  const dropped = new Set(unscoredRepeats(table, [metric]).map(({ row }) => row));
  if (dropped.size === 0) return { table, left: 0 };
  return { table: tableRows(table, Array.from({ length: table.rowCount }, (_, i) => i).filter((i) => !dropped.has(i))), left: dropped.size };
}

/**
 * The "Change since the previous run" section for every report metric both
 * runs have; a metric that cannot be compared (no shared answers, say) gets
 * a note saying why instead of sinking the report.
 */
export function changeSection(scored: FrameInput, previous: FrameInput, metrics: readonly string[], top: number): ChangeSection {
  const prior = readFrame(previous, "buildReport (previous run)");
  const current = readFrame(scored, "buildReport");
  const shared = metrics.filter((m) => getColumn(prior, m) !== undefined);
  const parts: string[] = [
    `<p class="note">The previous run (before) against this one (after), answers paired by id (else question text) and model. change = mean after − mean before over the answers scored validly in both runs, with a paired bootstrap 95% CI; a Wilcoxon signed-rank test (sign test for 0/1 scores) with Holm's correction across models; verdict at α = 0.05. Failed rows are counted apart, never as 0.</p>`,
  ];
  const charts: ReportChart[] = [];
  const runs = new Map<string, RunComparison>();
  const problems = new Map<string, string>();
  const refused: PreviousRunProblem[] = [];
  if (shared.length === 0) {
    parts.push(`<p class="note">Not computed: the previous run has none of this run's score columns (${escapeHtml(metrics.join(", "))}).</p>`);
    refused.push({ metric: undefined, metrics });
  }
  for (const metric of metrics) if (!shared.includes(metric)) problems.set(metric, `the previous run has no ${metric} column`);
  shared.forEach((metric, i) => {
    try {
      // Rows that scoring left unscored as repeats of an (id, model) have nothing to pair: left out, and said.
      const before = withoutUnscoredRepeats(prior, metric);
      const after = withoutUnscoredRepeats(current, metric);
      const comparison = compareRuns(before.table, after.table, { metric });
      const section = oneMetric(metric, comparison, top, i);
      parts.push(section.html);
      const left = [[before.left, "the previous run"], [after.left, "this run"]].filter(([n]) => (n as number) > 0).map(([n, run]) => `${String(n)} of ${run}`);
      if (left.length > 0) {
        parts.push(`<p class="note">Left out of the comparison: rows that repeat an earlier row's (id, model) and were not scored (see input_error), ${escapeHtml(left.join(" and "))}.</p>`);
      }
      charts.push(...section.charts);
      runs.set(metric, comparison);
    } catch (error) {
      problems.set(metric, errorText(error));
      refused.push({ metric, error });
      parts.push(`<h3>${escapeHtml(metric)}</h3><p class="note">Not computed: ${escapeHtml(errorText(error))}</p>`);
    }
  });
  return { html: parts.join("\n"), charts, runs, problems, refused };
}
