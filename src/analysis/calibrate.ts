/**
 * `calibrate`: how far a judge can be trusted, measured against hand labels
 * (docs/labelling.md) or a plain human score column — statement by
 * statement, row by row, in the ranking of models, and for 0/1 relevance.
 */
import { FixableError } from "../dataset/fix-hint";
import type { DataFrame } from "danfojs-node";
import type { Records } from "../dataset/raw";
import { getColumn, rowAt, type Table } from "../dataset/table";
import { isTable } from "../dataset/frame-like";
import { readLabels } from "../labels/read";
import { labelFactual } from "../metrics/answer-correctness/label-score";
import type { AnswerCorrectnessLabel, LabelSource, MultimodalLabel } from "../labels/types";
import { DETAILS_COLUMN, parseDetails, type AnswerCorrectnessDetails } from "../metrics/answer-correctness/details";
import { assertBeta } from "../metrics/math";
import { isDataFrame } from "../frame/dataframe";
import { ALIGN_THRESHOLD } from "./align";
import { matchLabels, type LabelKeys, type MatchResult } from "./calibrate-match";
import {
  answerOrderFrame,
  answerOrderRow,
  binaryAgreement,
  emptyAnswerOrderCells,
  emptyRowAgreementCells,
  largestDisagreements,
  modelRanking,
  rowAgreementFrame,
  scoreAgreementRows,
  type ScorePair,
} from "./calibrate-rows";
import { compareStatements, differingStatements, statementAgreementTable, type StatementComparison } from "./calibrate-statements";
import { column, frameOf, metricScores, readTable, requireColumn, type FrameInput } from "./summarize";
import { keyText, textAt } from "../dataset/column-toolkit";

/** Labels for {@link calibrate}: hand-label files or objects, or (with `labelScore`) a table with a human score column. */
export type CalibrationLabels = LabelSource | FrameInput;

/** Options of {@link calibrate}. */
export interface CalibrateOptions {
  /**
   * The labels are a table (DataFrame or row objects) with a plain human
   * score in this column (0–1, or 0/1), one per row, matched to the scored
   * rows by id/user_input and model; the judge's final score is compared with it.
   */
  labelScore?: string;
  /** Rows in the disagreement table (default 10; Infinity for all). */
  top?: number;
  /** Word overlap at or above which two different statements align (default {@link ALIGN_THRESHOLD}, 0.5). */
  alignThreshold?: number;
}

/** What {@link calibrate} returns: the tables (DataFrames, for `showTable`) and a few facts. */
export interface CalibrationReport {
  /** "statements" for hand-label files or objects, "score" for a human score column. */
  labels: "statements" | "score";
  /** How rows were matched: by (id, model), or by (user_input, model). */
  matchedBy: "id" | "user_input";
  /** F-beta's beta of the labels' factual score: the run's (from the details column), else 1. */
  beta: number;
  /** Word overlap at or above which statements aligned. */
  alignThreshold: number;
  /**
   * Per kind of label: labels, matched rows, stale labels, scored rows without a label, labels without a row,
   * and matched rows the judge failed to score (`judge_failed`: left out of every comparison).
   */
  coverage: DataFrame;
  /** Statement agreement per side (answer-correctness labels only). */
  statements: DataFrame | undefined;
  /** Row agreement of the factual part and of the final score: n, Spearman, MAE, bias, overall and per model. */
  rows: DataFrame | undefined;
  /**
   * Per target (factual, score): of the pairs of answers to the same question
   * that the labels score differently, how many the judge orders the same way
   * (`ordered`), scores equal (`tied`) or the other way round (`reversed`).
   */
  answerOrder: DataFrame | undefined;
  /** Per model mean and rank under the judge and under the labels. */
  ranking: DataFrame | undefined;
  /** Whether the judge orders the models as the labels do; undefined when fewer than two models were compared (no order to agree on). */
  rankingAgrees: boolean | undefined;
  /** The rows where judge and labels differ most. */
  disagreements: DataFrame | undefined;
  /** Agreement of multimodal_relevance with the labelled relevance, overall and per model. */
  relevance: DataFrame | undefined;
  /** Labels left out because their row's text changed: id, model, user_input, kind, field, where. */
  stale: DataFrame;
  /**
   * Per kind of label, the scored rows no label matched and the labels that
   * matched no row (counted in `coverage`): how many, the first
   * {@link UNMATCHED_SHOWN} of each and how many more, so that a mistyped id
   * or model can be found.
   */
  unmatched: Unmatched[];
}

