/**
 * `--fail-under X`, the CI gate of `evalframe score` and `summarize`: read
 * from the summary the command has already computed, it fails the command
 * (exit 1, one line) when a model's mean score — the pass rate, for 0/1
 * scores — is under X. Failed rows are left out of the mean, never counted
 * as 0; a model with no scored row fails the gate.
 */
import { counted, finiteNumber, flag, list, stringOption, type OptionSpec, type ParsedArgs } from "./args";
import { CliFailure, UsageError } from "./errors";
import { metricNames } from "../metrics/registry";
import { cellText } from "../dataset/table";

/** The gate's flags, for a command's option table. */
export const FAIL_UNDER_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  "fail-under": { type: "string" },
  "fail-under-metric": { type: "string" },
  "fail-under-model": { type: "string" },
  "fail-under-overall": { type: "boolean" },
};

/** What `--fail-under` and its companions ask for. */
export interface FailUnderGate {
  /** The lowest acceptable mean (or pass rate), 0 to 1. */
  threshold: number;
  /** Score columns gated; undefined: the registered metrics' score columns (answer_correctness, multimodal_relevance, …) that were summarized. */
  metrics: string[] | undefined;
  /** Only these models are gated; undefined: every group of the summary. */
  models: string[] | undefined;
  /** Gate the pooled score of every row instead of each model. */
  overall: boolean;
}

/** Metrics gated when `--fail-under-metric` is not given (those in the summary): the registry's, by name. */
const primaryMetrics = (): string[] => metricNames();

/** Columns of a summary that are statistics, not group keys. */
const STATISTICS = new Set(["metric", "n", "n_valid", "n_error", "mean", "std", "median", "p25", "p75", "min", "max", "ci_low", "ci_high", "pass_rate"]);

/**
 * The gate asked for on the command line, or undefined without
 * `--fail-under`. Bad values are usage errors (exit 2): X outside 0-1, a
 * companion flag without `--fail-under`, `--fail-under-model` with
 * `--fail-under-overall`, or a metric not in `allowedMetrics`.
 */
export function failUnderGate(command: string, args: ParsedArgs, allowedMetrics?: readonly string[]): FailUnderGate | undefined {
  const text = stringOption(args, "fail-under");
  const metricText = stringOption(args, "fail-under-metric");
  const modelText = stringOption(args, "fail-under-model");
  const overall = flag(args, "fail-under-overall");
  if (text === undefined) {
    const stray = [metricText !== undefined && "--fail-under-metric", modelText !== undefined && "--fail-under-model", overall && "--fail-under-overall"].filter(Boolean);
    if (stray.length > 0) throw new UsageError(`${command}: ${stray.join(" and ")} go${stray.length === 1 ? "es" : ""} with --fail-under X (the lowest acceptable mean, 0 to 1)`, command);
    return undefined;
  }
  const threshold = finiteNumber(command, "fail-under", text, { min: 0, max: 1 })!;
  const metrics = list(metricText);
  if (metrics !== undefined && metrics.length === 0) throw new UsageError(`${command}: --fail-under-metric is empty; name a score column, e.g. answer_correctness`, command);
  if (metrics !== undefined && allowedMetrics !== undefined) {
    const unknown = metrics.find((m) => !allowedMetrics.includes(m));
    if (unknown !== undefined) throw new UsageError(`${command}: --fail-under-metric must be one of ${allowedMetrics.join(", ")}, got ${JSON.stringify(unknown)}`, command);
  }
  const models = list(modelText);
  if (models !== undefined && models.length === 0) throw new UsageError(`${command}: --fail-under-model is empty; name the model(s) to gate, e.g. --fail-under-model atlas-pro`, command);
  if (models !== undefined && overall) throw new UsageError(`${command}: use --fail-under-model or --fail-under-overall, not both`, command);
  return { threshold, metrics, models, overall };
}

/** Where {@link requireGateMetrics} checks the gated metrics: the command, and for `summarize` the columns of the table read. */
export interface GateMetricsPlace {
  /** The command whose `--help` a message points at; default "score". */
  command?: "score" | "summarize";
  /**
   * `summarize` only: the columns of the table and its score columns. A
   * gated metric that is a column but not summarized is told to be added to
   * `--metrics`; one that is not a column is named with the score columns there are.
   */
  table?: { columns: readonly string[]; scoreColumns: readonly string[] };
}

/**
 * Before any work is paid for (`score`) or printed (`summarize`): the gated
 * metrics must be among those the run produces or the summary holds (exit 2,
 * naming them and what there is).
 */
