/**
 * `evalframe calibrate`: a scored table against hand labels (or a human
 * score column), printed as the tables of `calibrate()`.
 */
import type { DataFrame } from "danfojs-node";
import type { CalibrateOptions, CalibrationReport, UnmatchedItem, UnmatchedList } from "../analysis/calibrate";
import { quote } from "../labels/text";
import type { DatasetFormat } from "../dataset/load";
import { getColumn, type Table } from "../dataset/table";
import { finiteNumber, inputFormat, parseCommand, stringOption, flag, wholeNumber, type OptionSpec } from "./args";
import { readScored, withoutUnscoredRepeats } from "./command-support";
import { describeConditions, WHERE_OPTION } from "./where";
import type { Command } from "./command";
import { failOnError, UsageError } from "./errors";
import { labelFiles, LABELS_OPTION, readLabelFiles } from "./labels";

const s: OptionSpec = { type: "string" };
const b: OptionSpec = { type: "boolean" };

/** danfojs and the analysis, loaded after the arguments are checked. */
function runtime(): typeof import("./runtime") & typeof import("../analysis/calibrate") & Pick<typeof import("../dataset/load"), "loadTable"> {
  const { loadTable } = require("../dataset/load") as typeof import("../dataset/load");
  return { ...(require("./runtime") as typeof import("./runtime")), ...(require("../analysis/calibrate") as typeof import("../analysis/calibrate")), loadTable };
}

/** The ranking's heading: whether the judge orders the models as the labels do, and when that question is empty or a tie decides it. */
function rankingVerdict(report: CalibrationReport): string {
  const ranks = report.ranking !== undefined ? frameRecordsOf(report.ranking) : [];
  if (ranks.length === 0) return "no labelled row was compared, so there is no ranking";
  if (ranks.length < 2) return "one model, so there is no order of models to compare";
  const ties = (side: "judge_rank" | "label_rank") => new Set(ranks.map((r) => r[side])).size < ranks.length;
  if (report.rankingAgrees) return "the judge orders the models as the labels do";
  const why = ties("label_rank") ? " (the labels score some models alike on average)" : ties("judge_rank") ? " (the judge scores some models alike on average)" : "";
  return `the judge orders the models differently from the labels${why}`;
}

/** The rows of a report table as plain objects (the analysis module is loaded by then). */
function frameRecordsOf(frame: DataFrame): Record<string, string | number | boolean | null>[] {
  return (require("./runtime") as typeof import("./runtime")).frameRecords(frame);
}

