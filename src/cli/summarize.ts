/**
 * `evalframe summarize`: the summary table of a scored file (typed tables: no danfojs).
 */
import { flag, list, parseCommand, stringOption, wholeNumber } from "./args";
import { failOnError, UsageError } from "./errors";
import { checkFailUnder, FAIL_UNDER_OPTIONS, failUnderGate } from "./fail-under";
import type { Command } from "./command";
import { s, b, columnsOf, namedColumns, tables, readScored, scoreColumnsRead } from "./command-support";
import { WHERE_OPTION } from "./where";

/** `evalframe summarize`: the summary table of a scored file. */
export const summarizeCommand: Command = async (argv, io) => {
  const c = "summarize";
  const args = parseCommand(c, argv, { by: s, metrics: s, seed: s, json: b, format: s, where: WHERE_OPTION, ...FAIL_UNDER_OPTIONS });
  const gate = failUnderGate(c, args);
  const input = readScored(c, args);
  const seed = wholeNumber(c, "seed", stringOption(args, "seed"), 0);
  const metrics = list(stringOption(args, "metrics"));
  if (metrics !== undefined && metrics.length === 0) throw new UsageError(`${c}: --metrics is empty`, c);
  const { summaryTable, formatTable, frameRecords } = tables();
  const named = list(stringOption(args, "by"));
  const df = await input.load(scoreColumnsRead(named ?? ["model"], metrics), undefined, namedColumns([["--by", named], ["--metrics", metrics]]));
  const by = named ?? (columnsOf(df).includes("model") ? ["model"] : []);
  const summary = await failOnError(() =>
    summaryTable(df, { by, ...(metrics ? { metrics } : {}), ...(seed !== undefined ? { seed } : {}) }),
  `${input.file}: `);
  io.out(flag(args, "json") ? `${JSON.stringify(frameRecords(summary), null, 2)}\n` : `${formatTable(summary)}\n`);
  if (gate) io.err(`${checkFailUnder(frameRecords(summary), gate)}\n`);
  return 0;
};