/** How many unlabelled rows and unused labels {@link calibrate} names, of each kind. */
export const UNMATCHED_SHOWN = 5;

/** A scored row without a label, or a label without a scored row: its keys, and where it is. */
export interface UnmatchedItem {
  id: string | null;
  model: string | null;
  /** The question, when rows were matched by it (else null). */
  user_input: string | null;
  /** "row 4 (line 6)" of the scored table, or the label's place ("labels.jsonl, line 3", "label row 2 (line 4)"). */
  where: string;
}

/** The first few of a list of unmatched rows or labels, and how many there are. */
export interface UnmatchedList {
  count: number;
  first: UnmatchedItem[];
  /** count − first.length. */
  more: number;
}

/** One kind of label's unmatched rows and labels. */
export interface Unmatched {
  kind: string;
  /** Scored rows no label matched. */
  unlabelledRows: UnmatchedList;
  /** Labels that matched no scored row. */
  unusedLabels: UnmatchedList;
  /** Labelled rows the judge failed to score: counted in coverage's `judge_failed` and left out of every comparison. */
  judgeFailed: UnmatchedList;
  /** When some unused labels match a row but for case, spaces or leading zeros (a spreadsheet's doing): what to fix; else undefined. */
  hint?: string;
}

interface ScoreLabel extends LabelKeys {
  score: number;
}

interface Side<L extends LabelKeys> {
  kind: string;
  labels: number;
  match: MatchResult<L>;
  /** Matched rows the judge failed to score (no score): left out of every comparison. */
  failed: number[];
}

/** The matched rows whose score is missing (the judge failed on them), in table order. */
function failedRows(matched: readonly { row: number }[], scores: ArrayLike<number>): number[] {
  return matched.filter((m) => Number.isNaN(scores[m.row]!)).map((m) => m.row);
}

const caller = "calibrate";

function checkTop(top: number): void {
  if (!(top === Number.POSITIVE_INFINITY || (Number.isInteger(top) && top >= 0))) {
    throw new RangeError(`${caller}: top must be a whole number ≥ 0 (or Infinity), got ${top}`);
  }
}

function isFrameInput(value: unknown): value is DataFrame | Records {
  return isDataFrame(value) || (Array.isArray(value) && value.length > 0 && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v)));
}

/** What a grade written as text probably means, and how to write it (", write 0.8"), or "". */
function gradeAdvice(value: unknown): string {
  if (typeof value !== "string") return "";
  const v = value.trim();
  const comma = /^[-+]?\d*,\d+$/.exec(v);
  if (comma) return `: write decimals with a point, ${v.replace(",", ".")}`;
  const percent = /^([-+]?\d+(?:[.,]\d+)?)\s*%$/.exec(v);
  if (percent) return `: write a percentage as a share of 1, ${Number(percent[1]!.replace(",", ".")) / 100}`;
  if (/^(true|false)$/i.test(v)) return ": the column mixes true/false with other grades; write them all as 1 and 0";
  if (/^(yes|no|y|n|pass|fail|ok|correct|incorrect|✓|✔|✗|✘|x)$/i.test(v)) return ": write a yes (pass, ✓) as 1 and a no (fail, ✗) as 0";
  return "";
}

/** For grades on another scale (1–5, 0–10, 0–100): how to bring them to 0–1 (the scale is the user's to say, so it is not guessed). */
function scaleAdvice(values: readonly unknown[]): string {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min < 0 || !(max > 1)) return "";
  const scale = max <= 5 && Number.isInteger(max) ? `1–5 grades: (grade − 1) / 4` : max <= 10 ? "0–10 grades: grade / 10" : max <= 100 ? "percentages: grade / 100" : "";
  return scale === "" ? "" : ` (for ${scale}, in a new column)`;
}

