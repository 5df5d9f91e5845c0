/**
 * Row-level agreement of a judge with labels: Spearman, mean absolute error
 * and bias of scores, model rankings, the largest disagreements, and the
 * accuracy and kappa of 0/1 relevance.
 */
import type { DataFrame } from "danfojs-node";
import type { Cell } from "../dataset/table";
import { agreement } from "./agreement";
import { spearman } from "../stats/agreement";
import { averageRanks, nanMean } from "../stats/descriptive";
import { column, frameOf } from "./summarize";
import { roundDifferences } from "../stats/paired-tests";

/**
 * Scores as they are ranked and compared here: to 12 significant digits.
 * The same F1 reached from other counts differs in its last bits (2/3 is
 * 0.6666666666666666 from 1 TP and 1 FN, 0.6666666666666667 from 3 TP, 1
 * FP, 2 FN): compared raw, two answers the labels score alike would count
 * as a pair the labels order, and a tie of the judge as an order.
 */
function asCompared(values: readonly number[]): number[] {
  const rounded = roundDifferences(values);
  return values.map((v, i) => (Number.isFinite(v) ? rounded[i]! : v)); // NaN stays missing, not 0
}

/** One matched row: the judge's value and the label's. */
export interface ScorePair {
  row: number;
  id: string | undefined;
  /** The row's model ("" when the table has none). */
  model: string;
  question: string;
  response: string;
  judge: number;
  label: number;
  /** The statements whose verdicts differ (answer correctness with statement labels), else "". */
  statements: string;
}

/** Name of the overall row in per-model tables. */
export const ALL_MODELS = "(all)";

function models(pairs: readonly ScorePair[]): string[] {
  return [...new Set(pairs.map((p) => p.model))];
}

/** `(all)` then each model's pairs; no per-model group when the table has no model column (it would repeat `(all)` under a blank name). */
function modelGroups(pairs: readonly ScorePair[]): [string, readonly ScorePair[]][] {
  const names = models(pairs);
  const perModel = names.length === 1 && names[0] === "" ? [] : names.map((m): [string, ScorePair[]] => [m, pairs.filter((p) => p.model === m)]);
  return [[ALL_MODELS, pairs], ...perModel];
}

/**
 * A mean difference of scores in [0, 1] that is 0 but for float noise
 * (1 − 0.8 − 0.2 = −5.6e-17) is 0: printed as "<0.001" it would read as a bias.
 */
function withoutFloatNoise(x: number): number {
  return Math.abs(x) < 1e-12 ? 0 : x;
}

/**
 * Per target: `(all)` then each model (in order of first appearance), with n,
 * Spearman, MAE, bias, the number of rows the labels score 0, and the share
 * of those the judge scores 0.5 or more.
 */
export function scoreAgreementRows(
  target: string,
  judgeColumn: string,
  labelColumn: string,
  pairs: readonly ScorePair[],
  out: Record<string, Cell[]>,
): void {
  for (const [model, group] of modelGroups(pairs)) {
    out["target"]!.push(target);
    out["judge_column"]!.push(judgeColumn);
    out["label_column"]!.push(labelColumn);
    out["model"]!.push(model);
    out["n"]!.push(group.length);
    out["spearman"]!.push(spearman(asCompared(group.map((p) => p.judge)), asCompared(group.map((p) => p.label))));
    out["mae"]!.push(group.length === 0 ? Number.NaN : nanMean(group.map((p) => Math.abs(p.judge - p.label))));
    out["bias"]!.push(group.length === 0 ? Number.NaN : withoutFloatNoise(nanMean(group.map((p) => p.judge - p.label))));
    // Plainly wrong answers (label 0) that the judge scores 0.5 or more: the mistakes a reader notices first.
    const wrong = group.filter((p) => p.label === 0);
    out["n_label_zero"]!.push(wrong.length);
    out["high_on_label_zero"]!.push(wrong.length === 0 ? Number.NaN : wrong.filter((p) => p.judge >= 0.5).length / wrong.length);
  }
}

