/**
 * Run against run: two scored runs of the same data (before and after a
 * change of model, prompt or judge) paired answer by answer, the change per
 * model with a paired interval and test, and the answers that changed.
 */
import { FixableError } from "../dataset/fix-hint";
import { comparisonSettings, MEAN_DISAGREES } from "./comparison-settings";
import type { DataFrame } from "danfojs-node";
import { getColumn, rowAt, type Cell, type Table, type TableColumn } from "../dataset/table";
import { answersOnceEach, pairedStats, verdictSide, type ComparisonTest, type PairedStats } from "./compare";
import { DEFAULT_SEED, seedFromData } from "../stats/random";
import { differencesOf, holm } from "../stats/paired-tests";
import { column, errorColumnFor, frameOf, metricScores, readTable, requireColumn, type FrameInput } from "./summarize";
import { cellString, keyText, textAt, type PairOptions } from "../dataset/column-toolkit";
import { scoringChanges, scoringWarning, unrecordedSettings, unrecordedWarning, type ScoringChange } from "./scoring-changes";

export type { ScoringChange } from "./scoring-changes";

/** Options of {@link compareRuns}. */
export interface CompareRunsOptions extends PairOptions {
  /** Score column to compare (default "answer_correctness"); both runs must have it. */
  metric?: string;
  /** Bootstrap replicates for the interval of the change (default 2,000). */
  bootstrap?: number;
  /** Seed of the bootstrap (default {@link DEFAULT_SEED}): the same runs and seed give the same interval. */
  seed?: number;
  /** Significance level for the verdict, applied to the Holm-adjusted p-value (default 0.05). */
  alpha?: number;
  /** Coverage of the interval of the change (default 0.95). */
  confidence?: number;
}

/** The columns of {@link RunComparison.summary}, in order. */
export const RUN_CHANGE_COLUMNS = [
  "model",
  "n_paired",
  "mean_before",
  "mean_after",
  "change",
  "ci_low",
  "ci_high",
  "p_value",
  "p_holm",
  "verdict",
  "improved",
  "worsened",
  "unchanged",
  "added",
  "dropped",
  "failed_before_only",
  "failed_after_only",
  "failed_both",
  "test",
] as const;

/** The name of the row of {@link RunComparison.summary} that pools every model. */
export const ALL_MODELS = "(all)";

/** What happened to one answer between the runs, in {@link RunComparison.changes}. */
export type AnswerChange = "better" | "worse" | "newly failed" | "no longer failing" | "dropped" | "added";

/** The result of {@link compareRuns}. */
export interface RunComparison {
  /** The score column compared. */
  metric: string;
  /** The column that paired the answers (with the model): "id", "user_input" or the `pairBy` given. */
  pairedBy: string;
  /** The model column, or undefined when the runs have none. */
  by: string | undefined;
  /**
   * One row per model (models of the before run first, in order of first
   * appearance), then {@link ALL_MODELS}, which pools every model's pairs.
   * Columns: {@link RUN_CHANGE_COLUMNS}.
   */
  summary: DataFrame;
  /**
   * Every answer that differs between the runs, one row each: the pairing
   * column, `model` (when the runs have one), `user_input` (when pairing is not by it), `before`,
   * `after`, `change` (after − before), `status` ({@link AnswerChange}),
   * `answer_changed` ("yes"/"no"; "" for an answer in one run only),
   * `reference_changed` (likewise, when both runs have a `reference` column),
   * `response_before` and `response_after` (filled only when the answer text
   * changed, or the answer is in one run only), and `error` (the reason of a
   * failed score). Scores that moved come first, largest |change| first;
   * then newly failed, no longer failing, dropped and added answers.
   */
  changes: DataFrame;
  /**
   * How the paired answers were scored differently in the two runs (judge,
   * layout, weights, …; see {@link ScoringChange}); empty when alike.
   */
  scoringChanges: ScoringChange[];
  /**
   * The models (by name; "" when the runs have no model column) that had
   * scored answers in the before run and none scored in the after run: all
   * their answers failed, or the model is missing. Each is also a warning;
   * `evalframe diff`'s gates fail on them.
   */
  unscoredAfter: UnscoredModel[];
  /** Things worth knowing that do not stop the comparison, e.g. paired answers whose question text or reference differs, or runs scored differently. */
  warnings: string[];
}

