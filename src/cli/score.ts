/**
 * `evalframe score`: judge every row and write the scored table (streamed, or through the Batch API), then the summary, the headline, the usage line and the gate.
 */
import { createReadStream, createWriteStream, rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DataFrame } from "danfojs-node";
import type { DatasetFormat } from "../dataset/load";
import { resolveJudgeConfig, type EnvironmentVariables } from "../judge/config";
import { metricDefinitions, metricNames, type MetricFlags } from "../metrics/registry";
import type { UsageSummary } from "../judge/usage";
import type { Metric } from "../metrics/metric";
import type { InputSurvey } from "./score-stream";
import { choice, counted, finiteNumber, flag, inputFormat, list, onePositional, parseCommand, requiredOption, stringOption, wholeNumber, type OptionSpec, type ParsedArgs } from "./args";
import { CliFailure, failOnError, UsageError, usageOnError } from "./errors";
import { checkFailUnder, FAIL_UNDER_OPTIONS, failUnderGate, modelNames, requireGateMetrics, requireGateModels, type FailUnderGate } from "./fail-under";
import { readLabelFiles } from "./labels";
import { formatLayoutChoices, layoutChoices } from "./layout-choices";
import { JUDGE_OPTIONS, judgeFlags } from "./judge-flags";
import type { CliIO, Command } from "./command";
import { runtime, batchRuntime, s, b, columnsOf, readInput, tables, writeText, errorCount } from "./command-support";
import { failuresLine, type RunFailures } from "./failures";
import { describeConditions, rowConditions, rowsWhere, WHERE_OPTION } from "./where";
import { checkCommandFiles } from "./output-paths";
import { logProgress } from "./progress-log";
import type { ProgressCallback } from "../judge/progress";
import { ownDescriptor } from "../dataset/atomic-write";
import { tableRecord } from "../dataset/table";
import type { Records } from "../dataset/raw";
import { MULTIMODAL_FLAGS } from "../context/option-names";
import { separatorHint } from "../dataset/validate";
import { MULTIMODAL_RELEVANCE_COLUMNS } from "../metrics/multimodal-relevance/columns";

/** The metric the flags of `MULTIMODAL_FLAGS` belong to. */
const MULTIMODAL_METRIC = MULTIMODAL_RELEVANCE_COLUMNS.score;

const SCORE_OPTIONS: Record<string, OptionSpec> = {
  out: s,
  metrics: s,
  ...JUDGE_OPTIONS,
  weights: s,
  beta: s,
  threshold: s,
  "similarity-threshold": s,
  layout: s,
  reasons: b,
  "no-reasons": b,
  "answers-per-call": s,
  "image-root": s,
  "allow-private-network": b,
  ...Object.fromEntries(MULTIMODAL_FLAGS.map((f) => [f.flag, s])),
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
  "batch-max-lines": s,
  "dry-run": b,
  where: WHERE_OPTION,
  rpm: s,
  tpm: s,
  ...FAIL_UNDER_OPTIONS,
};

/** `evalframe score`: judge every row and write the scored table (and, on request, statements and a JSON summary). */
export const scoreCommand: Command = async (argv, io, env = process.env) => {
  // An input that is a pipe is scored from a private copy: messages name the path given, and the copy goes at the end.
  const copies: InputCopy[] = [];
  // What must end with the command, however it ends (the progress log's timer).
  const stops: (() => void)[] = [];
  const shown = (text: string) => copies.reduce((t, copy) => t.split(copy.file).join(copy.input), text);
  try {
    return await scoreInput(argv, { out: (text) => io.out(shown(text)), err: (text) => io.err(shown(text)), terminal: io.terminal }, env, copies, stops);
  } catch (error) {
    throw copies.length === 0 ? error : withMessage(error, shown);
  } finally {
    for (const stop of stops) stop();
    for (const copy of copies) rmSync(copy.dir, { recursive: true, force: true });
  }
};

/** The input argument that means standard input. */
const STDIN = "-";

/** A private copy of an input that cannot be read twice (a pipe: `/dev/stdin`, `<(…)`, a FIFO). */
interface InputCopy {
  /** The path the user gave. */
  input: string;
  /** The copy, in its own temporary folder `dir`. */
  file: string;
  dir: string;
}