/** The columns of the row-agreement table, in order. */
export const ROW_AGREEMENT_COLUMNS = [
  "target",
  "judge_column",
  "label_column",
  "model",
  "n",
  "spearman",
  "mae",
  "bias",
  "n_label_zero",
  "high_on_label_zero",
] as const;

/** Columns of these tables that hold text; the rest are numbers. */
const TEXT_COLUMNS = new Set(["target", "judge_column", "label_column", "model"]);

/** One empty list of cells per column. */
function emptyCells(columns: readonly string[]): Record<string, Cell[]> {
  return Object.fromEntries(columns.map((name) => [name, []]));
}

/** A table of the given columns from cells filled row by row. */
function cellsFrame(columns: readonly string[], cells: Record<string, Cell[]>): DataFrame {
  return frameOf(
    columns.map((name) => column(name, TEXT_COLUMNS.has(name) ? "string" : "number", cells[name] ?? [])),
    cells["target"]?.length ?? 0,
  );
}

/** The row-agreement table from the cells {@link scoreAgreementRows} filled. */
export function rowAgreementFrame(cells: Record<string, Cell[]>): DataFrame {
  return cellsFrame(ROW_AGREEMENT_COLUMNS, cells);
}

/** Empty cells for {@link scoreAgreementRows}. */
export function emptyRowAgreementCells(): Record<string, Cell[]> {
  return emptyCells(ROW_AGREEMENT_COLUMNS);
}

/** The columns of the answer-order table, in order. */
export const ANSWER_ORDER_COLUMNS = ["target", "judge_column", "label_column", "n_questions", "n_pairs", "ordered", "tied", "reversed", "share_ordered"] as const;

/**
 * Per target, how often the judge puts the better of two answers to the same
 * question above the worse one: every pair of matched rows with the same
 * question (its id, else its text) whose label values differ is ordered
 * (the judge's values differ the same way), tied, or reversed;
 * `share_ordered` is ordered / pairs. This is the comparison a user makes
 * when two models answer one question, so it can fail where Spearman over
 * the whole table passes (a judge that tells easy questions from hard ones).
 */
export function answerOrderRow(target: string, judgeColumn: string, labelColumn: string, pairs: readonly ScorePair[], out: Record<string, Cell[]>): void {
  const byQuestion = new Map<string, ScorePair[]>();
  const judged = asCompared(pairs.map((p) => p.judge));
  const labelled = asCompared(pairs.map((p) => p.label));
  for (const p of pairs.map((p, i) => ({ ...p, judge: judged[i]!, label: labelled[i]! }))) {
    const key = p.id !== undefined ? `id\u0000${p.id}` : `text\u0000${p.question}`;
    const group = byQuestion.get(key);
    if (group === undefined) byQuestion.set(key, [p]);
    else group.push(p);
  }
  let questions = 0;
  let ordered = 0;
  let tied = 0;
  let reversed = 0;
  for (const group of byQuestion.values()) {
    let counted = false;
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        if (a.label === b.label) continue;
        counted = true;
        const judged = Math.sign(a.judge - b.judge);
        if (judged === 0) tied++;
        else if (judged === Math.sign(a.label - b.label)) ordered++;
        else reversed++;
      }
    }
    if (counted) questions++;
  }
  const n = ordered + tied + reversed;
  const row: Record<(typeof ANSWER_ORDER_COLUMNS)[number], Cell> = {
    target,
    judge_column: judgeColumn,
    label_column: labelColumn,
    n_questions: questions,
    n_pairs: n,
    ordered,
    tied,
    reversed,
    share_ordered: n === 0 ? Number.NaN : ordered / n,
  };
  for (const name of ANSWER_ORDER_COLUMNS) out[name]!.push(row[name]);
}

