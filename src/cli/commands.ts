/**
 * The subcommands of `evalframe`: score, summarize, compare, chart, report.
 * Each checks its flags first (a bad flag exits 2 before any file is read or
 * any call is paid for), then reads its input (a problem there exits 1 with
 * one line), then does its work.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { writeFileAtomic } from "../dataset/atomic-write";
import type { DataFrame } from "danfojs-node";
import type { VegaLiteSpec } from "../charts/spec";
import type { CanonicalColumn } from "../dataset/columns";
import type { Table } from "../dataset/table";
import type { DatasetFormat } from "../dataset/load";
import type { EnvironmentVariables } from "../judge/config";
import { metricDefinitions, metricNames, type MetricFlags } from "../metrics/registry";
import type { UsageSummary } from "../judge/usage";
import type { Metric } from "../metrics/metric";
import type { InputSurvey } from "./score-stream";
import type { ReportOptions } from "../report/html";
import {
  choice,
  counted,
  finiteNumber,
  flag,
  inputFormat,
  list,
  onePositional,
  parseCommand,
  requiredOption,
  stringOption,
  wholeNumber,
  type OptionSpec,
  type ParsedArgs,
} from "./args";
import { CliFailure, failOnError, UsageError, usageOnError } from "./errors";
import { calibrateCommand } from "./calibrate";
import { diffCommand } from "./diff";
import { checkFailUnder, FAIL_UNDER_OPTIONS, failUnderGate, requireGateMetrics, type FailUnderGate } from "./fail-under";
import { readLabelFiles } from "./labels";
import { configCommand } from "./config";
import { JUDGE_OPTIONS, judgeFlags } from "./judge-flags";

/** danfojs and everything built on it, loaded after the arguments are checked. */
function runtime(): typeof import("./runtime") {
  return require("./runtime") as typeof import("./runtime");
}

/** Batch mode's functions, loaded only when a batch flag or command is used. */
function batchRuntime(): typeof import("../batch/run") {
  return require("../batch/run") as typeof import("../batch/run");
}

import type { CliIO, Command } from "./command";

export type { CliIO, Command } from "./command";


const s: OptionSpec = { type: "string" };
const b: OptionSpec = { type: "boolean" };

function columnsOf(df: DataFrame | Table): string[] {
  return df.columns.map((c) => (typeof c === "string" ? c : c.name));
}

/** What the analysis commands need, loaded when one runs: tables, no DataFrames, so no danfojs. */
function tables(): {
  loadTable: typeof import("../dataset/load").loadTable;
  summaryTable: typeof import("../analysis/summarize").summaryTable;
  comparisonTable: typeof import("../analysis/compare").comparisonTable;
  headline: typeof import("../analysis/headline").headline;
  formatTable: typeof import("./table").formatTable;
  frameRecords: typeof import("./table").frameRecords;
  judgeLabels: typeof import("./conclusion").judgeLabels;
} {
  const { loadTable } = require("../dataset/load") as typeof import("../dataset/load");
  const { summaryTable } = require("../analysis/summarize") as typeof import("../analysis/summarize");
  const { comparisonTable } = require("../analysis/compare") as typeof import("../analysis/compare");
  const { headline } = require("../analysis/headline") as typeof import("../analysis/headline");
  const { formatTable, frameRecords } = require("./table") as typeof import("./table");
  const { judgeLabels } = require("./conclusion") as typeof import("./conclusion");
  return { loadTable, summaryTable, comparisonTable, headline, formatTable, frameRecords, judgeLabels };
}

/** Reads a data file, any problem as one line (exit 1). */
async function readInput(
  file: string,
  format: DatasetFormat,
  options: { required?: readonly CanonicalColumn[]; io?: CliIO; strict?: boolean } = {},
): Promise<DataFrame> {
  const { required, io, strict } = options;
  // Warnings (bad rows, bad bytes) go to the command's stderr, through its printable filter; none when reading a scored table.
  const warn = io ? (message: string) => io.err(`${message}\n`) : false;
  return failOnError(() => runtime().loadDataset(file, { format, warn, ...(required ? { required } : {}), ...(strict ? { strict } : {}) }));
}

