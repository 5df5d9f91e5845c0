/**
 * The conclusion of a run in a few sentences, generated from the numbers:
 * the ranking, each pairwise difference with its interval and verdict in
 * words, the rows that failed, and the judge with its caveat.
 */
import type { Cell, Table } from "../dataset/table";
import { DEFAULT_BY, type PairOptions } from "../dataset/column-toolkit";
import { getColumn } from "../dataset/table";
import { cellNumber, cellString } from "../dataset/column-toolkit";
import { counted } from "../display/words";
import { readTable, type FrameInput } from "./summarize";

/** Options of {@link headline}. */
export interface HeadlineOptions extends Pick<PairOptions, "by"> {
  /** The score column to speak of; default the first of the summary's metrics (answer_correctness first). */
  metric?: string;
  /**
   * The judge's label, e.g. `gpt-4o-mini @ api.openai.com`, `offline (approximate)`
   * or `hand-labelled` (a scored table's `<metric>_judge` column). Left out of
   * the sentences when not given.
   */
  judge?: string;
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

/** An interval: "0.12–0.30", or "−0.03 to 0.13" when a bound is negative (a dash would read as a minus). */
function interval(low: number, high: number): string {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return "n/a";
  return low < 0 || high < 0 ? `${fixed(low)} to ${fixed(high)}` : `${fixed(low)}–${fixed(high)}`;
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
 * Two to four sentences that state a run's conclusion, from a summary
 * (`summarize(scored, { by: "model" })`) and, with two or more models, a
 * comparison (`compareModels(scored)`): the ranking with each mean and its
 * 95% interval; the difference between each model and the next in the
 * ranking, with its interval, test and verdict in words (the real
 * differences in one sentence, those that may be chance in another);
 * how many rows failed to score (left out, never counted as 0); and the judge,
 * with its caveat when it is the offline judge.
 *
 * @example
 * const scored = await scoreAnswerCorrectness(df);
 * headline(summarize(scored, { by: "model" }), compareModels(scored), { judge: "gpt-4o-mini @ api.openai.com" });
 * // ["Ranking by mean answer_correctness: atlas-pro 0.74 (95% CI 0.70–0.78), chatter-xl 0.50 (0.47–0.54), swift-mini 0.32 (0.23–0.42); 42 answers each.",
 * //  "atlas-pro scores 0.24 higher than chatter-xl (95% CI 0.19–0.29; Wilcoxon p_holm < 0.001), and chatter-xl scores 0.18 higher than swift-mini (95% CI 0.07–0.28; Wilcoxon p_holm = 0.003): real differences.",
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
      model: hasModels ? cellString(r[by]) : "all answers",
      n: cellNumber(r["n"]),
      valid: cellNumber(r["n_valid"]),
      errors: cellNumber(r["n_error"]),
      mean: cellNumber(r["mean"]),
      low: cellNumber(r["ci_low"]),
      high: cellNumber(r["ci_high"]),
    }))
    .sort((a, b) => (Number.isNaN(a.mean) ? 1 : Number.isNaN(b.mean) ? -1 : b.mean - a.mean));
  if (lines.length === 0) throw new Error(`${caller}: the summary has no rows for ${metric}; the metrics are: ${metrics.join(", ") || "none"}`);

  const sentences: string[] = [];
  const scored = lines.filter((l) => !Number.isNaN(l.mean));
  const sameN = scored.every((l) => l.valid === scored[0]!.valid);
  const answers = (l: ModelLine) => (sameN ? "" : `, ${counted(l.valid, "answer")}`);
  if (scored.length === 0) {
    sentences.push(`No answer could be scored on ${metric}.`);
  } else if (scored.length === 1) {
    const l = scored[0]!;
    sentences.push(`${hasModels ? `${l.model} scores` : "The answers score"} a mean ${metric} of ${fixed(l.mean)} (95% CI ${interval(l.low, l.high)}; ${counted(l.valid, "answer")}).`);
  } else {
    const [first, ...rest] = scored;
    const ranked = [`${first!.model} ${fixed(first!.mean)} (95% CI ${interval(first!.low, first!.high)}${answers(first!)})`, ...rest.map((l) => `${l.model} ${fixed(l.mean)} (${interval(l.low, l.high)}${answers(l)})`)];
    sentences.push(`Ranking by mean ${metric}: ${ranked.join(", ")}${sameN ? `; ${counted(scored[0]!.valid, "answer")} each` : ""}.`);
  }
  const unscored = lines.filter((l) => Number.isNaN(l.mean)).map((l) => l.model);
  if (unscored.length > 0 && scored.length > 0) sentences.push(`${unscored.join(", ")} ${unscored.length === 1 ? "has" : "have"} no scored answer.`);

  if (comparison !== undefined && scored.length > 1) sentences.push(...pairSentences(comparison, scored));

  const errors = lines.reduce((a, l) => a + (Number.isFinite(l.errors) ? l.errors : 0), 0);
  if (errors > 0) {
    const total = lines.reduce((a, l) => a + (Number.isFinite(l.n) ? l.n : 0), 0);
    const whose = hasModels
      ? ` (${lines
          .filter((l) => l.errors > 0)
          .sort((a, b) => b.errors - a.errors)
          .map((l) => `${l.errors} of ${l.model}'s`)
          .join(", ")})`
      : "";
    sentences.push(`${errors.toLocaleString("en-US")} of ${counted(total, "answer")} failed to score${whose}: they are left out of the means, not counted as 0.`);
  }
  if (options.judge !== undefined && options.judge.trim() !== "") sentences.push(judgeSentence(options.judge.trim()));
  return sentences;
}

/**
 * The differences between models next to each other in the ranking (with two
 * models, their one pair): the real ones in one sentence, those that may be
 * chance in another. The other pairs follow from these, or are in the table.
 */
function pairSentences(comparison: FrameInput, ranked: readonly ModelLine[]): string[] {
  const rows = rowsOf(readTable(comparison, "headline"));
  const real: string[] = [];
  const chance: string[] = [];
  const notes: string[] = [];
  for (let k = 0; k + 1 < ranked.length; k++) {
    const higher = ranked[k]!.model;
    const lower = ranked[k + 1]!.model;
    const row = rows.find((r) => (cellString(r["model_a"]) === higher && cellString(r["model_b"]) === lower) || (cellString(r["model_a"]) === lower && cellString(r["model_b"]) === higher));
    if (!row) continue;
    const flip = cellString(row["model_a"]) === lower;
    const diff = flip ? -cellNumber(row["mean_diff"]) : cellNumber(row["mean_diff"]);
    const low = flip ? -cellNumber(row["ci_high"]) : cellNumber(row["ci_low"]);
    const high = flip ? -cellNumber(row["ci_low"]) : cellNumber(row["ci_high"]);
    if (Number.isNaN(diff)) {
      notes.push(`${higher} and ${lower} cannot be compared: no question has a scored answer from both.`);
      continue;
    }
    const why = cellString(row["unpaired_because"]);
    const clause = `${higher} scores ${fixed(diff)} higher than ${lower} (95% CI ${interval(low, high)}; ${testName(cellString(row["test"]))} p_holm ${pValue(cellNumber(row["p_holm"]))}${why !== "" ? `; unpaired because ${why}` : ""})`;
    const verdict = cellString(row["verdict"]);
    (verdict !== "" && verdict !== "no detectable difference" ? real : chance).push(clause);
  }
  const sentence = (clauses: string[], one: string, many: string) => `${clauses.join(", and ")}: ${clauses.length === 1 ? one : many}.`;
  const out: string[] = [];
  if (real.length > 0) out.push(sentence(real, "a real difference", "real differences"));
  if (chance.length > 0) out.push(sentence(chance, "no detectable difference, it may be chance", "no detectable differences, they may be chance"));
  return [...out, ...notes];
}
