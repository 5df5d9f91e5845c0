/**
 * The self-contained HTML report of a scored table: one file with the
 * headline, the judge, the usage, the summary and comparison tables (short,
 * the full tables on demand), the charts (vega, vega-lite and vega-embed
 * inlined, drawn at load), the lowest-scoring answers of each model with
 * their statements, the failed rows grouped by reason, and every answer by
 * question with a filter bar. It loads nothing from anywhere; every text is
 * escaped; only its own scripts may run.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { writeFileAtomic } from "../dataset/atomic-write";
import type { DataFrame } from "danfojs-node";
import { compareModels } from "../analysis/compare";
import { headline } from "../analysis/headline";
import { estimateReader, type TestEstimate } from "../analysis/test-estimate";
import { worst } from "../analysis/drilldown";
import { metricScores, repeatedAnswers, summarize, type FrameInput } from "../analysis/summarize";
import { scoringsOf } from "../analysis/scoring-changes";
import { keyText, numberAt, textAt } from "../dataset/column-toolkit";
import { isPointInterval } from "../stats/bootstrap";
import { getColumn, type Cell, type Table } from "../dataset/table";
import { escapeHtml } from "../display/html";
import { tableFromDataFrame } from "../frame/dataframe";
import { isDataFrame, readFrame } from "../dataset/frame-like";
import { scoreRun } from "../frame/score";
import { explanation } from "../frame/statements";
import { OFFLINE_LABEL } from "../judge/offline-judge";
import { formatUsage, type UsageSummary } from "../judge/usage";
import { DETAILS_COLUMN } from "../metrics/answer-correctness/details";
import { metricDefinitions, metricNames } from "../metrics/registry";
import { chartLibraries, jsonForScript } from "./assets";
import { isolatingEscaper } from "./bidi";
import { changeSection, type ChangeSection, type PreviousRunProblem } from "./changes";
import { chartDataTable, reportCharts, type ReportChart } from "./charts";
import { answersSection, MAX_STATEMENTS_SHOWN, shownQuestions } from "./answers";
import { failedRowsSection } from "./failures";
import { CLIENT_SCRIPT, FILTER_SCRIPT, REPORT_CSS, contentSecurityPolicy } from "./page";
import { definedColumns, estimateCell, fullTable, numberCell, onDemand, pValueCell, reportTable, type ReportColumn } from "./tables";
import { counted, errorText, wholePercent } from "../display/words";

/** Options of {@link buildReport} and {@link writeReport}. */
export interface ReportOptions {
  /**
   * Title of the page; default "evalframe report". A title that ends with
   * the judge in parentheses ("… (hand-labelled)") is shown without it, since
   * the judge has its own line under the title.
   */
  title?: string;
  /**
   * The sentences at the top of the page, under the title (2–4 sentences that
   * say what the run found). Default: computed from the summary and the
   * model comparison.
   */
  headline?: readonly string[];
  /**
   * The run's usage for the usage line; default the usage `score` recorded
   * for this frame (`scoreRun(scored)?.usage`). A frame read from CSV has
   * none, and then no usage line is shown; `null` hides it always.
   */
  usage?: UsageSummary | null;
  /** How many lowest-scoring answers of each model to show with their statements (default 3; 0 for none). */
  worst?: number;
  /** Time shown as "generated"; default now, `null` for none (a reproducible file). */
  generatedAt?: Date | null;
  /**
   * The previous scored run of the same data: adds a "Change since the
   * previous run" section (`compareRuns(previous, scored)` per metric: the
   * change per model with its CI and verdict, a chart, and the answers that
   * changed most), and a sentence on the change of the first metric to the
   * headline, from the same comparison.
   */
  previous?: FrameInput;
  /**
   * Called for each thing the change section shows as "Not computed"
   * (`previous` given): a metric the runs could not be compared on, or no
   * score column in common; the page itself is written either way.
   */
  onPreviousProblem?: (problem: PreviousRunProblem) => void;
  /**
   * The model pairs (a, b) in the per-question differences chart (a − b, one
   * strip per pair). Default: every pair of models; past 10 pairs, each
   * model against the one of the highest mean.
   */
  pairs?: readonly (readonly [string, string])[];
  /** A score at or above this counts as "passed" in the answers section (default 0.5; 0/1 scores pass at 1). */
  passAt?: number;
  /**
   * The models "disagree" on a question when their scores spread (max − min,
   * from `disagreements()`) by at least this much (default 0.5).
   */
  disagreement?: number;
  /** At most this many answers in "Answers by question" (default 2,000; whole questions are left out past it). */
  maxAnswers?: number;
}

/** Score columns the report knows (the metric registry's, in its order), and the judge and error column of each. */
function reportMetrics(): { metric: string; judge: string; error: string }[] {
  return metricDefinitions().map((d) => ({ metric: d.scoreColumn, judge: d.judgeColumn, error: d.errorColumn }));
}