/**
 * The file to read for `input`: itself when it is a regular file (or not
 * there: reading it says so), else a copy in a private temporary folder
 * (added to `copies`, for the caller to remove). Scoring reads its input
 * twice (a survey, then the chunks), and a pipe can be read once.
 */
async function readableInput(input: string, format: DatasetFormat, copies: InputCopy[]): Promise<string> {
  // "-" is standard input, as for most command-line tools.
  const stdin = input === STDIN;
  let stats;
  try {
    stats = stdin ? undefined : statSync(input, { throwIfNoEntry: false });
  } catch {
    return input;
  }
  if (!stdin && (stats === undefined || stats.isFile() || stats.isDirectory())) return input;
  const dir = await mkdtemp(path.join(tmpdir(), "evalframe-input-"));
  const file = path.join(dir, `input.${format}`);
  copies.push({ input, file, dir });
  // This process's own descriptor (/dev/stdin) is read as it is: a socket behind it cannot be opened by name.
  const fd = stdin ? 0 : ownDescriptor(input);
  const from = () => (fd === undefined ? createReadStream(input) : createReadStream("", { fd, autoClose: false }));
  await failOnError(() => pipeline(from(), createWriteStream(file, { mode: 0o600 })), `cannot read "${input}": `);
  return file;
}

/** The error with its message rewritten by `rewrite`, of the same kind (usage error, failure, other). */
function withMessage(error: unknown, rewrite: (text: string) => string): unknown {
  if (error instanceof UsageError) return new UsageError(rewrite(error.message), error.command);
  if (error instanceof CliFailure) return new CliFailure(rewrite(error.message));
  if (error instanceof Error) {
    const worded = (error as { cliMessage?: unknown }).cliMessage;
    if (typeof worded === "string") Object.defineProperty(error, "cliMessage", { value: rewrite(worded) });
    error.message = rewrite(error.message);
  }
  return error;
}

