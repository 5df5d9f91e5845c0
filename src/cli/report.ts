/**
 * `evalframe report`: the self-contained HTML report of a scored file.
 */
import { readFile } from "node:fs/promises";
import type { UsageSummary } from "../judge/usage";
import type { ReportOptions } from "../report/html";
import { inputFormat, parseCommand, requiredOption, stringOption, wholeNumber } from "./args";
import { CliFailure, failOnError } from "./errors";
import type { Command } from "./command";
import { runtime, s, readScored, tables, writeText } from "./command-support";

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
  // A typed table, not a DataFrame: a scored file of 200,000 rows is held once, not twice.
  const df = await input.load();
  const options: ReportOptions = {};
  if (title !== undefined) options.title = title;
  if (worst !== undefined) options.worst = worst;
  if (usage !== undefined) options.usage = usage;
  if (previous !== undefined) options.previous = await failOnError(() => tables().loadTable(previous, { format: previousFormat!, warn: false, required: [] }));
  const html = await failOnError(() => buildReport(df, options), `${input.file}: `);
  await writeText(out, html);
  io.out(`wrote ${out} (${Math.round(Buffer.byteLength(html) / 1024).toLocaleString("en-US")} KB)\n`);
  return 0;
};