export function requireGateMetrics(gate: FailUnderGate | undefined, produced: readonly string[], input: string, place: GateMetricsPlace = {}): void {
  const command = place.command ?? "score";
  const missing = gate?.metrics?.filter((m) => !produced.includes(m)) ?? [];
  if (missing.length === 0) return;
  const table = place.table;
  if (table === undefined) {
    throw new UsageError(`${input}: --fail-under-metric ${missing.join(",")} is not scored in this run (it scores ${produced.join(", ")}); add it to --metrics or gate another`, command);
  }
  const absent = missing.filter((m) => !table.columns.includes(m));
  if (absent.length > 0) {
    const has = table.scoreColumns.length > 0 ? `its score columns are ${listed(table.scoreColumns)}` : "it has no score column";
    throw new UsageError(`${input}: --fail-under-metric ${absent.map((m) => JSON.stringify(m)).join(", ")} is not a column of this table; ${has}; gate one of those`, command);
  }
  throw new UsageError(
    `${input}: --fail-under-metric ${missing.join(",")} is a column of this table but not summarized (the summary has ${produced.join(", ") || "no metric"}); ` +
      `add it to --metrics, e.g. --metrics ${[...produced, ...missing].join(",")}`,
    command,
  );
}

/**
 * The models a `model` column names, first seen first, empty and missing
 * cells left out: those `--fail-under-model` may name.
 *
 * @example
 * modelNames(["m2", "m1", null, "m2", ""]) // ["m2", "m1"]
 */
export function modelNames(values: Iterable<unknown>): string[] {
  const models = new Set<string>();
  for (const value of values) {
    const text = cellText(value);
    if (text !== null && text !== "") models.add(text);
  }
  return [...models];
}

/**
 * Before any work is paid for (`score`) or printed (`summarize`): the models
 * `--fail-under-model` names must be among the input's (exit 2, naming those
 * it has). `models` is empty when the input has no "model" column.
 */
export function requireGateModels(gate: FailUnderGate | undefined, models: readonly string[], input: string, narrowed = false, command: "score" | "summarize" = "score"): void {
  if (gate?.models === undefined) return;
  const rows = narrowed ? "the rows --where picks" : "this table";
  if (models.length === 0) throw new UsageError(`${input}: --fail-under-model needs a "model" column, and ${rows} ${narrowed ? "have" : "has"} none; gate all rows with --fail-under alone`, command);
  const absent = gate.models.filter((m) => !models.includes(m));
  if (absent.length > 0) throw new UsageError(`${input}: --fail-under-model ${absent.map((m) => JSON.stringify(m)).join(", ")} is not a model of ${rows}; ${narrowed ? "their" : "its"} models are ${listed(models)}`, command);
}

/** Up to 12 names, quoted, and how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 12).map((n) => JSON.stringify(n)).join(", ");
  return names.length > 12 ? `${shown} and ${names.length - 12} more` : shown;
}

/** One gated score: a group (or all rows) and metric, as the summary gives it. */
interface Gated {
  metric: string;
  group: string;
  value: number;
  binary: boolean;
  rows: number;
  failed: number;
}

function numberField(record: Readonly<Record<string, unknown>>, name: string): number {
  const v = record[name];
  return typeof v === "number" && Number.isFinite(v) ? v : Number.NaN;
}

/** The value and the threshold with enough digits to tell them apart (at least two, at most 17), so that "0.3599999 < 0.36" never reads "0.36 < 0.36". */
function shown(value: number, threshold: number): [string, string] {
  if (value === threshold) return [value.toFixed(2), threshold.toFixed(2)]; // equal: two digits say so
  let digits = 2;
  while (digits < 17 && value.toFixed(digits) === threshold.toFixed(digits)) digits++;
  return [value.toFixed(digits), threshold.toFixed(digits)];
}

function groupLabel(record: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(record).filter((k) => !STATISTICS.has(k));
  if (keys.length === 0) return "all rows";
  return keys.map((k) => `${k} ${record[k] === null || record[k] === undefined || record[k] === "" ? "(none)" : String(record[k])}`).join(", ");
}

function measure(g: Gated): string {
  return g.binary ? "pass rate" : "mean";
}

/** The rows behind a gated score, e.g. "120 rows" or "117 of 120 rows scored, 3 failed" (failed rows are left out of the mean). */
function rowNote(g: Gated): string {
  return g.failed > 0 ? scoredNote(g) : counted(g.rows, "row");
}

/** How many of a gated score's rows were scored: "2 of 42 rows scored, 40 failed". */
function scoredNote(g: Gated): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  return `${n(g.rows - g.failed)} of ${counted(g.rows, "row")} scored, ${n(g.failed)} failed`;
}

