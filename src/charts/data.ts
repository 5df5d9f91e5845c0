/** Reading scored and summarized frames for charts: typed columns, groups, counts. */
import { getColumn, PROTOTYPE_NAMES, tableRows, type Table } from "../dataset/table";
import { pairingColumn, repeatedPairs } from "../analysis/compare";
import { readTable, requireColumn } from "../analysis/summarize";
import type { FrameInput } from "../dataset/frame-like";
import { cellNumber, cellString, DEFAULT_BY, keyText } from "../dataset/column-toolkit";

/**
 * What chart builders accept: the analysis functions' input (a DataFrame, row objects, or a typed table).
 *
 * @deprecated The same as {@link FrameInput}; use that name.
 */
export type ChartInput = FrameInput;

/** The typed table behind a chart's input. */
export function chartTable(data: FrameInput, caller: string): Table {
  return readTable(data, caller);
}

/** A number column read as the column toolkit's `cellNumber` reads cells (true/false as 1/0, NaN where missing), or an error naming the columns there are. */
export function numberColumn(table: Table, name: string, caller: string): number[] {
  const column = getColumn(table, name);
  if (!column) {
    throw new Error(`${caller}: no column "${name}"; the columns are ${table.columns.map((c) => `"${c.name}"`).join(", ")}`);
  }
  return column.values.map((v) => cellNumber(v));
}


/**
 * A category as a chart may hold it. Vega looks some values up in plain
 * objects: a sort order or colour domain holding "constructor" or
 * "toString" fails to render ("Operator not defined"). Such a name gets an
 * invisible zero-width space at its end, so it reads the same on the chart.
 * (Control characters are made visible later, in every string of the spec:
 * see `chartText` and `finishSpec`.)
 *
 * @example
 * chartCategory("gpt-4o") // "gpt-4o"
 * chartCategory("constructor") // "constructor\u200b"
 */
export function chartCategory(value: string): string {
  return PROTOTYPE_NAMES.has(value) ? `${value}\u200b` : value;
}

/** A text column of categories ("" where missing; see {@link chartCategory}); absent columns give "" for every row. */
export function textColumn(table: Table, name: string): string[] {
  const column = getColumn(table, name);
  return Array.from({ length: table.rowCount }, (_, i) => chartCategory(cellString(column?.values[i])));
}

/**
 * The rows a chart that pairs models compares: those with a model in column
 * `by`, as `compareModels` reads it (a missing cell, NaN or "" is no model,
 * and such a row is left out without a word, as there). A table without the
 * column is kept whole (one group, see {@link groupColumn}).
 *
 * @example
 * rowsWithModel(table, "model").rowCount // the rows whose model is not empty
 */
export function rowsWithModel(table: Table, by: string): Table {
  const column = getColumn(table, by);
  if (column === undefined) return table;
  const kept: number[] = [];
  for (let i = 0; i < table.rowCount; i++) if (keyText(column.values[i]) !== undefined) kept.push(i);
  return kept.length === table.rowCount ? table : tableRows(table, kept);
}

/**
 * The group (model) of each row as a chart names it: a row with no value
 * there is "(no model)" (as the headline names it), and a table without the
 * column is one group, "all answers", rather than a bar or panel with no name.
 *
 * @example
 * groupLabels(table, "model") // ["atlas-pro", "(no model)", …]
 */
export function groupLabels(table: Table, by: string): string[] {
  const missing = getColumn(table, by) === undefined ? "all answers" : `(no ${by})`;
  return textColumn(table, by).map((v) => (v === "" ? missing : v));
}

/**
 * The column a chart groups its rows by (its models): `by` when given, else
 * `model` ({@link DEFAULT_BY}). A `by` given that the table lacks is an error
 * naming the columns there are (a misspelt `--by modle` would otherwise draw
 * every row as one group named ""); a table without the default `model`
 * column is drawn as one group, as {@link textColumn} reads an absent column.
 */
export function groupColumn(table: Table, by: string | undefined, caller: string): string {
  if (by === undefined) return DEFAULT_BY;
  if (getColumn(table, by) === undefined) {
    const columns = table.columns.length === 0 ? "(none)" : table.columns.map((c) => c.name).join(", ");
    throw new Error(`${caller}: no by column "${by}" to group the rows by; the columns are: ${columns}; give by one of them, or leave it out to group by "${DEFAULT_BY}"`);
  }
  return by;
}

