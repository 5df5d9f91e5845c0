/**
 * `evalframe compare`: the paired comparison of a scored file, as a table and in words.
 */
import { flag, parseCommand, stringOption, wholeNumber } from "./args";
import { failOnError } from "./errors";
import type { Command } from "./command";
import { s, b, tables, readScored, defaultMetric, namedColumns, requireNamedValues, requireScoreColumn, refuseScoredRepeats, scoreColumnsRead, asCommand, withoutUnscoredRepeats } from "./command-support";
import { WHERE_OPTION } from "./where";
import { IdQuestions } from "../dataset/id-questions";

/** `evalframe compare`: paired model comparison of a scored file. */
export const compareCommand: Command = async (argv, io) => {
  const c = "compare";
  const args = parseCommand(c, argv, { metric: s, by: s, "pair-by": s, baseline: s, seed: s, json: b, format: s, where: WHERE_OPTION });
  const input = readScored(c, args);
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0, { example: "42" });
  const { comparisonTable, formatTable, frameRecords } = tables();
  const metric = stringOption(args, "metric");
  const pairing = [stringOption(args, "by") ?? "model", stringOption(args, "pair-by") ?? "id", "user_input"];
  // The grouping column must be in the file, named or not: a missing one is named with the file's columns.
  const by = stringOption(args, "by");
  const named = namedColumns([["--metric", metric], [by === undefined ? "--by (default)" : "--by", by ?? "model"], ["--pair-by", stringOption(args, "pair-by")]]);
  // Rows that score left unscored as repeats of an (id, model) have no score to pair: left out, with a warning.
  const df = withoutUnscoredRepeats(input.file, await input.load(scoreColumnsRead(pairing, metric === undefined ? undefined : [metric]), undefined, named), io, "comparison");
  if (metric === undefined) await requireScoreColumn(c, input.file, input.format, df, [defaultMetric(df)], "--metric");
  const options = {
    metric: metric ?? defaultMetric(df),
    by: stringOption(args, "by") ?? "model",
    ...(stringOption(args, "pair-by") !== undefined ? { pairBy: stringOption(args, "pair-by")! } : {}),
    ...(stringOption(args, "baseline") !== undefined ? { baseline: stringOption(args, "baseline")! } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
  if (options.baseline !== undefined) requireNamedValues(c, input.file, df, "--baseline", options.by, [options.baseline]);
  // Two scored answers to one (id, model): named with their rows and lines (the default pairing only).
  if (options.by === "model" && (options.pairBy ?? "id") === "id") refuseScoredRepeats(c, input.file, df);
  // Answers paired by id: an id that names two questions would pair answers to different questions.
  if ((options.pairBy ?? "id") === "id") {
    const ids = new IdQuestions();
    ids.note(df);
    const warning = ids.warning(input.file);
    if (warning !== undefined) io.err(`${warning}\n`);
  }
  const comparison = await failOnError(() => asCommand(c, "compareModels", () => comparisonTable(df, options)), `${input.file}: `);
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
    io.out(`\n${headline(summary, comparison, { metric: options.metric, by: options.by, scored: df, ...(judges.length > 0 ? { judge: judges.join(" and ") } : {}) }).join("\n")}\n`);
  } catch {
    // The table above stands on its own.
  }
  return 0;
};
