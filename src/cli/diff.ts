/**
 * `evalframe diff`: two scored runs of the same data, before and after, as
 * `compareRuns` sees them: the change per model with a paired CI and test,
 * the answers that changed most, and (on request) every changed answer as
 * CSV and a chart of the change.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import type { CompareRunsOptions } from "../analysis/compare-runs";
import { MEAN_DISAGREES } from "../analysis/comparison-settings";
import type { DatasetFormat } from "../dataset/load";
import { counted, finiteNumber, flag, inputFormat, parseCommand, stringOption, wholeNumber, type OptionSpec } from "./args";
import type { Command } from "./command";
import { CliFailure, failOnError, UsageError } from "./errors";
import { cliMessageOf } from "../dataset/fix-hint";
import { definitionOfColumn, metricDefinitions } from "../metrics/registry";
import { columnsOf, namedColumns, refuseStdin, inCommandWords, requireNamedColumns, requireScoreColumn, scoreColumnsRead, scoringPartsOnly, tables, withoutUnscoredRepeats } from "./command-support";
import { conditionColumns, rowConditions, rowsWhere, WHERE_OPTION } from "./where";
import { checkCommandFiles } from "./output-paths";

const s: OptionSpec = { type: "string" };
const b: OptionSpec = { type: "boolean" };

/** danfojs, the analysis and the charts, loaded after the arguments are checked. */
function runtime(): typeof import("./runtime") & typeof import("../analysis/compare-runs") & typeof import("../charts/runs") {
  return {
    ...(require("./runtime") as typeof import("./runtime")),
    ...(require("../analysis/compare-runs") as typeof import("../analysis/compare-runs")),
    ...(require("../charts/runs") as typeof import("../charts/runs")),
  };
}

/** Columns of the per-model table on a terminal: all but the raw p-value, the rows failed in both runs and the test's name (`--json` and the library give them all). */
const SUMMARY_HIDDEN = new Set(["p_value", "failed_both", "test"]);

function summaryShown(): string[] {
  const { RUN_CHANGE_COLUMNS } = require("../analysis/compare-runs") as typeof import("../analysis/compare-runs");
  return RUN_CHANGE_COLUMNS.filter((c) => !SUMMARY_HIDDEN.has(c));
}

/** Columns of the changed answers on a terminal (the CSV has the answers' texts too). */
const CHANGES_SHOWN = ["model", "user_input", "before", "after", "change", "status", "answer_changed", "reference_changed"];

/**
 * A problem of one run that `compareRuns` names as "compareRuns (before
 * run): …" said of its file instead ("old.csv: …", exit 1); one of both runs
 * ("compareRuns: …") as diff's ("diff: …").
 */
function inRunWords(error: unknown, beforeFile: string, afterFile: string): unknown {
  const text = cliMessageOf(error);
  const run = /^compareRuns \((before|after) run\): /.exec(text);
  if (run !== null) return new CliFailure(`${run[1] === "before" ? beforeFile : afterFile}: ${text.slice(run[0].length)}`);
  return inCommandWords(error, "diff", ["compareRuns"]);
}