const ROW_COLUMN = "__evalframe_row__";

/** A p-value cell where no test can say anything. */
const UNTESTED_CELL = '<td class="num" title="too few pairs for a test">–</td>';

/** Most model names the line under the title names; past it the rest are counted. */
const MAX_MODELS_NAMED = 10;

function distinct(values: readonly (Cell | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const v of values) {
    const key = keyText(v ?? null);
    if (key !== undefined) seen.add(key);
  }
  return [...seen];
}

function packageVersion(): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { name?: unknown; version?: unknown };
    return manifest.name === "evalframe" && typeof manifest.version === "string" ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/** `worst` and `maxAnswers`, defaulted and checked. */
function shownCounts(options: ReportOptions): { limit: number; maxAnswers: number } {
  const limit = options.worst ?? 3;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`buildReport: worst must be a whole number ≥ 0, got ${limit}`);
  const maxAnswers = options.maxAnswers ?? 2000;
  if (!Number.isInteger(maxAnswers) || maxAnswers < 0) throw new RangeError(`buildReport: maxAnswers must be a whole number ≥ 0, got ${maxAnswers}`);
  return { limit, maxAnswers };
}

/** The lowest-scoring answer-correctness rows the report explains, `limit` of each model. */
function worstCorrectnessRows(table: Table, limit: number): number[] {
  const metric = getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness";
  return worstRows(table, metric, limit, getColumn(table, "model") ? "model" : undefined);
}

/**
 * The rows whose statements the report of `scored` shows: the lowest-scoring
 * answers of each model, and the answers under "Answers by question". Empty
 * without an answer_correctness column. `evalframe report` reads the whole
 * statements cell of only these rows of a large scored file (the statements
 * are most of it) and, of the others, only how each row was scored.
 *
 * @example
 * rowsWithStatements(scored, { worst: 5 }).size; // at most 5 per model, plus the first 2,000 answers
 */
export function rowsWithStatements(scored: FrameInput, options: ReportOptions = {}): Set<number> {
  const { limit, maxAnswers } = shownCounts(options);
  const table = readFrame(scored, "buildReport");
  if (getColumn(table, "answer_correctness") === undefined) return new Set();
  const rows = new Set(limit > 0 ? worstCorrectnessRows(table, limit) : []);
  for (const q of shownQuestions(table, maxAnswers)) for (const row of q.rows) rows.add(row);
  return rows;
}

/** Row indices of the `n` lowest valid scores of `metric` (of each model, with `by`), lowest first, through `worst()`. */
function worstRows(table: Table, metric: string, n: number, by?: string): number[] {
  // Only the columns worst() reads: a copy of every column (statements and all) of a 200,000-row table cost 400 MB.
  const indexed: Table = {
    rowCount: table.rowCount,
    columns: [
      ...table.columns.filter((c) => c.name === metric || c.name === by),
      { name: ROW_COLUMN, type: "number", values: Array.from({ length: table.rowCount }, (_, i) => i) },
    ],
  };
  const picked = tableFromDataFrame(worst(indexed, by === undefined ? { metric, n } : { metric, n, by }));
  return (getColumn(picked, ROW_COLUMN)?.values ?? []).map(Number);
}

function isOffline(label: string): boolean {
  return label === OFFLINE_LABEL || label.startsWith("offline");
}

/** The judge labels of the run and of the table's judge columns, in order of appearance. */
function judgeLabels(table: Table, runJudges: readonly string[]): string[] {
  const labels = new Set<string>(runJudges);
  for (const { judge } of reportMetrics()) {
    const column = getColumn(table, judge);
    if (column) for (const label of distinct(column.values)) labels.add(label);
  }
  return [...labels];
}

/**
 * The page heading and the browser tab's title: a title ending with a judge
 * in parentheses loses it in the heading (the judge line says it), and the
 * tab reads "title · judge".
 */
function titles(title: string, judges: readonly string[]): { heading: string; tab: string } {
  for (const judge of judges) {
    const suffix = ` (${judge})`;
    if (title.endsWith(suffix) && title.length > suffix.length) {
      const heading = title.slice(0, -suffix.length).trim();
      return { heading, tab: `${heading} · ${judge}` };
    }
  }
  return { heading: title, tab: title };
}

/**
 * One line per metric saying how its rows were scored beyond the judge
 * (layout, reasons, weights, …), from what each row records; a metric scored
 * in several ways lists each with its row count.
 */
