/**
 * `evalframe report`: the self-contained HTML report of a scored file.
 */
import { readFile } from "node:fs/promises";
import type { UsageSummary } from "../judge/usage";
import type { ReportOptions } from "../report/html";
import { inputFormat, parseCommand, requiredOption, stringOption, wholeNumber } from "./args";
import { CliFailure, failOnError } from "./errors";
import type { Command } from "./command";
import { asCommand, runtime, s, readScored, scoringPartsOnly, tables, writeText } from "./command-support";
import { getColumn, type Table } from "../dataset/table";
import { rowsWhere, WHERE_OPTION } from "./where";
import { checkCommandFiles } from "./output-paths";
import { cliMessageOf } from "../dataset/fix-hint";

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

/**
 * The scored file as a typed table (not a DataFrame), read so that a large
 * one fits in memory: first with only how each row was scored of every
 * statements cell (the statements are most of a scored file), then the whole
 * cell again for the rows the report shows. A JSON or JSONL file is read once.
 */
async function withStatementsOfShownRows(input: ReturnType<typeof readScored>, shownRows: (table: Table) => ReadonlySet<number>): Promise<Table> {
  const scoringPart = scoringPartsOnly();
  const shortened = new Set<string>();
  const table = await input.load(undefined, (column, text, row) => {
    const part = scoringPart(column, text, row);
    if (part !== text) shortened.add(column);
    return part;
  });
  const rows = shownRows(table);
  if (shortened.size === 0 || rows.size === 0) return table;
  // (`cellText` is given the file's rows; with --where, the table's rows are some of them.)
  const fileRows = input.fileRows(table);
  const wanted = new Set([...rows].map((row) => fileRows[row]!));
  const whole = await input.load([...shortened], (_column, text, row) => (wanted.has(row) ? text : ""));
  if (whole.rowCount !== table.rowCount) throw new CliFailure(`${input.file} changed while it was read (${table.rowCount} rows, then ${whole.rowCount}); run the report again`);
  for (const name of shortened) {
    const from = getColumn(whole, name);
    const to = getColumn(table, name);
    if (from && to) for (const row of rows) to.values[row] = from.values[row] ?? null;
  }
  return table;
}

/** `evalframe report`: the self-contained HTML report of a scored file. */
export const reportCommand: Command = async (argv, io) => {
  const c = "report";
  const args = parseCommand(c, argv, { out: s, title: s, worst: s, "usage-json": s, format: s, previous: s, where: WHERE_OPTION });
  const input = readScored(c, args);
  const out = requiredOption(c, args, "out", "report.html");
  const worst = wholeNumber(c, "worst", stringOption(args, "worst"), 0);
  const title = stringOption(args, "title");
  const usageFile = stringOption(args, "usage-json");
  const previous = stringOption(args, "previous");
  const previousFormat = previous === undefined ? undefined : inputFormat(c, previous, stringOption(args, "format"));
  checkCommandFiles(c, {
    inputs: [{ name: "the scored table", path: input.file }, { name: "--previous", path: previous }, { name: "--usage-json", path: usageFile }],
    outputs: [{ name: "--out", path: out, example: "report.html" }],
  });
  const usage = usageFile === undefined ? undefined : await readUsage(usageFile);
  const { buildReport, rowsWithStatements } = runtime();
  const options: ReportOptions = {};
  if (title !== undefined) options.title = title;
  if (worst !== undefined) options.worst = worst;
  if (usage !== undefined) options.usage = usage;
  const scored = await withStatementsOfShownRows(input, (table) => rowsWithStatements(table, options));
  if (previous !== undefined) {
    // The previous run's same rows: --where applies to it too.
    const earlier = await failOnError(() => tables().loadTable(previous, { format: previousFormat!, warn: false, required: [] }));
    options.previous = rowsWhere(c, previous, earlier, input.where);
    // The page says "Not computed" where the runs cannot be compared; the terminal says it too.
    options.onPreviousProblem = (problem) =>
      io.err(
        `evalframe: warning: --previous: ${
          problem.metric === undefined
            ? `"${previous}" has none of this run's score columns (${problem.metrics.join(", ")}), so the report shows no change since it`
            : `cannot compare ${problem.metric} of "${previous}" with this run, so the report shows "Not computed": ${cliMessageOf(problem.error)}`
        }\n`,
      );
  }
  const html = await failOnError(() => asCommand(c, ["buildReport", "rowsWithStatements"], () => buildReport(scored, options)), `${input.file}: `);
  await writeText(out, html);
  io.out(`wrote ${out} (${Math.round(Buffer.byteLength(html) / 1024).toLocaleString("en-US")} KB)\n`);
  return 0;
};