/** The answer-order table from the cells {@link answerOrderRow} filled. */
export function answerOrderFrame(cells: Record<string, Cell[]>): DataFrame {
  return cellsFrame(ANSWER_ORDER_COLUMNS, cells);
}

/** Empty cells for {@link answerOrderRow}. */
export function emptyAnswerOrderCells(): Record<string, Cell[]> {
  return emptyCells(ANSWER_ORDER_COLUMNS);
}

/** Ranks by mean, 1 for the highest; tied means share the average of their ranks. */
function ranksOf(means: readonly number[]): number[] {
  return Array.from(averageRanks(means.map((m) => -m)));
}

/**
 * Each model's mean under the judge and under the labels (over the same
 * rows) with its rank on each side (1 = best, ties share the average rank),
 * and whether the two orders agree (every model has the same rank on both
 * sides).
 */
export function modelRanking(pairs: readonly ScorePair[]): { table: DataFrame; agrees: boolean } {
  const names = models(pairs);
  const judgeMeans = names.map((m) => nanMean(pairs.filter((p) => p.model === m).map((p) => p.judge)));
  const labelMeans = names.map((m) => nanMean(pairs.filter((p) => p.model === m).map((p) => p.label)));
  const judgeRanks = ranksOf(asCompared(judgeMeans));
  const labelRanks = ranksOf(asCompared(labelMeans));
  const table = frameOf(
    [
      column("model", "string", names),
      column("n", "number", names.map((m) => pairs.filter((p) => p.model === m).length)),
      column("judge_mean", "number", judgeMeans),
      column("label_mean", "number", labelMeans),
      column("judge_rank", "number", judgeRanks),
      column("label_rank", "number", labelRanks),
    ],
    names.length,
  );
  return { table, agrees: judgeRanks.every((r, i) => r === labelRanks[i]) };
}

/**
 * The `top` rows where judge and label differ most (by |judge − label|;
 * ties in table order): id, model, question, response, the two values, the
 * difference (judge − label) and the statements whose verdicts differ.
 */
export function largestDisagreements(pairs: readonly ScorePair[], top: number): DataFrame {
  const chosen = [...pairs]
    .sort((a, b) => Math.abs(b.judge - b.label) - Math.abs(a.judge - a.label) || a.row - b.row)
    .slice(0, Math.min(pairs.length, top));
  return frameOf(
    [
      column("id", "string", chosen.map((p) => p.id ?? null)),
      column("model", "string", chosen.map((p) => p.model)),
      column("user_input", "string", chosen.map((p) => p.question)),
      column("response", "string", chosen.map((p) => p.response)),
      column("judge", "number", chosen.map((p) => p.judge)),
      column("label", "number", chosen.map((p) => p.label)),
      column("difference", "number", chosen.map((p) => p.judge - p.label)),
      column("statements", "string", chosen.map((p) => p.statements)),
    ],
    chosen.length,
  );
}

/**
 * Agreement of a 0/1 judge score with 0/1 labels: `(all)` then each model,
 * with n, agreeing pairs, accuracy and Cohen's kappa (NaN when undefined).
 */
export function binaryAgreement(pairs: readonly ScorePair[]): DataFrame {
  const groups = modelGroups(pairs);
  const agree = (g: readonly ScorePair[]) => g.filter((p) => p.judge === p.label).length;
  return frameOf(
    [
      column("model", "string", groups.map(([m]) => m)),
      column("n", "number", groups.map(([, g]) => g.length)),
      column("n_agree", "number", groups.map(([, g]) => agree(g))),
      column("accuracy", "number", groups.map(([, g]) => (g.length === 0 ? Number.NaN : agree(g) / g.length))),
      column("kappa", "number", groups.map(([, g]) => (g.length === 0 ? Number.NaN : agreement(g.map((p) => p.judge), g.map((p) => p.label)).value))),
    ],
    groups.length,
  );
}