function scoringLines(table: Table): string[] {
  return metricDefinitions().flatMap((d) => {
    if (d.scoringOf === undefined || getColumn(table, d.scoreColumn) === undefined) return [];
    const ways = new Map<string, number>();
    for (const { scoring, rows } of scoringsOf(d.scoreColumn, table)) {
      const text = Object.entries(scoring)
        .filter(([setting]) => setting !== "judge")
        .map(([setting, value]) => `${setting} ${value}`)
        .join(" · ");
      if (text !== "") ways.set(text, (ways.get(text) ?? 0) + rows);
    }
    if (ways.size === 0) return [];
    const shown = [...ways].map(([text, rows]) => escapeHtml(ways.size === 1 ? text : `${text} (${rows.toLocaleString("en-US")} rows)`));
    const how = ways.size === 1 ? shown[0]! : `${ways.size} different ways, so its rows are not all comparable: ${shown.join("; ")}`;
    return [`<p class="usage scoring">${escapeHtml(d.label)} scored with ${how}</p>`];
  });
}

function judgeSection(table: Table, usage: UsageSummary | undefined, labels: readonly string[]): string {
  let offlineRows = 0;
  let judgedRows = 0;
  for (const { judge } of reportMetrics()) {
    getColumn(table, judge)?.values.forEach((v) => {
      if (typeof v === "string" && v !== "") {
        judgedRows++;
        if (isOffline(v)) offlineRows++;
      }
    });
  }
  const parts: string[] = [];
  parts.push(
    `<p class="judges">Judge${labels.length === 1 ? "" : "s"}: ${
      labels.length === 0 ? "<i>unknown (no judge column)</i>" : labels.map((l) => `<span class="judge">${escapeHtml(l)}</span>`).join("")
    }</p>`,
  );
  parts.push(...scoringLines(table));
  if (labels.some(isOffline)) {
    parts.push(
      `<div class="banner offline" role="note"><strong>Approximate scores.</strong> ` +
        `${judgedRows > 0 ? `${offlineRows.toLocaleString("en-US")} of ${judgedRows.toLocaleString("en-US")} judgements` : "These scores"} ` +
        `came from evalframe's offline judge: lexical statement matching and hashed bag-of-words embeddings, no language model. ` +
        `Use them to try the workflow and for regression checks, not to rank models; set OPENAI_API_KEY (or OPENAI_BASE_URL) for a real judge.</div>`,
    );
  }
  if (usage) parts.push(`<p class="usage" title="usage of the scoring run">${escapeHtml(formatUsage(usage))}</p>`);
  return parts.join("\n");
}

/**
 * The headline sentences: the option's, else `headline()`'s from the summary
 * and the comparison of the report's first metric (none when it cannot say).
 */
function headlineSentences(
  options: ReportOptions,
  scored: Table,
  summary: DataFrame,
  comparison: DataFrame | undefined,
  metric: string,
  judges: readonly string[],
  change: ChangeSection | undefined,
): string[] {
  if (options.headline !== undefined) return [...options.headline];
  // With --previous, one sentence on the change, from the comparison the "Change since the previous run" section shows.
  const runs = change?.runs.get(metric) ?? change?.problems.get(metric);
  try {
    return headline(summary, comparison, { metric, scored, ...(runs !== undefined ? { change: runs } : {}), ...(judges.length > 0 ? { judge: judges.join(" and ") } : {}) });
  } catch {
    return [];
  }
}

/**
 * The interval the summary gives each of its metrics, in words: the Wilson
 * score interval for a 0/1 metric (a pass rate for each model), the seeded
 * bootstrap interval of the mean for others.
 */
function summaryIntervalWords(summary: DataFrame): string {
  const t = tableFromDataFrame(summary);
  const kinds = new Set<string>();
  for (let i = 0; i < t.rowCount; i++) {
    if (!Number.isFinite(numberAt(t, "mean", i))) continue;
    kinds.add(Number.isFinite(numberAt(t, "pass_rate", i)) ? "wilson" : "bootstrap");
  }
  if (kinds.size === 2) return "95% interval (the Wilson score interval for 0/1 scores, else a seeded bootstrap interval)";
  return kinds.has("wilson") ? "95% Wilson score interval (the scores are 0 or 1)" : "seeded 95% bootstrap interval";
}

function contextsHtml(cell: string): string {
  if (cell.trim() === "") return "";
  let items: unknown;
  try {
    items = JSON.parse(cell);
  } catch {
    items = [cell];
  }
  const list = Array.isArray(items) ? items : [items];
  const shown = list.map((item) => {
    const s = typeof item === "string" ? item : JSON.stringify(item);
    const shortened = s.startsWith("data:") ? `${s.slice(0, s.indexOf(",") + 1 || 40)}… (${s.length.toLocaleString("en-US")} characters)` : s.length > 300 ? `${s.slice(0, 300)}…` : s;
    return `<li>${escapeHtml(shortened)}</li>`;
  });
  return `<ol class="contexts">${shown.join("")}</ol>`;
}