/**
 * Reads a scored table for analysis: no column is required beyond what the
 * analysis asks for. `load` gives a typed table (no danfojs); `frame` a DataFrame.
 */
function readScored(command: string, args: ParsedArgs): { file: string; load: () => Promise<Table>; frame: () => Promise<DataFrame> } {
  const file = onePositional(command, args, "scored table (a CSV that evalframe score wrote)");
  const format = inputFormat(command, file, stringOption(args, "format"));
  return {
    file,
    load: () => failOnError(() => tables().loadTable(file, { format, warn: false, required: [] })),
    frame: () => readInput(file, format, { required: [] }),
  };
}

async function writeText(file: string, text: string): Promise<void> {
  await failOnError(async () => {
    await writeFileAtomic(file, text);
  }, `cannot write "${file}": `);
}

function errorCount(df: DataFrame, metric: string): { failed: number; first: string | undefined } {
  const j = columnsOf(df).indexOf(`${metric}_error`);
  if (j < 0) return { failed: 0, first: undefined };
  let failed = 0;
  let first: string | undefined;
  for (const row of df.values as unknown[][]) {
    const v = row[j];
    if (typeof v === "string" && v.trim() !== "") {
      failed++;
      first ??= v;
    }
  }
  return { failed, first };
}

const SCORE_OPTIONS: Record<string, OptionSpec> = {
  out: s,
  metrics: s,
  ...JUDGE_OPTIONS,
  weights: s,
  beta: s,
  threshold: s,
  "similarity-threshold": s,
  "image-root": s,
  "allow-private-network": b,
  "statements-out": s,
  "summary-json": s,
  "no-progress": b,
  format: s,
  strict: b,
  "chunk-rows": s,
  batch: b,
  "batch-dir": s,
  "batch-export": s,
  "batch-import": s,
  "poll-interval": s,
  "dry-run": b,
  rpm: s,
  tpm: s,
  ...FAIL_UNDER_OPTIONS,
};

