/**
 * The report's "Answers by question" section: every scored answer as a
 * compact card, grouped by question so that every model's answer, score and
 * statements (with their verdicts) sit side by side, and a filter bar (model,
 * passed / failed / error / models disagree, free text) that the page's own
 * script shows and drives. Without JavaScript every card is listed and the
 * bar stays hidden.
 */
import type { FrameInput } from "../dataset/frame-like";
import { disagreements } from "../analysis/drilldown";
import { metricScores } from "../analysis/summarize";
import { keyText, textAt } from "../dataset/column-toolkit";
import { getColumn, type Table } from "../dataset/table";
import { escapeHtml } from "../display/html";
import { tableFromDataFrame } from "../frame/dataframe";
import { DETAILS_COLUMN, parseDetails, type StatementVerdict } from "../metrics/answer-correctness/details";

/** What the section needs. */
export interface AnswersInput {
  scored: FrameInput;
  table: Table;
  /** The score that decides passed / failed / error (answer_correctness when present). */
  metric: string;
  /** A score at or above this passes. */
  passAt: number;
  /** Models disagree on a question when their scores spread (max − min) at least this much. */
  disagreeAt: number;
  /** At most this many answer cards; whole questions are left out past it. */
  maxAnswers: number;
}

/** How an answer fared: scored at or above the pass mark, under it, or not scored. */
export type AnswerStatus = "passed" | "failed" | "error";

/** A question of the section: its key (id or text) and its rows, in row order. */
export interface Question {
  key: string;
  rows: number[];
}

const STATUS_LABEL: Record<AnswerStatus, string> = { passed: "pass", failed: "fail", error: "error" };

/** The column that names a question: `id`, else `user_input`, else none (each row its own question). */
export function questionColumn(table: Table): string | undefined {
  return getColumn(table, "id") ? "id" : getColumn(table, "user_input") ? "user_input" : undefined;
}

/** Rows grouped by question, questions in order of first appearance. */
function questionsOf(table: Table, pairBy: string | undefined): Question[] {
  const byKey = new Map<string, Question>();
  const out: Question[] = [];
  const column = pairBy === undefined ? undefined : getColumn(table, pairBy);
  for (let row = 0; row < table.rowCount; row++) {
    const key = column ? keyText(column.values[row]) : undefined;
    if (key === undefined) {
      out.push({ key: `\u0000row ${row}`, rows: [row] });
      continue;
    }
    let q = byKey.get(key);
    if (!q) {
      q = { key, rows: [] };
      byKey.set(key, q);
      out.push(q);
    }
    q.rows.push(row);
  }
  return out;
}

/**
 * The questions the section shows, in order of first appearance: whole
 * questions while their answers number at most `maxAnswers` (the first
 * question always, however many answers it has).
 */
export function shownQuestions(table: Table, maxAnswers: number): Question[] {
  const shown: Question[] = [];
  let answers = 0;
  for (const q of questionsOf(table, questionColumn(table))) {
    if (answers > 0 && answers + q.rows.length > maxAnswers) break;
    shown.push(q);
    answers += q.rows.length;
  }
  return shown;
}

/**
 * The spread of the models' scores per question, from {@link disagreements};
 * empty when it does not apply (one model, no question column) or cannot be
 * computed (a model answered a question twice).
 */
function spreads(scored: FrameInput, metric: string, pairBy: string | undefined, models: number): Map<string, number> {
  const out = new Map<string, number>();
  if (pairBy === undefined || models < 2) return out;
  try {
    const table = tableFromDataFrame(disagreements(scored, { metric, pairBy, top: Number.POSITIVE_INFINITY }));
    const ids = getColumn(table, pairBy)?.values ?? [];
    const spread = getColumn(table, "spread")?.values ?? [];
    ids.forEach((id, i) => {
      const key = keyText(id ?? null);
      const v = spread[i];
      if (key !== undefined && typeof v === "number" && Number.isFinite(v)) out.set(key, v);
    });
  } catch {
    // No spread, so no "models disagree" flag; the answers are listed all the same.
  }
  return out;
}

/**
 * Statements shown per side of one answer in the report: a huge answer (a
 * pasted document, 300,000 statements) would make the file hundreds of MB.
 * The rest are counted ("… and N more"); the scored file has them all.
 */
export const MAX_STATEMENTS_SHOWN = 200;