/** `evalframe score` once the input can be read twice; `copies` collects the private copies it makes. */
async function scoreInput(argv: readonly string[], io: CliIO, env: EnvironmentVariables, copies: InputCopy[], stops: (() => void)[]): Promise<number> {
  const c = "score";
  const args = parseCommand(c, argv, SCORE_OPTIONS);
  const input = onePositional(c, args, "input file (.csv, .tsv, .jsonl or .json, or - for standard input)");
  if (input === STDIN) {
    if (stringOption(args, "format") === undefined) throw new UsageError(`${c}: - reads the input from standard input, which has no extension to tell its format: give --format csv, tsv, jsonl or json`, c);
    if (process.stdin.isTTY) throw new UsageError(`${c}: - reads the input from standard input, and that is a terminal here: pipe the file in (cat data.csv | evalframe score - --format csv --out scored.csv), or give its path`, c);
  }
  const batchExport = stringOption(args, "batch-export");
  const batchImport = stringOption(args, "batch-import");
  const batchMode = flag(args, "batch");
  if ([batchMode, batchExport !== undefined, batchImport !== undefined].filter(Boolean).length > 1) {
    throw new UsageError(`${c}: use one of --batch, --batch-export and --batch-import at a time`, c);
  }
  const pollSeconds = finiteNumber(c, "poll-interval", stringOption(args, "poll-interval"), { above: 0, example: "30" });
  const batchMaxLines = wholeNumber(c, "batch-max-lines", stringOption(args, "batch-max-lines"), 1, { max: 50_000, example: "5000" });
  const dryRun = flag(args, "dry-run");
  // Batch results are read back from the cache: without it each stage would submit (and pay for) its batch again, without end.
  if ((batchMode || batchImport !== undefined) && !dryRun && flag(args, "no-cache")) {
    throw new UsageError(`${c}: ${batchMode ? "--batch" : "--batch-import"} keeps the batch's results in the cache and reads them back from there; it does not go with --no-cache (leave it out, or give a folder with --cache-dir)`, c);
  }
  if (dryRun && (batchExport !== undefined || batchImport !== undefined)) {
    throw new UsageError(`${c}: --dry-run estimates a run; it does not go with --batch-export or --batch-import`, c);
  }
  const requestsPerMinute = finiteNumber(c, "rpm", stringOption(args, "rpm"), { above: 0, example: "500" });
  const tokensPerMinute = finiteNumber(c, "tpm", stringOption(args, "tpm"), { above: 0, example: "200000" });
  const out = batchExport !== undefined || dryRun ? (stringOption(args, "out") ?? "") : requiredOption(c, args, "out", "scored.csv");
  const format = inputFormat(c, input, stringOption(args, "format"));
  const where = rowConditions(c, args);
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
    const w = weights.map((x) => finiteNumber(c, "weights", x, { min: 0, example: "0.75,0.25" })!);
    if (w.length !== 2) throw new UsageError(`${c}: --weights takes two numbers, factual and semantic, e.g. 0.75,0.25; got ${JSON.stringify(stringOption(args, "weights"))}`, c);
    metricFlags.weights = [w[0]!, w[1]!];
  }
  const beta = finiteNumber(c, "beta", stringOption(args, "beta"), { above: 0, example: "1" });
  if (beta !== undefined) metricFlags.beta = beta;
  const threshold = finiteNumber(c, "threshold", stringOption(args, "threshold"), { min: 0, max: 1 });
  if (threshold !== undefined) metricFlags.threshold = threshold;
  const similarity = finiteNumber(c, "similarity-threshold", stringOption(args, "similarity-threshold"), { min: 0, max: 1 });
  if (similarity !== undefined) metricFlags.similarityThreshold = similarity;
  const layout = stringOption(args, "layout");
  if (layout !== undefined) {
    if (layout !== "ragas" && layout !== "fused") throw new UsageError(`${c}: --layout takes ragas (the default: Ragas' calls) or fused (one call per answer); got ${JSON.stringify(layout)}`, c);
    metricFlags.layout = layout;
  }
  if (flag(args, "reasons") && flag(args, "no-reasons")) throw new UsageError(`${c}: --reasons and --no-reasons contradict each other; give one (verdicts without reasons are the default)`, c);
  if (flag(args, "reasons")) metricFlags.reasons = true;
  if (flag(args, "no-reasons")) metricFlags.reasons = false;
  const answersPerCall = wholeNumber(c, "answers-per-call", stringOption(args, "answers-per-call"), 1, { example: "4" });
  if (answersPerCall !== undefined) {
    if (metricFlags.layout !== "fused") throw new UsageError(`${c}: --answers-per-call applies to --layout fused only (the ragas layout asks one call per answer); add --layout fused`, c);
    metricFlags.answersPerCall = answersPerCall;
  }

  // Multimodal relevance options: local images are found next to the input file by default.
  const imageRoot = stringOption(args, "image-root");
  if (imageRoot !== undefined) requireImageRoot(c, imageRoot);
  metricFlags.imageRoot = path.resolve(imageRoot ?? path.dirname(path.resolve(input)));
  if (flag(args, "allow-private-network")) metricFlags.allowPrivateNetwork = true;
  const multimodalGiven = multimodalFlags(c, args, metricFlags);
  if (multimodalGiven.length > 0 && askedNames !== undefined && !askedNames.includes(MULTIMODAL_METRIC)) {
    throw new UsageError(`${c}: ${onlyMultimodal(multimodalGiven)}, which --metrics ${askedNames.join(",")} leaves out; add ${MULTIMODAL_METRIC} to --metrics or drop ${multimodalGiven.length === 1 ? "the flag" : "those flags"}`, c);
  }

  // The judge (flags, then the environment; the API key only ever comes from the environment), checked before any file is read.
  // A dry run and --batch-export send nothing: an OpenAI-compatible judge needs no key or server for them.
  const { options: judgeOptions, labels, warning } = await judgeFlags(c, args, env, { estimateOnly: dryRun || batchExport !== undefined });
  if (warning !== undefined) io.err(`${warning}\n`);
  // Every registered metric is built now, so that a bad option exits 2 before any file is read.
  const metrics: Record<string, Metric> = await usageOnError(() => Object.fromEntries(metricDefinitions().map((d) => [d.name, d.create(metricFlags)])), c);

  // Read the input (batch mode: whole; otherwise a first streamed pass that checks every row);
  // choose the metrics its columns allow when none were named.
  const batching = batchMode || batchExport !== undefined || batchImport !== undefined;
  const strict = flag(args, "strict");
  const chunkRows = wholeNumber(c, "chunk-rows", stringOption(args, "chunk-rows"), 1, { example: "5000" });
  // Every file written is checked before any is read: none is an input (--out over the input would replace the
  // raw rows, with --where all but those picked), two outputs are not one file, and each can be written. A dry run writes nothing.
  checkCommandFiles(c, {
    inputs: [{ name: "the input file", path: input }, { name: "--batch-import", path: batchImport }, ...(labels ?? []).map((file) => ({ name: "--labels", path: file }))],
    outputs: dryRun
      ? []
      : [
          { name: "--out", path: out, example: "scored.csv", csv: true },
          { name: "--statements-out", path: statementsOut, example: "statements.csv", csv: true },
          { name: "--summary-json", path: summaryJson, example: "summary.json" },
          { name: "--batch-export", path: batchExport, example: "requests.jsonl" },
        ],
  });
  // What is read: the input, or a private copy of it when it is a pipe.
  const source = await readableInput(input, format, copies);
  const { createJudge, score, scoreRun, terminalProgress, toCSV, statements, summarize, surveyInput, scoreFileInChunks, requireColumns, estimate, formatEstimate } = runtime();
  let df: DataFrame | undefined;
  let survey: InputSurvey | undefined;
  // What the paths that read the input whole read: in batch mode the file, or with --where its rows that
  // meet it; in the dry run those rows read once, for the estimate of this run and of each other layout.
  let whole: string | Records = source;
  if ((where.length > 0 && batching) || dryRun) {
    const table = rowsWhere(c, input, await failOnError(() => tables().loadTable(source, { format, required: [], warn: false, ...(strict ? { strict } : {}) })), where);
    whole = Array.from({ length: table.rowCount }, (_, i) => tableRecord(table, i));
  }
  if (batching) df = await readInput(whole, format, { io, strict });
  else survey = await failOnError(() => surveyInput(source, format, { strict, warn: (m: string) => io.err(`${m}\n`), where, command: c, ...(chunkRows ? { chunkRows } : {}) }));
  const columns = df ? columnsOf(df) : survey!.columns;
  if ((df ? (df.shape[0] ?? 0) : survey!.rows) === 0) {
    throw new CliFailure(`${input}: no rows to score: the file has ${columns.length > 0 ? "a header and nothing under it" : "nothing in it"}`);
  }
  let chosen: string[];
  if (askedNames !== undefined) {
    chosen = [...new Set(askedNames)];
    // multimodal_relevance named on the command line for a file without contexts is bad usage (exit 2), as its
    // flags (--image-detail, …) are for such a file; a file without the columns every metric reads cannot be used (exit 1, below).
    for (const m of chosen.filter((name) => name === MULTIMODAL_METRIC)) {
      const lacking = metrics[m]!.requiredColumns.filter((col) => !columns.includes(col));
      if (lacking.length > 0 && !lacking.some((col) => col === "user_input" || col === "response")) {
        const needs = metricDefinitions().find((d) => d.name === m)?.needs ?? `a "${lacking[0]}" column`;
        throw new UsageError(`${c}: --metrics names ${m}, which needs ${needs}, and ${input} has none (its columns are: ${columns.join(", ")}); add the column, or leave ${m} out of --metrics`, c);
      }
    }
    const required = [...new Set(chosen.flatMap((m) => metrics[m]!.requiredColumns))];
    await failOnError(() => requireColumns(columns, required, input));
  } else {
    chosen = registered.filter((m) => metrics[m]!.requiredColumns.every((col) => columns.includes(col)));
    if (chosen.length === 0) {
      const needs = metricDefinitions().map((d) => `${d.name} needs ${d.needs}`);
      const resave = separatorHint(columns);
      throw new CliFailure(`${input}: nothing to score: ${needs.slice(0, -1).join(", ")}${needs.length > 1 ? " and " : ""}${needs.at(-1) ?? ""}; the columns are ${columns.join(", ")}${resave === undefined ? "" : `; ${resave}`}`);
    }
    if (statementsOut !== undefined && !chosen.includes("answer_correctness")) {
      throw new CliFailure(`${input}: --statements-out needs answer_correctness, and this table has no "reference" column to score it with`);
    }
  }
  requireGateMetrics(gate, chosen, input);
  requireGateModels(gate, df ? modelNames(df.columns.includes("model") ? (df.column("model").values as unknown[]) : []) : survey!.models, input, where.length > 0);
  if (multimodalGiven.length > 0 && !chosen.includes(MULTIMODAL_METRIC)) {
    const needs = metricDefinitions().find((d) => d.name === MULTIMODAL_METRIC)?.needs ?? "its columns";
    throw new UsageError(`${c}: ${onlyMultimodal(multimodalGiven)}, and ${input} cannot be scored on it (it needs ${needs}); drop ${multimodalGiven.length === 1 ? "the flag" : "those flags"}`, c);
  }

  if (labels !== undefined) judgeOptions.labels = await readLabelFiles(labels);
  // The notice that the environment picked the offline judge goes to the command's stderr (runCli's io), on every run.
  const judge = await usageOnError(() => {
    const notice = resolveJudgeConfig(judgeOptions, env).offlineNotice;
    if (notice !== undefined) io.err(`${notice}\n`);
    return createJudge({ ...judgeOptions, quiet: true }, env);
  }, c);
  const selected: Metric[] = chosen.map((m) => metrics[m]!);
  if (dryRun) {
    // No chat or embedding call: the calls are planned, their prompts counted with the model's tokenizer, the cache read.
    const e = await failOnError(() =>
      estimate(whole, selected, { judge, load: { format, strict, warn: false }, ...(requestsPerMinute ? { requestsPerMinute } : {}), ...(tokensPerMinute ? { tokensPerMinute } : {}) }),
    );
    io.out(`${formatEstimate(e)}\n`);
    // The time above is the interactive run's: a batch run waits for the Batch API instead.
    if (batchMode && e.paid) io.out(`With --batch: the cost at batch price above; the time is the Batch API's, up to 24 hours a stage (answer correctness takes two stages), not the time above.\n`);
    // What the same command would do after scoring, a dry run does not: said once, so that a CI job is not misled by its exit 0.
    const unwritten = [out !== "" ? "--out" : "", statementsOut !== undefined ? "--statements-out" : "", summaryJson !== undefined ? "--summary-json" : ""].filter((name) => name !== "");
    const skipped = [
      ...(gate !== undefined ? ["--fail-under is not checked"] : []),
      ...(unwritten.length > 0 ? [`${unwritten.join(", ")} ${unwritten.length === 1 ? "is" : "are"} not written`] : []),
    ];
    if (skipped.length > 0) io.err(`evalframe: --dry-run scores nothing: ${skipped.join("; ")}\n`);
    if (e.paid && chosen.includes("answer_correctness")) {
      // What the other layouts would cost, so the trade is made before paying (the same rows, judge and cache).
      const correctness = metricDefinitions().find((d) => d.name === "answer_correctness")!;
      const choices = [];
      for (const { choice, flags, label } of layoutChoices(metricFlags)) {
        const others = chosen.map((m) => (m === "answer_correctness" ? correctness.create(flags) : metrics[m]!));
        choices.push({ choice, label, estimate: await failOnError(() => estimate(whole, others, { judge, load: { format, strict, warn: false } })) });
      }
      const text = formatLayoutChoices(e, choices);
      if (text !== "") io.out(`\n${text}\n`);
    }
    return 0;
  }
  // On a terminal a bar redrawn in place; on a log (CI) lines through the command's stderr: every tenth, and once a minute at the least.
  let progress: ProgressCallback | false = false;
  if (!flag(args, "no-progress")) {
    if (io.terminal?.isTTY === true) progress = terminalProgress(io.terminal);
    else {
      const log = logProgress((line) => io.err(line));
      stops.push(log.stop);
      progress = log.progress;
    }
  }
  if (!batching) {
    const run = await failOnError(() =>
      scoreFileInChunks({ input: source, format, survey: survey!, metrics: selected, judge, out, statementsOut, progress, strict, where, ...(chunkRows ? { chunkRows } : {}) }),
    );
    const chosenRows = where.length > 0 ? `: those with ${describeConditions(where)}, of ${survey!.fileRows.toLocaleString("en-US")}` : "";
    const written = [`${out} (${counted(run.rows, "row")}${chosenRows})`];
    if (statementsOut !== undefined) written.push(`${statementsOut} (${counted(run.statements, "statement")})`);
    return reportScored(io, { input, out, summaryJson, chosen, written, gate, ...run });
  }
  if (judge.kind !== "openai") {
    throw new UsageError(`${c}: batch mode needs an OpenAI-compatible judge (the ${judge.kind} judge has no batch API); set OPENAI_API_KEY or OPENAI_BASE_URL (or EVALFRAME_API_KEY / EVALFRAME_BASE_URL)`, c);
  }
  const { scoreBatch, exportBatchRequests, importBatchResults } = batchRuntime();
  if (batchExport !== undefined) {
    const exported = await exportBatchRequests(df!, selected, batchExport, { judge, ...(batchMaxLines !== undefined ? { maxLinesPerBatch: batchMaxLines } : {}) });
    if (exported.removed.length > 0) io.out(`removed the request files an earlier export left under these names (not needed now; run, they would be paid for again): ${exported.removed.join(", ")}\n`);
    if (exported.lines > 0) {
      const files =
        exported.files.length === 1
          ? `to ${batchExport}; run them (e.g. with vLLM's batch runner), then`
          : `in ${exported.files.length} files, one endpoint each and each within the limits on one batch (--batch-max-lines, else the Batch API's 50,000 lines and 190 MB): ${exported.files.join(", ")}; run each (e.g. with vLLM's batch runner), then import each results file (or them joined)`;
      io.out(`wrote ${exported.lines.toLocaleString("en-US")} batch request lines (${exported.chat} chat, ${exported.embeddings} embeddings) ${files}: ${importCommand(argv, input, out || "scored.csv")}\n`);
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
    if (imported.ignored > 0) {
      // Most often the judge flags differ from the export's (another --model): the results are then not for these requests, and exporting again would pay for them twice.
      io.err(
        `evalframe: ${imported.ignored.toLocaleString("en-US")} line${imported.ignored === 1 ? "" : "s"} of ${batchImport} answer${imported.ignored === 1 ? "s" : ""} no request this table needs now: ` +
          `made with other judge settings (--model, --base-url, --max-tokens, --layout), for another table, repeated, or read before. Give the judge flags and environment (OPENAI_BASE_URL) the export was made with (the export prints the command to import with)\n`,
      );
    }
    if (imported.remaining > 0) {
      io.out(`the next stage needs ${imported.remaining.toLocaleString("en-US")} more requests: export them with --batch-export and run them too\n`);
      return 0;
    }
  }
  const scored = batchMode
    ? // What stops a batch run (a batch the API failed, a batch folder in use, …) says what to do: a failure, not an unexpected error.
      await failOnError(() =>
        scoreBatch(df!, selected, {
          judge,
          batchDir: stringOption(args, "batch-dir") ?? ".evalframe-batch",
          ...(pollSeconds !== undefined ? { pollIntervalMs: pollSeconds * 1000 } : {}),
          ...(batchMaxLines !== undefined ? { maxLinesPerBatch: batchMaxLines } : {}),
          log: (line: string) => io.err(`${line}\n`),
          quiet: true,
        }),
      )
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

/** An argument as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * The command that imports the results of the requests `--batch-export`
 * wrote: the same input, judge and metric flags (the cache a result goes to
 * and the requests asked depend on them: --judge, --base-url, --cache-dir,
 * --layout, …), then `--out` and `--batch-import RESULTS.jsonl`.
 */
function importCommand(argv: readonly string[], input: string, out: string): string {
  const kept: string[] = [];
  let positional = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith("--") ? arg.slice(2).split("=")[0]! : undefined;
    const takesValue = name !== undefined && SCORE_OPTIONS[name]?.type === "string" && !arg.includes("=");
    if (name === "batch-export" || name === "out") {
      if (takesValue) i++;
      continue;
    }
    if (name === undefined && !positional && arg === input) {
      positional = true;
      continue;
    }
    kept.push(arg);
    if (takesValue && i + 1 < argv.length) kept.push(argv[++i]!);
  }
  return ["evalframe", "score", input, ...kept, "--out", out, "--batch-import", "RESULTS.jsonl"].map(shellWord).join(" ");
}