/** `evalframe score`: judge every row and write the scored table (and, on request, statements and a JSON summary). */
export const scoreCommand: Command = async (argv, io, env = process.env) => {
  const c = "score";
  const args = parseCommand(c, argv, SCORE_OPTIONS);
  const input = onePositional(c, args, "input file (.csv, .tsv, .jsonl or .json)");
  const batchExport = stringOption(args, "batch-export");
  const batchImport = stringOption(args, "batch-import");
  const batchMode = flag(args, "batch");
  if ([batchMode, batchExport !== undefined, batchImport !== undefined].filter(Boolean).length > 1) {
    throw new UsageError(`${c}: use one of --batch, --batch-export and --batch-import at a time`, c);
  }
  const pollSeconds = finiteNumber(c, "poll-interval", stringOption(args, "poll-interval"), { above: 0 });
  const dryRun = flag(args, "dry-run");
  if (dryRun && (batchExport !== undefined || batchImport !== undefined)) {
    throw new UsageError(`${c}: --dry-run estimates a run; it does not go with --batch-export or --batch-import`, c);
  }
  const requestsPerMinute = finiteNumber(c, "rpm", stringOption(args, "rpm"), { above: 0 });
  const tokensPerMinute = finiteNumber(c, "tpm", stringOption(args, "tpm"), { above: 0 });
  const out = batchExport !== undefined || dryRun ? (stringOption(args, "out") ?? "") : requiredOption(c, args, "out", "scored.csv");
  const format = inputFormat(c, input, stringOption(args, "format"));
  const statementsOut = stringOption(args, "statements-out");
  const summaryJson = stringOption(args, "summary-json");
  // The metrics are the registry's (metrics/registry.ts), in its order.
  const registered = metricNames();
  const gate = failUnderGate(c, args, registered);

  const asked = list(stringOption(args, "metrics"));
  if (asked !== undefined && asked.length === 0) throw new UsageError(`${c}: --metrics is empty; name ${registered.join(" and/or ")}`, c);
  const askedNames = asked?.map((m) => choice(c, "metrics", m, registered)!);
  if (statementsOut !== undefined && askedNames !== undefined && !askedNames.includes("answer_correctness")) {
    throw new UsageError(`${c}: --statements-out needs the answer_correctness metric`, c);
  }

  // Every metric's flags, in one bag each definition reads from: answer correctness's first.
  const metricFlags: MetricFlags = {};
  const weights = list(stringOption(args, "weights"));
  if (weights !== undefined) {
    const w = weights.map((x) => finiteNumber(c, "weights", x, { min: 0 })!);
    if (w.length !== 2) throw new UsageError(`${c}: --weights takes two numbers, factual and semantic, e.g. 0.75,0.25; got ${JSON.stringify(stringOption(args, "weights"))}`, c);
    metricFlags.weights = [w[0]!, w[1]!];
  }
  const beta = finiteNumber(c, "beta", stringOption(args, "beta"), { above: 0 });
  if (beta !== undefined) metricFlags.beta = beta;
  const threshold = finiteNumber(c, "threshold", stringOption(args, "threshold"), { min: 0, max: 1 });
  if (threshold !== undefined) metricFlags.threshold = threshold;
  const similarity = finiteNumber(c, "similarity-threshold", stringOption(args, "similarity-threshold"), { min: 0, max: 1 });
  if (similarity !== undefined) metricFlags.similarityThreshold = similarity;

  // Multimodal relevance options: local images are found next to the input file by default.
  metricFlags.imageRoot = path.resolve(stringOption(args, "image-root") ?? path.dirname(path.resolve(input)));
  if (flag(args, "allow-private-network")) metricFlags.allowPrivateNetwork = true;

  // The judge (flags, then the environment; the API key only ever comes from the environment), checked before any file is read.
  const { options: judgeOptions, labels, config: judgeConfig } = await judgeFlags(c, args, env);
  if (batchMode && judgeConfig.separateEmbeddings) {
    throw new UsageError(
      `${c}: --batch sends every request, embeddings too, through the chat server's Batch API, so it cannot use a separate embeddings server ` +
        "(--embedding-base-url or EVALFRAME_EMBEDDING_BASE_URL); leave that out, or use --batch-export and run the embedding lines on that server",
      c,
    );
  }
  // Every registered metric is built now, so that a bad option exits 2 before any file is read.
  const metrics: Record<string, Metric> = await usageOnError(() => Object.fromEntries(metricDefinitions().map((d) => [d.name, d.create(metricFlags)])), c);

  // Read the input (batch mode: whole; otherwise a first streamed pass that checks every row);
  // choose the metrics its columns allow when none were named.
  const batching = batchMode || batchExport !== undefined || batchImport !== undefined;
  const strict = flag(args, "strict");
  const chunkRows = wholeNumber(c, "chunk-rows", stringOption(args, "chunk-rows"), 1);
  const { createJudge, score, scoreRun, terminalProgress, toCSV, statements, summarize, surveyInput, scoreFileInChunks, requireColumns, estimate, formatEstimate } = runtime();
  let df: DataFrame | undefined;
  let survey: InputSurvey | undefined;
  if (batching) df = await readInput(input, format, { io, strict });
  else survey = await failOnError(() => surveyInput(input, format, { strict, warn: (m: string) => io.err(`${m}\n`), ...(chunkRows ? { chunkRows } : {}) }));
  const columns = df ? columnsOf(df) : survey!.columns;
  if ((df ? (df.shape[0] ?? 0) : survey!.rows) === 0) {
    throw new CliFailure(`${input}: no rows to score: the file has ${columns.length > 0 ? "a header and nothing under it" : "nothing in it"}`);
  }
  let chosen: string[];
  if (askedNames !== undefined) {
    chosen = [...new Set(askedNames)];
    const required = [...new Set(chosen.flatMap((m) => metrics[m]!.requiredColumns))];
    await failOnError(() => requireColumns(columns, required, input));
  } else {
    chosen = registered.filter((m) => metrics[m]!.requiredColumns.every((col) => columns.includes(col)));
    if (chosen.length === 0) {
      const needs = metricDefinitions().map((d) => `${d.name} needs ${d.needs}`);
      throw new CliFailure(`${input}: nothing to score: ${needs.slice(0, -1).join(", ")}${needs.length > 1 ? " and " : ""}${needs.at(-1) ?? ""}; the columns are ${columns.join(", ")}`);
    }
    if (statementsOut !== undefined && !chosen.includes("answer_correctness")) {
      throw new CliFailure(`${input}: --statements-out needs answer_correctness, and this table has no "reference" column to score it with`);
    }
  }
  requireGateMetrics(gate, chosen, input);

  if (labels !== undefined) judgeOptions.labels = await readLabelFiles(labels);
  const judge = await usageOnError(() => createJudge(judgeOptions, env), c); // prints a notice when the environment picks the offline judge
  const selected: Metric[] = chosen.map((m) => metrics[m]!);
  if (dryRun) {
    // No chat or embedding call: the calls are planned, their prompts counted with the model's tokenizer, the cache read.
    const e = await failOnError(() =>
      estimate(input, selected, { judge, load: { format, strict, warn: false }, ...(requestsPerMinute ? { requestsPerMinute } : {}), ...(tokensPerMinute ? { tokensPerMinute } : {}) }),
    );
    io.out(`${formatEstimate(e)}\n`);
    return 0;
  }
  const progress = flag(args, "no-progress") ? false : terminalProgress();
  if (!batching) {
    const run = await failOnError(() =>
      scoreFileInChunks({ input, format, survey: survey!, metrics: selected, judge, out, statementsOut, progress, strict, ...(chunkRows ? { chunkRows } : {}) }),
    );
    const written = [`${out} (${counted(run.rows, "row")})`];
    if (statementsOut !== undefined) written.push(`${statementsOut} (${counted(run.statements, "statement")})`);
    return reportScored(io, { input, out, summaryJson, chosen, written, gate, ...run });
  }
  if (judge.kind !== "openai") {
    throw new UsageError(`${c}: batch mode needs an OpenAI-compatible judge (the ${judge.kind} judge has no batch API); set OPENAI_API_KEY or OPENAI_BASE_URL (or EVALFRAME_API_KEY / EVALFRAME_BASE_URL)`, c);
  }
  const { scoreBatch, exportBatchRequests, importBatchResults } = batchRuntime();
  if (batchExport !== undefined) {
    const exported = await exportBatchRequests(df!, selected, batchExport, { judge });
    if (exported.lines > 0) {
      io.out(`wrote ${exported.lines.toLocaleString("en-US")} batch request lines (${exported.chat} chat, ${exported.embeddings} embeddings) to ${batchExport}; run them (e.g. with vLLM's batch runner), then: evalframe score ${input} --out ${out || "scored.csv"} --batch-import RESULTS.jsonl\n`);
      return 0;
    }
    if (out === "") {
      io.out(`nothing to export: every request is in the cache; score with --out to write the table\n`);
      return 0;
    }
  }
  if (batchImport !== undefined) {
    const imported = await failOnError(() => importBatchResults(df!, selected, batchImport, { judge }), `${batchImport}: `);
    io.out(`read ${imported.applied.toLocaleString("en-US")} results from ${batchImport}${imported.failed.size > 0 ? ` (${imported.failed.size} failed lines)` : ""}\n`);
    if (imported.remaining > 0) {
      io.out(`the next stage needs ${imported.remaining.toLocaleString("en-US")} more requests: export them with --batch-export and run them too\n`);
      return 0;
    }
  }
  const scored = batchMode
    ? await scoreBatch(df!, selected, {
        judge,
        batchDir: stringOption(args, "batch-dir") ?? ".evalframe-batch",
        ...(pollSeconds !== undefined ? { pollIntervalMs: pollSeconds * 1000 } : {}),
        log: (line: string) => io.err(`${line}\n`),
        quiet: true,
      })
    : await score(df!, selected, { judge, progress, quiet: true });
  const run = scoreRun(scored);
  const rows = scored.shape[0] ?? 0;

  await failOnError(() => toCSV(scored, out), `cannot write "${out}": `);
  const written = [`${out} (${counted(rows, "row")})`];
  if (statementsOut !== undefined) {
    const st = statements(scored);
    await failOnError(() => toCSV(st, statementsOut), `cannot write "${statementsOut}": `);
    written.push(`${statementsOut} (${counted(st.shape[0] ?? 0, "statement")})`);
  }
  const hasModel = columnsOf(scored).includes("model");
  return reportScored(io, {
    input,
    out,
    summaryJson,
    chosen,
    written,
    gate,
    rows,
    failures: chosen.map((m) => ({ metric: m, ...errorCount(scored, m) })),
    summary: summarize(scored, hasModel ? { by: "model" } : {}),
    scores: scored,
    usage: run?.usage,
    judges: run?.judges ?? [judge.label],
  });
};