/**
 * The group with the highest mean of its valid (finite) scores, the first
 * such group on ties, with that mean; undefined when no group has a valid
 * score. `keys` names each row's group, as the caller names groups.
 *
 * @example
 * bestGroup(["a", "a", "b"], [0.2, 0.4, 0.9]) // { name: "b", mean: 0.9 }
 */
export function bestGroup(keys: readonly string[], scores: readonly number[]): { name: string; mean: number } | undefined {
  const sums = new Map<string, [number, number]>();
  keys.forEach((key, i) => {
    const s = scores[i]!;
    if (!Number.isFinite(s)) return;
    const entry = sums.get(key) ?? [0, 0];
    entry[0] += s;
    entry[1]++;
    sums.set(key, entry);
  });
  let best: { name: string; mean: number } | undefined;
  for (const [name, [sum, n]] of sums) if (best === undefined || sum / n > best.mean) best = { name, mean: sum / n };
  return best;
}

/** Row indices per key (one key per row), groups in order of first appearance (from the column toolkit). */
export { groupByKey } from "../dataset/column-toolkit";

/**
 * "no valid score: a, b" for the groups a chart cannot draw because every
 * row of theirs failed (they would otherwise be missing without a word, or
 * only in the legend); at most 3 named, the rest counted. Undefined when none.
 */
export function unscoredNote(groups: readonly string[]): string | undefined {
  if (groups.length === 0) return undefined;
  const named = groups.slice(0, 3).join(", ");
  return `no valid score: ${named}${groups.length > 3 ? ` and ${groups.length - 3} more` : ""}`;
}

/** "12 failed rows left out" style note, or undefined when none failed. */
export function excludedNote(failed: number): string | undefined {
  return failed > 0 ? `${failed.toLocaleString("en-US")} failed row${failed === 1 ? "" : "s"} (NaN) left out` : undefined;
}

/**
 * The pairing column, once no model answers a question twice in it (else the
 * error `compareModels` gives): a chart would otherwise draw one of the
 * answers, unlike the summary, which counts the first and fails the others.
 */
function refuseRepeats(table: Table, by: string, pairBy: string, caller: string): string {
  const models = textColumn(table, by);
  const ids = textColumn(table, pairBy);
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (let i = 0; i < table.rowCount; i++) {
    if (ids[i] === "") continue;
    const key = JSON.stringify([ids[i], models[i]]);
    if (seen.has(key)) repeated.add(`(${JSON.stringify(ids[i])}, ${JSON.stringify(models[i])})`);
    else seen.add(key);
  }
  if (repeated.size > 0) throw new Error(repeatedPairs(caller, [...repeated], pairBy, by));
  return pairBy;
}

/**
 * The column that pairs a chart's answers to the same question: `pairBy`
 * when given (an error naming the columns when the table lacks it), else
 * `id`, else the question text when each model answers each question once,
 * as `compareModels` pairs them; else an error saying how to pair them.
 */
export function pairingOf(table: Table, by: string, pairBy: string | undefined, caller: string): string {
  if (pairBy !== undefined) return (requireColumn(table, pairBy, caller, "pairBy"), refuseRepeats(table, by, pairBy, caller));
  const found = pairingColumn(table, by);
  if (found !== undefined) return refuseRepeats(table, by, found, caller);
  const why = getColumn(table, "user_input") === undefined ? 'no "id" column and no question column (user_input)' : `no "id" column, and a model in "${by}" answers the same question text more than once`;
  throw new Error(`${caller}: cannot tell which answers are to the same question: there is ${why}; give pairBy, the column that names each question`);
}

/**
 * `compute()` (an analysis a chart makes of its table itself), its errors in
 * the chart's words: a message that starts with the analysis's name
 * (`summarize: …`) starts with the chart's (`meanWithCI: …`), since the
 * user called the chart.
 *
 * @example
 * const table = inChartWords("winTieLoss", "compareModels", () => compareModels(data));
 */
export function inChartWords<T>(caller: string, analysis: string, compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(`${analysis}: `)) error.message = `${caller}: ${error.message.slice(analysis.length + 2)}`;
    throw error;
  }
}