/** `evalframe diff`: what changed between two scored runs of the same data. */
export const diffCommand: Command = async (argv, io) => {
  const c = "diff";
  const args = parseCommand(c, argv, {
    metric: s,
    by: s,
    "pair-by": s,
    top: s,
    out: s,
    chart: s,
    seed: s,
    json: b,
    format: s,
    "fail-under-change": s,
    "fail-on-worse": b,
    "fail-on-scoring-change": b,
    "low-memory": b,
    where: WHERE_OPTION,
  });
  const where = rowConditions(c, args);
  if (args.positionals.length !== 2) {
    throw new UsageError(`${c}: give two scored tables, the earlier run first: evalframe diff old.csv new.csv (got ${args.positionals.length})`, c);
  }
  const [beforeFile, afterFile] = args.positionals as [string, string];
  refuseStdin(c, [beforeFile, afterFile]);
  const format = stringOption(args, "format");
  const formats = [inputFormat(c, beforeFile, format), inputFormat(c, afterFile, format)] as const;
  const top = wholeNumber(c, "top", stringOption(args, "top"), 0) ?? 10;
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0, { example: "42" });
  const out = stringOption(args, "out");
  if (out !== undefined && out.trim() === "") throw new UsageError(`${c}: --out is empty; give a CSV file for the changed answers, e.g. --out changes.csv`, c);
  const chart = stringOption(args, "chart");
  if (chart !== undefined && ![".png", ".svg", ".json"].includes(path.extname(chart).toLowerCase())) {
    throw new UsageError(`${c}: --chart must end in .png, .svg or .json (the Vega-Lite spec), got "${chart}"`, c);
  }
  const failUnderChange = finiteNumber(c, "fail-under-change", stringOption(args, "fail-under-change"), { min: -1, max: 1 });
  const options: CompareRunsOptions = {};
  for (const [option, key] of [["metric", "metric"], ["by", "by"], ["pair-by", "pairBy"]] as const) {
    const v = stringOption(args, option);
    if (v !== undefined && v.trim() === "") throw new UsageError(`${c}: --${option} is empty`, c);
    if (v !== undefined) options[key] = v;
  }
  if (seed !== undefined) options.seed = seed;
  // The files written, before either run is read: neither is a run, nor both one file, and each can be written.
  checkCommandFiles(c, {
    inputs: [{ name: "the earlier run (first file)", path: beforeFile }, { name: "the later run (second file)", path: afterFile }],
    outputs: [{ name: "--out", path: out, example: "changes.csv", csv: true }, { name: "--chart", path: chart, example: "change.png" }],
  });

  const { compareRuns, changeWithCI, formatTable, frameRecords, toCSV, saveChart } = runtime();
  const { loadTable } = tables();
  // Typed tables, not DataFrames, and only the columns the comparison reads: the pairing, the texts
  // it shows, and the metrics' own columns (their statements say how each row was scored).
  const definitions = metricDefinitions();
  const columns = [
    ...scoreColumnsRead([options.by ?? "model", options.pairBy ?? "id", "user_input", "response", "reference"], options.metric === undefined ? undefined : [options.metric]),
    ...definitions.filter((d) => options.metric === undefined || d === definitionOfColumn(options.metric)).flatMap((d) => d.columns),
    ...conditionColumns(where),
  ];
  // Of a statements cell, only how the row was scored: the statements themselves are most of a scored file.
  // With --low-memory, or files of more than 1 GB together, of an answer a digest (unless the answers
  // pair or group the rows): the texts of the changed answers written out are read again at the end.
  const { answersAsDigests, answerTexts, isAnswerDigest, LOW_MEMORY_ABOVE_BYTES } = require("./answer-texts") as typeof import("./answer-texts");
  const large = () => [beforeFile, afterFile].reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0) > LOW_MEMORY_ABOVE_BYTES;
  const digests = options.pairBy !== "response" && options.by !== "response" && (flag(args, "low-memory") || large());
  const cellText = digests ? answersAsDigests(scoringPartsOnly()) : scoringPartsOnly();
  // Of each run, only the rows --where names (the same conditions for both). One run after the other:
  // a load's passing garbage is larger than the table it leaves, and two loads at once add theirs up.
  const named = namedColumns([["--metric", options.metric], ["--by", options.by], ["--pair-by", options.pairBy], ["--where", conditionColumns(where)]]);
  const load = async (file: string, format: DatasetFormat) => {
    const table = await failOnError(() => loadTable(file, { format, required: [], warn: false, columns, columnsIfPresent: true, cellText }), `${file}: `);
    await requireNamedColumns(c, file, format, table, true, named);
    // Rows that score left unscored as repeats of an (id, model) have no score to pair: left out, with a warning.
    return withoutUnscoredRepeats(file, rowsWhere(c, file, table, where), io, "comparison of the runs");
  };
  const before = await load(beforeFile, formats[0]);
  const after = await load(afterFile, formats[1]);
  if (options.metric === undefined) {
    // The first registered metric both runs scored, else the first registered (whose absence compareRuns reports).
    const has = (name: string) => columnsOf(before).includes(name) && columnsOf(after).includes(name);
    const shared = definitions.find((d) => has(d.scoreColumn));
    const scoredIn = (table: typeof before) => definitions.map((d) => d.scoreColumn).filter((name) => columnsOf(table).includes(name));
    if (shared === undefined && scoredIn(before).length > 0 && scoredIn(after).length > 0) {
      // Both runs are scored, of different metrics: no "score it first", which would send the user the wrong way.
      throw new CliFailure(
        `${c}: the runs share no score column: ${beforeFile} has ${scoredIn(before).join(", ")} and ${afterFile} has ${scoredIn(after).join(", ")}; ` +
          `diff compares one metric scored in both runs: score both with the same metrics (evalframe score … --metrics NAME)`,
      );
    }
    options.metric = (shared ?? definitions[0]!).scoreColumn;
    // A run without it (an input not scored yet) is named with its own columns, not the few read.
    await requireScoreColumn(c, beforeFile, formats[0], before, [options.metric], "--metric");
    await requireScoreColumn(c, afterFile, formats[1], after, [options.metric], "--metric");
  }
  const runs = await failOnError(() => {
    try {
      return compareRuns(before, after, options);
    } catch (error) {
      throw inRunWords(error, beforeFile, afterFile);
    }
  }, `${beforeFile} vs ${afterFile}: `);
  for (const w of runs.warnings) io.err(`evalframe: warning: ${w}\n`);
  // Once both are read: the same file twice (a script's variables mixed up): every answer pairs with itself and a gate always passes.
  const [statBefore, statAfter] = [beforeFile, afterFile].map((file) => statSync(file, { throwIfNoEntry: false }));
  if (statBefore?.isFile() && statAfter?.isFile() && statBefore.dev === statAfter.dev && statBefore.ino === statAfter.ino) {
    const names = beforeFile === afterFile ? `"${beforeFile}"` : `("${beforeFile}" and "${afterFile}")`;
    io.err(`evalframe: warning: both runs are the same file ${names}: every answer is paired with itself, so nothing can have changed; give the earlier run first, then the new one\n`);
  }

  const written: string[] = [];
  const total = runs.changes.shape[0] ?? 0;
  const changes = frameRecords(runs.changes);
  // The texts of the changed answers shown (all of them in --out, the first --top in --json), read again.
  const json = flag(args, "json");
  const shown = out !== undefined ? changes : json ? changes.slice(0, top) : [];
  const wanted = new Set(shown.flatMap((r) => [r["response_before"], r["response_after"]].filter(isAnswerDigest)));
  if (wanted.size > 0) {
    const texts = await failOnError(() => answerTexts([{ file: beforeFile, format: formats[0] }, { file: afterFile, format: formats[1] }], wanted, loadTable));
    for (const r of shown) {
      for (const key of ["response_before", "response_after"]) {
        const v = r[key];
        if (isAnswerDigest(v)) r[key] = texts.get(v) ?? "";
      }
    }
  }
  if (out !== undefined) {
    await failOnError(() => toCSV(changes, out, { columns: runs.changes.columns }), `cannot write "${out}": `);
    written.push(`${out} (${counted(total, "changed answer")})`);
  }
  if (chart !== undefined) {
    await failOnError(async () => saveChart(changeWithCI(runs), chart), `cannot write "${chart}": `);
    written.push(chart);
  }

  const summary = frameRecords(runs.summary);
  if (json) {
    const body = { before: beforeFile, after: afterFile, metric: runs.metric, pairedBy: runs.pairedBy, by: runs.by ?? null, warnings: runs.warnings, scoringChanges: runs.scoringChanges, summary, changes: changes.slice(0, top), changed: total };
    io.out(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    const pairs = `(${runs.pairedBy}${runs.by !== undefined ? `, ${runs.by}` : ""})`;
    io.out(`${runs.metric}: before = ${beforeFile}, after = ${afterFile}; answers paired by ${pairs}\n\n`);
    io.out(`${formatTable(summary, { columns: summaryShown() })}\n`);
    if (total === 0) {
      io.out(`\nno answer changed\n`);
    } else if (top > 0) {
      const columns = [runs.pairedBy, ...CHANGES_SHOWN.filter((name) => name !== runs.pairedBy && Object.hasOwn(changes[0]!, name))];
      io.out(`\nchanged answers: the ${Math.min(top, total)} largest of ${total.toLocaleString("en-US")}${out === undefined ? " (--out FILE writes them all, with both answers)" : ""}\n`);
      io.out(`${formatTable(changes.slice(0, top), { columns, maxWidth: 60 })}\n`);
    }
  }
  if (written.length > 0) io.out(`wrote ${written.join(", ")}\n`);

  // The gates: after everything is printed and written, so a failing CI job still has it all.
  const models = summary.filter((r) => runs.by === undefined || r["model"] !== "(all)");
  const gate = flag(args, "fail-on-worse") ? "fail-on-worse" : failUnderChange !== undefined ? "fail-under-change" : undefined;
  const lost = runs.unscoredAfter[0];
  if (gate !== undefined && lost !== undefined) {
    // A model that was scored before and is not scored now has no change to gate: that is a failure, not a pass.
    throw new CliFailure(`${gate}: ${runs.warnings.find((w) => w.includes(" none scored in the after run ")) ?? "a model has no scored answer in the after run"}` +
      (runs.unscoredAfter.length > 1 ? `; also unscored: ${runs.unscoredAfter.slice(1).map((u) => u.model).join(", ")}` : ""));
  }
  if (failUnderChange !== undefined) {
    // To 12 significant digits: 0.49 − 0.5 is −0.010000000000000009, a change of −0.01 that a gate at −0.01 passes.
    const under = models.filter((r) => typeof r["change"] === "number" && Number(r["change"].toPrecision(12)) < failUnderChange);
    under.sort((p, q) => (p["change"] as number) - (q["change"] as number));
    const worst = under[0];
    if (worst !== undefined) {
      const where = runs.by === undefined ? "all rows" : `model ${String(worst["model"])}`;
      throw new CliFailure(
        `fail-under-change: ${runs.metric} changed by ${signed(worst["change"] as number, failUnderChange)} < ${signed(failUnderChange)} (${where}; ${counted(worst["n_paired"] as number, "answer")} paired)` +
          (under.length > 1 ? `; also under: ${under.slice(1, 4).map((r) => `${String(r["model"])} ${signed(r["change"] as number, failUnderChange)}`).join(", ")}` : ""),
      );
    }
  }
  const scoring = runs.scoringChanges[0];
  if (flag(args, "fail-on-scoring-change") && scoring !== undefined) {
    throw new CliFailure(
      `fail-on-scoring-change: the runs were scored differently, so their change is not the answers' alone: ` +
        `${scoring.setting} ${JSON.stringify(scoring.before)} before, ${JSON.stringify(scoring.after)} after (${counted(scoring.answers, "paired answer")})` +
        (runs.scoringChanges.length > 1 ? `; ${runs.scoringChanges.length - 1} more in the warning above` : ""),
    );
  }
  if (flag(args, "fail-on-worse")) {
    // The mean's own evidence, where the verdict (the rank test) does not say worse: its interval, corrected for the
    // models compared as p_holm is (Bonferroni: each at 1 − 0.05/k), so that ten models of noise do not fail a job by chance.
    const level = 1 - (1 - (options.confidence ?? 0.95)) / Math.max(1, models.length);
    const dropped = meanDropCandidates(models);
    const strict = dropped.length === 0 ? [] : models.length === 1 ? models : frameRecords(compareRuns(before, after, { ...options, confidence: level }).summary);
    const beyondChance = new Set(dropped.filter((r) => strict.some((s) => s["model"] === r["model"] && typeof s["ci_high"] === "number" && s["ci_high"] < 0)).map((r) => r["model"]));
    const worse = models.filter((r) => r["verdict"] === "before better than after" || beyondChance.has(r["model"]));
    const first = worse[0];
    if (first !== undefined) {
      const corrected = models.length > 1 ? `; wholly below 0 at ${percent(level)} too, corrected for the ${models.length} models` : "";
      throw new CliFailure(
        `fail-on-worse: ${runs.metric} got worse for ${runs.by === undefined ? "all rows" : `model ${String(first["model"])}`}: ` +
          `${signed(first["change"] as number)} (95% CI ${signed(first["ci_low"] as number)} to ${signed(first["ci_high"] as number)}, ` +
          (first["verdict"] === "before better than after"
            ? `Holm-adjusted p ${pValue(first["p_holm"] as number)})`
            : first["verdict"] === MEAN_DISAGREES
              ? `wholly below 0${corrected}; the typical answer improved, but the mean dropped)`
              : `wholly below 0${corrected}; the rank test saw no difference, but the mean dropped)`) +
          (worse.length > 1 ? `; also worse: ${worse.slice(1).map((r) => String(r["model"])).join(", ")}` : ""),
      );
    }
  }
  return 0;
};