/** What a finished score run prints and writes besides the table: the summary, failures, files, usage; exit 1 when every row failed. */
async function reportScored(
  io: CliIO,
  r: {
    input: string;
    out: string;
    summaryJson: string | undefined;
    chosen: readonly string[];
    written: string[];
    rows: number;
    failures: { metric: string; failed: number; first: string | undefined }[];
    summary: DataFrame;
    /** The scored rows (or what the comparison needs of them), for the headline. */
    scores: Record<string, unknown>[] | DataFrame;
    usage: UsageSummary | undefined;
    judges: string[];
    /** `--fail-under`: checked last, once everything is written. */
    gate: FailUnderGate | undefined;
  },
): Promise<number> {
  const { formatUsage, frameRecords, formatTable } = runtime();
  const { rows, failures, summary, written } = r;
  if (r.summaryJson !== undefined) {
    const body = {
      input: r.input,
      output: r.out,
      rows,
      metrics: r.chosen,
      judges: r.judges,
      failed: Object.fromEntries(failures.map((f) => [f.metric, f.failed])),
      usage: r.usage ?? null,
      usageLine: r.usage ? formatUsage(r.usage) : null,
      summary: frameRecords(summary),
    };
    await writeText(r.summaryJson, `${JSON.stringify(body, null, 2)}\n`);
    written.push(r.summaryJson);
  }

  io.out(`${formatTable(summary)}\n\n`);
  const { conclusion } = runtime();
  const sentences = conclusion(r.scores, summary, r.chosen, r.judges);
  if (sentences.length > 0) io.out(`${sentences.join("\n")}\n\n`);
  io.out(`${failures.map((f) => `${f.metric}: ${f.failed.toLocaleString("en-US")} of ${counted(rows, "row")} failed`).join(" · ")}\n`);
  io.out(`wrote ${written.join(", ")}\n`);
  if (r.usage) io.out(`${formatUsage(r.usage)}\n`);

  if (rows > 0 && failures.every((f) => f.failed === rows)) {
    const first = failures.find((f) => f.first !== undefined)?.first ?? "unknown";
    throw new CliFailure(`every row failed to score (the scored table was written with the reasons); first reason: ${first}`);
  }
  if (r.gate) io.err(`${checkFailUnder(frameRecords(summary), r.gate)}\n`);
  return 0;
}

