/**
 * Were two runs scored alike? The judge and the settings each paired answer
 * was scored with (a metric's {@link MetricDefinition.scoringOf}), compared
 * between the runs, so that a change of judge, layout or weights is not read
 * as a change in the answers.
 */
import { getColumn, type Table } from "../dataset/table";
import { definitionOfColumn, type MetricDefinition, type ScoringRecord } from "../metrics/registry";

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

/** A row's judge (when it names one) and the settings its metric records, as one entry list; rows scored alike share one. */
type Scoring = readonly (readonly [setting: string, value: string])[];

/**
 * Reads one table's rows' {@link Scoring}: `key` is the same text for rows
 * scored alike, so a 100,000-row run is compared as its few distinct ways,
 * not row by row.
 */
function scoringReader(definition: MetricDefinition | undefined, table: Table): (row: number) => { key: string; scoring: Scoring } {
  const none = { key: "[]", scoring: [] as Scoring };
  if (definition === undefined) return () => none;
  const judges = getColumn(table, definition.judgeColumn)?.values;
  const columns = new Map<string, readonly unknown[] | undefined>();
  const valuesOf = (column: string) => {
    if (!columns.has(column)) columns.set(column, getColumn(table, column)?.values);
    return columns.get(column);
  };
  // By judge, then by record object (rows scored alike share one), so a row costs two lookups.
  const byJudge = new Map<string, Map<ScoringRecord | undefined, { key: string; scoring: Scoring }>>();
  const byKey = new Map<string, { key: string; scoring: Scoring }>();
  return (row) => {
    const judge = judges?.[row];
    const judgeText = typeof judge === "string" ? judge : "";
    const record = definition.scoringOf?.((column) => valuesOf(column)?.[row]);
    let byRecord = byJudge.get(judgeText);
    if (byRecord === undefined) byJudge.set(judgeText, (byRecord = new Map()));
    let found = byRecord.get(record);
    if (found === undefined) {
      const key = JSON.stringify([judgeText, record ?? null]);
      found = byKey.get(key);
      if (found === undefined) {
        const scoring: [string, string][] = judgeText === "" ? [] : [["judge", judgeText]];
        scoring.push(...Object.entries(record ?? {}));
        byKey.set(key, (found = { key, scoring }));
      }
      byRecord.set(record, found);
    }
    return found;
  };
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
  const readBefore = scoringReader(definition, before);
  const readAfter = scoringReader(definition, after);
  // Pairs counted by the two ways they were scored; then each way's settings compared once.
  const ways = new Map<string, { before: Scoring; after: Scoring; answers: number }>();
  for (const [i, j] of pairs) {
    const b = readBefore(i);
    const a = readAfter(j);
    if (a.key === b.key) continue;
    const key = `${b.key}\u0000${a.key}`;
    const way = ways.get(key);
    if (way) way.answers++;
    else ways.set(key, { before: b.scoring, after: a.scoring, answers: 1 });
  }
  const counts = new Map<string, ScoringChange>();
  const order: string[] = [];
  const derived = definition?.derivedSettings ?? {};
  for (const way of ways.values()) {
    const afterValues = new Map(way.after);
    const beforeValues = new Map(way.before);
    const differs = (setting: string): boolean => {
      const [b, a] = [beforeValues.get(setting), afterValues.get(setting)];
      return b !== undefined && a !== undefined && a !== b;
    };
    for (const [setting, valueBefore] of way.before) {
      const valueAfter = afterValues.get(setting);
      if (valueAfter === undefined || valueAfter === valueBefore) continue;
      // A setting that follows from others that changed is their change, already named.
      if (derived[setting]?.some(differs)) continue;
      if (!order.includes(setting)) order.push(setting);
      const key = JSON.stringify([setting, valueBefore, valueAfter]);
      const entry = counts.get(key);
      if (entry) entry.answers += way.answers;
      else counts.set(key, { setting, before: valueBefore, after: valueAfter, answers: way.answers });
    }
  }
  return [...counts.values()].sort((p, q) => order.indexOf(p.setting) - order.indexOf(q.setting) || q.answers - p.answers);
}