/** A model of {@link RunComparison.unscoredAfter}: scored before, not after. */
export interface UnscoredModel {
  model: string;
  /** Its answers scored validly in the before run. */
  scoredBefore: number;
  /** Its rows in the after run (0: the model is missing), every one failed. */
  rowsAfter: number;
}

/** The verdict of a model scored in the before run and not at all in the after run. */
export const NONE_SCORED_AFTER = "no scored answers in the after run";

/** One run read for pairing. */
interface Run {
  label: "before" | "after";
  table: Table;
  scores: Float64Array;
  errors: TableColumn | undefined;
  /** model → pairing key → row, in order of first appearance. */
  models: Map<string, Map<string, number>>;
  /** Rows with no pairing key, per model (they cannot be paired). */
  unkeyed: Map<string, number>;
  /** Rows, and rows scored validly, per model (keyed or not). */
  rows: Map<string, number>;
  scored: Map<string, number>;
  /** Rows with an empty model cell (when the runs have a model column): no model's answers, left out; the first, and how many. */
  modelless: { first: number; count: number } | undefined;
  /** The first row with no pairing key (counted in {@link Run.unkeyed}), for the warning. */
  firstUnkeyed: number | undefined;
}

/** Counts and statistics of one model (or of all). */
interface ModelChange {
  model: string;
  stats: PairedStats | undefined;
  nPaired: number;
  added: number;
  dropped: number;
  failedBeforeOnly: number;
  failedAfterOnly: number;
  failedBoth: number;
  inBefore: boolean;
  inAfter: boolean;
}

interface ChangedAnswer {
  key: string;
  model: string;
  question: Cell;
  before: number;
  after: number;
  /** after − before to 12 significant digits of the model's scores, as the tests see it (ranks the changed answers); 0 for an answer not scored in both runs. */
  moved: number;
  status: AnswerChange;
  answerChanged: string;
  /** "yes"/"no" when both runs have a reference column, "" otherwise or for an answer in one run only. */
  referenceChanged: string;
  responseBefore: string;
  responseAfter: string;
  error: string;
}

const caller = "compareRuns";

function quoted(values: Iterable<string>, limit = 3): string {
  const list = [...values];
  const shown = list.slice(0, limit).map((v) => JSON.stringify(v));
  return list.length === 0 ? "none" : `${shown.join(", ")}${list.length > limit ? `, … (${list.length} in all)` : ""}`;
}

/** The pairing column: `pairBy` when given (both runs must have it), else "id" in both, else the question text. */
function choosePairing(before: Table, after: Table, by: string, pairBy: string | undefined): string {
  if (pairBy !== undefined) {
    requireColumn(before, pairBy, `${caller} (before run)`, "pairing");
    requireColumn(after, pairBy, `${caller} (after run)`, "pairing");
    return pairBy;
  }
  const hasId = (t: Table) => getColumn(t, "id") !== undefined;
  if (hasId(before) && hasId(after)) return "id";
  if (answersOnceEach(before, by, "user_input") && answersOnceEach(after, by, "user_input")) return "user_input";
  const idNote = `an "id" column in both runs (the before run ${hasId(before) ? "has one" : "has none"}, the after run ${hasId(after) ? "has one" : "has none"})`;
  throw new FixableError(
    `${caller}: cannot pair the runs' answers: looked for ${idNote}, then for question texts (user_input) that each model answers once in each run`,
    { api: 'give both runs an id column, or name the pairing column with { pairBy: "…" }', cli: "give both runs an id column, or name the pairing column with --pair-by COLUMN" },
  );
}

