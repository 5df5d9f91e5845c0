/**
 * Drill-down tables: the questions where models disagree most, and the
 * lowest-scoring answers.
 */
import type { DataFrame } from "danfojs-node";
import { cellString, DEFAULT_BY, DEFAULT_PAIR_BY, groupRows, keyText, type PairOptions } from "../dataset/column-toolkit";
import { getColumn, tableRows, type TableColumn } from "../dataset/table";
import { isDataFrame } from "../dataset/frame-like";
import { asList, column, frameOf, metricScores, readTable, requireColumn, type FrameInput } from "./summarize";
import { repeatedPairs } from "./compare";

/** Options of {@link disagreements}. */
export interface DisagreementsOptions extends PairOptions {
  /** Score column (default "answer_correctness"). */
  metric?: string;
  /** How many questions to return (default 10; Infinity for all). */
  top?: number;
}

const collator = new Intl.Collator("en", { numeric: true });

function checkCount(value: number, name: string, caller: string): void {
  if (!(value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 0))) {
    throw new RangeError(`${caller}: ${name} must be a whole number ≥ 0 (or Infinity), got ${value}`);
  }
}

interface Question {
  id: string;
  first: number;
  /** Row of each model's answer. */
  rows: Map<string, number>;
}

/**
 * The questions on which the models differ most: one row per question with
 * its id (column named as `pairBy`, default `id`), `user_input`, `spread` (max − min of the models' valid scores;
 * NaN, and sorted last, when fewer than two models scored it), then for each
 * model (in order of first appearance) its score in a column named after the
 * model (NaN when its row failed or is missing) and its answer in
 * `<model>_response`. Sorted by spread, largest first; ties by id.
 *
 * @example
 * showTable(disagreements(scored));                    // the 10 most disputed questions
 * disagreements(scored, { top: 3, metric: "multimodal_relevance" }).print();
 *
 * @throws {Error} when a column is missing, or a (pairBy, model) pair occurs twice.
 */