/** Human scores from a table: id/model/user_input/response keys and a 0–1 score per row. */
function scoreLabels(data: CalibrationLabels, name: string): ScoreLabel[] {
  if (!isFrameInput(data) && !isTable(data)) {
    const file = typeof data === "string" ? JSON.stringify(data) : "FILE";
    throw new TypeError(`${caller}: with labelScore, labels must be a DataFrame, row objects or a table holding a "${name}" column; load a file first: calibrate(scored, await loadTable(${file}, { required: [] }), { labelScore: ${JSON.stringify(name)} })`);
  }
  const table = readTable(data, `${caller} (labels)`);
  const scores = requireColumn(table, name, `${caller} (labels)`, "label score");
  if (scores.type === "string") {
    // The cell to blame: the first that is no number (a valid grade read as text because of it is not).
    const isText = (v: unknown) => typeof v === "string" && v.trim() !== "" && Number.isNaN(Number(v.trim()));
    const first = scores.values.findIndex(isText);
    throw new TypeError(
      `${caller}: label column "${name}" holds text${first >= 0 ? ` (label ${rowAt(table, first)} is ${JSON.stringify(scores.values[first])}, not a number${gradeAdvice(scores.values[first])})` : ""}; ` +
        "give every grade as a number from 0 to 1, or every grade as true/false",
    );
  }
  const text = (c: string) => getColumn(table, c);
  const [id, model, question, response] = ["id", "model", "user_input", "response"].map(text);
  if (id === undefined && question === undefined) {
    throw new Error(`${caller}: the label table needs an id or a user_input column to find each label's row; the columns are: ${table.columns.map((c) => c.name).join(", ")}`);
  }
  const out: ScoreLabel[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    const v = scores.values[i];
    const score = typeof v === "boolean" ? (v ? 1 : 0) : v;
    if (score === null || score === undefined || (typeof score === "number" && Number.isNaN(score)) || score === "") continue;
    if (typeof score !== "number" || !(score >= 0 && score <= 1)) {
      throw new RangeError(`${caller}: label ${rowAt(table, i)}, column "${name}": ${JSON.stringify(v)} is not a score from 0 to 1; give grades as 0–1 numbers or 0/1${scaleAdvice(scores.values)}`);
    }
    const cell = (c: typeof id) => (c ? keyText(c.values[i] ?? null) : undefined);
    const str = (c: typeof id) => (c && typeof c.values[i] === "string" ? (c.values[i] as string) : undefined);
    out.push({ id: cell(id), model: cell(model), user_input: str(question), response: str(response), where: `label ${rowAt(table, i)}`, score });
  }
  return out;
}

function keysOf(label: AnswerCorrectnessLabel | MultimodalLabel): LabelKeys {
  return {
    id: label.id,
    model: label.model,
    user_input: label.user_input,
    response: label.response,
    reference: label.kind === "answer_correctness" ? label.reference : undefined,
    where: label.origin.where,
  };
}

function pairBase(table: Table, row: number): Omit<ScorePair, "judge" | "label" | "statements"> {
  const id = getColumn(table, "id")?.values[row];
  const model = getColumn(table, "model")?.values[row];
  return {
    row,
    id: keyText(id ?? null),
    model: keyText(model ?? null) ?? "",
    question: textAt(table, "user_input", row),
    response: textAt(table, "response", row),
  };
}

/** The judge's final score column: the continuous score when a threshold made the other 0/1. */
function finalScoreColumn(table: Table): string {
  return getColumn(table, "answer_correctness_continuous") !== undefined ? "answer_correctness_continuous" : "answer_correctness";
}

function staleTable(sides: readonly Side<LabelKeys>[], table: Table): DataFrame {
  const rows = sides.flatMap((s) => s.match.stale.map((st) => ({ kind: s.kind, ...st })));
  return frameOf(
    [
      column("id", "string", rows.map((r) => r.label.id ?? null)),
      column("model", "string", rows.map((r) => r.label.model ?? null)),
      column("user_input", "string", rows.map((r) => textAt(table, "user_input", r.row) || (r.label.user_input ?? ""))),
      column("kind", "string", rows.map((r) => r.kind)),
      column("field", "string", rows.map((r) => r.field)),
      column("where", "string", rows.map((r) => r.label.where)),
    ],
    rows.length,
  );
}

/** The first {@link UNMATCHED_SHOWN} of `items`, and how many there are. */
function firstFew<T>(items: readonly T[], item: (x: T) => UnmatchedItem): UnmatchedList {
  const first = items.slice(0, UNMATCHED_SHOWN).map(item);
  return { count: items.length, first, more: items.length - first.length };
}