/** The report's tables in print order, with their headings; sections that do not apply are left out. */
function sections(report: CalibrationReport, top: number): [string, string, DataFrame][] {
  const out: [string, string, DataFrame | undefined][] = [
    ["coverage", "coverage (labels matched to scored rows)", report.coverage],
    ["statements", `statement agreement (judge vs labels; statements aligned by identical text, else word overlap >= ${report.alignThreshold})`, report.statements],
    ["rows", `row agreement (judge vs ${report.labels === "score" ? "human score" : `labels' F-beta, beta ${report.beta}`})`, report.rows],
    ["answerOrder", "answer order (pairs of answers to the same question that the labels score differently: does the judge score the better one higher?)", report.answerOrder],
    ["ranking", `model ranking: ${rankingVerdict(report)}`, report.ranking],
    ["disagreements", `largest disagreements (top ${top})`, report.disagreements],
    ["relevance", "multimodal relevance agreement (judge vs labelled relevant)", report.relevance],
    ["stale", "stale labels (left out: the row's text changed since it was labelled)", report.stale.shape[0] ? report.stale : undefined],
  ];
  return out.filter((x): x is [string, string, DataFrame] => x[2] !== undefined);
}

/** An unmatched row or label in a line: its keys and where it is. */
function unmatchedItem(item: UnmatchedItem): string {
  const keys = [
    item.id !== null ? `id ${JSON.stringify(item.id)}` : "",
    item.user_input !== null ? `user_input ${quote(item.user_input, 50)}` : "",
    item.model !== null ? `model ${JSON.stringify(item.model)}` : "",
  ].filter(Boolean);
  return `${keys.join(", ")} (${item.where})`;
}

/** "unused labels (answer_correctness): 11: …; …; and 6 more", or nothing when there are none. */
function unmatchedLine(what: string, kind: string, list: UnmatchedList): string[] {
  if (list.count === 0) return [];
  const more = list.more > 0 ? `; and ${list.more} more` : "";
  return [`${what} (${kind}): ${list.count}: ${list.first.map(unmatchedItem).join("; ")}${more}`];
}

/** The lines naming the first unlabelled rows and unused labels of each kind (a mistyped id or model shows up here). */
function unmatchedNotes(report: CalibrationReport): string[] {
  return report.unmatched.flatMap((u) => [
    ...unmatchedLine("unlabelled rows", u.kind, u.unlabelledRows),
    ...unmatchedLine("unused labels", u.kind, u.unusedLabels),
    ...unmatchedLine("labelled rows the judge failed to score, left out", u.kind, u.judgeFailed),
    ...(u.hint !== undefined ? [`note (${u.kind}): ${u.hint}`] : []),
  ]);
}

/** Groups of the row-agreement table with Spearman over fewer rows than this get a note that it is rough. */
const FEW_ROWS = 10;

/**
 * Why some Spearman cells of the row-agreement table are blank, and which
 * rest on so few rows that they say little (two rows always give 1 or −1).
 */
function rowNotes(rows: readonly Record<string, string | number | boolean | null>[]): string[] {
  const name = (r: Record<string, unknown>) => `${String(r["target"])} ${String(r["model"])} (n ${String(r["n"])})`;
  const list = (rs: readonly Record<string, unknown>[]) => (rs.length > 6 ? `${rs.slice(0, 6).map(name).join(", ")} and ${rs.length - 6} more` : rs.map(name).join(", "));
  const blank = rows.filter((r) => r["spearman"] === null && typeof r["n"] === "number" && r["n"] >= 2);
  const single = rows.filter((r) => r["spearman"] === null && r["n"] === 1);
  const few = rows.filter((r) => r["spearman"] !== null && typeof r["n"] === "number" && r["n"] < FEW_ROWS);
  const notes: string[] = [];
  if (blank.length > 0) {
    notes.push(`spearman is blank (NaN) for ${list(blank)}: the judge or the labels give every row there the same value, so there is no order to compare; mae and bias still apply`);
  }
  if (single.length > 0) notes.push(`spearman is blank (NaN) for ${list(single)}: one row has no order to compare`);
  if (few.length > 0) {
    notes.push(`spearman over fewer than ${FEW_ROWS} rows says little (two rows always give 1 or -1): ${list(few)}; label more rows before trusting it`);
  }
  return notes;
}

/** Why a kappa is blank: every pair compared has the same verdict on both sides (chance agreement 1), or none was compared. */
function kappaNotes(rows: readonly Record<string, string | number | boolean | null>[], by: "side" | "model"): string[] {
  const n = (r: Record<string, unknown>) => (by === "side" ? r["n_aligned"] : r["n"]);
  const blank = rows.filter((r) => r["kappa"] === null && typeof n(r) === "number" && (n(r) as number) > 0);
  if (blank.length === 0) return [];
  const names = blank.map((r) => `${String(r[by])} (n ${String(n(r))})`).join(", ");
  return [`kappa is blank (NaN) for ${names}: the judge and the labels give one and the same verdict there, so agreement beyond chance cannot be told; read accuracy`];
}

/** The table of human scores of `--label-score`; a usage error (exit 2) when it lacks that column. */
async function readGrades(c: string, file: string, format: DatasetFormat, column: string, loadTable: typeof import("../dataset/load").loadTable): Promise<Table> {
  const table = await failOnError(() => loadTable(file, { format, required: [], warn: false }), `${file}: `);
  if (getColumn(table, column) === undefined) {
    const names = table.columns.map((x) => x.name).filter((n) => n !== "input_error");
    throw new UsageError(`${c}: --label-score names column "${column}", which ${file} does not have; its columns are: ${names.join(", ")}`, c);
  }
  return table;
}

/** `evalframe calibrate`: how well the judge of a scored file agrees with hand labels. */
export const calibrateCommand: Command = async (argv, io) => {
  const c = "calibrate";
  const args = parseCommand(c, argv, { labels: LABELS_OPTION, "label-score": s, top: s, "align-threshold": s, json: b, format: s, where: WHERE_OPTION });
  const input = readScored(c, args);
  const file = input.file;
  const files = labelFiles(c, args);
  if (files === undefined) throw new UsageError(`${c}: --labels is required, e.g. --labels data/qa-models.labels.jsonl`, c);
  const labelScore = stringOption(args, "label-score");
  if (labelScore !== undefined && labelScore.trim() === "") throw new UsageError(`${c}: --label-score is empty; name the column of human scores, e.g. --label-score human_score`, c);
  if (labelScore !== undefined && files.length !== 1) {
    throw new UsageError(`${c}: with --label-score, give one table of human scores in --labels, got ${files.length} files`, c);
  }
  const labelFormat = labelScore !== undefined ? inputFormat(c, files[0]!, undefined) : undefined;
  const top = wholeNumber(c, "top", stringOption(args, "top"), 0) ?? 10;
  const alignThreshold = finiteNumber(c, "align-threshold", stringOption(args, "align-threshold"), { min: 0, max: 1 });

  const { loadTable, calibrate, formatTable, frameRecords } = runtime();
  // Rows that score left unscored as repeats of an (id, model): left out, with a warning, as compare and chart do.
  const scored = withoutUnscoredRepeats(file, await input.load(), io, "calibration");
  const labels = labelFormat !== undefined && labelScore !== undefined
    ? await readGrades(c, files[0]!, labelFormat, labelScore, loadTable)
    : await readLabelFiles(files);
  const options: CalibrateOptions = { top };
  if (labelScore !== undefined) options.labelScore = labelScore;
  if (alignThreshold !== undefined) options.alignThreshold = alignThreshold;
  const report = await failOnError(() => calibrate(scored, labels, options));

  const parts = sections(report, top);
  if (flag(args, "json")) {
    const body = {
      scored: file,
      ...(input.where.length > 0 ? { where: describeConditions(input.where) } : {}),
      labels: files,
      kind: report.labels,
      matchedBy: report.matchedBy,
      beta: report.beta,
      alignThreshold: report.alignThreshold,
      rankingAgrees: report.rankingAgrees ?? null,
      ...Object.fromEntries(parts.map(([key, , frame]) => [key, frameRecords(frame)])),
      unmatched: report.unmatched,
    };
    io.out(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  const matchedBy = report.matchedBy === "id" ? "(id, model)" : "(user_input, model)";
  const rows = input.where.length > 0 ? ` (its rows where ${describeConditions(input.where)}; labels of the others count as unused)` : "";
  io.out(`${file}${rows} against ${files.join(", ")}: rows matched by ${matchedBy}\n`);
  for (const [key, heading, frame] of parts) {
    io.out(`\n${heading}\n${formatTable(frame, { maxWidth: key === "disagreements" ? 60 : 48 })}\n`);
    const notes =
      key === "coverage" ? unmatchedNotes(report)
      : key === "rows" ? rowNotes(frameRecords(frame))
      : key === "statements" || key === "relevance" ? kappaNotes(frameRecords(frame), key === "statements" ? "side" : "model")
      : [];
    if (notes.length > 0) io.out(`${notes.join("\n")}\n`);
  }
  return 0;
};