/** "… and 1,234 more statements" after the first {@link MAX_STATEMENTS_SHOWN}, or "". */
export function moreStatements(total: number, shown = MAX_STATEMENTS_SHOWN): string {
  return total > shown ? `… and ${(total - shown).toLocaleString("en-US")} more statement${total - shown === 1 ? "" : "s"} (the first ${shown.toLocaleString("en-US")} are shown; the scored file has them all)` : "";
}

function statementList(list: readonly StatementVerdict[]): string {
  if (list.length === 0) return `<p class="note">none</p>`;
  const more = moreStatements(list.length);
  return `<ul class="statements">${list
    .slice(0, MAX_STATEMENTS_SHOWN)
    .map((v) => `<li><span class="v v-${escapeHtml(v.verdict)}">${escapeHtml(v.verdict)}</span>${escapeHtml(v.statement)}${v.reason ? ` <span class="why">— ${escapeHtml(v.reason)}</span>` : ""}</li>`)
    .join("")}${more ? `<li class="more">${escapeHtml(more)}</li>` : ""}</ul>`;
}

function scoreText(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : "–";
}

/** One answer's card. */
function card(table: Table, row: number, status: AnswerStatus, score: number, disagree: boolean, metric: string): string {
  const model = textAt(table, "model", row);
  const error = textAt(table, `${metric}_error`, row);
  const continuous = getColumn(table, `${metric}_continuous`)?.values[row];
  const shownScore = typeof continuous === "number" && Number.isFinite(continuous) ? continuous : score;
  const parts: string[] = [
    `<div class="answer" data-row="${row}" data-model="${escapeHtml(model)}" data-status="${status}" data-disagree="${disagree}">`,
    `<div class="answer-head">${model !== "" ? `<span class="model">${escapeHtml(model)}</span>` : ""}<span class="badge ${status}">${STATUS_LABEL[status]}</span>` +
      `<span class="score" title="${escapeHtml(metric)}">${escapeHtml(scoreText(shownScore))}</span></div>`,
    `<p class="answer-text">${escapeHtml(textAt(table, "response", row)) || "<i>(empty)</i>"}</p>`,
  ];
  if (error !== "") parts.push(`<p class="error">${escapeHtml(error)}</p>`);
  const details = metric === "answer_correctness" ? parseDetails(getColumn(table, DETAILS_COLUMN)?.values[row]) : undefined;
  if (details) {
    const count = (side: readonly StatementVerdict[], verdict: string) => side.filter((v) => v.verdict === verdict).length;
    const summary = `Statements: ${count(details.response, "TP")} TP · ${count(details.response, "FP")} FP · ${count(details.reference, "FN")} FN`;
    parts.push(
      `<details><summary>${escapeHtml(summary)}</summary>` +
        `<p class="why">In the answer (TP: the reference supports it; FP: it does not)</p>${statementList(details.response)}` +
        `<p class="why">In the reference (covered by the answer, or FN: missed)</p>${statementList(details.reference)}</details>`,
    );
  }
  const reason = textAt(table, `${metric}_reason`, row);
  if (reason !== "") parts.push(`<p class="why">${escapeHtml(reason)}</p>`);
  parts.push(`</div>`);
  return parts.join("");
}

/**
 * The section's HTML, how many answers it shows, the status of every row,
 * and the element id of each shown row's question (for links to it).
 */
