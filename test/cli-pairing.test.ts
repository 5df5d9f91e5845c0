/**
 * Pairing models' answers by id: an id given to different questions in
 * different rows is named in one warning (row, line, model, the question) by
 * `evalframe score`, `evalframe compare` and `loadDataset`, since the
 * comparisons would otherwise set answers to different questions side by
 * side without a word. Every row is still scored and written.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { loadDataset } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { writeSampleHead } from "./support/sample";
import { parseCsv } from "../src/dataset/csv";
import { readFileSync } from "node:fs";

const MIXED = [
  "id,model,question,answer,reference",
  "q1,m1,What is 2+2?,4.,4.",
  "q1,m2,Capital of France?,Paris.,Paris.",
  "q2,m1,Capital of France?,Paris.,Paris.",
  "q2,m2,What is 2+2?,4.,4.",
  "q3,m1,Sky colour?,Blue.,Blue.",
  "q3,m2, Sky colour? ,Blue.,Green.",
  "",
].join("\n");

const WARNING =
  '2 ids name different questions in different rows, so comparisons, which pair answers by id, would set answers to different questions side by side (id "q1" at row 1 (line 3) (model "m2") asks "Capital of France?", another question than at row 0 (line 2) (model "m1"); id "q2" at row 3 (line 5) (model "m2") asks "What is 2+2?", another question than at row 2 (line 4) (model "m1")); give each question its own id, the same for every model\'s answer to it (or pair by the question\'s text: --pair-by user_input)';

/** The lines of a stream's text that warn about ids. */
function idWarnings(text: string): string[] {
  return text.split("\n").filter((l) => l.includes("different questions"));
}

describe("an id that names different questions", () => {
  const dir = tempDir();
  const input = writeText(dir, "mixed.csv", MIXED);
  const scored = path.join(dir, "scored.csv");

  it("score warns once, naming the ids, rows, lines and models, and still scores and writes every row", async () => {
    const r = await run(["score", input, "--out", scored, "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(idWarnings(r.err), [`evalframe: ${input}: ${WARNING}`]);
    const { header, records } = parseCsv(readFileSync(scored, "utf8"));
    const rows = records.map((r) => Object.fromEntries(header.map((name, j) => [name, r.fields[j]])));
    assert.deepEqual(rows.map((row) => [row["id"], row["model"], row["user_input"]]), [
      ["q1", "m1", "What is 2+2?"],
      ["q1", "m2", "Capital of France?"],
      ["q2", "m1", "Capital of France?"],
      ["q2", "m2", "What is 2+2?"],
      ["q3", "m1", "Sky colour?"],
      ["q3", "m2", " Sky colour? "],
    ]);
    assert.ok(rows.every((row) => row["answer_correctness"] !== ""), "every row is scored");
  });

  it("compare warns when it pairs by id, not when it pairs by the question's text", async () => {
    const r = await run(["compare", scored]);
    assert.equal(r.code, 0, r.err);
    assert.equal(idWarnings(r.err).length, 1);
    assert.match(idWarnings(r.err)[0]!, /^evalframe: .*scored\.csv: 2 ids name different questions .*id "q1" at row 1 \(line 3\) \(model "m2"\) asks "Capital of France\?"/);
    const byText = await run(["compare", scored, "--pair-by", "user_input"]);
    assert.equal(byText.code, 0, byText.err);
    assert.deepEqual(idWarnings(byText.err), []);
  });

  it("loadDataset warns through its warn option; a file whose ids each name one question gives no warning", async () => {
    const warned: string[] = [];
    const df = await loadDataset(input, { warn: (m) => void warned.push(m) });
    assert.equal(df.shape[0], 6);
    assert.deepEqual(idWarnings(warned.join("\n")), [`evalframe: ${input}: ${WARNING}`]);
    const sample = writeSampleHead(dir, 4);
    const quiet: string[] = [];
    await loadDataset(sample, { warn: (m) => void quiet.push(m) });
    assert.deepEqual(quiet, []);
    const r = await run(["score", sample, "--out", path.join(dir, "sample-scored.csv"), "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(idWarnings(r.err), []);
  });
});