/** The summary per model, short: model, (metric), n, mean with CI, median, and n_error / pass_rate when they say something. */
function summaryTable(summary: DataFrame): string {
  const t = tableFromDataFrame(summary);
  const defined = new Set(definedColumns(t));
  const metricsShown = distinct(getColumn(t, "metric")?.values ?? []).length > 1;
  const errors = (getColumn(t, "n_error")?.values ?? []).some((v) => typeof v === "number" && v > 0);
  const passRate = defined.has("pass_rate");
  const columns: ReportColumn[] = [];
  if (getColumn(t, "model")) columns.push({ label: "model" });
  if (metricsShown) columns.push({ label: "metric" });
  columns.push({ label: "n", numeric: true, title: "rows" });
  if (errors) columns.push({ label: "n_error", numeric: true, title: "rows that could not be scored (never counted as 0)" });
  columns.push({ label: "mean (95% CI)", numeric: true, title: `mean of the valid scores, ${summaryIntervalWords(summary)}` });
  columns.push({ label: "median", numeric: true });
  if (passRate) columns.push({ label: "pass_rate", numeric: true, title: "share of 1s, for 0/1 scores" });
  const rows: string[][] = [];
  for (let i = 0; i < t.rowCount; i++) {
    const row: string[] = [];
    if (getColumn(t, "model")) row.push(escapeHtml(textAt(t, "model", i)));
    if (metricsShown) row.push(escapeHtml(textAt(t, "metric", i)));
    row.push(numberCell(numberAt(t, "n", i)));
    if (errors) row.push(numberCell(numberAt(t, "n_error", i)));
    const [low, high] = [numberAt(t, "ci_low", i), numberAt(t, "ci_high", i)];
    // A bootstrap of scores that never vary is a point: no interval, rather than one of no width.
    const valid = numberAt(t, "n_valid", i);
    const flat =
      isPointInterval(low, high)
        ? "every valid score is the same, so the bootstrap has no variation to resample: it gives no interval"
        : valid === 1 && !Number.isFinite(low)
          ? "1 valid score: an interval needs at least 2"
          : undefined;
    row.push(estimateCell(numberAt(t, "mean", i), low, high, 2, false, flat));
    row.push(numberCell(numberAt(t, "median", i), 2));
    if (passRate) row.push(numberCell(numberAt(t, "pass_rate", i), 2));
    rows.push(row);
  }
  return reportTable(columns, rows);
}

/** Whether a comparison row compared the two models unpaired. */
function isUnpaired(t: Table, i: number): boolean {
  return textAt(t, "unpaired_because", i) !== "" || textAt(t, "test", i).startsWith("two-sample");
}

/**
 * Why a difference between two models can be neither bounded nor tested,
 * or undefined: fewer than 2 pairs (unpaired: fewer than 2 valid scores a
 * side, from the summary).
 */
function tooFewForTest(t: Table, i: number, valid: ReadonlyMap<string, number>): string | undefined {
  if (isUnpaired(t, i)) {
    const sides = [textAt(t, "model_a", i), textAt(t, "model_b", i)].map((m) => valid.get(m) ?? Number.NaN);
    return sides.some((n) => n < 2) ? `unpaired, ${sides.join(" and ")} valid scores: a difference needs at least 2 a side` : undefined;
  }
  const pairs = numberAt(t, "n_pairs", i);
  return pairs < 2 ? `${pairs} pair${pairs === 1 ? "" : "s"}: a difference needs at least 2` : undefined;
}

/**
 * Why a paired difference has no interval worth showing though it can be
 * tested: differences that never vary, where a bootstrap gives a point.
 */
function pointIntervalReason(t: Table, i: number): string | undefined {
  if (isUnpaired(t, i)) return undefined;
  const [low, high] = [numberAt(t, "ci_low", i), numberAt(t, "ci_high", i)];
  return isPointInterval(low, high) ? `every one of the ${numberAt(t, "n_pairs", i)} pairs differs by the same amount, so the bootstrap has no variation to resample: it gives no interval` : undefined;
}

/**
 * The cell of the estimate that belongs to a row's test: the Hodges–Lehmann
 * shift with its Wilcoxon interval, or the share of differing questions a
 * wins with its Clopper–Pearson interval; "–" for an unpaired row.
 */
function testEstimateCell(own: TestEstimate | undefined): string {
  if (own === undefined || !Number.isFinite(own.estimate)) return '<td class="num">–</td>';
  if (own.kind === "shift") {
    return Number.isFinite(own.low)
      ? estimateCell(own.estimate, own.low, own.high, 2, true)
      : estimateCell(own.estimate, undefined, undefined, 2, true, `${counted(own.n, "question")} with a difference: too few for a 95% interval`);
  }
  return `<td class="num" title="${escapeHtml(`a wins ${own.won} of the ${counted(own.n, "question")} where the two differ`)}">${escapeHtml(wholePercent(own.estimate))} <span class="ci">(${escapeHtml(`${wholePercent(own.low)}–${wholePercent(own.high)}`)})</span></td>`;
}

