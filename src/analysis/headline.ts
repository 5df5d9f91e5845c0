/**
 * The conclusion of a run in a few sentences, generated from the numbers:
 * the ranking, each pairwise difference with its interval and verdict in
 * words, the change since a previous run, the rows that failed, and the
 * judge with its caveat.
 */
import type { Cell, Table } from "../dataset/table";
import { DEFAULT_BY, type PairOptions } from "../dataset/column-toolkit";
import { getColumn } from "../dataset/table";
import { cellNumber, cellString } from "../dataset/column-toolkit";
import { counted, wholePercent } from "../display/words";
import { errorColumnFor, metricScores, readTable, repeatedAnswers, type FrameInput } from "./summarize";
import { MEAN_DISAGREES } from "./comparison-settings";
import { estimateReader, shareEstimate, shiftEstimate, type TestEstimate } from "./test-estimate";
import { isPointInterval } from "../stats/bootstrap";

/** Options of {@link headline}. */
export interface HeadlineOptions extends Pick<PairOptions, "by"> {
  /** The score column to speak of; default the first of the summary's metrics (answer_correctness first). */
  metric?: string;
  /**
   * The judge: its label, e.g. `gpt-4o-mini @ api.openai.com`,
   * `offline (approximate)` or `hand-labelled`, or the judge itself
   * (`createJudge()`; its `label` is read). Default: the summary's `judge`
   * column, which `summarize` fills from the scored table's `<metric>_judge`
   * column, so that the offline judge's caveat is never left out; `""` leaves
   * the sentence out.
   */
  judge?: string | { readonly label: string };
  /**
   * The scored table the summary was made from. It gives each pair with a
   * winner the estimate and interval of its test beside the mean's (see
   * {@link headline}). When more than half of its
   * answers failed to score, the headline's first sentence says so and names
   * the commonest reason (its `<metric>_error` cells, grouped by
   * {@link failureKind} as the report's "Failed rows" groups them); without
   * it that sentence gives the counts alone.
   */
  scored?: FrameInput;
  /**
   * The change since a previous run, `compareRuns(previous, scored, { metric })`
   * (its `summary`, and its `changes` for the answers that moved most): one
   * sentence on it, after the model comparison. Text instead: why the runs
   * could not be compared, which that sentence then says.
   */
  change?: RunChangeInput | string;
}

/** What {@link headline} reads of a `compareRuns` result (a `RunComparison` is one). */
export interface RunChangeInput {
  /** One row per model and a last `(all)` row: `model`, `n_paired`, `change`, `ci_low`, `ci_high`, `p_holm`, `verdict`, `test`, `improved`, `worsened`, `failed_after_only`, … */
  summary: FrameInput;
  /** One row per answer that differs: `status` ("better", "worse", …), `change` and, when the runs have references, `reference_changed` ("yes"/"no"). */
  changes?: FrameInput;
  /** How the paired answers were scored differently in the two runs: the sentence then says that part of the change may be the scoring's. */
  scoringChanges?: readonly { setting: string; before: string; after: string }[];
}

/** Share of failed answers above which the headline leads with the failures: more than half. */
const MOSTLY_FAILED = 0.5;

/** Fewest pairs (or, unpaired, valid scores a side) a difference needs before the headline draws a conclusion from it. */
const MIN_PAIRS = 2;

/** An answer whose score moved by at least this much between runs is counted apart in the change sentence. */
const LARGE_CHANGE = 0.5;

/**
 * Most models the ranking sentence names one by one, and most neighbouring
 * pairs a sentence on the differences names: past them the rest are counted
 * (the summary and the comparison list every one), so that fifty models make
 * a headline of a few lines, not a page.
 */
const MAX_RANKED = 10;
const MAX_PAIR_CLAUSES = 5;

/** Digits that stand alone (a count, a size, a line or row number), not inside a name such as "gpt-4o-mini", "llama3.1" or "qwen2.5:7b", nor an HTTP status. */
const LONE_NUMBER = /(?<!HTTP )(?<![\p{L}\p{N}_.\-/])\d+(?:[.,]\d+)*(?![\p{L}\p{N}_\-]|[.,]\d)/gu;

/** Ids that differ per request: UUIDs, "chatcmpl-…"/"req_…" style ids, long hex runs. */
const REQUEST_ID = /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z]+[-_](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{12,}|[0-9a-f]{16,})\b/g;

/**
 * The kind of a failure reason, so that rows which failed the same way land
 * in one group, keyed on the stage, the model and the cause. Only what varies
 * from row to row is left out: details in parentheses, quoted text (a cell,
 * a reply), addresses, request ids, and numbers that stand alone (counts,
 * sizes, row and line numbers; "N"), while names keep their digits
 * ("gpt-4o-mini") and an HTTP status stays ("HTTP 401"). After an HTTP
 * status the server's own words are dropped; advice after a ";" is dropped,
 * except a judge's "last problem", which is the cause.
 *
 * @example
 * failureKind("embedding failed: request timed out after 60000 ms (try 2)") // "embedding failed: request timed out after N ms"
 * failureKind("… failed: statements request to gpt-4o-mini: HTTP 401 from https://api.openai.com/v1: 401 Incorrect API key …; the API key was not accepted: …")
 * // "… failed: statements request to gpt-4o-mini: HTTP 401"
 */