/** The scores a gate looks at: per group of the summary, or pooled, for each gated metric. */
function gatedScores(summary: readonly Readonly<Record<string, unknown>>[], gate: FailUnderGate): Gated[] {
  const available = [...new Set(summary.map((r) => String(r["metric"])))];
  let metrics = gate.metrics ?? available.filter((m) => primaryMetrics().includes(m));
  if (metrics.length === 0) metrics = available;
  const missing = metrics.filter((m) => !available.includes(m));
  if (missing.length > 0) {
    throw new UsageError(`fail-under: ${missing.join(", ")} is not in the summary (it has ${available.join(", ") || "no metric"}); summarize it with --metrics`);
  }
  let records = summary;
  if (gate.models !== undefined) {
    if (!summary.some((r) => Object.hasOwn(r, "model"))) throw new UsageError("fail-under: --fail-under-model needs the summary by model, and this one has no model column");
    const present = new Set(summary.map((r) => String(r["model"])));
    const absent = gate.models.filter((m) => !present.has(m));
    if (absent.length > 0) throw new UsageError(`fail-under: --fail-under-model ${absent.map((m) => JSON.stringify(m)).join(", ")} is not a model of the table; its models are ${listed([...present])}`);
    records = summary.filter((r) => gate.models!.includes(String(r["model"])));
  }
  const out: Gated[] = [];
  for (const metric of metrics) {
    const rows = records.filter((r) => r["metric"] === metric);
    const one = (r: Readonly<Record<string, unknown>>, group: string): Gated => ({
      metric,
      group,
      value: numberField(r, "mean"),
      binary: !Number.isNaN(numberField(r, "pass_rate")) || numberField(r, "n_valid") === 0,
      rows: numberField(r, "n"),
      failed: numberField(r, "n_error"),
    });
    if (!gate.overall) {
      for (const r of rows) out.push(one(r, groupLabel(r)));
      continue;
    }
    // Pooled: the mean of every valid score is the groups' means weighted by their valid rows.
    let sum = 0;
    let valid = 0;
    let binary = true;
    let n = 0;
    let failed = 0;
    for (const r of rows) {
      const k = numberField(r, "n_valid");
      if (k > 0) {
        sum += numberField(r, "mean") * k;
        valid += k;
        if (Number.isNaN(numberField(r, "pass_rate"))) binary = false;
      }
      n += numberField(r, "n");
      failed += numberField(r, "n_error");
    }
    out.push({ metric, group: "all rows", value: valid > 0 ? sum / valid : Number.NaN, binary, rows: n, failed });
  }
  return out;
}

/**
 * Applies the gate to a summary (the records of `summarize`, by model or by
 * nothing): returns one line saying it passed, or throws a
 * {@link CliFailure} with one line naming the metric, the score, X and the
 * model that fell short (the lowest first; the others counted).
 *
 * @example
 * checkFailUnder(frameRecords(summary), { threshold: 0.7, metrics: undefined, models: undefined, overall: false });
 * // throws: fail-under: answer_correctness mean 0.64 < 0.70 (model swift-mini; 120 rows)
 * // or, with failed rows: "(model swift-mini; 117 of 120 rows scored, 3 failed)"; a pass names the
 * // lowest so too: "fail-under: passed: … (lowest 0.34, model swift-mini, 2 of 42 rows scored, 40 failed)"
 */
export function checkFailUnder(summary: readonly Readonly<Record<string, unknown>>[], gate: FailUnderGate): string {
  const scores = gatedScores(summary, gate);
  const t = gate.threshold;
  const below = scores.filter((g) => Number.isNaN(g.value) || g.value < t);
  below.sort((p, q) => (Number.isNaN(p.value) ? -1 : Number.isNaN(q.value) ? 1 : p.value - q.value));
  const worst = below[0];
  if (worst !== undefined) {
    const more = below.slice(1);
    const several = new Set(scores.map((g) => g.metric)).size > 1;
    const also = more.length > 0 ? `; also below: ${more.slice(0, 3).map((g) => `${several ? `${g.metric} ` : ""}${g.group} ${Number.isNaN(g.value) ? "(no scored rows)" : shown(g.value, t)[0]}`).join(", ")}${more.length > 3 ? `, and ${more.length - 3} more` : ""}` : "";
    if (Number.isNaN(worst.value)) {
      throw new CliFailure(`fail-under: ${worst.metric} has no scored rows (${worst.group}; ${counted(worst.rows, "row")}, all failed), so it cannot reach ${t}${also}`);
    }
    const [v, x] = shown(worst.value, t);
    throw new CliFailure(`fail-under: ${worst.metric} ${measure(worst)} ${v} < ${x} (${worst.group}; ${rowNote(worst)})${also}`);
  }
  const lowest = [...scores].sort((p, q) => p.value - q.value)[0];
  if (lowest === undefined) throw new CliFailure("fail-under: the summary has no score to gate");
  const [v, x] = shown(lowest.value, t);
  const keys = summary[0] === undefined ? [] : Object.keys(summary[0]).filter((k) => !STATISTICS.has(k));
  const scope = gate.overall || keys.length === 0 ? "over all rows" : `for every ${gate.models ? "gated " : ""}${keys.join(" and ")}`;
  const what = [...new Set(scores.map((g) => `${g.metric} ${measure(g)}`))].join(", ");
  const where = gate.overall || keys.length === 0 ? [] : [lowest.group];
  if (new Set(scores.map((g) => g.metric)).size > 1) where.unshift(lowest.metric);
  // A mean that rests on a few of the rows says so: failed rows are left out of it.
  if (lowest.failed > 0) where.push(scoredNote(lowest));
  return `fail-under: passed: ${what} >= ${x} ${scope} (lowest ${[v, ...where].join(", ")})`;
}
