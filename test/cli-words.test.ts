/**
 * The command line speaks in flags: an error whose fix the library words as
 * an option ("pass { format: … }") is printed with the flag instead, while
 * the API keeps its own wording.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { loadDataset } from "../src/frame/load";
import { frameRecords } from "../src/index";
import { summarize } from "../src/analysis/summarize";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";

/** Text that reads as API syntax: an object literal with a field. */
const API_SYNTAX = /\{ ?[a-zA-Z]+:/;

describe("CLI words, not API syntax", () => {
  it("an unknown extension: --format in the CLI, { format } in the API", async () => {
    const file = writeText(tempDir(), "answers.dat", "question,answer,reference\nq,a,r\n");
    const run = await runCliCaptured(["score", file, "--out", `${file}.csv`, "--judge", "offline"]);
    assert.equal(run.code, 2, "a usage error: the flag fixes it");
    assert.match(run.err, /cannot tell the format of ".*answers\.dat" from its extension; .*give --format/);
    assert.doesNotMatch(run.err, API_SYNTAX);
    await assert.rejects(loadDataset(file), /pass \{ format: "csv"/);
  });

  it("a missing column: rename it in the file; the API names the aliases option", async () => {
    const file = writeText(tempDir(), "answers.csv", "question,answer\nq,a\n");
    const run = await runCliCaptured(["score", file, "--out", `${file}.out.csv`, "--judge", "offline", "--metrics", "answer_correctness"]);
    assert.equal(run.code, 1);
    assert.match(run.err, /missing required column "reference" \(or .*\); the columns found are .*; rename a column in the file to "reference" or one of the names above/);
    assert.doesNotMatch(run.err, API_SYNTAX);
    await assert.rejects(loadDataset(file, { required: ["user_input", "response", "reference"] }), /pass \{ aliases: \{ yourName: "reference" \} \}/);
  });

  it("a file split by semicolons (Excel's CSV in many locales) is read as such, said once; a header split by tabs is named, not answered with renaming a column", async () => {
    const dir = tempDir();
    // A quoted field holds a semicolon, another a comma: both are text of their cell.
    const semi = writeText(dir, "excel.csv", 'question;answer;reference\nWhat?;"yes; surely";"no, never"\n');
    const said = /excel\.csv: read as separated by semicolons \(its header has semicolons and no comma, as Excel writes CSV in many locales\); a number written with a decimal comma \(0,8\) stays text: write 0\.8/;
    const out = path.join(dir, "out.csv");
    const run = await runCliCaptured(["score", semi, "--out", out, "--judge", "offline"]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err.match(new RegExp(said.source, "g"))?.length, 1, run.err);
    assert.match(readFileSync(out, "utf8"), /^user_input,response,reference,answer_correctness,/);
    assert.match(readFileSync(out, "utf8"), /\nWhat\?,yes; surely,"no, never",/);
    const warnings: string[] = [];
    const df = await loadDataset(semi, { required: ["user_input", "response", "reference"], warn: (m) => warnings.push(m) });
    assert.deepEqual(frameRecords(df), [{ user_input: "What?", response: "yes; surely", reference: "no, never" }]);
    assert.equal(warnings.length, 1);
    const tabs = writeText(dir, "tabs.csv", "question\tanswer\treference\nWhat?\tyes\tno\n");
    await assert.rejects(loadDataset(tabs), /split by tabs: name the file \.tsv, or give the format "tsv"/);
    // A header with a comma is a comma-separated file, whatever semicolons its names hold.
    await assert.rejects(loadDataset(writeText(dir, "one.csv", "notes;misc,other\nx,y\n")), /rename a column, or pass \{ aliases/);
    // A delimiter given is the delimiter.
    await assert.rejects(loadDataset(writeText(dir, "given.csv", "question;answer;reference\nWhat?;yes;no\n"), { delimiter: ",", warn: false }), /the header is one column whose name holds the column names split by semicolons/);
  });

  it("summarize, compare, diff, report, chart and calibrate read a scored file split by semicolons as the same file with commas", async () => {
    const dir = tempDir();
    const rows = ["id;model;user_input;response;reference;answer_correctness", "q1;m1;What?;yes;yes;1", "q1;m2;What?;no;yes;0", "q2;m1;Why?;so;so;0.5", "q2;m2;Why?;not;so;0"];
    const semi = writeText(dir, "scored.csv", rows.join("\n") + "\n");
    const commas = writeText(dir, "commas.csv", rows.map((r) => r.replaceAll(";", ",")).join("\n") + "\n");
    for (const argv of [["summarize", "F"], ["summarize", "F", "--by", "model"], ["compare", "F"], ["diff", "F", "F"], ["calibrate", "F", "--labels", path.join(__dirname, "..", "data", "qa-models.labels.jsonl")]]) {
      const a = await runCliCaptured(argv.map((x) => (x === "F" ? semi : x)));
      const b = await runCliCaptured(argv.map((x) => (x === "F" ? commas : x)));
      assert.equal(a.code, b.code, `${argv.join(" ")}: ${a.err}`);
      assert.equal(a.out.replaceAll(semi, commas), b.out, argv.join(" "));
    }
    // Scores written with decimal commas, as such a spreadsheet writes them: a column of numbers alone is read as numbers.
    const comma = writeText(dir, "comma.csv", "id;model;answer_correctness;note\nq1;m1;1;1,2\nq2;m1;0,5;see 1,2\n");
    const read = await runCliCaptured(["summarize", comma, "--json"]);
    assert.equal(read.code, 0, read.err);
    assert.deepEqual((JSON.parse(read.out) as { n_valid: number; mean: number }[]).map((r) => [r.n_valid, r.mean]), [[2, 0.75]]);
    const said: string[] = [];
    const frame = await loadDataset(comma, { required: [], warn: (m) => said.push(m) });
    assert.match(said.join("\n"), /comma\.csv: read as separated by semicolons .*a column of numbers written with decimal commas \(0,8\) is read as numbers/);
    assert.deepEqual(frameRecords(frame).map((r) => r["note"]), ["1,2", "see 1,2"], "a column of text keeps its commas");
    // In a file with commas between fields, a quoted decimal comma is named with the number meant.
    const quoted = writeText(dir, "quoted.csv", 'id,model,answer_correctness\nq1,m1,1\nq2,m1,"0,5"\n');
    const refused = await runCliCaptured(["summarize", quoted]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /row 1 \(line 3\): column "answer_correctness" holds "0,5", which is not a number \(a decimal comma: write 0\.5\), not a score from -1 to 1/);
    for (const argv of [["report", "F", "--out", "O.html"], ["chart", "F", "--kind", "box", "--out", "O.svg"]]) {
      const a = await runCliCaptured(argv.map((x) => (x === "F" ? semi : x.replace("O", path.join(dir, "semi")))));
      assert.equal(a.code, 0, `${argv.join(" ")}: ${a.err}`);
    }
  });

  it("no score column to summarize: --metrics in the CLI", async () => {
    const file = writeText(tempDir(), "plain.csv", "model,user_input\nm,q\n");
    const run = await runCliCaptured(["summarize", file]);
    assert.equal(run.code, 1);
    assert.match(run.err, /the file.s columns are: model, user_input; name the column that holds the scores with --metrics COLUMN/);
    assert.doesNotMatch(run.err, API_SYNTAX);
    assert.throws(() => summarize([{ model: "m", user_input: "q" }]), /name one with \{ metrics: "…" \}/);
  });
});
