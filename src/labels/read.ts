/**
 * `readLabels`: label files (JSON Lines, docs/labelling.md) or label objects
 * in, a checked {@link LabelSet} out, or one error listing every problem
 * with its file, line and field.
 */
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { buildLabelIndex, type LabelIndex } from "./lookup";
import { parseLabelLine } from "./parse";
import { duplicateProblems, referenceProblems } from "./validate";
import { LabelFileError, type HandLabel, type LabelOrigin, type LabelProblem, type LabelSet, type LabelSource } from "./types";
import { withoutBom } from "../dataset/file-text";
import { errorText } from "../display/words";
import { quote } from "./text";

/** True for a {@link LabelSet} (what `readLabels` returns). */
export function isLabelSet(value: unknown): value is LabelSet {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Partial<LabelSet>;
  return Array.isArray(v.answerCorrectness) && Array.isArray(v.multimodal) && Array.isArray(v.files);
}

function readFileLines(file: string, labels: HandLabel[], problems: LabelProblem[]): void {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : errorText(error);
    problems.push({ where: file, field: "", message: `cannot read the label file (${why}); give the path of a .jsonl label file` });
    return;
  }
  // A label copies its row's texts: read in another encoding, they would not match and every label would be stale.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    problems.push({ where: file, field: "", message: 'the label file is UTF-16 (Excel\'s "Unicode Text"); save it as UTF-8' });
    return;
  }
  const text = bytes.toString("utf8");
  if (!isUtf8(bytes)) {
    const line = text.slice(0, text.indexOf("\uFFFD") + 1).split("\n").length;
    problems.push({ where: `${file}, line ${line}`, field: "", message: "is not valid UTF-8 (the file was saved in another encoding), so its texts cannot match the rows'; save the label file as UTF-8" });
    return;
  }
  const body = withoutBom(text);
  if (body.trimStart().startsWith("[")) {
    readArray(file, body, labels, problems);
    return;
  }
  let count = 0;
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    count++;
    const origin: LabelOrigin = { file, line: i + 1, where: `${file}, line ${i + 1}` };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (count === 1 && !/^\s*\{.*\}\s*$/.test(line)) {
        // The first line is no JSON: not a label file at all (a table, a pretty-printed object), so one problem, not one per line.
        problems.push({ where: origin.where, field: "", message: `not valid JSON (${(error as Error).message}); ${notLabelFile(line)}` });
        return;
      }
      problems.push({ where: origin.where, field: "", message: `not valid JSON (${(error as Error).message}); each line must be one JSON object` });
      continue;
    }
    const parsed = parseLabelLine(value, origin);
    if ("label" in parsed) labels.push(parsed.label);
    else problems.push(...parsed.problems);
  }
  if (count === 0) problems.push({ where: file, field: "", message: "the label file has no lines; write one JSON object per labelled row" });
}

/** What a label file whose first line is no JSON probably is, and what to do. */
function notLabelFile(line: string): string {
  if (line.trimStart().startsWith("{")) {
    return "a label file has one JSON object per line (JSON Lines), each label on a single line; write each label on one line, or give a .json file holding one array of labels";
  }
  return (
    `this is not a label file of JSON objects (its first line is ${quote(line, 60)}); ` +
    "for a table with a column of human scores, name the column: --label-score COLUMN (calibrate(scored, await loadTable(file), { labelScore: COLUMN })); " +
    "statement labels are JSON Lines (docs/labelling.md)"
  );
}

/** The line (1-based) of the character at `offset` of `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** A .json label file: one array of label objects; each is named by its place in the array. */
function readArray(file: string, body: string, labels: HandLabel[], problems: LabelProblem[]): void {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const where = at ? `${file}, line ${lineAt(body, Number(at[1]))}` : file;
    problems.push({ where, field: "", message: `not valid JSON (${message}); a label file that starts with "[" holds one JSON array of label objects` });
    return;
  }
  if (!Array.isArray(value) || value.length === 0) {
    problems.push({ where: file, field: "", message: "the label file's array is empty; give one label object per labelled row" });
    return;
  }
  value.forEach((item: unknown, i) => {
    const origin: LabelOrigin = { file, line: i + 1, where: `${file}, label ${i + 1}` };
    const parsed = parseLabelLine(item, origin);
    if ("label" in parsed) labels.push(parsed.label);
    else problems.push(...parsed.problems);
  });
}

function checked(labels: readonly HandLabel[], files: string[], problems: LabelProblem[]): { set: LabelSet; index: LabelIndex } {
  const set: LabelSet = {
    answerCorrectness: labels.filter((l) => l.kind === "answer_correctness"),
    multimodal: labels.filter((l) => l.kind === "multimodal_relevance"),
    files,
  };
  problems.push(...duplicateProblems(labels), ...referenceProblems(set.answerCorrectness));
  if (problems.length > 0) throw new LabelFileError(problems);
  const built = buildLabelIndex(set);
  if (built.problems.length > 0) throw new LabelFileError(built.problems);
  return { set, index: built.index };
}

/** @internal `readLabels` with the replay index it built while checking. */
export function readLabelsIndexed(source: LabelSource): { set: LabelSet; index: LabelIndex } {
  if (isLabelSet(source)) return checked([...source.answerCorrectness, ...source.multimodal], [...source.files], []);
  const labels: HandLabel[] = [];
  const problems: LabelProblem[] = [];
  if (typeof source === "string") {
    readFileLines(source, labels, problems);
    return checked(labels, [source], problems);
  }
  if (!Array.isArray(source)) {
    throw new TypeError("labels must be a label file path, a list of paths, a list of label objects, or what readLabels returned");
  }
  const items = source as readonly unknown[];
  if (items.length === 0) throw new LabelFileError([{ where: "labels", field: "", message: "the list is empty; give at least one label file or label" }]);
  if (items.every((item) => typeof item === "string")) {
    const files = items as string[];
    for (const file of files) readFileLines(file, labels, problems);
    return checked(labels, [...files], problems);
  }
  items.forEach((item, i) => {
    const parsed = parseLabelLine(item, { file: "labels", line: i + 1, where: `labels[${i}]` });
    if ("label" in parsed) labels.push(parsed.label);
    else problems.push(...parsed.problems);
  });
  return checked(labels, [], problems);
}

/**
 * Reads and checks hand labels: a label file (JSON Lines as described in
 * docs/labelling.md), several files, or label lines given as objects. Each
 * line is an answer-correctness label (`response_statements`,
 * `reference_statements`) or a multimodal one (`relevant`).
 *
 * Checked: JSON on every line, each field's type, every verdict (TP/FP on the
 * response side, covered/FN on the reference side), one label per (id,
 * model), the same reference statements for every model of a question, and
 * that the same text is always labelled the same way (a judge replaying
 * labels sees only texts).
 *
 * @throws {LabelFileError} listing every problem as "file, line N, field F: what to fix".
 * @example
 * const labels = readLabels("data/qa-models.labels.jsonl");
 * labels.answerCorrectness.length          // one per labelled row
 * readLabels(["a.labels.jsonl", "b.labels.jsonl"]);
 */
export function readLabels(source: LabelSource): LabelSet {
  return readLabelsIndexed(source).set;
}