export function answersSection(input: AnswersInput): { html: string; shown: number; statuses: AnswerStatus[]; questionOf: Map<number, string> } {
  const { scored, table, metric, passAt, disagreeAt } = input;
  const scores = metricScores(table, metric, "buildReport");
  const pairBy = questionColumn(table);
  const modelColumn = getColumn(table, "model");
  const models: string[] = [];
  if (modelColumn) {
    const seen = new Set<string>();
    for (const v of modelColumn.values) {
      const m = keyText(v ?? null);
      if (m !== undefined && !seen.has(m)) {
        seen.add(m);
        models.push(m);
      }
    }
  }
  const spread = spreads(scored, metric, pairBy, models.length);
  // 0/1 scores pass at 1, whatever passAt says: the intro, the filter and the badges say the same.
  const binary = Array.from(scores).every((v) => Number.isNaN(v) || v === 0 || v === 1);
  const passes = (s: number) => (binary ? s === 1 : s >= passAt);
  const statuses: AnswerStatus[] = Array.from(scores, (s) => (Number.isNaN(s) ? "error" : passes(s) ? "passed" : "failed"));

  const blocks: string[] = [];
  let shown = 0;
  let disputed = 0;
  const counts: Record<AnswerStatus, number> = { passed: 0, failed: 0, error: 0 };
  const perModel = new Map<string, number>();
  let disagreeAnswers = 0;
  let questionsShown = 0;
  const questionOf = new Map<number, string>();
  for (const [index, q] of shownQuestions(table, input.maxAnswers).entries()) {
    const first = q.rows[0]!;
    const s = spread.get(q.key);
    const disagree = s !== undefined && s >= disagreeAt;
    if (disagree) disputed++;
    const id = pairBy === "id" ? textAt(table, "id", first) : "";
    const reference = textAt(table, "reference", first);
    const head =
      `<div class="question-head"><h3>${id !== "" ? `<span class="qid">${escapeHtml(id)}</span>` : ""}${escapeHtml(textAt(table, "user_input", first)) || `<i>row ${first}</i>`}</h3>` +
      (reference !== "" ? `<p class="reference"><b>Reference:</b> ${escapeHtml(reference)}</p>` : "") +
      (s !== undefined ? `<p class="qmeta">Scores spread ${s.toFixed(2)}${disagree ? ' · <span class="disagree">models disagree</span>' : ""}</p>` : "") +
      `</div>`;
    const cards = q.rows.map((row) => {
      counts[statuses[row]!]++;
      const m = textAt(table, "model", row);
      perModel.set(m, (perModel.get(m) ?? 0) + 1);
      if (disagree) disagreeAnswers++;
      return card(table, row, statuses[row]!, scores[row]!, disagree, metric);
    });
    for (const row of q.rows) questionOf.set(row, `question-${index + 1}`);
    blocks.push(`<article class="question" id="question-${index + 1}" data-disagree="${disagree}">${head}<div class="answers">${cards.join("")}</div></article>`);
    shown += q.rows.length;
    questionsShown++;
  }

  const option = (value: string, label: string, n: number) => `<option value="${escapeHtml(value)}">${escapeHtml(label)} (${n.toLocaleString("en-US")})</option>`;
  const filterBar = [
    `<div class="filters" id="answer-filters" role="search" aria-label="Filter the answers" hidden>`,
    models.length > 0
      ? `<label>Model <select id="filter-model"><option value="">all models</option>${models.map((m) => option(m, m, perModel.get(m) ?? 0)).join("")}</select></label>`
      : `<select id="filter-model" hidden><option value=""></option></select>`,
    `<label>Show <select id="filter-status"><option value="">all answers</option>` +
      option("passed", binary ? "passed (score 1)" : `passed (score ≥ ${passAt})`, counts.passed) +
      option("failed", binary ? "failed (score 0)" : `failed (score < ${passAt})`, counts.failed) +
      option("error", "error (not scored)", counts.error) +
      (spread.size > 0 ? option("disagree", `models disagree (spread ≥ ${disagreeAt})`, disagreeAnswers) : "") +
      `</select></label>`,
    `<label>Search <input type="search" id="filter-text" placeholder="words in the question, answer, reference or statements" autocomplete="off"></label>`,
    `<span id="filter-count" aria-live="polite"></span>`,
    `</div>`,
    `<p id="filter-empty" class="note" hidden>No answer matches these filters.</p>`,
  ].join("");
  const total = table.rowCount;
  const intro =
    `<p class="note">Every model's answer to each question side by side, with its ${escapeHtml(metric)} score` +
    (getColumn(table, DETAILS_COLUMN) && metric === "answer_correctness" ? ` and, under "Statements", the statements the judge found and their verdicts. ` : `${getColumn(table, `${metric}_reason`) ? " and the judge's reason" : ""}. `) +
    `An answer passes at a score of ${binary ? "1" : `${passAt} or more`}; "error" means it could not be scored (see "Failed rows"). ` +
    (spread.size > 0 ? `Models disagree on ${disputed.toLocaleString("en-US")} of ${questionsShown.toLocaleString("en-US")} questions: their scores spread (max − min) by ${disagreeAt} or more. ` : "") +
    (shown < total ? `<b>${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} answers are shown</b> (the first questions); the scored file has them all.` : "") +
    `</p><noscript><p class="note">The filters need JavaScript; every answer is listed below.</p></noscript>`;
  return { html: [intro, filterBar, ...blocks].join("\n"), shown, statuses, questionOf };
}