/** `evalframe summarize`: the summary table of a scored file. */
export const summarizeCommand: Command = async (argv, io) => {
  const c = "summarize";
  const args = parseCommand(c, argv, { by: s, metrics: s, seed: s, json: b, format: s, ...FAIL_UNDER_OPTIONS });
  const gate = failUnderGate(c, args);
  const input = readScored(c, args);
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0);
  const metrics = list(stringOption(args, "metrics"));
  if (metrics !== undefined && metrics.length === 0) throw new UsageError(`${c}: --metrics is empty`, c);
  const { summaryTable, formatTable, frameRecords } = tables();
  const df = await input.load();
  const by = list(stringOption(args, "by")) ?? (columnsOf(df).includes("model") ? ["model"] : []);
  const summary = await failOnError(() =>
    summaryTable(df, { by, ...(metrics ? { metrics } : {}), ...(seed !== undefined ? { seed } : {}) }),
  `${input.file}: `);
  io.out(flag(args, "json") ? `${JSON.stringify(frameRecords(summary), null, 2)}\n` : `${formatTable(summary)}\n`);
  if (gate) io.err(`${checkFailUnder(frameRecords(summary), gate)}\n`);
  return 0;
};

/** The first registered metric whose score column the table has (else the first registered). */
function defaultMetric(df: DataFrame | Table): string {
  const columns = columnsOf(df);
  const definitions = metricDefinitions();
  return (definitions.find((d) => columns.includes(d.scoreColumn)) ?? definitions[0]!).scoreColumn;
}