/**
 * Settings that say how the judge was asked (a metric's derived settings, such
 * as answer correctness's prompts, and the settings they follow from) which
 * one run records and the other does not, on paired answers that both record
 * how they were scored: the other run is a table from an older evalframe,
 * and {@link scoringChanges} cannot compare them. One entry per run that
 * lacks them, with the settings in the order the other run records them.
 *
 * @example
 * unrecordedSettings("answer_correctness", before, after, pairs);
 * // [{ run: "before", settings: ["layout", "reasons", "answers per call", "prompts"], answers: 126 }]
 */
export function unrecordedSettings(
  metric: string,
  before: Table,
  after: Table,
  pairs: readonly (readonly [number, number])[],
): { run: "before" | "after"; settings: string[]; answers: number }[] {
  const definition = definitionOfColumn(metric);
  const derived = definition?.derivedSettings ?? {};
  const watched = new Set([...Object.keys(derived), ...Object.values(derived).flat()]);
  if (watched.size === 0) return [];
  const readBefore = scoringReader(definition, before);
  const readAfter = scoringReader(definition, after);
  const lacking = { before: { settings: [] as string[], answers: 0 }, after: { settings: [] as string[], answers: 0 } };
  const seen = new Map<string, readonly [string[], string[]]>();
  for (const [i, j] of pairs) {
    const b = readBefore(i);
    const a = readAfter(j);
    // A row that records nothing but its judge (failed, or not scored) says nothing of its table's age.
    if (!b.scoring.some(([s]) => s !== "judge") || !a.scoring.some(([s]) => s !== "judge")) continue;
    const key = `${b.key}\u0000${a.key}`;
    let found = seen.get(key);
    if (found === undefined) {
      const missingIn = (one: Scoring, other: Scoring) => other.map(([s]) => s).filter((s) => watched.has(s) && !one.some(([t]) => t === s));
      found = [missingIn(b.scoring, a.scoring), missingIn(a.scoring, b.scoring)] as const;
      seen.set(key, found);
    }
    for (const [run, missing] of [["before", found[0]], ["after", found[1]]] as const) {
      if (missing.length === 0) continue;
      lacking[run].answers++;
      for (const s of missing) if (!lacking[run].settings.includes(s)) lacking[run].settings.push(s);
    }
  }
  return (["before", "after"] as const).filter((run) => lacking[run].answers > 0).map((run) => ({ run, ...lacking[run] }));
}

/**
 * The warning for a run that does not record how the judge was asked (see
 * {@link unrecordedSettings}), or undefined when both runs record it.
 *
 * @example
 * unrecordedWarning("answer_correctness", [{ run: "before", settings: ["layout", "prompts"], answers: 126 }], 126);
 * // 'answer_correctness: the before run does not record its layout or prompts (all 126 paired answers): it was written by an older evalframe, ...'
 */
export function unrecordedWarning(metric: string, unrecorded: readonly { run: "before" | "after"; settings: readonly string[]; answers: number }[], paired: number): string | undefined {
  if (unrecorded.length === 0) return undefined;
  const parts = unrecorded.map(({ run, settings, answers }) => {
    const names = settings.length === 1 ? settings[0]! : `${settings.slice(0, -1).join(", ")} or ${settings.at(-1)!}`;
    const count = answers === paired ? `all ${paired.toLocaleString("en-US")} paired answers` : `${answers.toLocaleString("en-US")} of ${paired.toLocaleString("en-US")} paired answers`;
    return `the ${run} run does not record its ${names} (${count})`;
  });
  return (
    `${metric}: ${parts.join("; ")}: it was written by an older evalframe, which may have asked with older prompts, ` +
    `so part of the change may come from them, not from the answers; score both runs with this version to compare the answers alone`
  );
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
  const read = scoringReader(definitionOfColumn(metric), table);
  const counts = new Map<string, { scoring: Record<string, string>; rows: number }>();
  for (let row = 0; row < table.rowCount; row++) {
    const { key, scoring } = read(row);
    if (scoring.length === 0) continue;
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