function readRun(label: "before" | "after", table: Table, metric: string, by: string, hasModels: boolean, pairBy: string): Run {
  const who = `${caller} (${label} run)`;
  const scores = metricScores(table, metric, who);
  const modelColumn = hasModels ? getColumn(table, by) : undefined;
  const keyColumn = getColumn(table, pairBy)!;
  const models = new Map<string, Map<string, number>>();
  const unkeyed = new Map<string, number>();
  const rows = new Map<string, number>();
  const scored = new Map<string, number>();
  let modelless: Run["modelless"];
  let firstUnkeyed: number | undefined;
  for (let i = 0; i < table.rowCount; i++) {
    const model = modelColumn === undefined ? "" : keyText(modelColumn.values[i]);
    if (model === undefined) {
      // A row without a model belongs to no model: left out, and counted for a warning.
      if (modelless === undefined) modelless = { first: i, count: 1 };
      else modelless.count++;
      continue;
    }
    rows.set(model, (rows.get(model) ?? 0) + 1);
    if (!Number.isNaN(scores[i]!)) scored.set(model, (scored.get(model) ?? 0) + 1);
    let keys = models.get(model);
    if (keys === undefined) {
      keys = new Map();
      models.set(model, keys);
    }
    const key = keyText(keyColumn.values[i]);
    if (key === undefined) {
      unkeyed.set(model, (unkeyed.get(model) ?? 0) + 1);
      firstUnkeyed ??= i;
      continue;
    }
    const earlier = keys.get(key);
    if (earlier !== undefined) {
      const whose = hasModels ? ` for model ${JSON.stringify(model)}` : "";
      throw new Error(
        `${who}: ${pairBy} ${JSON.stringify(key)} appears twice${whose} (${rowAt(table, earlier)} and ${rowAt(table, i)}); each ${pairBy} may be answered once per model and run, so the answers can be paired`,
      );
    }
    keys.set(key, i);
  }
  return { label, table, scores, errors: errorColumnFor(table, metric), models, unkeyed, rows, scored, modelless, firstUnkeyed };
}

function errorText(run: Run, row: number): string {
  return cellString(run.errors?.values[row]).trim();
}

/**
 * Compares two scored runs of the same data: each answer of the `before`
 * run is paired with the same answer of the `after` run, by (`pairBy`,
 * model): by `id` when both runs have it, else by the question text (when
 * each model answers each question once in each run). Runs without the
 * model column (`by`) are compared as one system.
 * Answers scored validly in both runs are the pairs; failed rows (NaN, or a
 * non-empty `<metric>_error`) are never scores of 0 and are counted apart.
 *
 * `summary` has one row per model and a last row `(all)` pooling every pair:
 * `n_paired`, `mean_before`, `mean_after` over the pairs, `change` (after −
 * before) with `ci_low`/`ci_high` (paired bootstrap, answers resampled,
 * seeded), `improved`/`worsened`/`unchanged` answers, the `test` and
 * `p_value` of `compareModels` (exact sign test for 0/1 scores, else
 * Wilcoxon signed-rank), `p_holm` (Holm's adjustment across the models; the
 * `(all)` row is one test of its own and keeps its p-value), a `verdict`
 * ("after better than before" or "before better than after" when p_holm <
 * alpha and the test leans the way the mean change does; "inconclusive: the
 * typical answer and the mean disagree" when they lean opposite ways and
 * either is beyond chance (p_holm < alpha, or the interval of the change
 * excludes 0); else "no detectable difference"; "only in
 * the before run", "only in the after run", "no scored answers in the after
 * run" or "no valid pairs" when there is nothing to test),
 * `added`/`dropped` answers (in one run only), and `failed_before_only`,
 * `failed_after_only`, `failed_both`. `changes` lists every answer that
 * differs, largest change first. `unscoredAfter` names the models scored in
 * the before run and not at all in the after run (every answer failed, or the
 * model is missing); they, paired answers whose question text or reference
 * changed, and runs scored differently are also `warnings`.
 *
 * @example
 * const before = await loadDataset("out/scored-monday.csv");
 * const after = await loadDataset("out/scored.csv");
 * const runs = compareRuns(before, after);
 * showTable(runs.summary);            // change per model with a 95% CI and a verdict
 * showTable(runs.changes.head(10));   // the answers that moved most
 * await show(changeWithCI(runs));
 *
 * @throws {Error} when the metric, model or pairing column is missing from a run, when an
 *   answer is in a run twice, or when the runs share no answer to pair.
 */