/** `evalframe compare`: paired model comparison of a scored file. */
export const compareCommand: Command = async (argv, io) => {
  const c = "compare";
  const args = parseCommand(c, argv, { metric: s, by: s, "pair-by": s, baseline: s, seed: s, json: b, format: s });
  const input = readScored(c, args);
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0);
  const { comparisonTable, formatTable, frameRecords } = tables();
  const df = await input.load();
  const options = {
    metric: stringOption(args, "metric") ?? defaultMetric(df),
    by: stringOption(args, "by") ?? "model",
    ...(stringOption(args, "pair-by") !== undefined ? { pairBy: stringOption(args, "pair-by")! } : {}),
    ...(stringOption(args, "baseline") !== undefined ? { baseline: stringOption(args, "baseline")! } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
  const comparison = await failOnError(() => comparisonTable(df, options), `${input.file}: `);
  if (flag(args, "json")) {
    io.out(`${JSON.stringify(frameRecords(comparison), null, 2)}\n`);
    return 0;
  }
  io.out(`${formatTable(comparison, { maxWidth: 40 })}\n`);
  // The same comparison in words; a summary it cannot make (no such metric rows) leaves the table alone.
  const { summaryTable, headline, judgeLabels } = tables();
  try {
    const summary = summaryTable(df, { by: options.by, metrics: options.metric });
    const judges = judgeLabels(df, [options.metric]);
    io.out(`\n${headline(summary, comparison, { metric: options.metric, by: options.by, ...(judges.length > 0 ? { judge: judges.join(" and ") } : {}) }).join("\n")}\n`);
  } catch {
    // The table above stands on its own.
  }
  return 0;
};

/** The kinds of `evalframe chart`. */
export const CHART_KINDS = ["box", "histogram", "mean", "scatter", "heatmap", "paired", "wtl", "verdicts", "sweep", "relevance"] as const;
type ChartKind = (typeof CHART_KINDS)[number];

/** `evalframe chart`: one chart of a scored file, as PNG, SVG or a Vega-Lite spec. */
export const chartCommand: Command = async (argv, io) => {
  const c = "chart";
  const args = parseCommand(c, argv, { kind: s, out: s, metric: s, by: s, "pair-by": s, models: s, baseline: s, format: s });
  const input = readScored(c, args);
  const kindText = requiredOption(c, args, "kind", CHART_KINDS.join("|"));
  const kind: ChartKind = choice(c, "kind", kindText, CHART_KINDS)!;
  const out = requiredOption(c, args, "out", "chart.png");
  if (![".png", ".svg", ".json"].includes(path.extname(out).toLowerCase())) {
    throw new UsageError(`${c}: --out must end in .png, .svg or .json (the Vega-Lite spec), got "${out}"`, c);
  }
  const models = list(stringOption(args, "models"));
  if (models !== undefined && models.length !== 2) throw new UsageError(`${c}: --models takes two model names, e.g. --models atlas-pro,swift-mini`, c);
  const metric = stringOption(args, "metric");
  const by = stringOption(args, "by");
  const pairBy = stringOption(args, "pair-by");
  const baseline = stringOption(args, "baseline");
  const opt = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  // The chart modules only (no judge, no report, no danfojs): a chart of a table is drawn in about a second.
  const { scoreBox, scoreHistogram, meanWithCI, factualVsSemantic, questionHeatmap, pairedDifferences, winTieLoss, verdictBars, thresholdSweep, relevanceRate, saveChart } =
    require("../charts/index") as typeof import("../charts/index");
  const df = await input.load();
  const spec = await failOnError((): VegaLiteSpec => {
    switch (kind) {
      case "box":
        return scoreBox(df, opt({ metric, by }));
      case "histogram":
        return scoreHistogram(df, opt({ metric, by }));
      case "mean":
        return meanWithCI(df, opt({ metric, by }));
      case "scatter":
        return factualVsSemantic(df, opt({ by }));
      case "heatmap":
        return questionHeatmap(df, opt({ metric, by, pairBy }));
      case "paired":
        return pairedDifferences(df, opt({ metric, by, pairBy, a: models?.[0], b: models?.[1] }));
      case "wtl":
        return winTieLoss(df, opt({ metric, baseline }));
      case "verdicts":
        return verdictBars(df, opt({ by }));
      case "sweep":
        return thresholdSweep(df, opt({ metric, by }));
      case "relevance":
        return relevanceRate(df, opt({ metric, by }));
    }
  }, `${input.file}: `);
  await failOnError(() => saveChart(spec, out), `cannot write "${out}": `);
  io.out(`wrote ${out}\n`);
  return 0;
};

/** The run's usage from a JSON file that `evalframe score --summary-json` wrote. */
async function readUsage(file: string): Promise<UsageSummary> {
  const text = await failOnError(() => readFile(file, "utf8"), `cannot read "${file}": `);
  const parsed = await failOnError(() => JSON.parse(text) as { usage?: unknown }, `${file}: not valid JSON: `);
  const usage = parsed.usage as Partial<UsageSummary> | null | undefined;
  if (!usage || typeof usage !== "object" || typeof usage.judge !== "string" || typeof usage.chatCalls !== "number" || typeof usage.wallTimeMs !== "number") {
    throw new CliFailure(`${file}: no "usage" object; give the file that evalframe score --summary-json wrote`);
  }
  return usage as UsageSummary;
}

/** `evalframe report`: the self-contained HTML report of a scored file. */
export const reportCommand: Command = async (argv, io) => {
  const c = "report";
  const args = parseCommand(c, argv, { out: s, title: s, worst: s, "usage-json": s, format: s, previous: s });
  const input = readScored(c, args);
  const out = requiredOption(c, args, "out", "report.html");
  const worst = wholeNumber(c, "worst", stringOption(args, "worst"), 0);
  const title = stringOption(args, "title");
  const usageFile = stringOption(args, "usage-json");
  const previous = stringOption(args, "previous");
  const previousFormat = previous === undefined ? undefined : inputFormat(c, previous, stringOption(args, "format"));
  const usage = usageFile === undefined ? undefined : await readUsage(usageFile);
  const { buildReport } = runtime();
  const df = await input.frame();
  const options: ReportOptions = {};
  if (title !== undefined) options.title = title;
  if (worst !== undefined) options.worst = worst;
  if (usage !== undefined) options.usage = usage;
  if (previous !== undefined) options.previous = await readInput(previous, previousFormat!, { required: [] });
  const html = await failOnError(() => buildReport(df, options), `${input.file}: `);
  await writeText(out, html);
  io.out(`wrote ${out} (${Math.round(Buffer.byteLength(html) / 1024).toLocaleString("en-US")} KB)\n`);
  return 0;
};

/** Every subcommand by name. */
/** `evalframe batch status`: where each batch of a batch folder stands. */
export const batchCommand: Command = async (argv, io) => {
  const c = "batch";
  const [sub, ...rest] = argv;
  if (sub !== "status") throw new UsageError(`${c}: the only subcommand is "status" (evalframe batch status --batch-dir DIR)`, c);
  const args = parseCommand(c, rest, { "batch-dir": s, live: b });
  const dir = stringOption(args, "batch-dir") ?? ".evalframe-batch";
  const { batchStatus } = batchRuntime();
  const { formatTable } = runtime();
  const batches = await failOnError(() => batchStatus(dir, flag(args, "live") ? { judge: { judge: "openai" } } : {}), `${dir}: `);
  if (batches.length === 0) {
    io.out(`${dir}: no batch submitted yet\n`);
    return 0;
  }
  io.out(`${formatTable(batches.map((b) => ({ stage: b.stage, endpoint: b.endpoint, batch: b.batchId || "(uploaded, not created)", lines: b.lines, status: b.status, applied: b.applied ? "yes" : "no", submitted: b.submittedAt })))}\n`);
  return 0;
};

export const COMMANDS: Readonly<Record<string, Command>> = {
  score: scoreCommand,
  summarize: summarizeCommand,
  compare: compareCommand,
  chart: chartCommand,
  report: reportCommand,
  batch: batchCommand,
  calibrate: calibrateCommand,
  diff: diffCommand,
  config: configCommand,
};
