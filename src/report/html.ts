/**
 * The self-contained HTML report of a scored table: one file with the judge,
 * the usage, the summary and comparison tables, the charts (vega, vega-lite
 * and vega-embed inlined, drawn at load), and the lowest-scoring answers with
 * their statements. It loads nothing from anywhere; every text is escaped.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { writeFileAtomic } from "../dataset/atomic-write";
import type { DataFrame } from "danfojs-node";
import { compareModels } from "../analysis/compare";
import { worst } from "../analysis/drilldown";
import { keyText, metricScores, summarize, type FrameInput } from "../analysis/summarize";
import { getColumn, type Cell, type Table } from "../dataset/table";
import { escapeHtml } from "../display/html";
import { tableHTML } from "../display/table";
import { tableFromDataFrame, tableToDataFrame } from "../frame/dataframe";
import { scoreRun } from "../frame/score";
import { explanation } from "../frame/statements";
import { OFFLINE_LABEL } from "../judge/offline-judge";
import { formatUsage, type UsageSummary } from "../judge/usage";
import { DETAILS_COLUMN } from "../metrics/answer-correctness/details";
import { chartLibraries, jsonForScript } from "./assets";
import { changeSection } from "./changes";
import { reportCharts, type ReportChart } from "./charts";
import { CLIENT_SCRIPT, CONTENT_SECURITY_POLICY, REPORT_CSS } from "./page";

/** Options of {@link buildReport} and {@link writeReport}. */
export interface ReportOptions {
  /** Title of the page; default "evalframe report". */
  title?: string;
  /**
   * The run's usage for the usage line; default the usage `score` recorded
   * for this frame (`scoreRun(scored)?.usage`). A frame read from CSV has
   * none, and then no usage line is shown; `null` hides it always.
   */
  usage?: UsageSummary | null;
  /** How many lowest-scoring answers to show with their statements (default 10). */
  worst?: number;
  /** Time shown as "generated"; default now, `null` for none (a reproducible file). */
  generatedAt?: Date | null;
  /**
   * The previous scored run of the same data: adds a "Change since the
   * previous run" section (`compareRuns(previous, scored)` per metric: the
   * change per model with its CI and verdict, a chart, and the `worst`
   * answers that changed most).
   */
  previous?: FrameInput;
}

/** Score columns the report knows, and the judge column of each. */
const METRICS = [
  { metric: "answer_correctness", judge: "answer_correctness_judge", error: "answer_correctness_error" },
  { metric: "multimodal_relevance", judge: "multimodal_relevance_judge", error: "multimodal_relevance_error" },
] as const;

const ROW_COLUMN = "__evalframe_row__";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function text(table: Table, name: string, row: number): string {
  const v = getColumn(table, name)?.values[row];
  return v === null || v === undefined ? "" : String(v);
}

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

function tableBlock(html: string): string {
  return `<div class="table-wrap">${html}</div>`;
}

/** Row indices of the `n` lowest valid scores of `metric`, lowest first, through `worst()`. */
function worstRows(table: Table, metric: string, n: number): number[] {
  const indexed: Table = {
    rowCount: table.rowCount,
    columns: [...table.columns, { name: ROW_COLUMN, type: "number", values: Array.from({ length: table.rowCount }, (_, i) => i) }],
  };
  const picked = tableFromDataFrame(worst(tableToDataFrame(indexed), { metric, n }));
  return (getColumn(picked, ROW_COLUMN)?.values ?? []).map(Number);
}