/** Each side's scored rows without a label and labels without a row, the first few of each named. */
function unmatchedLists(sides: readonly Side<LabelKeys>[], table: Table): Unmatched[] {
  return sides.map((s) => {
    const byText = s.match.by === "user_input";
    return {
      kind: s.kind,
      unlabelledRows: firstFew(s.match.unlabelled, (row) => {
        const base = pairBase(table, row);
        return { id: base.id ?? null, model: getColumn(table, "model") ? base.model : null, user_input: byText ? base.question : null, where: rowAt(table, row) };
      }),
      unusedLabels: firstFew(s.match.unused, (l) => ({ id: l.id ?? null, model: l.model ?? null, user_input: byText ? (l.user_input ?? null) : null, where: l.where })),
      judgeFailed: firstFew(s.failed, (row) => {
        const base = pairBase(table, row);
        return { id: base.id ?? null, model: getColumn(table, "model") ? base.model : null, user_input: byText ? base.question : null, where: rowAt(table, row) };
      }),
      ...(s.match.hint !== undefined ? { hint: s.match.hint } : {}),
    };
  });
}

function coverageTable(sides: readonly Side<LabelKeys>[]): DataFrame {
  return frameOf(
    [
      column("kind", "string", sides.map((s) => s.kind)),
      column("labels", "number", sides.map((s) => s.labels)),
      column("matched", "number", sides.map((s) => s.match.matched.length)),
      column("stale", "number", sides.map((s) => s.match.stale.length)),
      column("unlabelled_rows", "number", sides.map((s) => s.match.unlabelledRows)),
      column("unused_labels", "number", sides.map((s) => s.match.unusedLabels)),
      column("judge_failed", "number", sides.map((s) => s.failed.length)),
    ],
    sides.length,
  );
}

/**
 * Compares a scored table with hand labels and reports how well the judge
 * agrees with them. `labels` is a label file (docs/labelling.md), several
 * files, label objects or a `readLabels` result; or, with
 * `{ labelScore: "human_score" }`, a DataFrame or row objects with a plain
 * human score (0–1 or 0/1) per row.
 *
 * Rows are matched by (id, model) when the scored table has an `id` column
 * and every label an id, else by (user_input, model); labels that name no
 * model match a table of one model's answers. A label whose
 * response (or reference) text differs from its row's is stale: left out
 * and listed in `stale`. Matched rows the judge failed to score are counted
 * in coverage's `judge_failed` and left out of every comparison.
 *
 * - `statements`: per side (response TP/FP, reference covered/FN), the
 *   judge's statements (from `answer_correctness_statements`) are aligned
 *   with the label's — the same text directly, the rest greedily one to one
 *   by word overlap (Dice coefficient of their words) of at least
 *   `alignThreshold` (0.5) — and the verdicts of aligned pairs compared:
 *   n_label, n_judge, n_aligned, accuracy and Cohen's kappa.
 * - `rows`: `answer_correctness_factual` against the labels' F-beta (from the
 *   label counts, with the run's beta) or the human score, and the final score
 *   (`answer_correctness_continuous` if present, else `answer_correctness`)
 *   against the labels' F-beta or the human score: n, Spearman (ties get
 *   average ranks), mean absolute error and bias (mean judge − label),
 *   overall (`(all)`) and per model. Rows the judge failed are left out.
 * - `answerOrder`: per target, the pairs of answers to the same question
 *   (same id, else same text) whose label values differ, and how many of
 *   them the judge orders the same way, ties, or reverses; `share_ordered`
 *   is the share it puts the right way round: does the judge pick the better
 *   of two answers?
 * - `ranking`: per model mean of the final score and of the label value over
 *   the same rows, each with its rank (1 = best); `rankingAgrees` says
 *   whether the orders are the same.
 * - `disagreements`: the `top` rows with the largest |judge − label|, with
 *   the statements whose verdicts differ.
 * - `relevance`: `multimodal_relevance` against the labelled `relevant`
 *   (n, accuracy, kappa), overall and per model.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * const report = calibrate(scored, "data/qa-models.labels.jsonl");
 * showTable(report.statements);   // does the judge give the verdicts a reader gives?
 * showTable(report.rows);         // Spearman, MAE and bias per model
 * showTable(report.answerOrder);  // the better of two answers to a question scored higher?
 * showTable(report.ranking);      // report.rankingAgrees: the same order of models?
 * showTable(report.disagreements);
 * calibrate(scored, humanGrades, { labelScore: "human_score" });
 *
 * @throws {LabelFileError} for label files that cannot be used (file, line, field);
 *   {@link Error} when no label matches a row, or a column the comparison needs is missing.
 */