export function disagreements(scored: FrameInput, options: DisagreementsOptions = {}): DataFrame {
  const caller = "disagreements";
  const metric = options.metric ?? "answer_correctness";
  const by = options.by ?? DEFAULT_BY;
  const pairBy = options.pairBy ?? DEFAULT_PAIR_BY;
  const top = options.top ?? 10;
  checkCount(top, "top", caller);
  const table = readTable(scored, caller);
  const scores = metricScores(table, metric, caller);
  const modelColumn = requireColumn(table, by, caller, "model");
  const idColumn = requireColumn(table, pairBy, caller, "question id");
  const questionColumn = getColumn(table, "user_input");
  const responseColumn = getColumn(table, "response");

  const models: string[] = [];
  const seenModels = new Set<string>();
  const questions = new Map<string, Question>();
  const duplicates = new Set<string>();
  for (let i = 0; i < table.rowCount; i++) {
    const model = keyText(modelColumn.values[i]);
    const id = keyText(idColumn.values[i]);
    if (model === undefined || id === undefined) continue;
    if (!seenModels.has(model)) {
      seenModels.add(model);
      models.push(model);
    }
    let q = questions.get(id);
    if (q === undefined) {
      q = { id, first: i, rows: new Map() };
      questions.set(id, q);
    }
    if (q.rows.has(model)) duplicates.add(`(${JSON.stringify(id)}, ${JSON.stringify(model)})`);
    else q.rows.set(model, i);
  }
  if (duplicates.size > 0) throw new Error(repeatedPairs(caller, [...duplicates], pairBy, by));

  const fixed = [pairBy, ...(questionColumn ? ["user_input"] : []), "spread"];
  const names = new Set(fixed);
  for (const m of models) {
    for (const name of responseColumn ? [m, `${m}_response`] : [m]) {
      if (names.has(name)) throw new Error(`${caller}: model "${m}" would make a second column "${name}"; rename the model`);
      names.add(name);
    }
  }

  const ranked = [...questions.values()].map((q) => {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let valid = 0;
    for (const row of q.rows.values()) {
      const v = scores[row]!;
      if (Number.isNaN(v)) continue;
      valid++;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    return { q, spread: valid >= 2 ? hi - lo : Number.NaN };
  });
  ranked.sort((x, y) => {
    const nx = Number.isNaN(x.spread);
    const ny = Number.isNaN(y.spread);
    if (nx !== ny) return nx ? 1 : -1;
    if (!nx && x.spread !== y.spread) return y.spread - x.spread;
    return collator.compare(x.q.id, y.q.id) || (x.q.id < y.q.id ? -1 : x.q.id > y.q.id ? 1 : 0);
  });
  const chosen = ranked.slice(0, Math.min(ranked.length, top));

  const columns: TableColumn[] = [column(pairBy, "string", chosen.map((r) => r.q.id))];
  if (questionColumn) columns.push(column("user_input", "string", chosen.map((r) => cellString(questionColumn.values[r.q.first], { missing: null }))));
  columns.push(column("spread", "number", chosen.map((r) => r.spread)));
  for (const m of models) {
    columns.push(
      column(
        m,
        "number",
        chosen.map((r) => {
          const row = r.q.rows.get(m);
          return row === undefined ? Number.NaN : scores[row]!;
        }),
      ),
    );
    if (responseColumn) {
      columns.push(
        column(
          `${m}_response`,
          "string",
          chosen.map((r) => {
            const row = r.q.rows.get(m);
            return row === undefined ? null : cellString(responseColumn.values[row], { missing: null });
          }),
        ),
      );
    }
  }
  return frameOf(columns, chosen.length);
}

/** Options of {@link worst}. */
export interface WorstOptions {
  /** Score column (default "answer_correctness"). */
  metric?: string;
  /** How many rows (per group with `by`; default 10; Infinity for all). */
  n?: number;
  /** Column(s) to group by: the n worst rows of each group, groups in order of first appearance. */
  by?: string | readonly string[];
}

/**
 * The lowest-scoring rows, all columns kept, lowest first (ties in row
 * order). Failed rows (NaN score or a non-empty `<metric>_error`) are left
 * out: they have no score to rank. With `by`, the n worst rows of each group.
 * Each row keeps its label (the given DataFrame's index label, else its row
 * number) as the result's index, so `scored.loc({ rows: worst(scored).index })`
 * finds the rows again.
 *
 * @example
 * showTable(worst(scored, { n: 5 }));                 // the five worst answers overall
 * showTable(worst(scored, { n: 3, by: "model" }));    // the three worst of each model
 *
 * @throws {Error} when the metric or a group column does not exist.
 */
export function worst(scored: FrameInput, options: WorstOptions = {}): DataFrame {
  const caller = "worst";
  const metric = options.metric ?? "answer_correctness";
  const n = options.n ?? 10;
  checkCount(n, "n", caller);
  const table = readTable(scored, caller);
  const scores = metricScores(table, metric, caller);
  const by = asList(options.by).map((name) => requireColumn(table, name, caller, "group"));
  const groups = groupRows(table, by);
  const picked: number[] = [];
  for (const rows of groups.rows) {
    const valid = rows.filter((i) => !Number.isNaN(scores[i]!));
    valid.sort((i, j) => scores[i]! - scores[j]! || i - j);
    for (const i of valid.slice(0, Math.min(valid.length, n))) picked.push(i);
  }
  const out = frameOf(tableRows(table, picked).columns, picked.length);
  // Each row keeps its label from the frame given (a DataFrame's index; else its row number), to find it there again.
  const labels = isDataFrame(scored) ? picked.map((i) => scored.index[i]!) : picked;
  if (labels.some((label, k) => label !== k)) out.setIndex({ index: labels, inplace: true });
  return out;
}