/**
 * `--image-root DIR` must be a folder: a missing one would refuse every local
 * image, row by row, and the run would still exit 0. A usage error (exit 2)
 * before any file is read or call made, saying how to fix it.
 */
function requireImageRoot(c: string, root: string): void {
  if (root.trim() === "") throw new UsageError(`${c}: --image-root is empty; give the folder that holds your images, e.g. --image-root data`, c);
  let info: ReturnType<typeof statSync> | undefined;
  try {
    info = statSync(root);
  } catch {
    info = undefined;
  }
  const tilde = /^~[^/\\]*(?:[/\\]|$)/.test(root) ? ' ("~" is not expanded to your home folder here: give the full path)' : "";
  if (info === undefined) {
    throw new UsageError(`${c}: --image-root ${root}: no such folder${tilde}; give the folder the image paths of "retrieved_contexts" are relative to, or leave it out to use the input file's folder`, c);
  }
  if (!info.isDirectory()) throw new UsageError(`${c}: --image-root ${root}: not a folder; give the folder that holds the images, not a file`, c);
}

/**
 * Reads the multimodal-relevance flags given (metrics/multimodal-relevance/options.ts) into
 * `metricFlags`, each checked (a usage error names the flag), and returns them as written (`--image-detail`).
 */
function multimodalFlags(c: string, args: ParsedArgs, metricFlags: MetricFlags): string[] {
  const given: string[] = [];
  for (const spec of MULTIMODAL_FLAGS) {
    const text = stringOption(args, spec.flag);
    if (text === undefined) continue;
    given.push(`--${spec.flag}`);
    if (spec.kind === "choice") metricFlags.imageDetail = choice(c, spec.flag, text.trim(), spec.choices);
    else metricFlags[spec.option] = wholeNumber(c, spec.flag, text, spec.min, { example: String(spec.example) });
  }
  return given;
}