export function compareRuns(before: FrameInput, after: FrameInput, options: CompareRunsOptions = {}): RunComparison {
  const { metric, by, replicates, seed, alpha, confidence } = comparisonSettings(options, caller);

  const beforeTable = readTable(before, `${caller} (before run)`);
  const afterTable = readTable(after, `${caller} (after run)`);
  const modelsIn = [getColumn(beforeTable, by) !== undefined, getColumn(afterTable, by) !== undefined];
  if (modelsIn[0] !== modelsIn[1]) {
    throw new FixableError(
      `${caller}: the ${modelsIn[0] ? "before" : "after"} run has a "${by}" column and the ${modelsIn[0] ? "after" : "before"} run has none; both runs need it to pair answers by model`,
      { api: 'or name another model column with { by: "…" }', cli: "or name another model column with --by COLUMN" },
    );
  }
  const hasModels = modelsIn[0]!;
  if (!hasModels && options.by !== undefined) {
    requireColumn(beforeTable, by, `${caller} (before run)`, "model");
  }
  const pairBy = choosePairing(beforeTable, afterTable, by, options.pairBy);
  const b = readRun("before", beforeTable, metric, by, hasModels, pairBy);
  const a = readRun("after", afterTable, metric, by, hasModels, pairBy);

  const modelNames = [...b.models.keys()];
  for (const name of a.models.keys()) if (!b.models.has(name)) modelNames.push(name);

  const changes: ChangedAnswer[] = [];
  const rows: ModelChange[] = [];
  const allBefore: number[] = [];
  const allAfter: number[] = [];
  const pairs: [number, number][] = [];
  const compareQuestions = pairBy !== "user_input" && getColumn(beforeTable, "user_input") !== undefined && getColumn(afterTable, "user_input") !== undefined;
  const compareReferences = pairBy !== "reference" && getColumn(beforeTable, "reference") !== undefined && getColumn(afterTable, "reference") !== undefined;
  const questionChanged = new TextChanges("user_input", "question text");
  const referenceChanged = new TextChanges("reference", "reference answer");
  const nearMisses = new NearMisses(pairBy, hasModels);
  const total: ModelChange = { model: ALL_MODELS, stats: undefined, nPaired: 0, added: 0, dropped: 0, failedBeforeOnly: 0, failedAfterOnly: 0, failedBoth: 0, inBefore: true, inAfter: true };

  for (const model of modelNames) {
    const kb = b.models.get(model);
    const ka = a.models.get(model);
    const row: ModelChange = {
      model,
      stats: undefined,
      nPaired: 0,
      added: a.unkeyed.get(model) ?? 0,
      dropped: b.unkeyed.get(model) ?? 0,
      failedBeforeOnly: 0,
      failedAfterOnly: 0,
      failedBoth: 0,
      inBefore: kb !== undefined,
      inAfter: ka !== undefined,
    };
    const sb: number[] = [];
    const sa: number[] = [];
    // Scores that differ at all: whether they moved is decided with the model's scale, as its test decides.
    const differing: { index: number; entry: () => ChangedAnswer }[] = [];
    for (const [key, i] of kb ?? []) {
      const j = ka?.get(key);
      if (j === undefined) {
        row.dropped++;
        changes.push(oneSided("dropped", key, model, b, i));
        if (ka !== undefined) nearMisses.dropped(model, key);
        continue;
      }
      pairs.push([i, j]);
      const x = b.scores[i]!;
      const y = a.scores[j]!;
      const where = `${pairBy} ${JSON.stringify(key)}${hasModels ? `, model ${JSON.stringify(model)}` : ""}`;
      if (compareQuestions) questionChanged.check(beforeTable, i, afterTable, j, where);
      const referenceDiffers = compareReferences && referenceChanged.check(beforeTable, i, afterTable, j, where);
      const responseBefore = textAt(beforeTable, "response", i);
      const responseAfter = textAt(afterTable, "response", j);
      const answerChanged = responseBefore !== responseAfter;
      const entry = (status: AnswerChange, error: string): ChangedAnswer => ({
        key,
        model,
        question: getColumn(afterTable, "user_input")?.values[j] ?? null,
        before: x,
        after: y,
        moved: 0,
        status,
        answerChanged: answerChanged ? "yes" : "no",
        referenceChanged: compareReferences ? (referenceDiffers ? "yes" : "no") : "",
        responseBefore: answerChanged ? responseBefore : "",
        responseAfter: answerChanged ? responseAfter : "",
        error,
      });
      const validBefore = !Number.isNaN(x);
      const validAfter = !Number.isNaN(y);
      if (validBefore && validAfter) {
        sb.push(x);
        sa.push(y);
        if (y !== x) differing.push({ index: sa.length - 1, entry: () => entry("better", "") });
      } else if (validBefore) {
        row.failedAfterOnly++;
        changes.push(entry("newly failed", errorText(a, j)));
      } else if (validAfter) {
        row.failedBeforeOnly++;
        changes.push(entry("no longer failing", errorText(b, i)));
      } else {
        row.failedBoth++;
      }
    }
    for (const [key, j] of ka ?? []) {
      if (kb?.has(key)) continue;
      row.added++;
      changes.push(oneSided("added", key, model, a, j));
      if (kb !== undefined) nearMisses.added(model, key);
    }
    if (differing.length > 0) {
      // Each pair's change as the test sees it (rounded to the data's 12 significant digits).
      const rounded = differencesOf(sa, sb);
      const moved = differing.map(({ index }) => rounded[index]!);
      differing.forEach(({ entry }, k) => {
        if (moved[k] === 0) return; // the same score but for the last digits: unchanged, as the test counts it
        changes.push({ ...entry(), moved: moved[k]!, status: moved[k]! > 0 ? "better" : "worse" });
      });
    }
    row.nPaired = sa.length;
    if (sa.length > 0) row.stats = pairedStats(sa, sb, replicates, confidence, seedFromData(seed, sa, sb));
    // One by one: push(...sa) passes every score as an argument, and 200,000 overflow the stack.
    for (const v of sb) allBefore.push(v);
    for (const v of sa) allAfter.push(v);
    for (const k of ["added", "dropped", "failedBeforeOnly", "failedAfterOnly", "failedBoth"] as const) total[k] += row[k];
    rows.push(row);
  }

  if (pairs.length === 0) {
    const keysOf = (run: Run) => new Set([...run.models.values()].flatMap((keys) => [...keys.keys()]));
    const side = (run: Run) =>
      `the ${run.label} run has ${pairBy} ${quoted(keysOf(run))}${hasModels ? ` for model${run.models.size === 1 ? "" : "s"} ${quoted(run.models.keys())}` : ""}`;
    throw new Error(
      `${caller}: the runs share no answer to pair: looked for the same (${pairBy}${hasModels ? `, ${by}` : ""}) in both; ${side(b)}; ${side(a)}. ` +
        `Are these two runs of the same data?${nearMisses.warnings(b, a).map((w) => ` Note: ${w}.`).join("")}`,
    );
  }

  total.nPaired = allAfter.length;
  if (allAfter.length > 0) total.stats = pairedStats(allAfter, allBefore, replicates, confidence, seedFromData(seed, allAfter, allBefore));
  const perModel = hasModels ? rows : [];
  const adjusted = holm(perModel.map((r) => r.stats?.pValue ?? Number.NaN));
  const summaryRows = [...perModel, total];
  const pHolm = [...adjusted, total.stats?.pValue ?? Number.NaN];

  const warnings: string[] = [];
  for (const changed of [questionChanged, referenceChanged]) {
    const warning = changed.warning();
    if (warning !== undefined) warnings.push(warning);
  }
  for (const run of [b, a]) {
    const none = run.modelless;
    if (none === undefined) continue;
    warnings.push(
      `${none.count === 1 ? "1 row" : `${none.count} rows`} of the ${run.label} run ${none.count === 1 ? "has" : "have"} no ${by} (first: ${rowAt(run.table, none.first)}), ` +
        `so ${none.count === 1 ? "it is" : "they are"} in no model's counts and left out of the comparison; give ${none.count === 1 ? "it its" : "each its"} ${by} to compare ${none.count === 1 ? "it" : "them"}`,
    );
  }
  for (const run of [b, a]) {
    if (run.firstUnkeyed === undefined) continue;
    const n = [...run.unkeyed.values()].reduce((sum, k) => sum + k, 0);
    warnings.push(
      `${n === 1 ? "1 row" : `${n} rows`} of the ${run.label} run ${n === 1 ? "has" : "have"} no ${pairBy} (first: ${rowAt(run.table, run.firstUnkeyed)}), ` +
        `so ${n === 1 ? "it cannot be paired: it is counted as" : "they cannot be paired: they are counted as"} ${run.label === "before" ? "dropped" : "added"} and not listed among the changed answers`,
    );
  }
  warnings.push(...nearMisses.warnings(b, a));
  const unscoredAfter = unscoredInAfter(b, a);
  for (const u of unscoredAfter) warnings.push(unscoredWarning(u, hasModels));

  const scoring = scoringChanges(metric, beforeTable, afterTable, pairs);
  const scoredDifferently = scoringWarning(metric, scoring, pairs.length);
  if (scoredDifferently !== undefined) warnings.push(scoredDifferently);
  const unrecorded = unrecordedWarning(metric, unrecordedSettings(metric, beforeTable, afterTable, pairs), pairs.length);
  if (unrecorded !== undefined) warnings.push(unrecorded);

  return {
    metric,
    pairedBy: pairBy,
    by: hasModels ? by : undefined,
    summary: summaryFrame(summaryRows, pHolm, alpha, new Set(unscoredAfter.map((u) => (hasModels ? u.model : ALL_MODELS)))),
    changes: changesFrame(sortChanges(changes), pairBy, hasModels, compareReferences),
    scoringChanges: scoring,
    unscoredAfter,
    warnings,
  };
}