/** One metric's model comparison, short: the pair, pairs, difference with CI (n/a from fewer than 2 pairs), the test's own estimate with its CI, wins/ties/losses, p_holm, verdict. */
function comparisonTable(comparison: DataFrame, summary: DataFrame, metric: string, scored: Table, text: (text: string) => string = escapeHtml): string {
  const t = tableFromDataFrame(comparison);
  const read = estimateReader(scored, metric, "model");
  const ownOf = (i: number): TestEstimate | undefined => {
    const pairBy = textAt(t, "paired_by", i);
    if (pairBy === "" || numberAt(t, "n_pairs", i) < 2) return undefined;
    return read(textAt(t, "model_a", i), textAt(t, "model_b", i), textAt(t, "test", i), pairBy);
  };
  const owns = Array.from({ length: t.rowCount }, (_, i) => ownOf(i));
  const binary = owns.some((o) => o?.kind === "share");
  const shift = owns.some((o) => o?.kind === "shift");
  const s = tableFromDataFrame(summary);
  const valid = new Map<string, number>();
  for (let i = 0; i < s.rowCount; i++) if (textAt(s, "metric", i) === metric) valid.set(textAt(s, "model", i), numberAt(s, "n_valid", i));
  const unpaired = (getColumn(t, "unpaired_because")?.values ?? []).some((v) => typeof v === "string" && v !== "");
  const columns: ReportColumn[] = [
    { label: "a − b" },
    { label: "pairs", numeric: true, title: "questions both models answered validly" },
    { label: "difference (95% CI)", numeric: true, title: "mean of a − mean of b, paired bootstrap 95% interval" },
    ...(binary || shift
      ? [
          {
            label: binary && !shift ? "a wins (95% CI)" : shift && !binary ? "typical question (95% CI)" : "test's estimate (95% CI)",
            numeric: true,
            title:
              "the estimate of the test the verdict follows, with the interval that test inverts: the Hodges–Lehmann shift of a − b with its Wilcoxon interval; for 0/1 scores, the share of the questions where the two differ that a wins, with its Clopper–Pearson interval",
          },
        ]
      : []),
    { label: "wins / ties / losses", numeric: true, title: "questions a scored higher / the same / lower" },
    { label: "p_holm", numeric: true, title: "p-value after Holm's correction across the pairs" },
    { label: "verdict" },
  ];
  if (unpaired) columns.push({ label: "unpaired because" });
  const rows: string[][] = [];
  for (let i = 0; i < t.rowCount; i++) {
    const wtl = ["wins", "ties", "losses"].map((k) => numberAt(t, k, i));
    const thin = tooFewForTest(t, i, valid);
    rows.push([
      `${text(textAt(t, "model_a", i))} − ${text(textAt(t, "model_b", i))}`,
      numberCell(numberAt(t, "n_pairs", i)),
      estimateCell(numberAt(t, "mean_diff", i), numberAt(t, "ci_low", i), numberAt(t, "ci_high", i), 2, true, thin ?? pointIntervalReason(t, i)),
      ...(binary || shift ? [testEstimateCell(owns[i])] : []),
      wtl.every(Number.isFinite) ? escapeHtml(wtl.join(" / ")) : "–",
      // From one pair (or one score a side) no test says anything: no p-value, and no verdict but that.
      ...(thin ? [UNTESTED_CELL, text(`no conclusion: ${thin}`)] : [pValueCell(numberAt(t, "p_holm", i)), text(textAt(t, "verdict", i))]),
      ...(unpaired ? [escapeHtml(textAt(t, "unpaired_because", i))] : []),
    ]);
  }
  return reportTable(columns, rows);
}

/**
 * Under the summary, when rows answer an (id, model) that an earlier row
 * answered: how many, the first of them, and that the summary counts them in
 * n_error rather than averaging them in (the charts draw every score); ""
 * when there are none. Without it n_error read as failed scoring.
 */
function repeatsNote(table: Table, text: (text: string) => string): string {
  const repeats = repeatedAnswers(table);
  if (repeats.length === 0) return "";
  const { row, first } = repeats[0]!;
  const model = getColumn(table, "model") ? `, model "${textAt(table, "model", row)}"` : "";
  const where = `row ${row} (id "${textAt(table, "id", row)}"${model}${first !== undefined ? `, first answered at row ${first}` : ""})`;
  return `<p class="note repeats">${text(
    `${counted(repeats.length, "row")} ${repeats.length === 1 ? "answers" : "answer"} an (id, model) that an earlier row answered, first ${where}: the summary counts ${repeats.length === 1 ? "it" : "them"} in n_error, not in the mean (the charts draw every score); each model may answer each id once.`,
  )}</p>`;
}