/** "--a applies only to multimodal_relevance", "--a and --b apply only to …". */
function onlyMultimodal(given: readonly string[]): string {
  const names = given.length === 1 ? given[0]! : `${given.slice(0, -1).join(", ")} and ${given.at(-1)!}`;
  return `${names} appl${given.length === 1 ? "ies" : "y"} only to ${MULTIMODAL_METRIC}`;
}

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
    failures: RunFailures[];
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
  // The gate's verdict, known before the JSON is written so that the JSON holds it too; said and acted on last.
  let gate: { passed: boolean; line: string; failure?: CliFailure } | undefined;
  if (r.gate) {
    try {
      gate = { passed: true, line: checkFailUnder(frameRecords(summary), r.gate) };
    } catch (error) {
      if (!(error instanceof CliFailure)) throw error;
      gate = { passed: false, line: error.message, failure: error };
    }
  }
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
      // --fail-under: what was asked and whether it passed (the command exits 1 when it did not).
      failUnder: r.gate && gate ? { threshold: r.gate.threshold, metrics: r.gate.metrics ?? null, models: r.gate.models ?? null, overall: r.gate.overall, passed: gate.passed, line: gate.line } : null,
    };
    await writeText(r.summaryJson, `${JSON.stringify(body, null, 2)}\n`);
    written.push(r.summaryJson);
  }

  io.out(`${formatTable(summary)}\n\n`);
  const { conclusion } = runtime();
  const sentences = conclusion(r.scores, summary, r.chosen, r.judges);
  if (sentences.length > 0) io.out(`${sentences.join("\n")}\n\n`);
  io.out(`${failuresLine(failures, rows)}\n`);
  io.out(`wrote ${written.join(", ")}\n`);
  if (r.usage) io.out(`${formatUsage(r.usage)}\n`);

  if (rows > 0 && failures.every((f) => f.failed === rows)) {
    const first = failures.find((f) => f.first !== undefined)?.first ?? "unknown";
    throw new CliFailure(`every row failed to score (the scored table was written with the reasons); first reason: ${first}`);
  }
  if (gate?.failure) throw gate.failure;
  if (gate) io.err(`${gate.line}\n`);
  return 0;
}