/** Paired answers whose text in one column differs between the runs: counted, the first named. */
class TextChanges {
  private count = 0;
  private first: string | undefined;

  constructor(
    private readonly column: string,
    private readonly what: string,
  ) {}

  /** Whether the two rows' texts differ (and counts it). */
  check(before: Table, i: number, after: Table, j: number, where: string): boolean {
    if (textAt(before, this.column, i) === textAt(after, this.column, j)) return false;
    this.count++;
    this.first ??= where;
    return true;
  }

  /** The warning, when some paired answer's text differs. */
  warning(): string | undefined {
    if (this.count === 0) return undefined;
    const n = this.count;
    return (
      `${n} paired answer${n === 1 ? " has" : "s have"} a different ${this.what} (${this.column}) in the two runs (first: ${this.first}); ` +
      (this.column === "reference"
        ? "their scores were measured against another reference, so part of their change is the reference's, not the answers'"
        : "the runs may not be of the same data")
    );
  }
}

/** A name as a person reads it: Unicode-normalized, without case, with runs of spaces as one and none at the ends. */
function looseName(text: string): string {
  return text.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Models, and answers of a model, that are in one run only but whose name or
 * key differs from one of the other run only in case, spaces or Unicode form
 * (" q01 " and "q01", "Atlas-Pro" and "atlas-pro"): they are not paired (a
 * name is what the user wrote), but a user who edited a file by hand most
 * likely meant them to be, so they are named.
 */
class NearMisses {
  /** model → loose key → the key dropped (in the before run only). */
  private readonly droppedKeys = new Map<string, Map<string, string>>();
  private readonly addedKeys: { model: string; key: string }[] = [];

  constructor(
    private readonly pairBy: string,
    private readonly hasModels: boolean,
  ) {}

  dropped(model: string, key: string): void {
    let keys = this.droppedKeys.get(model);
    if (keys === undefined) this.droppedKeys.set(model, (keys = new Map()));
    keys.set(looseName(key), key);
  }

  added(model: string, key: string): void {
    if (this.droppedKeys.has(model)) this.addedKeys.push({ model, key });
  }

  warnings(before: Run, after: Run): string[] {
    const out: string[] = [];
    if (this.hasModels) {
      const onlyAfter = new Map<string, string>();
      for (const name of after.models.keys()) if (!before.models.has(name)) onlyAfter.set(looseName(name), name);
      for (const name of before.models.keys()) {
        const other = after.models.has(name) ? undefined : onlyAfter.get(looseName(name));
        if (other === undefined) continue;
        out.push(
          `model ${JSON.stringify(name)} of the before run and ${JSON.stringify(other)} of the after run differ only in case or spaces, so their answers were not paired ` +
            `(the one is "only in the before run", the other "only in the after run"); if they are the same model, write its name alike in both files`,
        );
      }
    }
    let count = 0;
    let first: string | undefined;
    for (const { model, key } of this.addedKeys) {
      const was = this.droppedKeys.get(model)?.get(looseName(key));
      if (was === undefined) continue;
      count++;
      first ??= `${this.pairBy} ${JSON.stringify(was)} before, ${JSON.stringify(key)} after${this.hasModels ? `, model ${JSON.stringify(model)}` : ""}`;
    }
    if (first !== undefined) {
      out.push(
        `${count} answer${count === 1 ? "" : "s"} of the after run differ${count === 1 ? "s" : ""} from one of the before run only in the case or spaces of ${count === 1 ? "its" : "their"} ${this.pairBy} ` +
          `(first: ${first}), so ${count === 1 ? "it is" : "they are"} not paired (each is dropped and added); if they are the same answers, write the ${this.pairBy} alike in both files`,
      );
    }
    return out;
  }
}

/** The models with scored answers in the before run and none scored in the after run. */
function unscoredInAfter(before: Run, after: Run): UnscoredModel[] {
  const out: UnscoredModel[] = [];
  for (const [model, scoredBefore] of before.scored) {
    if (scoredBefore > 0 && (after.scored.get(model) ?? 0) === 0) out.push({ model, scoredBefore, rowsAfter: after.rows.get(model) ?? 0 });
  }
  return out;
}

/** "model "x" had 42 scored answers in the before run and none in the after run (all 42 of its answers failed)". */
function unscoredWarning(u: UnscoredModel, hasModels: boolean): string {
  const who = hasModels ? `model ${JSON.stringify(u.model)}` : "the run";
  const why = u.rowsAfter === 0 ? (hasModels ? "it is not in the after run" : "the after run has no rows") : `all ${u.rowsAfter} of its answers there failed`;
  return `${who} had ${u.scoredBefore} scored answer${u.scoredBefore === 1 ? "" : "s"} in the before run and none scored in the after run (${why})`;
}

function oneSided(status: "added" | "dropped", key: string, model: string, run: Run, row: number): ChangedAnswer {
  const score = run.scores[row]!;
  const response = textAt(run.table, "response", row);
  return {
    key,
    model,
    question: getColumn(run.table, "user_input")?.values[row] ?? null,
    before: status === "dropped" ? score : Number.NaN,
    after: status === "added" ? score : Number.NaN,
    moved: 0,
    status,
    answerChanged: "",
    referenceChanged: "",
    responseBefore: status === "dropped" ? response : "",
    responseAfter: status === "added" ? response : "",
    error: errorText(run, row),
  };
}

const STATUS_ORDER: Readonly<Record<AnswerChange, number>> = { better: 0, worse: 0, "newly failed": 1, "no longer failing": 2, dropped: 3, added: 4 };

function sortChanges(changes: ChangedAnswer[]): ChangedAnswer[] {
  // Array.prototype.sort is stable: equal changes keep the runs' order.
  return changes.sort((p, q) => {
    const byStatus = STATUS_ORDER[p.status] - STATUS_ORDER[q.status];
    if (byStatus !== 0) return byStatus;
    if (STATUS_ORDER[p.status] !== 0) return 0;
    return Math.abs(q.moved) - Math.abs(p.moved);
  });
}

function verdict(row: ModelChange, p: number, alpha: number, unscoredAfter: boolean): string {
  if (row.stats === undefined) {
    if (!row.inBefore) return "only in the after run";
    if (!row.inAfter) return "only in the before run";
    return unscoredAfter ? NONE_SCORED_AFTER : "no valid pairs";
  }
  const side = verdictSide(row.stats, p, alpha);
  if (side === "disagree") return MEAN_DISAGREES;
  if (side === "none") return "no detectable difference";
  return side === "a" ? "after better than before" : "before better than after";
}

function summaryFrame(rows: readonly ModelChange[], pHolm: readonly number[], alpha: number, unscoredAfter: ReadonlySet<string>): DataFrame {
  const nan = Number.NaN;
  const stat = (pick: (s: PairedStats) => number) => rows.map((r) => (r.stats === undefined ? nan : pick(r.stats)));
  const count = (pick: (r: ModelChange) => number) => rows.map(pick);
  const tests: (ComparisonTest | "")[] = rows.map((r) => r.stats?.test ?? "");
  return frameOf(
    [
      column("model", "string", rows.map((r) => r.model)),
      column("n_paired", "number", count((r) => r.nPaired)),
      column("mean_before", "number", stat((s) => s.meanB)),
      column("mean_after", "number", stat((s) => s.meanA)),
      column("change", "number", stat((s) => s.meanDiff)),
      column("ci_low", "number", stat((s) => s.ciLow)),
      column("ci_high", "number", stat((s) => s.ciHigh)),
      column("p_value", "number", stat((s) => s.pValue)),
      column("p_holm", "number", [...pHolm]),
      column("verdict", "string", rows.map((r, i) => verdict(r, pHolm[i]!, alpha, unscoredAfter.has(r.model)))),
      column("improved", "number", count((r) => r.stats?.wins ?? 0)),
      column("worsened", "number", count((r) => r.stats?.losses ?? 0)),
      column("unchanged", "number", count((r) => r.stats?.ties ?? 0)),
      column("added", "number", count((r) => r.added)),
      column("dropped", "number", count((r) => r.dropped)),
      column("failed_before_only", "number", count((r) => r.failedBeforeOnly)),
      column("failed_after_only", "number", count((r) => r.failedAfterOnly)),
      column("failed_both", "number", count((r) => r.failedBoth)),
      column("test", "string", tests),
    ],
    rows.length,
  );
}

function changesFrame(changes: readonly ChangedAnswer[], pairBy: string, hasModels: boolean, references: boolean): DataFrame {
  const columns: TableColumn[] = [column(pairBy, "string", changes.map((c) => c.key))];
  if (hasModels) columns.push(column("model", "string", changes.map((c) => c.model)));
  if (pairBy !== "user_input") columns.push(column("user_input", "string", changes.map((c) => (c.question === null ? null : String(c.question)))));
  columns.push(
    column("before", "number", changes.map((c) => c.before)),
    column("after", "number", changes.map((c) => c.after)),
    column("change", "number", changes.map((c) => c.after - c.before)),
    column("status", "string", changes.map((c) => c.status)),
    column("answer_changed", "string", changes.map((c) => c.answerChanged)),
  );
  if (references) columns.push(column("reference_changed", "string", changes.map((c) => c.referenceChanged)));
  columns.push(
    column("response_before", "string", changes.map((c) => c.responseBefore)),
    column("response_after", "string", changes.map((c) => c.responseAfter)),
    column("error", "string", changes.map((c) => c.error)),
  );
  return frameOf(columns, changes.length);
}
