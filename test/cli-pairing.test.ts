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

describe("a scored table with a row that repeats an (id, model)", () => {
  const dir = tempDir();
  // Row 2 repeats (q1, m1): score leaves it unscored (input_error) and scores the others.
  const input = writeText(
    dir,
    "repeat.csv",
    [
      "id,model,question,answer,reference",
      "q1,m1,What is 2+2?,4.,4.",
      "q1,m2,What is 2+2?,5.,4.",
      "q1,m1,What is 2+2?,four.,4.",
      "q2,m1,Sky colour?,Blue.,Blue.",
      "q2,m2,Sky colour?,Blue.,Blue.",
      "q3,m1,Grass colour?,Green.,Green.",
      "q3,m2,Grass colour?,Red.,Green.",
      "",
    ].join("\n"),
  );
  const scored = path.join(dir, "scored.csv");
  const WARNED = /^evalframe: warning: .*scored\.csv: 1 row repeats an \(id, model\) that an earlier row answered and was not scored \(see input_error\), so it is left out of the (comparison|chart|comparison of the runs): row 2 \(line 4\) \(id "q1", model "m1", first at row 0 \(line 2\)\)$/m;

  it("compare, diff and chart of what score wrote exit 0, leave the unscored repeat out with one warning, and pair the rest", async () => {
    const s = await run(["score", input, "--out", scored, "--judge", "offline", "--no-progress"]);
    assert.equal(s.code, 0, s.err);
    const compare = await run(["compare", scored, "--json"]);
    assert.equal(compare.code, 0, compare.err);
    assert.match(compare.err, WARNED);
    const rows = JSON.parse(compare.out) as { model_a: string; model_b: string; n_pairs: number; n_dropped: number }[];
    assert.deepEqual(rows.map((r) => [r.model_a, r.model_b, r.n_pairs, r.n_dropped]), [["m1", "m2", 3, 0]]);
    const diff = await run(["diff", scored, scored, "--json"]);
    assert.equal(diff.code, 0, diff.err);
    assert.match(diff.err, WARNED);
    const summary = (JSON.parse(diff.out) as { summary: { model: string; n_paired: number }[] }).summary;
    assert.deepEqual(summary.map((r) => [r.model, r.n_paired]), [["m1", 3], ["m2", 3], ["(all)", 6]]);
    const chart = await run(["chart", scored, "--kind", "heatmap", "--out", path.join(dir, "heat.json")]);
    assert.equal(chart.code, 0, chart.err);
    assert.match(chart.err, WARNED);
  });

  it("two scored rows for one (id, model) (a table made elsewhere) are still refused, naming both rows and their lines: which to pair is the user's call", async () => {
    const twice = writeText(dir, "twice.csv", "id,model,answer_correctness\nq1,m1,0.5\nq1,m1,0.7\nq1,m2,0.4\nq2,m1,1\nq2,m2,1\n");
    const r = await run(["compare", twice]);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      `evalframe: ${twice}: compare: id "q1" of model "m1" at row 0 (line 2) and again at row 1 (line 3); each model may answer each id once, so the answers can be paired: remove or re-id the repeated rows, or pick rows with --where\n`,
    );
    const chart = await run(["chart", twice, "--kind", "paired", "--out", path.join(dir, "p.json")]);
    assert.equal(chart.code, 1);
    assert.match(chart.err, /twice\.csv: chart --kind paired: id "q1" of model "m1" at row 0 \(line 2\) and again at row 1 \(line 3\)/);
  });
});