/** The numbers a chart draws, in a table under it (closed), for readers who cannot see the chart; "" when it has none. */
function numbersOf(chart: ReportChart): string {
  const table = chartDataTable(chart.spec, escapeHtml);
  return table === undefined ? "" : onDemand("The numbers of this chart", table);
}

function chartSection(charts: readonly ReportChart[], notes: readonly string[], text: (text: string) => string = escapeHtml): string {
  const figures = charts.map(
    (c) =>
      `<figure><h3>${escapeHtml(c.title)}</h3><div class="chart" id="${escapeHtml(c.id)}" role="img" aria-label="${escapeHtml(c.title)}"></div>` +
      `<figcaption>${text(c.caption)}</figcaption>${numbersOf(c)}</figure>`,
  );
  return [
    `<noscript><p class="note">The charts are drawn by JavaScript when the page opens; the numbers of each are in the table under its caption.</p></noscript>`,
    `<div class="charts">${figures.join("\n")}</div>`,
    ...notes.map((n) => `<p class="note">${text(n)}</p>`),
  ].join("\n");
}

function checkNumber(name: string, value: number, low: number, high: number): void {
  if (!(Number.isFinite(value) && value >= low && value <= high)) throw new RangeError(`buildReport: ${name} must be a number from ${low} to ${high}, got ${value}`);
}

/**
 * Builds the HTML report of a scored table as one self-contained page, in
 * this order: the title; the headline (`options.headline`, else sentences
 * computed from the summary, the comparison, the failed rows and, with
 * `previous`, the change since it: see `headline`); the judge(s), with a
 * banner when the offline judge produced scores; the usage line when known;
 * the contents; `summarize` per model and, with `previous`, "Change since
 * the previous run"; the `compareModels` table per metric when there are two
 * models or more; the charts that apply, for every registered metric with
 * scores (see `reportCharts`): for the first whose scores are not 0/1
 * (answer correctness when there) score distribution, mean with CI,
 * threshold sweep, its own views (answer correctness: verdicts, factual vs
 * semantic), question heatmap, the per-question differences of every pair or
 * of the `pairs` named, and wins/ties/losses; for every other metric its
 * preferred chart (relevance rate for multimodal relevance); the `worst` lowest-scoring answers of each model
 * with their statements and verdicts; the failed rows grouped by the kind of
 * failure; answers judged not relevant; and "Answers by question": every
 * answer, each question's answers side by side with their scores and
 * statements, and a filter bar (model, passed / failed / error / models
 * disagree, free text).
 *
 * The tables are short (a few columns, the full table under "All columns")
 * so that none is wider than the page at 1,280 px. Vega, Vega-Lite and
 * vega-embed are inlined (about 0.8 MB), so the file opens anywhere without
 * a network; it references no URL, every text from the table is
 * HTML-escaped, and its Content-Security-Policy lets only its own scripts
 * run (by hash). Without JavaScript every answer and table is still there
 * (the charts and the filter bar are not).
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * const html = buildReport(scored, { title: "Nightly eval", worst: 5 });
 *
 * @throws {Error} when the table has no score column (none of the registered metrics', e.g. answer_correctness or multimodal_relevance).
 */
