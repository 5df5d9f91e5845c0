/**
 * Were two runs scored alike? The judge and the settings each paired answer
 * was scored with (a metric's {@link MetricDefinition.scoringOf}), compared
 * between the runs, so that a change of judge, layout or weights is not read
 * as a change in the answers.
 */
import { getColumn, type Table } from "../dataset/table";
import { definitionOfColumn, type MetricDefinition } from "../metrics/registry";

/**
 * One way in which paired answers were scored differently in the two runs.
 *
 * @example
 * const change: ScoringChange = { setting: "judge", before: "offline (approximate)", after: "gpt-4o-mini @ api.openai.com", answers: 126 };
 */
export interface ScoringChange {
  /** "judge", or a setting the metric records ("layout", "weights", "embedding model", …). */
  setting: string;
  /** Its value in the before run. */
  before: string;
  /** Its value in the after run. */
  after: string;
  /** Paired answers scored with `before` in the before run and `after` in the after run. */
  answers: number;
}

/** A row's judge and settings, "" for a judge the row does not name. */
function scoringAt(definition: MetricDefinition | undefined, table: Table, row: number): Map<string, string> {
  const out = new Map<string, string>();
  if (definition === undefined) return out;
  const judge = getColumn(table, definition.judgeColumn)?.values[row];
  if (typeof judge === "string" && judge !== "") out.set("judge", judge);
  const record = definition.scoringOf?.((column) => getColumn(table, column)?.values[row]);
  for (const [setting, value] of Object.entries(record ?? {})) out.set(setting, value);
  return out;
}

/**
 * How the paired answers of two runs of `metric` (a score column) were
 * scored differently: one entry per setting and pair of values, with the
 * number of answers, settings in the order the metric records them (the
 * judge first), the most common change of each first. A setting one run does
 * not record (a failed row, a table from an older evalframe) is not compared.
 *
 * @param pairs each paired answer's row in the before table and in the after table.
 * @example
 * scoringChanges("answer_correctness", before, after, [[0, 0], [1, 1]]);
 * // [{ setting: "layout", before: "ragas", after: "fused", answers: 2 }]
 */
export function scoringChanges(metric: string, before: Table, after: Table, pairs: readonly (readonly [number, number])[]): ScoringChange[] {
  const definition = definitionOfColumn(metric);
  const counts = new Map<string, ScoringChange>();
  const order: string[] = [];
  for (const [i, j] of pairs) {
    const b = scoringAt(definition, before, i);
    const a = scoringAt(definition, after, j);
    for (const [setting, valueBefore] of b) {
      const valueAfter = a.get(setting);
      if (valueAfter === undefined || valueAfter === valueBefore) continue;
      if (!order.includes(setting)) order.push(setting);
      const key = JSON.stringify([setting, valueBefore, valueAfter]);
      const entry = counts.get(key);
      if (entry) entry.answers++;
      else counts.set(key, { setting, before: valueBefore, after: valueAfter, answers: 1 });
    }
  }
  return [...counts.values()].sort((p, q) => order.indexOf(p.setting) - order.indexOf(q.setting) || q.answers - p.answers);
}

/**
 * The distinct ways the rows of one scored run of `metric` were scored (judge
 * and settings), with their row counts, most rows first; rows that record
 * neither are left out.
 *
 * @example
 * scoringsOf("answer_correctness", table);
 * // [{ scoring: { judge: "offline (approximate)", layout: "ragas", ... }, rows: 126 }]
 */
export function scoringsOf(metric: string, table: Table): { scoring: Record<string, string>; rows: number }[] {
  const definition = definitionOfColumn(metric);
  const counts = new Map<string, { scoring: Record<string, string>; rows: number }>();
  for (let row = 0; row < table.rowCount; row++) {
    const scoring = scoringAt(definition, table, row);
    if (scoring.size === 0) continue;
    const key = JSON.stringify([...scoring]);
    const entry = counts.get(key);
    if (entry) entry.rows++;
    else counts.set(key, { scoring: Object.fromEntries(scoring), rows: 1 });
  }
  return [...counts.values()].sort((p, q) => q.rows - p.rows);
}

/** At most this many changes are spelt out in the warning (all are in {@link scoringChanges}). */
const SHOWN = 4;

/**
 * The warning for runs scored differently, or undefined when they were
 * scored alike.
 *
 * @example
 * scoringWarning("answer_correctness", [{ setting: "layout", before: "ragas", after: "fused", answers: 126 }], 126);
 * // 'answer_correctness was scored differently in the two runs (all 126 paired answers): layout "ragas" before, "fused" after. ...'
 */
export function scoringWarning(metric: string, changes: readonly ScoringChange[], paired: number): string | undefined {
  if (changes.length === 0) return undefined;
  const all = changes.every((c) => c.answers === paired);
  const shown = changes
    .slice(0, SHOWN)
    .map((c) => `${c.setting} ${JSON.stringify(c.before)} before, ${JSON.stringify(c.after)} after${all ? "" : ` (${c.answers.toLocaleString("en-US")} of ${paired.toLocaleString("en-US")} paired answers)`}`);
  const more = changes.length > SHOWN ? `; and ${changes.length - SHOWN} more` : "";
  return (
    `${metric} was scored differently in the two runs${all ? ` (all ${paired.toLocaleString("en-US")} paired answers)` : ""}: ${shown.join("; ")}${more}. ` +
    `Part of the change may come from how the answers were scored, not from the answers; score both runs alike to compare the answers alone`
  );
}