function judgeSection(table: Table, usage: UsageSummary | undefined, runJudges: readonly string[]): { html: string; offline: boolean } {
  const labels = new Set<string>(runJudges);
  let offlineRows = 0;
  let judgedRows = 0;
  for (const { judge } of METRICS) {
    const column = getColumn(table, judge);
    if (!column) continue;
    for (const label of distinct(column.values)) labels.add(label);
    column.values.forEach((v) => {
      if (typeof v === "string" && v !== "") {
        judgedRows++;
        if (v === OFFLINE_LABEL || v.startsWith("offline")) offlineRows++;
      }
    });
  }
  const offline = [...labels].some((l) => l === OFFLINE_LABEL || l.startsWith("offline"));
  const parts: string[] = [];
  parts.push(
    `<p class="judges">Judge${labels.size === 1 ? "" : "s"}: ${
      labels.size === 0 ? "<i>unknown (no judge column)</i>" : [...labels].map((l) => `<span class="judge">${escapeHtml(l)}</span>`).join("")
    }</p>`,
  );
  if (offline) {
    parts.push(
      `<div class="banner offline" role="note"><strong>Offline judge — ${escapeHtml(OFFLINE_LABEL)}.</strong> ` +
        `${judgedRows > 0 ? `${offlineRows.toLocaleString("en-US")} of ${judgedRows.toLocaleString("en-US")} judgements` : "These scores"} ` +
        `came from evalframe's offline judge: lexical statement matching and hashed bag-of-words embeddings, no language model. ` +
        `Use them to try the workflow and for regression checks, not to rank models; set OPENAI_API_KEY (or OPENAI_BASE_URL) for a real judge.</div>`,
    );
  }
  if (usage) parts.push(`<p class="usage" title="usage of the scoring run">${escapeHtml(formatUsage(usage))}</p>`);
  return { html: parts.join("\n"), offline };
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

function failedRowsSection(table: Table, limit: number): string | undefined {
  const failures: { row: number; metric: string; reason: string }[] = [];
  const counts: string[] = [];
  for (const { metric, error } of METRICS) {
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
  const rows = failures.slice(0, limit).map(
    (f) =>
      `<tr><td class="ef-num">${f.row}</td><td>${escapeHtml(text(table, "id", f.row))}</td><td>${escapeHtml(text(table, "model", f.row))}</td>` +
      `<td>${escapeHtml(f.metric)}</td><td class="error">${escapeHtml(f.reason)}</td></tr>`,
  );
  return [
    `<p>Rows that could not be scored (${counts.join(", ")}). They count as errors in the summary (n_error) and are never averaged in as 0.` +
      `${failures.length > limit ? ` The first ${limit} are listed.` : ""}</p>`,
    tableBlock(`<table><thead><tr><th>row</th><th>id</th><th>model</th><th>metric</th><th style="text-align:left">reason</th></tr></thead><tbody>${rows.join("")}</tbody></table>`),
  ].join("\n");
}

function chartSection(charts: readonly ReportChart[], notes: readonly string[]): string {
  const figures = charts.map(
    (c) =>
      `<figure><h3>${escapeHtml(c.title)}</h3><div class="chart" id="${escapeHtml(c.id)}" role="img" aria-label="${escapeHtml(c.title)}"></div>` +
      `<figcaption>${escapeHtml(c.caption)}</figcaption></figure>`,
  );
  return [
    `<noscript><p class="note">The charts are drawn by JavaScript when the page opens; the tables hold the same numbers.</p></noscript>`,
    `<div class="charts">${figures.join("\n")}</div>`,
    ...notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`),
  ].join("\n");
}

/**
 * Builds the HTML report of a scored table as one self-contained page: title;
 * the judge(s) with an "offline (approximate)" banner when the offline judge
 * produced scores; the usage line when known; `summarize` per model; the
 * `compareModels` table per metric when there are two models or more; the
 * charts that apply (score distribution, mean with CI, threshold sweep,
 * verdicts, factual vs semantic, question heatmap, per-question differences,
 * wins/ties/losses, relevance rate); the lowest-scoring answers with their
 * statements and verdicts; answers judged not relevant; and failed rows.
 * With `previous`, a "Change since the previous run" section follows the
 * summary.
 * Vega, Vega-Lite and vega-embed are inlined (about 0.8 MB), so the file
 * opens anywhere without a network; it references no URL, and every text
 * from the table is HTML-escaped.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * const html = buildReport(scored, { title: "Nightly eval" });
 *
 * @throws {Error} when the table has no score column (answer_correctness or multimodal_relevance).
 */
export function buildReport(scored: DataFrame, options: ReportOptions = {}): string {
  const title = options.title ?? "evalframe report";
  const limit = options.worst ?? 10;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`buildReport: worst must be a whole number ≥ 0, got ${limit}`);
  const table = tableFromDataFrame(scored);
  const metrics = METRICS.map((m) => m.metric).filter((m) => getColumn(table, m) !== undefined);
  if (metrics.length === 0) {
    throw new Error(
      `buildReport: no score column (answer_correctness or multimodal_relevance); score the table first. The columns are: ${table.columns.map((c) => c.name).join(", ")}`,
    );
  }
  const run = scoreRun(scored);
  const usage = options.usage === null ? undefined : (options.usage ?? run?.usage);
  const modelColumn = getColumn(table, "model");
  const models = modelColumn ? distinct(modelColumn.values) : [];

  const summary = summarize(scored, modelColumn ? { by: "model" } : {});
  const comparisons: { metric: string; frame: DataFrame | undefined; problem: string | undefined }[] = [];
  if (models.length >= 2) {
    for (const metric of metrics) {
      try {
        comparisons.push({ metric, frame: compareModels(scored, { metric }), problem: undefined });
      } catch (error) {
        comparisons.push({ metric, frame: undefined, problem: message(error) });
      }
    }
  }
  const acComparison = comparisons.find((c) => c.metric === "answer_correctness")?.frame;
  const { charts, notes } = reportCharts({ scored, table, models, summary: modelColumn ? summary : undefined, comparison: acComparison });
  const judges = judgeSection(table, usage, run?.judges ?? []);

  const sections: { id: string; title: string; html: string }[] = [];
  sections.push({
    id: "summary",
    title: modelColumn ? "Summary by model" : "Summary",
    html: [
      `<p class="note">n: rows · n_valid: scored · n_error: failed (never counted as 0) · mean, std, median, quartiles, min and max over the valid scores · ci_low/ci_high: seeded 95% bootstrap interval of the mean · pass_rate: for 0/1 scores.</p>`,
      tableBlock(tableHTML(summary, { digits: 3, maxRows: Number.POSITIVE_INFINITY })),
    ].join("\n"),
  });
  const change = options.previous === undefined ? undefined : changeSection(scored, options.previous, metrics, limit);
  if (change) sections.push({ id: "change", title: "Change since the previous run", html: change.html });
  if (comparisons.length > 0) {
    sections.push({
      id: "comparison",
      title: "Model comparison",
      html: [
        `<p class="note">Answers paired by the column named in paired_by (the question id, else the question text); an unpaired row says why in unpaired_because and uses a two-sample bootstrap. mean_diff = mean_a − mean_b over the questions both answered validly, with a paired bootstrap 95% CI; wins/ties/losses of model_a; a Wilcoxon signed-rank test (sign test for 0/1 scores) with Holm's correction across the rows (p_holm); verdict at α = 0.05.</p>`,
        ...comparisons.map(
          (c) =>
            `<h3>${escapeHtml(c.metric)}</h3>` +
            (c.frame ? tableBlock(tableHTML(c.frame, { digits: 3, maxRows: Number.POSITIVE_INFINITY })) : `<p class="note">Not computed: ${escapeHtml(c.problem ?? "")}</p>`),
        ),
      ].join("\n"),
    });
  }
  if (charts.length > 0 || notes.length > 0) sections.push({ id: "charts", title: "Charts", html: chartSection(charts, notes) });

  if (metrics.includes("answer_correctness") && getColumn(table, DETAILS_COLUMN) && limit > 0) {
    const metric = getColumn(table, "answer_correctness_continuous") ? "answer_correctness_continuous" : "answer_correctness";
    const rows = worstRows(table, metric, limit);
    const articles = rows.map((row) => {
      let story: string;
      try {
        story = explanation(scored, row).html;
      } catch (error) {
        story = `<p class="error">${escapeHtml(message(error))}</p>`;
      }
      return `<article class="row" id="row-${row}">${story}</article>`;
    });
    sections.push({
      id: "worst",
      title: "Lowest-scoring answers",
      html: [
        `<p class="note">The ${rows.length} lowest ${escapeHtml(metric)} scores (failed rows are listed under "Failed rows"), each with the statements the judge found in the answer and in the reference, its verdicts and reasons, and the arithmetic of the score.</p>`,
        ...articles,
      ].join("\n"),
    });
  }

  if (metrics.includes("multimodal_relevance") && limit > 0) {
    const scores = metricScores(table, "multimodal_relevance", "buildReport");
    const rows = worstRows(table, "multimodal_relevance", limit).filter((row) => scores[row] === 0);
    if (rows.length > 0) {
      const articles = rows.map((row) => {
        const heading = [`row ${row}`, text(table, "id", row), text(table, "model", row)].filter((s) => s !== "").join(" · ");
        return (
          `<article class="row" id="relevance-row-${row}"><h3>${escapeHtml(heading)} <small>judge: ${escapeHtml(text(table, "multimodal_relevance_judge", row))}</small></h3>` +
          `<p><b>Question:</b> ${escapeHtml(text(table, "user_input", row))}<br><b>Answer:</b> ${escapeHtml(text(table, "response", row) || "(empty)")}</p>` +
          `<p><b>Retrieved contexts:</b></p>${contextsHtml(text(table, "retrieved_contexts", row))}` +
          `<p><b>multimodal_relevance = 0</b> — ${escapeHtml(text(table, "multimodal_relevance_reason", row))}</p></article>`
        );
      });
      sections.push({ id: "not-relevant", title: "Answers judged not relevant", html: articles.join("\n") });
    }
  }

  const failed = failedRowsSection(table, 50);
  if (failed) sections.push({ id: "failed", title: "Failed rows", html: failed });

  const version = packageVersion();
  const generated = options.generatedAt === null ? undefined : (options.generatedAt ?? new Date());
  const meta = [
    `${table.rowCount.toLocaleString("en-US")} rows`,
    models.length > 0 ? `${models.length} model${models.length === 1 ? "" : "s"}: ${models.join(", ")}` : undefined,
    `metrics: ${metrics.join(", ")}`,
    generated ? `generated ${generated.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC")}` : undefined,
  ].filter((s): s is string => s !== undefined);
  const drawn = [...charts, ...(change?.charts ?? [])];
  const chartData = drawn.map((c) => ({ id: c.id, spec: c.spec }));
  const libraries = drawn.length > 0 ? chartLibraries() : [];

  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">`,
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="evalframe${version ? ` ${escapeHtml(version)}` : ""}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    "</head>",
    "<body>",
    "<main>",
    '<header id="top">',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">${meta.map(escapeHtml).join(" · ")}</p>`,
    judges.html,
    "</header>",
    `<nav class="toc" aria-label="Contents"><ol>${sections.map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`).join("")}</ol></nav>`,
    ...sections.map((s) => `<section id="${s.id}">\n<h2>${escapeHtml(s.title)}</h2>\n${s.html}\n</section>`),
    `<footer>Made by evalframe${version ? ` ${escapeHtml(version)}` : ""}. This file is self-contained: it loads nothing from the network; the charts are drawn by the Vega, Vega-Lite and vega-embed code inside it.</footer>`,
    "</main>",
    drawn.length > 0 ? '<pre id="evalframe-status" hidden></pre>' : '<pre id="evalframe-status" hidden data-done="true">{"drawn":[],"failed":[]}</pre>',
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
export async function writeReport(scored: DataFrame, file: string, options: ReportOptions = {}): Promise<void> {
  await writeFileAtomic(file, buildReport(scored, options));
}