export function buildReport(scored: FrameInput, options: ReportOptions = {}): string {
  const { limit, maxAnswers } = shownCounts(options);
  const passAt = options.passAt ?? 0.5;
  checkNumber("passAt", passAt, 0, 1);
  const disagreeAt = options.disagreement ?? 0.5;
  checkNumber("disagreement", disagreeAt, 0, 1);
  const table = readFrame(scored, "buildReport");
  const metrics = reportMetrics().map((m) => m.metric).filter((m) => getColumn(table, m) !== undefined);
  if (metrics.length === 0) {
    throw new Error(
      `buildReport: no score column (${metricNames().join(" or ")}); score the table first. The columns are: ${table.columns.map((c) => c.name).join(", ")}`,
    );
  }
  const run = isDataFrame(scored) ? scoreRun(scored) : undefined;
  const usage = options.usage === null ? undefined : (options.usage ?? run?.usage);
  const modelColumn = getColumn(table, "model");
  const models = modelColumn ? distinct(modelColumn.values) : [];
  const labels = judgeLabels(table, run?.judges ?? []);
  const { heading, tab } = titles(options.title ?? "evalframe report", labels);
  // Text that names models: a right-to-left name is isolated so that the numbers after it keep their order.
  const text = isolatingEscaper(models);

  const summary = summarize(scored, modelColumn ? { by: "model" } : {});
  const comparisons: { metric: string; frame: DataFrame | undefined; problem: string | undefined }[] = [];
  if (models.length >= 2) {
    for (const metric of metrics) {
      try {
        comparisons.push({ metric, frame: compareModels(scored, { metric }), problem: undefined });
      } catch (error) {
        comparisons.push({ metric, frame: undefined, problem: errorText(error) });
      }
    }
  }
  const { charts, notes } = reportCharts({
    scored,
    table,
    models,
    summary: modelColumn ? summary : undefined,
    comparisons: new Map(comparisons.flatMap((c) => (c.frame ? [[c.metric, c.frame] as const] : []))),
    ...(options.pairs !== undefined ? { pairs: options.pairs } : {}),
  });
  const change = options.previous === undefined ? undefined : changeSection(scored, options.previous, metrics, 10);
  for (const problem of change?.refused ?? []) options.onPreviousProblem?.(problem);
  const sentences = headlineSentences(options, table, summary, comparisons.find((c) => c.metric === metrics[0])?.frame, metrics[0]!, labels, change);

  const sections: { id: string; title: string; html: string }[] = [];
  sections.push({
    id: "summary",
    title: modelColumn ? "Summary by model" : "Summary",
    html: [
      `<p class="note">n: rows · mean over the valid scores with its ${summaryIntervalWords(summary)}${
        (getColumn(tableFromDataFrame(summary), "n_error")?.values ?? []).some((v) => typeof v === "number" && v > 0) ? " · n_error: rows that could not be scored (never counted as 0)" : ""
      }. Under "All columns": n_valid, std, quartiles, min and max.</p>`,
      summaryTable(summary),
      repeatsNote(table, text),
      onDemand("All columns", fullTable(summary)),
    ].join("\n"),
  });
  if (change) sections.push({ id: "change", title: "Change since the previous run", html: change.html });
  if (comparisons.length > 0) {
    sections.push({
      id: "comparison",
      title: "Model comparison",
      html: [
        `<p class="note">Answers paired by question (the column named in paired_by, under "All columns"; an unpaired row says why and uses an exact permutation test, or a two-sample bootstrap for large samples). difference = mean of a − mean of b over the questions both answered validly, with a paired bootstrap 95% CI; the estimate of the test the verdict follows, with the interval that test inverts (the Hodges–Lehmann shift of a − b on the typical question with its Wilcoxon interval; for 0/1 scores, the share of the questions where the two differ that a wins, with its exact interval: it excludes 50% when the sign test rejects); wins/ties/losses of a; a Wilcoxon signed-rank test (sign test for 0/1 scores) with Holm's correction across the pairs (p_holm; the intervals are for each pair alone); verdict at α = 0.05, naming a winner only when the test and the mean difference agree.</p>`,
        ...comparisons.map(
          (c) =>
            `<h3>${escapeHtml(c.metric)}</h3>` +
            (c.frame ? comparisonTable(c.frame, summary, c.metric, table, text) + onDemand("All columns", fullTable(c.frame)) : `<p class="note">Not computed: ${escapeHtml(c.problem ?? "")}</p>`),
        ),
      ].join("\n"),
    });
  }
  if (charts.length > 0 || notes.length > 0) sections.push({ id: "charts", title: "Charts", html: chartSection(charts, notes, text) });

  const answers = answersSection({ scored, table, metric: metrics[0]!, passAt, disagreeAt, maxAnswers });
  const questionLink = (row: number) => {
    const target = answers.questionOf.get(row);
    return target === undefined ? "" : `<p class="note"><a href="#${target}">Every model's answer to this question</a></p>`;
  };
  if (metrics.includes("answer_correctness") && getColumn(table, DETAILS_COLUMN) && limit > 0) {
    const metric = getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness";
    const rows = worstCorrectnessRows(table, limit);
    const story = (row: number) => {
      try {
        return explanation(scored, row, { maxStatements: MAX_STATEMENTS_SHOWN }).html;
      } catch (error) {
        return `<p class="error">${escapeHtml(errorText(error))}</p>`;
      }
    };
    const article = (row: number) => `<article class="row" id="row-${row}">${story(row)}${questionLink(row)}</article>`;
    const groups = modelColumn ? models.map((m) => ({ model: m, rows: rows.filter((r) => textAt(table, "model", r) === m) })) : [{ model: "", rows }];
    sections.push({
      id: "worst",
      title: modelColumn ? "Lowest-scoring answers per model" : "Lowest-scoring answers",
      html: [
        `<p class="note">The ${limit} lowest ${escapeHtml(metric)} score${limit === 1 ? "" : "s"}${modelColumn ? " of each model" : ""} (failed rows are under "Failed rows"), each with the statements the judge found in the answer and in the reference, its verdicts (with their reasons, where the judge was asked for them), and the arithmetic of the score.</p>`,
        ...groups.flatMap((g) =>
          g.rows.length === 0 ? [] : [...(modelColumn ? [`<h3 class="worst-model">${escapeHtml(g.model)}</h3>`] : []), ...g.rows.map(article)],
        ),
      ].join("\n"),
    });
  }

  const failed = failedRowsSection(table, reportMetrics(), 50);
  if (failed) sections.push({ id: "failed", title: "Failed rows", html: failed });

  if (metrics.includes("multimodal_relevance") && limit > 0) {
    const scores = metricScores(table, "multimodal_relevance", "buildReport");
    const rows = worstRows(table, "multimodal_relevance", Math.max(limit, 10)).filter((row) => scores[row] === 0);
    if (rows.length > 0) {
      const articles = rows.map((row) => {
        const title = [`row ${row}`, textAt(table, "id", row), textAt(table, "model", row)].filter((s) => s !== "").join(" · ");
        return (
          `<article class="row" id="relevance-row-${row}"><h3>${escapeHtml(title)} <small>judge: ${escapeHtml(textAt(table, "multimodal_relevance_judge", row))}</small></h3>` +
          `<p><b>Question:</b> ${escapeHtml(textAt(table, "user_input", row))}<br><b>Answer:</b> ${escapeHtml(textAt(table, "response", row) || "(empty)")}</p>` +
          `<p><b>Retrieved contexts:</b></p>${contextsHtml(textAt(table, "retrieved_contexts", row))}` +
          `<p><b>multimodal_relevance = 0</b> — ${escapeHtml(textAt(table, "multimodal_relevance_reason", row))}</p></article>`
        );
      });
      sections.push({ id: "not-relevant", title: "Answers judged not relevant", html: articles.join("\n") });
    }
  }

  sections.push({ id: "answers", title: "Answers by question", html: answers.html });

  const version = packageVersion();
  const generated = options.generatedAt === null ? undefined : (options.generatedAt ?? new Date());
  const meta = [
    counted(table.rowCount, "row"),
    // At most ten names under the title: fifty would push the page down a screen (the summary lists them all).
    models.length > 0
      ? `${models.length} model${models.length === 1 ? "" : "s"}: ${models.length > MAX_MODELS_NAMED + 1 ? `${models.slice(0, MAX_MODELS_NAMED).join(", ")} and ${models.length - MAX_MODELS_NAMED} more (the summary lists them all)` : models.join(", ")}`
      : undefined,
    `metrics: ${metrics.join(", ")}`,
    generated ? `generated ${generated.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : undefined,
  ].filter((s): s is string => s !== undefined);
  const drawn = [...charts, ...(change?.charts ?? [])];
  const chartData = drawn.map((c) => ({ id: c.id, spec: c.spec }));
  const libraries = drawn.length > 0 ? chartLibraries() : [];
  const scripts = [FILTER_SCRIPT, ...libraries.map((l) => l.code), ...(drawn.length > 0 ? [CLIENT_SCRIPT] : [])];

  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(scripts))}">`,
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="evalframe${version ? ` ${escapeHtml(version)}` : ""}">`,
    `<title>${escapeHtml(tab)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    '<header id="top">',
    `<h1>${escapeHtml(heading)}</h1>`,
    ...(sentences.length > 0 ? [`<section id="headline" aria-label="Headline">${sentences.map((h) => `<p>${text(h)}</p>`).join("")}</section>`] : []),
    judgeSection(table, usage, labels),
    `<p class="meta">${meta.map(text).join(" · ")}</p>`,
    "</header>",
    `<nav class="toc" aria-label="Contents"><ol>${sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join("")}</ol></nav>`,
    ...sections.map((s) => `<section id="${s.id}">\n<h2>${escapeHtml(s.title)}</h2>\n${s.html}\n</section>`),
    `<footer>Made by evalframe${version ? ` ${escapeHtml(version)}` : ""}. This file is self-contained: it loads nothing from the network; the charts are drawn by the Vega, Vega-Lite and vega-embed code inside it.</footer>`,
    "</main>",
    drawn.length > 0 ? '<pre id="evalframe-status" hidden></pre>' : '<pre id="evalframe-status" hidden data-done="true">{"drawn":[],"failed":[]}</pre>',
    `<script>${FILTER_SCRIPT}</script>`,
    ...(drawn.length > 0
      ? [
          `<script type="application/json" id="evalframe-charts">${jsonForScript(chartData)}</script>`,
          ...libraries.map((l) => `<script data-library="${escapeHtml(l.name)}">${l.code}</script>`),
          `<script>${CLIENT_SCRIPT}</script>`,
        ]
      : []),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * Writes the HTML report of a scored table (see {@link buildReport}) to a
 * file, creating its folder if needed.
 *
 * @example
 * await writeReport(scored, "out/report.html", { title: "qa-models, offline judge" });
 */
export async function writeReport(scored: FrameInput, file: string, options: ReportOptions = {}): Promise<void> {
  await writeFileAtomic(file, buildReport(scored, options));
}
