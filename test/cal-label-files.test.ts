/**
 * Label files as a team writes them: a .json array of labels, a label
 * pretty-printed over several lines, a spreadsheet of grades given as a
 * label file, two annotators' files. Each is read, or refused with one
 * message that says what the file is and what to do, not a problem per line.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { readLabels } from "../src/index";
import { LabelFileError } from "../src/labels/types";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const BUNDLED = path.join(__dirname, "..", "data", "qa-models.labels.jsonl");
const lines = readFileSync(BUNDLED, "utf8").split("\n").filter((l) => l.trim() !== "").slice(0, 6);
const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);

function problems(run: () => unknown): LabelFileError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof LabelFileError, String(error));
    return error;
  }
  assert.fail("expected a LabelFileError");
}

describe("label files as a team writes them", () => {
  const dir = tempDir();

  it("reads a .json file holding one array of labels as the same labels as JSON Lines, naming a bad one by its place", () => {
    const jsonl = writeText(dir, "six.labels.jsonl", `${lines.join("\n")}\n`);
    const array = writeText(dir, "six.labels.json", `\ufeff${JSON.stringify(objects, null, 2)}\r\n`);
    const a = readLabels(jsonl);
    const b = readLabels(array);
    assert.equal(b.answerCorrectness.length, 6);
    assert.deepEqual(
      b.answerCorrectness.map(({ origin: _, ...rest }) => rest),
      a.answerCorrectness.map(({ origin: _, ...rest }) => rest),
    );
    assert.equal(b.answerCorrectness[1]!.origin.where, `${array}, label 2`);

    const broken = objects.map((o, i) => (i === 2 ? { ...o, response_statements: [{ statement: "x", verdict: "yes" }] } : o));
    const error = problems(() => readLabels(writeText(dir, "broken.labels.json", JSON.stringify(broken, null, 2))));
    assert.equal(error.problems.length, 1);
    assert.match(error.message, /broken\.labels\.json, label 3, field response_statements\[0\]\.verdict: "yes" is not a verdict here; use "TP" or "FP"/);

    const syntax = problems(() => readLabels(writeText(dir, "syntax.labels.json", '[\n  {"id": "q01",\n   "model": "m" "user_input": "x"}\n]\n')));
    assert.match(syntax.message, /syntax\.labels\.json, line 3: not valid JSON/);
  });

  it("refuses a label pretty-printed over several lines with one problem that says to keep each label on one line", () => {
    const pretty = writeText(dir, "pretty.labels.jsonl", objects.map((o) => JSON.stringify(o, null, 2)).join("\n"));
    const error = problems(() => readLabels(pretty));
    assert.equal(error.problems.length, 1, error.message);
    assert.match(error.message, /pretty\.labels\.jsonl, line 1: not valid JSON .*each label on a single line/);
  });

  it("still reports every broken line of a JSON Lines file whose first line is a label with a typo", () => {
    const typo = writeText(dir, "typo.labels.jsonl", ['{"id": "q01" "model": "m"}', lines[1], "{oops}", lines[2]].join("\n"));
    const error = problems(() => readLabels(typo));
    assert.deepEqual(error.problems.map((p) => p.where), [`${typo}, line 1`, `${typo}, line 3`]);
  });

  it("tells a spreadsheet of grades given to --labels to name its score column, in one line", async () => {
    const grades = writeText(dir, "grades.csv", "\ufeffID,Model,Human Score\r\nq01,atlas-pro,1\r\nq01,swift-mini,0\r\n");
    const scored = writeText(dir, "scored.csv", "id,model,user_input,response,answer_correctness\nq01,atlas-pro,Q,A,1\nq01,swift-mini,Q,B,0\n");
    const result = await runCliCaptured(["calibrate", scored, "--labels", grades]);
    assert.equal(result.code, 1);
    assert.equal(result.err.trim().split("\n").length, 1, result.err);
    assert.match(result.err, /grades\.csv, line 1: .*its first line is "ID,Model,Human Score".*--label-score COLUMN/);
  });

  it("refuses a label file saved in another encoding than UTF-8, naming the line, instead of reading its texts as \ufffd", () => {
    // The first line written as UTF-8, the second appended by an editor in Latin-1.
    const second = `${JSON.stringify({ ...objects[1], response: `${String(objects[1]!["response"])} café` })}\n`;
    const text = `${lines[0]}\n${second}`;
    const latin1 = path.join(dir, "latin1.labels.jsonl");
    writeFileSync(latin1, Buffer.concat([Buffer.from(`${lines[0]}\n`, "utf8"), Buffer.from(second, "latin1")]));
    const error = problems(() => readLabels(latin1));
    assert.equal(error.problems.length, 1);
    assert.match(error.message, /latin1\.labels\.jsonl, line 2: is not valid UTF-8 .*save the label file as UTF-8/);
    const utf16 = path.join(dir, "utf16.labels.jsonl");
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    assert.match(problems(() => readLabels(utf16)).message, /utf16\.labels\.jsonl: the label file is UTF-16 .*save it as UTF-8/);
  });

  it("refuses two annotators' files of the same rows together, saying how to compare them", () => {
    const first = writeText(dir, "annotator-a.labels.jsonl", `${lines[0]}\n`);
    const second = writeText(dir, "annotator-b.labels.jsonl", `${lines[0]}\n`);
    const error = problems(() => readLabels([first, second]));
    assert.match(error.message, /annotator-b\.labels\.jsonl, line 1, field id: a second label for .*already labelled at .*annotator-a\.labels\.jsonl, line 1; .*score with --judge labels on one file, calibrate against the other/);
  });
});