export function calibrate(scored: FrameInput, labels: CalibrationLabels, options: CalibrateOptions = {}): CalibrationReport {
  const top = options.top ?? 10;
  checkTop(top);
  const alignThreshold = options.alignThreshold ?? ALIGN_THRESHOLD;
  if (!Number.isFinite(alignThreshold) || alignThreshold < 0 || alignThreshold > 1) {
    throw new RangeError(`${caller}: alignThreshold must be between 0 and 1, got ${alignThreshold}`);
  }
  const table = readTable(scored, caller);
  const hasAnswerCorrectness = getColumn(table, "answer_correctness") !== undefined;
  const hasRelevance = getColumn(table, "multimodal_relevance") !== undefined;

  const sides: Side<LabelKeys>[] = [];
  const rowCells = emptyRowAgreementCells();
  const orderCells = emptyAnswerOrderCells();
  let scorePairs: ScorePair[] | undefined;
  let statementComparisons: StatementComparison[] | undefined;
  let relevancePairs: ScorePair[] | undefined;
  let beta = 1;

  if (options.labelScore !== undefined) {
    if (!hasAnswerCorrectness) {
      throw new Error(`${caller}: the scored table has no answer_correctness column to compare with "${options.labelScore}"; the columns are: ${table.columns.map((c) => c.name).join(", ")}`);
    }
    const human = scoreLabels(labels, options.labelScore);
    const match = matchLabels(table, human, caller);
    const side: Side<LabelKeys> = { kind: `score (${options.labelScore})`, labels: human.length, match, failed: [] };
    sides.push(side);
    // A human score of the answer's facts is compared with the factual part too, when the table has it.
    if (getColumn(table, "answer_correctness_factual") !== undefined) {
      const factual = metricScores(table, "answer_correctness_factual", caller);
      const pairs = match.matched.filter((m) => !Number.isNaN(factual[m.row]!)).map((m) => ({ ...pairBase(table, m.row), judge: factual[m.row]!, label: m.label.score, statements: "" }));
      scoreAgreementRows("factual", "answer_correctness_factual", options.labelScore, pairs, rowCells);
      answerOrderRow("factual", "answer_correctness_factual", options.labelScore, pairs, orderCells);
    }
    const finalColumn = finalScoreColumn(table);
    const judged = metricScores(table, finalColumn, caller);
    side.failed = failedRows(match.matched, judged);
    scorePairs = match.matched.filter((m) => !Number.isNaN(judged[m.row]!)).map((m) => ({ ...pairBase(table, m.row), judge: judged[m.row]!, label: m.label.score, statements: "" }));
    scoreAgreementRows("score", finalColumn, options.labelScore, scorePairs, rowCells);
    answerOrderRow("score", finalColumn, options.labelScore, scorePairs, orderCells);
  } else {
    if (isDataFrame(labels) || isTable(labels) || (isFrameInput(labels) && !labels.some((l) => ["response_statements", "reference_statements", "relevant"].some((k) => k in l)))) {
      throw new FixableError(`${caller}: these labels are a table without response_statements or relevant`, {
        api: 'for a column of human scores, name it: calibrate(scored, labels, { labelScore: "human_score" })',
        cli: "for a column of human scores, name it with --label-score COLUMN",
      });
    }
    const set = readLabels(labels as LabelSource);
    if (set.answerCorrectness.length > 0 && hasAnswerCorrectness) {
      const keyed = set.answerCorrectness.map((label) => ({ ...keysOf(label), label }));
      const match = matchLabels(table, keyed, caller);
      const side: Side<LabelKeys> = { kind: "answer_correctness", labels: keyed.length, match, failed: [] };
      sides.push(side);
      const detailsColumn = getColumn(table, DETAILS_COLUMN);
      const details = new Map<number, AnswerCorrectnessDetails>();
      for (const m of match.matched) {
        const d = parseDetails(detailsColumn?.values[m.row]);
        if (d !== undefined) details.set(m.row, d);
      }
      const firstDetails = [...details.values()][0];
      if (firstDetails !== undefined) beta = firstDetails.beta;
      assertBeta(beta);
      statementComparisons = [];
      const comparisons = new Map<number, StatementComparison>();
      for (const m of match.matched) {
        const d = details.get(m.row);
        if (d === undefined) continue;
        const c = compareStatements(m.label.label, d, alignThreshold);
        comparisons.set(m.row, c);
        statementComparisons.push(c);
      }
      const labelValue = (m: (typeof match.matched)[number]) => labelFactual(m.label.label, details.get(m.row)?.beta ?? beta);
      const labelName = beta === 1 ? "label_f1" : "label_fbeta";
      const factual = getColumn(table, "answer_correctness_factual") !== undefined ? metricScores(table, "answer_correctness_factual", caller) : undefined;
      if (factual !== undefined) {
        const pairs = match.matched
          .filter((m) => !Number.isNaN(factual[m.row]!))
          .map((m) => ({ ...pairBase(table, m.row), judge: factual[m.row]!, label: labelValue(m), statements: "" }));
        scoreAgreementRows("factual", "answer_correctness_factual", labelName, pairs, rowCells);
        answerOrderRow("factual", "answer_correctness_factual", labelName, pairs, orderCells);
      }
      const finalColumn = finalScoreColumn(table);
      const judged = metricScores(table, finalColumn, caller);
      side.failed = failedRows(match.matched, judged);
      scorePairs = match.matched
        .filter((m) => !Number.isNaN(judged[m.row]!))
        .map((m) => {
          const c = comparisons.get(m.row);
          return { ...pairBase(table, m.row), judge: judged[m.row]!, label: labelValue(m), statements: c ? differingStatements(c) : "" };
        });
      scoreAgreementRows("score", finalColumn, labelName, scorePairs, rowCells);
      answerOrderRow("score", finalColumn, labelName, scorePairs, orderCells);
    }
    if (set.multimodal.length > 0 && hasRelevance) {
      const keyed = set.multimodal.map((label) => ({ ...keysOf(label), label }));
      const match = matchLabels(table, keyed, caller);
      const judged = metricScores(table, "multimodal_relevance", caller);
      sides.push({ kind: "multimodal_relevance", labels: keyed.length, match, failed: failedRows(match.matched, judged) });
      relevancePairs = match.matched
        .filter((m) => !Number.isNaN(judged[m.row]!))
        .map((m) => ({ ...pairBase(table, m.row), judge: judged[m.row]!, label: m.label.label.relevant ? 1 : 0, statements: "" }));
    }
    if (sides.length === 0) {
      throw new Error(
        `${caller}: nothing to compare: the labels hold ${set.answerCorrectness.length} answer-correctness and ${set.multimodal.length} multimodal-relevance labels, ` +
          `and the scored table has ${[hasAnswerCorrectness ? "answer_correctness" : "", hasRelevance ? "multimodal_relevance" : ""].filter(Boolean).join(" and ") || "neither score column"}; ` +
          "score the table with the metric the labels are for",
      );
    }
  }

  const matched = sides.reduce((n, s) => n + s.match.matched.length + s.match.stale.length, 0);
  if (matched === 0) {
    const side = sides[0]!;
    throw new Error(
      `${caller}: none of the ${table.rowCount} scored rows matched any of the ${side.labels} labels by (${side.match.by}, model); ` +
        (side.match.hint !== undefined ? side.match.hint : "check that the ids (or questions) and model names of the labels are those of the scored table"),
    );
  }
  const ranking = scorePairs !== undefined ? modelRanking(scorePairs) : undefined;
  return {
    labels: options.labelScore !== undefined ? "score" : "statements",
    matchedBy: sides[0]!.match.by,
    beta,
    alignThreshold,
    coverage: coverageTable(sides),
    statements: statementComparisons !== undefined ? statementAgreementTable(statementComparisons) : undefined,
    rows: scorePairs !== undefined ? rowAgreementFrame(rowCells) : undefined,
    answerOrder: scorePairs !== undefined ? answerOrderFrame(orderCells) : undefined,
    ranking: ranking?.table,
    rankingAgrees: ranking !== undefined && (ranking.table.shape[0] ?? 0) >= 2 ? ranking.agrees : undefined,
    disagreements: scorePairs !== undefined ? largestDisagreements(scorePairs, top) : undefined,
    relevance: relevancePairs !== undefined ? binaryAgreement(relevancePairs) : undefined,
    stale: staleTable(sides, table),
    unmatched: unmatchedLists(sides, table),
  };
}
