/**
 * `evalframe summarize`: the summary table of a scored file (typed tables: no danfojs).
 */
import { counted, flag, list, parseCommand, stringOption, wholeNumber } from "./args";
import { failOnError, UsageError } from "./errors";
import { checkFailUnder, FAIL_UNDER_OPTIONS, failUnderGate, modelNames, requireGateMetrics, requireGateModels } from "./fail-under";
import { defaultScoreColumns } from "../metrics/registry";
import type { Command } from "./command";
import { s, b, columnsOf, namedColumns, repeatedRowName, REPEATS_NAMED, requireScoreColumn, tables, readScored, scoreColumnsRead } from "./command-support";
import { getColumn, type Table } from "../dataset/table";
import { WHERE_OPTION } from "./where";

/** `evalframe summarize`: the summary table of a scored file. */
export const summarizeCommand: Command = async (argv, io) => {
  const c = "summarize";
  const args = parseCommand(c, argv, { by: s, metrics: s, seed: s, json: b, format: s, where: WHERE_OPTION, ...FAIL_UNDER_OPTIONS });
  const gate = failUnderGate(c, args);
  const input = readScored(c, args);
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0, { example: "42" });
  const metrics = list(stringOption(args, "metrics"));
  if (metrics !== undefined && metrics.length === 0) throw new UsageError(`${c}: --metrics is empty`, c);
  const { summaryTable, formatTable, frameRecords } = tables();
  const named = list(stringOption(args, "by"));
  // id and model too, whatever --by is: an answer given twice is found by them (and loading checks them together).
  // The gated metrics are read too (when the file has them), so that one left out of --metrics is told apart from one the file lacks.
  const df = await input.load(scoreColumnsRead([...(named ?? []), "model", "id", ...(gate?.metrics ?? [])], metrics), undefined, namedColumns([["--by", named], ["--metrics", metrics]]));
  if (metrics === undefined) await requireScoreColumn(c, input.file, input.format, df, defaultScoreColumns(), "--metrics");
  const columns = columnsOf(df);
  const by = named ?? (columns.includes("model") ? ["model"] : []);
  // Before anything is printed: the gate must name metrics the summary will hold.
  const scoreColumns = [...new Set([...defaultScoreColumns(), ...(metrics ?? [])])].filter((m) => columns.includes(m));
  requireGateMetrics(gate, metrics ?? defaultScoreColumns().filter((m) => columns.includes(m)), input.file, { command: c, table: { columns, scoreColumns } });
  // And the models it names must be groups of the summary: a misspelt model is bad usage, found before any output.
  if (gate?.models !== undefined && columns.includes("model") && !by.includes("model")) {
    throw new UsageError(
      `${c}: --fail-under-model gates models, and --by ${by.join(",")} leaves the model out of the summary; add it (--by ${[...by, "model"].join(",")}) or drop --fail-under-model`,
      c,
    );
  }
  requireGateModels(gate, modelNames(getColumn(df, "model")?.values ?? []), input.file, input.where.length > 0, c);
  const summary = await failOnError(() =>
    summaryTable(df, { by, ...(metrics ? { metrics } : {}), ...(seed !== undefined ? { seed } : {}) }),
  `${input.file}: `);
  const warning = repeatedWarning(input.file, df);
  if (warning !== undefined) io.err(`${warning}\n`);
  io.out(flag(args, "json") ? `${JSON.stringify(frameRecords(summary), null, 2)}\n` : `${formatTable(summary)}\n`);
  if (gate) io.err(`${checkFailUnder(frameRecords(summary), gate)}\n`);
  return 0;
};

/**
 * The warning about rows that answer an (id, model) an earlier row answered
 * (counted as failed by the summary), naming the first few; undefined when there are none.
 */
function repeatedWarning(file: string, table: Table): string | undefined {
  const { repeatedAnswers } = require("../analysis/summarize") as typeof import("../analysis/summarize");
  const repeats = repeatedAnswers(table);
  if (repeats.length === 0) return undefined;
  const named = repeats.slice(0, REPEATS_NAMED).map(({ row, first }) => repeatedRowName(table, row, first));
  const more = repeats.length > named.length ? `; and ${repeats.length - named.length} more` : "";
  return (
    `evalframe: warning: ${file}: ${counted(repeats.length, "row")} ${repeats.length === 1 ? "answers" : "answer"} an (id, model) that an earlier row answered, ` +
    `and ${repeats.length === 1 ? "is" : "are"} counted as failed (n_error), not averaged in: ${named.join("; ")}${more}; each question id must appear once per model`
  );
}