export function failureKind(reason: string): string {
  let s = reason.replace(/\s+/g, " ").trim();
  for (let before = ""; before !== s; ) {
    before = s;
    s = s.replace(/\s*\([^()]*\)/g, "");
  }
  // A judge's "last problem" quotes the reply at its end (with perhaps a hint after it): the cause is the words before.
  s = s.replace(/(; last problem: [^"“]*?):\s*["“][\s\S]*$/, "$1");
  // The status is the cause; what the server said with it varies (it may quote the request).
  s = s.replace(/\bHTTP (\d{3})\b[^;]*/, "HTTP $1");
  const [first = "", ...rest] = s.split(";");
  s = [first, ...rest.filter((part) => /^\s*last problem:/.test(part))].join(";");
  s = s
    .replace(/"[^"]*"|'[^']*'|`[^`]*`|“[^”]*”/g, "…")
    .replace(/\b(?:https?|file|data):\S+/g, "…")
    .replace(REQUEST_ID, "…")
    .replace(/(?<!HTTP )(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?/g, "…")
    .replace(LONE_NUMBER, "N");
  s = s.replace(/[\s.,:;]+$/, "").trim();
  const chars = Array.from(s);
  return chars.length > 200 ? `${chars.slice(0, 200).join("")}…` : s || "(no reason given)";
}

interface ModelLine {
  model: string;
  n: number;
  valid: number;
  errors: number;
  mean: number;
  low: number;
  high: number;
}

function rowsOf(table: Table): Record<string, Cell>[] {
  return Array.from({ length: table.rowCount }, (_, i) => Object.fromEntries(table.columns.map((c) => [c.name, c.values[i] ?? null])));
}

/** Two decimals, with a true minus sign. */
function fixed(x: number): string {
  return x.toFixed(2).replace(/^-/, "−");
}

/** Whether `x` reads 0.00 (or −0.00) at two decimals. */
function readsZero(x: number): boolean {
  return fixed(Math.abs(x)) === "0.00";
}

/**
 * An interval: "0.12–0.30", or "−0.03 to 0.13" when a bound is negative (a
 * dash would read as a minus). A bound that is not 0 but reads 0.00 at two
 * decimals gets one significant digit ("0.004–0.10", "−0.003 to 0.11"), so
 * that whether the interval holds 0 can be read off the page. A bootstrap
 * interval of no width (values that never vary) is no interval: "n/a".
 */
function interval(low: number, high: number): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "n/a";
  // A bootstrap of values that do not vary (every score 0, every pair differing by 1) is a point, not an interval of no width.
  if (isPointInterval(low, high)) return "n/a: no variation to resample";
  const bound = (x: number) => (x !== 0 && readsZero(x) ? x.toFixed(Math.min(12, -Math.floor(Math.log10(Math.abs(x))))).replace(/^-/, "−") : fixed(x));
  return low < 0 || high < 0 ? `${bound(low)} to ${bound(high)}` : `${bound(low)}–${bound(high)}`;
}

/** A p-value as people read it: "< 0.001", else three decimals (two significant digits above 0.1). */
function pValue(p: number): string {
  if (!Number.isFinite(p)) return "n/a";
  if (p < 0.001) return "< 0.001";
  return `= ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

/** The test's name in a sentence. */
function testName(test: string): string {
  if (test.startsWith("wilcoxon")) return "Wilcoxon";
  if (test.startsWith("sign test")) return "sign test";
  if (test.startsWith("two-sample bootstrap")) return "unpaired bootstrap";
  if (test.startsWith("permutation test")) return "exact permutation test";
  return test;
}

/** What the judge's label says about the numbers. */
function judgeSentence(judge: string): string {
  if (/offline/i.test(judge)) {
    return `Scored by the offline judge (approximate, lexical): good for trying the workflow, not for choosing a model; set a model to judge before you rely on these numbers.`;
  }
  if (/hand-labelled/i.test(judge)) return "Scored from hand labels: the verdicts of a careful human reader, replayed.";
  return `Scored by ${judge}.`;
}

/**
/**
 * Two to five sentences that state a run's conclusion, from a summary
 * (`summarize(scored, { by: "model" })`) and, with two or more models, a
 * comparison (`compareModels(scored)`):
 *
 * - when more than half of the answers failed to score, first that, with the
 *   commonest reason (given `scored`): what follows rests on the few scored;
 * - the ranking with each mean and its 95% interval (models whose means
 *   read the same at two decimals are "tied with" each other, not ranked;
 *   past ten models the rest are counted, down to the last);
 * - the difference between each model and the next in the ranking, with its
 *   interval, test and verdict in words; given `scored`, a pair with a winner
 *   (or whose mean's interval excludes 0) whose mean does not say what its
 *   test says (the other side, or an interval that disagrees with the
 *   verdict) also gets the estimate and interval of the test its verdict
 *   follows (the Hodges–Lehmann shift with its Wilcoxon interval; for the
 *   sign test, the share of differing questions won with its
 *   Clopper–Pearson interval), so that an interval beside the verdict agrees
 *   with it (where they agree, the mean's clause alone: the estimate is in
 *   the comparison's table), and a clause whose interval still differs from
 *   its verdict says why (Holm's correction, ties) (the real differences in one
 *   sentence, those that may be chance in another, equal means as "score
 *   the same", and a pair whose test and mean lean opposite ways as
 *   inconclusive, never as a difference; past five pairs in one sentence
 *   the rest are counted); a difference from fewer than 2 pairs (unpaired: fewer than
 *   2 scored answers a side) has no interval, and no conclusion is drawn;
 * - with `change`, the change since the previous run;
 * - how many rows failed to score (left out, never counted as 0), and, given
 *   `scored`, how many repeat an earlier row's (id, model) (the summary counts
 *   them in n_error; they are said as repeats, not failures);
 * - and the judge, with its caveat when it is the offline judge (the judge
 *   given, else the one the summary names).
 *
 * @example
 * const scored = await scoreAnswerCorrectness(df);
 * headline(summarize(scored, { by: "model" }), compareModels(scored), { judge: "gpt-4o-mini @ api.openai.com" });
 * // ["Ranking by mean answer_correctness: atlas-pro 0.74 (95% CI 0.70–0.78), chatter-xl 0.50 (0.47–0.54), swift-mini 0.32 (0.23–0.42); 42 answers each.",
 * //  "atlas-pro scores 0.24 higher than chatter-xl (95% CI 0.19–0.29; Wilcoxon p_holm < 0.001), and chatter-xl scores 0.18 higher than swift-mini (95% CI 0.07–0.28; Wilcoxon p_holm = 0.003): real differences.",
 * // with { scored }, where the typical question and the mean disagree: "… scores 0.02 higher than … on average (95% CI −0.01–0.05) and 0.05 higher on the typical question (Hodges–Lehmann, 95% CI 0.01–0.09; Wilcoxon p_holm = 0.02; …)"
 * //  "Scored by gpt-4o-mini @ api.openai.com."]
 */
export function headline(summary: FrameInput, comparison?: FrameInput, options: HeadlineOptions = {}): string[] {
  const caller = "headline";
  const table = readTable(summary, caller);
  const by = options.by ?? DEFAULT_BY;
  const rows = rowsOf(table);
  const metrics = [...new Set(rows.map((r) => cellString(r["metric"])).filter((m) => m !== ""))];
  const metric = options.metric ?? (metrics.includes("answer_correctness") ? "answer_correctness" : metrics[0]);
  if (metric === undefined) throw new Error(`${caller}: the summary has no metric column; give the output of summarize(scored, { by: "model" })`);
  const hasModels = getColumn(table, by) !== undefined;
  const lines: ModelLine[] = rows
    .filter((r) => cellString(r["metric"]) === metric)
    .map((r) => ({
      // Rows with no model (bad input) are a group of their own, named so that a sentence still reads.
      model: hasModels ? cellString(r[by]) || `(no ${by})` : "all answers",
      n: cellNumber(r["n"]),
      valid: cellNumber(r["n_valid"]),
      errors: cellNumber(r["n_error"]),
      mean: cellNumber(r["mean"]),
      low: cellNumber(r["ci_low"]),
      high: cellNumber(r["ci_high"]),
    }))
    .sort((a, b) => (Number.isNaN(a.mean) ? 1 : Number.isNaN(b.mean) ? -1 : b.mean - a.mean));
  if (lines.length === 0) throw new Error(`${caller}: the summary has no rows for ${metric}; the metrics are: ${metrics.join(", ") || "none"}`);

  // The summary counts a repeated (id, model) row among n_error (its first answer is the one scored): given the
  // scored table, those rows are said as repeats, not as answers that failed to score.
  const repeats = options.scored === undefined ? new Map<string, number>() : repeatsByGroup(readTable(options.scored, caller), by, hasModels);
  for (const l of lines) l.errors = Math.max(0, l.errors - (repeats.get(l.model) ?? 0));
  const repeated = [...repeats.values()].reduce((a, n) => a + n, 0);
  const sentences: string[] = [];
  const scored = lines.filter((l) => !Number.isNaN(l.mean));
  const errors = lines.reduce((a, l) => a + (Number.isFinite(l.errors) ? l.errors : 0), 0);
  // The answers there are: the rows, less those that repeat one.
  const total = lines.reduce((a, l) => a + (Number.isFinite(l.n) ? l.n : 0), 0) - repeated;
  const whose = hasModels
    ? ` (${lines
        .filter((l) => l.errors > 0)
        .sort((a, b) => b.errors - a.errors)
        .map((l) => `${l.errors} of ${l.model}'s`)
        .join(", ")})`
    : "";
  const mostlyFailed = total > 0 && errors > total * MOSTLY_FAILED;
  if (mostlyFailed) sentences.push(failureLead(metric, total, errors, whose, options.scored === undefined ? undefined : failureReasons(options.scored, metric)));

  const sameN = scored.every((l) => l.valid === scored[0]!.valid);
  const answers = (l: ModelLine) => (sameN ? "" : `, ${counted(l.valid, "answer")}`);
  if (scored.length === 0) {
    if (!mostlyFailed) sentences.push(`No answer could be scored on ${metric}.`);
  } else if (scored.length === 1) {
    const l = scored[0]!;
    sentences.push(`${hasModels ? `${l.model} scores` : "The answers score"} a mean ${metric} of ${fixed(l.mean)} (95% CI ${interval(l.low, l.high)}; ${counted(l.valid, "answer")}).`);
  } else {
    const shown = scored.map((l, k) => `${l.model} ${fixed(l.mean)} (${k === 0 ? "95% CI " : ""}${interval(l.low, l.high)}${answers(l)})`);
    // Models whose means read the same are tied with each other: none is ranked ahead.
    const groups: string[][] = [];
    scored.forEach((l, k) => {
      if (k > 0 && tied(scored[k - 1]!, l)) groups[groups.length - 1]!.push(shown[k]!);
      else groups.push([shown[k]!]);
    });
    const ranked = groups.map(([first, ...others]) => (others.length === 0 ? first! : `${first!} tied with ${others.length === 1 ? others[0]! : `${others.slice(0, -1).join(", ")} and ${others.at(-1)!}`}`));
    // Many models: the first groups up to MAX_RANKED models, then how many more down to the last.
    let named = 0;
    let shownGroups = 0;
    while (shownGroups < groups.length && (shownGroups === 0 || named + groups[shownGroups]!.length <= MAX_RANKED)) named += groups[shownGroups++]!.length;
    const rest = scored.length - named;
    const last = scored.at(-1)!;
    const listed = rest > 1 ? [...ranked.slice(0, shownGroups), `${rest} more down to ${last.model} ${fixed(last.mean)} (the summary lists them all)`] : ranked;
    sentences.push(`Ranking by mean ${metric}: ${listed.join(", ")}${sameN ? `; ${counted(scored[0]!.valid, "answer")} each` : ""}.`);
  }
  const unscored = lines.filter((l) => Number.isNaN(l.mean)).map((l) => l.model);
  if (unscored.length > 0 && scored.length > 0) sentences.push(`${unscored.join(", ")} ${unscored.length === 1 ? "has" : "have"} no scored answer.`);

  if (comparison !== undefined && scored.length > 1) sentences.push(...pairSentences(comparison, scored, options.scored === undefined ? undefined : estimatesOf(options.scored, metric, by)));
  if (typeof options.change === "string") sentences.push(`Since the previous run: not compared (${options.change.replace(/[.\s]+$/, "")}).`);
  else if (options.change !== undefined) sentences.push(changeSentence(options.change, metric));

  if (errors > 0 && !mostlyFailed) {
    sentences.push(`${errors.toLocaleString("en-US")} of ${counted(total, "answer")} failed to score${whose}: they are left out of the means, not counted as 0.`);
  }
  if (repeated > 0) sentences.push(`${counted(repeated, "row")} ${repeated === 1 ? "repeats" : "repeat"} an earlier row's id and model: only the first is counted.`);
  const judge = judgeOf(options.judge, rows.filter((r) => cellString(r["metric"]) === metric));
  if (judge !== "") sentences.push(judgeSentence(judge));
  return sentences;
}

/** The judge to name: the option's label, else the distinct labels of the summary's `judge` cells for the metric. */
function judgeOf(option: HeadlineOptions["judge"], metricRows: readonly Record<string, Cell>[]): string {
  if (option !== undefined) return (typeof option === "string" ? option : option.label).trim();
  const labels = new Set<string>();
  // A summary's judge cell joins a group's labels with "; " (judgeText).
  for (const r of metricRows) for (const label of cellString(r["judge"]).split("; ")) if (label.trim() !== "") labels.add(label.trim());
  return [...labels].join(" and ");
}

/** Two models whose means read the same at two decimals: neither is ahead. */
function tied(a: ModelLine, b: ModelLine): boolean {
  return fixed(a.mean) === fixed(b.mean);
}

/** The kinds of failure of a metric's failed rows in a scored table, commonest first (empty when it cannot be read). */
function failureReasons(scored: FrameInput, metric: string): { kind: string; rows: number }[] {
  try {
    const table = readTable(scored, "headline");
    const scores = metricScores(table, metric, "headline");
    const reasons = errorColumnFor(table, metric);
    const counts = new Map<string, number>();
    scores.forEach((v, i) => {
      if (!Number.isNaN(v)) return;
      const kind = failureKind(cellString(reasons?.values[i]));
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    });
    return [...counts].map(([kind, rows]) => ({ kind, rows })).sort((a, b) => b.rows - a.rows);
  } catch {
    return [];
  }
}

/** The first sentence when most answers failed: how few were scored, how many failed, and why (the commonest kind). */
function failureLead(metric: string, total: number, errors: number, whose: string, reasons: { kind: string; rows: number }[] | undefined): string {
  const top = reasons?.[0];
  const quote = (kind: string) => (kind === "(no reason given)" ? "no reason given" : `“${kind}”`);
  const why =
    top === undefined
      ? ""
      : top.rows >= errors
        ? `, all with ${quote(top.kind)}`
        : top.rows > errors / 2
          ? `, most (${top.rows.toLocaleString("en-US")}) with ${quote(top.kind)}`
          : `, the commonest reason (${top.rows.toLocaleString("en-US")}) ${quote(top.kind)}`;
  const valid = total - errors;
  if (valid === 0) return `No answer could be scored on ${metric}: all ${counted(total, "answer")} failed${whose}${why}.`;
  return (
    `Only ${valid.toLocaleString("en-US")} of ${counted(total, "answer")} ${valid === 1 ? "was" : "were"} scored on ${metric}: ${errors.toLocaleString("en-US")} failed${whose}${why}; ` +
    `they are left out of the means, not counted as 0, so what follows rests on ${counted(valid, "answer")}.`
  );
}

/**
 * The differences between models next to each other in the ranking (with two
 * models, their one pair): the real ones in one sentence, those that may be
 * chance in another, those whose test and mean disagree (inconclusive:
 * no winner) in a third, and those from too few answers to conclude anything
 * in a fourth. The other pairs follow from these, or are in the table.
 */
function pairSentences(comparison: FrameInput, ranked: readonly ModelLine[], estimates?: (a: string, b: string, test: string, pairBy: string) => TestEstimate | undefined): string[] {
  const rows = rowsOf(readTable(comparison, "headline"));
  const tested = rows.filter((r) => Number.isFinite(cellNumber(r["p_holm"]))).length;
  const real: string[] = [];
  const chance: string[] = [];
  const mixed: string[] = [];
  const thin: string[] = [];
  let thinUnpaired = false;
  const notes: string[] = [];
  for (let k = 0; k + 1 < ranked.length; k++) {
    const higher = ranked[k]!;
    const lower = ranked[k + 1]!;
    const row = rows.find(
      (r) => (cellString(r["model_a"]) === higher.model && cellString(r["model_b"]) === lower.model) || (cellString(r["model_a"]) === lower.model && cellString(r["model_b"]) === higher.model),
    );
    if (!row) continue;
    const flip = cellString(row["model_a"]) === lower.model;
    const diff = flip ? -cellNumber(row["mean_diff"]) : cellNumber(row["mean_diff"]);
    const low = flip ? -cellNumber(row["ci_high"]) : cellNumber(row["ci_low"]);
    const high = flip ? -cellNumber(row["ci_low"]) : cellNumber(row["ci_high"]);
    if (Number.isNaN(diff)) {
      notes.push(`${higher.model} and ${lower.model} cannot be compared: no question has a scored answer from both.`);
      continue;
    }
    const why = cellString(row["unpaired_because"]);
    // Too few answers for an interval or a verdict: one pair (or one score a side, unpaired) says nothing about chance.
    const pairs = cellNumber(row["n_pairs"]);
    const unpaired = /^(two-sample|permutation)/.test(cellString(row["test"])) || why !== "";
    if (unpaired ? higher.valid < MIN_PAIRS || lower.valid < MIN_PAIRS : pairs < MIN_PAIRS) {
      thinUnpaired ||= unpaired;
      thin.push(
        `${higher.model} against ${lower.model} (${unpaired ? `unpaired, ${higher.valid.toLocaleString("en-US")} and ${lower.valid.toLocaleString("en-US")} scored answers` : `${counted(pairs, "question")} scored for both`})`,
      );
      continue;
    }
    const testCell = cellString(row["test"]);
    const verdict = cellString(row["verdict"]);
    const isReal = / better than /.test(verdict);
    const pHolm = cellNumber(row["p_holm"]);
    const pRaw = cellNumber(row["p_value"]);
    // The estimate and interval of the test the verdict follows, as higher − lower.
    const meanExcludes = low > 0 || high < 0;
    const wanted = isReal || verdict === MEAN_DISAGREES || meanExcludes;
    const found = unpaired || estimates === undefined || !wanted ? undefined : estimates(higher.model, lower.model, testCell, cellString(row["paired_by"]));
    // Printed where it carries the verdict (a winner, or no winner by a test that disagrees with the mean or its interval); a pair
    // whose every number says "no difference" keeps the short form. With no question differing there is nothing typical to estimate.
    // Differences that are all the same give a point, said already by the mean's "no variation": no second clause for it.
    const own = found !== undefined && found.n > 0 && !(found.low === found.high) ? found : undefined;
    const ownExcludes = own === undefined || !Number.isFinite(own.low) ? undefined : own.kind === "shift" ? own.low > 0 || own.high < 0 : own.low > 0.5 || own.high < 0.5;
    // When the interval printed beside the test and the verdict still differ, say why in the same clause.
    const why2: string[] = [];
    const corrected = tested > 1 && Number.isFinite(pRaw) && pRaw < ALPHA && !(pHolm < ALPHA);
    if (verdict !== MEAN_DISAGREES) {
      const alone = `the interval${own === undefined ? " is" : "s are"} for this pair alone, while p_holm is corrected for the ${tested} pairs compared`;
      if (ownExcludes !== undefined && ownExcludes !== isReal) {
        why2.push(corrected ? alone : "that interval is approximate where differences tie, and the verdict follows the p-value");
      } else if (own === undefined && meanExcludes !== isReal) {
        // What the test asks, in words: the verdict follows it, not the mean's bootstrap interval.
        const follows = testCell.startsWith("wilcoxon")
          ? "the rank test (which model wins the typical question)"
          : testCell.startsWith("sign test")
            ? "the sign test (which model wins more of the questions where they differ)"
            : `the ${testName(testCell)} (its p-value and the bootstrap interval can disagree near the 5% line)`;
        why2.push(
          isReal
            ? `the verdict follows ${follows}; the mean's interval includes 0`
            : corrected
              ? alone
              : `the verdict follows ${follows}, which finds no difference; the mean's interval excludes 0`,
        );
      } else if (own !== undefined && meanExcludes !== isReal) {
        const follows = own.kind === "shift" ? "the test of the typical question" : "the sign test, which counts only the questions where they differ";
        why2.push(`the verdict follows ${follows}; the mean's interval ${isReal ? "includes" : "excludes"} 0`);
      }
    }
    const test = `${testName(testCell)} p_holm ${pValue(pHolm)}${why !== "" ? `; unpaired because ${why}` : ""}`;
    // Where the test's estimate says what the mean says (the same side, both intervals agreeing with the verdict), the
    // mean's clause carries the verdict alone: the estimate stays in the comparison's table, the headline stays short.
    const ownSide = own === undefined ? 0 : own.kind === "shift" ? Math.sign(own.estimate) : Math.sign(own.estimate - 0.5);
    const agrees = own !== undefined && why2.length === 0 && ownExcludes === isReal && meanExcludes === isReal && ownSide === Math.sign(diff);
    const ownText = own === undefined || agrees ? undefined : ownClause(own, test);
    // The reason goes inside the clause's last parentheses, beside the p-value it explains.
    const withNote = (clause: string) => (why2.length > 0 ? `${clause.slice(0, -1)}; ${why2.join("; ")})` : clause);
    if (verdict === MEAN_DISAGREES) {
      // The typical question favours the model with the lower mean: no winner, in words.
      mixed.push(`${higher.model} scores ${fixed(diff)} higher than ${lower.model} on average (95% CI ${interval(low, high)}), but ${lower.model} ${own === undefined ? `scores higher on the typical question (${test})` : `${own.kind === "shift" ? "scores " : ""}${ownClause(flipped(own), test)}`}`);
      continue;
    }
    if (!isReal && fixed(Math.abs(diff)) === "0.00" && own === undefined) {
      chance.push(withNote(`${higher.model} and ${lower.model} score the same (difference ${fixed(Math.abs(diff))}, 95% CI ${interval(low, high)}; ${test})`));
      continue;
    }
    const clause =
      ownText === undefined
        ? `${higher.model} scores ${fixed(diff)} higher than ${lower.model} (95% CI ${interval(low, high)}; ${test})`
        : `${higher.model} scores ${fixed(diff)} higher than ${lower.model} on average (95% CI ${interval(low, high)}) and ${ownText}`;
    (isReal ? real : chance).push(withNote(clause));
  }
  const sentence = (clauses: string[], one: string, many: string) => {
    // Past MAX_PAIR_CLAUSES pairs, the first ones and a count of the others.
    const shown = clauses.length > MAX_PAIR_CLAUSES + 1 ? [...clauses.slice(0, MAX_PAIR_CLAUSES), `${clauses.length - MAX_PAIR_CLAUSES} more pairs of neighbours in the ranking (the comparison lists them)`] : clauses;
    return `${shown.join(", and ")}: ${clauses.length === 1 ? one : many}.`;
  };
  const out: string[] = [];
  if (real.length > 0) out.push(sentence(real, "a real difference", "real differences"));
  if (chance.length > 0) out.push(sentence(chance, "no detectable difference, it may be chance", "no detectable differences, they may be chance"));
  if (mixed.length > 0) out.push(sentence(mixed, "inconclusive, the typical answer and the mean disagree", "inconclusive, the typical answers and the means disagree"));
  if (thin.length > 0) {
    const needs = thinUnpaired ? `${MIN_PAIRS} questions scored for both (unpaired, ${MIN_PAIRS} scored answers a side)` : `${MIN_PAIRS} questions scored for both`;
    out.push(`No conclusion about ${thin.join(" or ")}: a difference needs at least ${needs}, so its 95% CI is n/a.`);
  }
  return [...out, ...notes];
}

/** Rows of `table` that repeat an earlier row's (id, model), by the group each is in (the model, or "all answers"). */
function repeatsByGroup(table: Table, by: string, hasModels: boolean): Map<string, number> {
  const out = new Map<string, number>();
  const group = getColumn(table, by);
  for (const { row } of repeatedAnswers(table)) {
    const name = hasModels ? cellString(group?.values[row]) || `(no ${by})` : "all answers";
    out.set(name, (out.get(name) ?? 0) + 1);
  }
  return out;
}

/** Significance level of the verdicts the headline reads (compareModels' default). */
const ALPHA = 0.05;

/**
 * The test's own estimate in words, for a clause after "… on average (95% CI …) and":
 * "0.25 higher on the typical question (Hodges–Lehmann, 95% CI 0.20–0.30; Wilcoxon p_holm < 0.001)", or
 * "wins 9 of the 10 questions where they differ (90%, 95% CI 55%–100%; sign test p_holm = 0.02)".
 */
function ownClause(own: TestEstimate, test: string): string {
  const ci = Number.isFinite(own.low) ? `95% CI ${own.kind === "shift" ? interval(own.low, own.high) : `${wholePercent(own.low)}–${wholePercent(own.high)}`}` : `no 95% CI from ${counted(own.n, own.kind === "shift" ? "differing question" : "question")}`;
  if (own.kind === "shift") {
    const same = readsZero(own.estimate);
    return `${same ? "the same" : `${fixed(Math.abs(own.estimate))} ${own.estimate < 0 ? "lower" : "higher"}`} on the typical question (Hodges–Lehmann, ${ci}; ${test})`;
  }
  return `wins ${own.won.toLocaleString("en-US")} of the ${counted(own.n, "question")} where they differ (${wholePercent(own.estimate)}, ${ci}; ${test})`;
}

/** The same estimate seen from the other model: b − a. */
function flipped(own: TestEstimate): TestEstimate {
  return own.kind === "shift"
    ? { ...own, estimate: -own.estimate, low: -own.high, high: -own.low }
    : { ...own, estimate: 1 - own.estimate, low: 1 - own.high, high: 1 - own.low, won: own.n - own.won };
}


/** The test estimates of a scored table (see testEstimates), one reader per pairing column. */
function estimatesOf(scored: FrameInput, metric: string, by: string): (a: string, b: string, test: string, pairBy: string) => TestEstimate | undefined {
  // Read only when a pair needs it (a table of many rows is not read for a headline of no winner).
  let read: ReturnType<typeof estimateReader> | null | undefined;
  return (a, b, test, pairBy) => {
    if (pairBy === "") return undefined;
    if (read === undefined) {
      try {
        read = estimateReader(readTable(scored, "headline"), metric, by);
      } catch {
        read = null;
      }
    }
    return read === null ? undefined : read(a, b, test, pairBy);
  };
}

/** A change with its sign: "+0.05", "−0.05", "0.00". */
function signed(x: number): string {
  return readsZero(x) ? "0.00" : x > 0 ? `+${fixed(x)}` : fixed(x);
}

/**
 * One sentence on the change since the previous run, from `compareRuns`:
 * each model whose mean changed beyond chance (p_holm < alpha, as the
 * comparison's verdict says) with its change, interval and test; the models
 * unchanged within chance, those with too few answers scored in both runs,
 * those in one run only; and the answers that moved (better, worse, by
 * {@link LARGE_CHANGE} or more, newly failed).
 */
function changeSentence(change: RunChangeInput, metric: string): string {
  const rows = rowsOf(readTable(change.summary, "headline (change since the previous run)"));
  let movedRows: Record<string, Cell>[] | undefined;
  const movedOf = () => (movedRows ??= change.changes === undefined ? [] : rowsOf(readTable(change.changes, "headline (change since the previous run)")).filter((c) => /^(better|worse)$/.test(cellString(c["status"]))));
  const answersThatMoved = change.changes === undefined ? undefined : { rows: movedOf };
  const all = rows.find((r) => cellString(r["model"]) === "(all)");
  const perModel = rows.filter((r) => r !== all);
  const named = perModel.length > 0;
  const subjects = named ? perModel : all ? [all] : [];
  const real: string[] = [];
  const calm: string[] = [];
  const thin: string[] = [];
  const mixed: string[] = [];
  const unscored: string[] = [];
  const onlyBefore: string[] = [];
  const onlyAfter: string[] = [];
  for (const r of subjects) {
    const name = named ? cellString(r["model"]) : `mean ${metric}`;
    const verdict = cellString(r["verdict"]);
    if (verdict === "only in the before run") onlyBefore.push(name);
    else if (verdict === "only in the after run") onlyAfter.push(name);
    else if (verdict === "no scored answers in the after run") unscored.push(name);
    else if (verdict === MEAN_DISAGREES) {
      const change = cellNumber(r["change"]);
      mixed.push(
        `${name} ${signed(change)} on average (95% CI ${interval(cellNumber(r["ci_low"]), cellNumber(r["ci_high"]))}) while the typical answer moved the other way (${testName(cellString(r["test"]))} p_holm ${pValue(cellNumber(r["p_holm"]))}): inconclusive`,
      );
    }
    else if (!(cellNumber(r["n_paired"]) >= MIN_PAIRS)) thin.push(name);
    else if (verdict === "after better than before" || verdict === "before better than after") {
      const test = `${testName(cellString(r["test"]))} p_holm ${pValue(cellNumber(r["p_holm"]))}`;
      const mean = interval(cellNumber(r["ci_low"]), cellNumber(r["ci_high"]));
      // Beside the verdict, the estimate and interval of its test, from the answers that moved (the ones the test counts).
      const found = answersThatMoved === undefined ? undefined : changeEstimate(answersThatMoved, named ? name : undefined, cellString(r["test"]));
      const own = found !== undefined && !(found.low === found.high) ? found : undefined;
      if (own === undefined) real.push(`${name} ${signed(cellNumber(r["change"]))} (95% CI ${mean}; ${test})`);
      else {
        const meanHolds0 = !(cellNumber(r["ci_low"]) > 0 || cellNumber(r["ci_high"]) < 0);
        const typical =
          own.kind === "shift"
            ? `${signed(own.estimate)} on the typical answer (Hodges–Lehmann, 95% CI ${Number.isFinite(own.low) ? interval(own.low, own.high) : "n/a"}; ${test}`
            : `better on ${own.won.toLocaleString("en-US")} of the ${counted(own.n, "answer")} that moved (${wholePercent(own.estimate)}, 95% CI ${wholePercent(own.low)}–${wholePercent(own.high)}; ${test}`;
        real.push(`${name} ${signed(cellNumber(r["change"]))} on average (95% CI ${mean}), ${typical}${meanHolds0 ? "; the verdict follows the test; the mean's interval includes 0" : ""})`);
      }
    } else calm.push(name);
  }
  const parts: string[] = [...real];
  if (calm.length > 0) {
    if (!named) parts.push(`mean ${metric} unchanged within chance (${signed(cellNumber(subjects[0]!["change"]))}, 95% CI ${interval(cellNumber(subjects[0]!["ci_low"]), cellNumber(subjects[0]!["ci_high"]))})`);
    else if (calm.length === subjects.length) parts.push(`every model's mean ${metric} unchanged within chance`);
    else if (real.length > 0 && calm.length + real.length === subjects.length) parts.push("others unchanged within chance");
    else parts.push(`${calm.join(", ")} unchanged within chance`);
  }
  parts.push(...mixed);
  if (unscored.length > 0) parts.push(`${unscored.join(", ")} ${unscored.length === 1 ? "has" : "have"} no scored answer in this run`);
  if (thin.length > 0) parts.push(`too few answers scored in both runs to tell for ${thin.join(", ")}`);
  if (onlyBefore.length > 0) parts.push(`${onlyBefore.join(", ")} only in the previous run`);
  if (onlyAfter.length > 0) parts.push(`${onlyAfter.join(", ")} only in this run`);
  const moved = answersMoved(all ?? subjects[0], change.changes);
  if (moved !== "") parts.push(moved);
  const sentence = `Since the previous run${named && real.length > 0 ? ` (mean ${metric})` : ""}: ${parts.length > 0 ? parts.join("; ") : "nothing to compare"}.`;
  // Answers that moved against an edited reference: part of their change is the reference's, not the model's.
  const againstOther = answersThatMoved === undefined ? 0 : movedOf().filter((c) => cellString(c["reference_changed"]) === "yes").length;
  const movedCount = answersThatMoved === undefined ? 0 : movedOf().length;
  const referenceNote =
    againstOther === 0
      ? ""
      : ` ${againstOther === movedCount ? (movedCount === 1 ? "The answer that moved was" : `All ${movedCount} answers that moved were`) : `${againstOther} of the ${movedCount} answers that moved ${againstOther === 1 ? "was" : "were"}`} scored against a reference edited since the previous run: part of ${againstOther === 1 ? "its" : "their"} change is the reference's.`;
  const scoring = change.scoringChanges ?? [];
  if (scoring.length === 0) return `${sentence}${referenceNote}`;
  // A change of judge or settings moves scores by itself: the headline must not present it as the answers' alone.
  // Each setting once, with its most common change (scoringChanges lists those first).
  const firsts = new Map<string, string>();
  for (const c of scoring) if (!firsts.has(c.setting)) firsts.set(c.setting, `${c.setting} ${c.before} → ${c.after}`);
  const settings = [...firsts.values()];
  return `${sentence}${referenceNote} The runs were scored differently (${settings.slice(0, 3).join(", ")}${settings.length > 3 ? ", …" : ""}): part of the change may be the scoring's, not the answers'.`;
}

/**
 * The estimate of a change's test from the answers that moved (status
 * better or worse: the non-zero differences, the ones the test counts), of
 * one model or all: the Hodges–Lehmann shift with its Wilcoxon interval, or
 * for the sign test the share that got better with its exact interval.
 */
function changeEstimate(moved: { rows: () => Record<string, Cell>[] }, model: string | undefined, test: string): TestEstimate | undefined {
  const rows = moved.rows().filter((r) => model === undefined || cellString(r["model"]) === model);
  if (rows.length === 0) return undefined;
  if (test.startsWith("wilcoxon")) {
    const shift = shiftEstimate(rows.map((r) => cellNumber(r["change"])));
    return Number.isFinite(shift.estimate) ? shift : undefined;
  }
  if (test.startsWith("sign test")) {
    const won = rows.filter((r) => cellString(r["status"]) === "better").length;
    return shareEstimate(won, rows.length - won);
  }
  return undefined;
}

/** The answers that moved, from the pooled row and the changed answers: "3 answers better, 5 worse (2 by 0.5 or more), 1 newly failed". */
function answersMoved(pooled: Record<string, Cell> | undefined, changes: FrameInput | undefined): string {
  if (pooled === undefined) return "";
  const count = (name: string) => {
    const v = cellNumber(pooled[name]);
    return Number.isFinite(v) ? v : 0;
  };
  const better = count("improved");
  const worse = count("worsened");
  const newlyFailed = count("failed_after_only");
  let largeWorse = Number.NaN;
  let largeBetter = Number.NaN;
  let smallMove = false;
  if (changes !== undefined) {
    largeWorse = 0;
    largeBetter = 0;
    for (const r of rowsOf(readTable(changes, "headline (change since the previous run)"))) {
      const status = cellString(r["status"]);
      if (status !== "better" && status !== "worse") continue;
      const d = Math.abs(cellNumber(r["change"]));
      if (d >= LARGE_CHANGE) {
        if (status === "worse") largeWorse++;
        else largeBetter++;
      } else smallMove = true;
    }
  }
  // When every move is large (0/1 scores), "by 0.5 or more" says nothing more.
  const large = (n: number) => (smallMove && n > 0 ? ` (${n.toLocaleString("en-US")} by ${LARGE_CHANGE} or more)` : "");
  const items: string[] = [];
  if (better > 0) items.push(`${better.toLocaleString("en-US")} better${large(largeBetter)}`);
  if (worse > 0) items.push(`${worse.toLocaleString("en-US")} worse${large(largeWorse)}`);
  if (newlyFailed > 0) items.push(`${newlyFailed.toLocaleString("en-US")} newly failed`);
  if (items.length === 0) return "no answer's score moved";
  const total = better + worse + newlyFailed;
  return `${total === 1 ? "answer" : "answers"}: ${items.join(", ")}`;
}