/**
 * The models whose mean change's 95% interval lies wholly below 0 while the
 * verdict does not say worse (it may say the typical answer improved:
 * inconclusive; or not moved: no detectable difference, where a few large
 * losses outweigh many small gains): the mean, which users compare, may
 * have dropped beyond chance. Not from fewer than 2 paired answers, nor from
 * an interval that is a point (every answer moved alike: the rank test's
 * verdict is the evidence there). The gate then checks them at the level
 * corrected for the models compared.
 */
function meanDropCandidates(models: readonly Readonly<Record<string, unknown>>[]): Readonly<Record<string, unknown>>[] {
  // Loaded here, as the rest of the statistics: the command's start stays light.
  const { isPointInterval } = require("../stats/bootstrap") as typeof import("../stats/bootstrap");
  return models.filter((r) => {
    const [low, high, n] = [r["ci_low"], r["ci_high"], r["n_paired"]];
    return r["verdict"] !== "before better than after" && typeof low === "number" && typeof high === "number" && high < 0 && !isPointInterval(low, high) && typeof n === "number" && n >= 2;
  });
}

/** A confidence level as a percentage: "99.5%". */
function percent(level: number): string {
  return `${Number((level * 100).toPrecision(4))}%`;
}

/** x with a sign and 3 decimals; with more, up to 8, when 3 would show it equal to `apart` (a gate's threshold it is under). */
function signed(x: number, apart?: number): string {
  let digits = 3;
  while (apart !== undefined && digits < 8 && x.toFixed(digits) === apart.toFixed(digits)) digits++;
  return `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`;
}

function pValue(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
