/**
 * The command line speaks in flags: an error whose fix the library words as
 * an option ("pass { format: … }") is printed with the flag instead, while
 * the API keeps its own wording.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { loadDataset } from "../src/frame/load";
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

  it("a header split by semicolons (Excel's CSV in many locales) or tabs is named as such, not answered with renaming a column", async () => {
    const dir = tempDir();
    const semi = writeText(dir, "excel.csv", "question;answer;reference\nWhat?;yes;no\n");
    const resave = /the header is one column whose name holds the column names split by semicolons: save the file with commas between its fields/;
    const run = await runCliCaptured(["score", semi, "--out", path.join(dir, "out.csv"), "--judge", "offline"]);
    assert.equal(run.code, 1);
    assert.match(run.err, resave);
    assert.doesNotMatch(run.err, API_SYNTAX);
    const named = await runCliCaptured(["score", semi, "--out", path.join(dir, "out.csv"), "--judge", "offline", "--metrics", "answer_correctness"]);
    assert.match(named.err, resave);
    await assert.rejects(loadDataset(semi), (error: Error) => resave.test(error.message) && !/aliases/.test(error.message));
    const tabs = writeText(dir, "tabs.csv", "question\tanswer\treference\nWhat?\tyes\tno\n");
    await assert.rejects(loadDataset(tabs), /split by tabs: name the file \.tsv, or give the format "tsv"/);
    // One column that happens to hold a semicolon is not taken for a separator.
    await assert.rejects(loadDataset(writeText(dir, "one.csv", "notes;misc\nx\n")), /rename a column, or pass \{ aliases/);
  });

  it("summarize, compare and diff of a scored file split by semicolons name the separator and how to save the file, not \"(none)\"", async () => {
    const semi = writeText(tempDir(), "scored.csv", "id;model;answer_correctness\nq1;m1;1\nq2;m1;0\n");
    const resave = '; the header is one column whose name holds the column names split by semicolons: save the file with commas between its fields (in Excel: CSV UTF-8, comma delimited)';
    const expected = `evalframe: ${semi}: the file has no column to read; the columns found are "id;model;answer_correctness"${resave}\n`;
    for (const argv of [["summarize", semi], ["summarize", semi, "--by", "model"], ["compare", semi], ["diff", semi, semi]]) {
      const run = await runCliCaptured(argv);
      assert.equal(run.code, 1, argv.join(" "));
      assert.equal(run.err, expected, argv.join(" "));
      assert.equal(run.out, "");
    }
    // The API's columns option says the same.
    await assert.rejects(loadDataset(semi, { columns: ["model", "answer_correctness"], required: [] }), (error: Error) => error.message.endsWith(resave) && error.message.includes('"model" and "answer_correctness"'));
  });

  it("report, chart and calibrate, which read the whole file, refuse a file split by semicolons as summarize does", async () => {
    const dir = tempDir();
    const semi = writeText(dir, "scored.csv", "id;model;user_input;response;reference;answer_correctness\nq1;m1;What?;yes;yes;1\nq1;m2;What?;no;yes;0\n");
    const resave = '; the header is one column whose name holds the column names split by semicolons: save the file with commas between its fields (in Excel: CSV UTF-8, comma delimited)';
    const expected = `evalframe: ${semi}: the file has no column to read; the columns found are "id;model;user_input;response;reference;answer_correctness"${resave}\n`;
    const labels = path.join(__dirname, "..", "data", "qa-models.labels.jsonl");
    const summarized = await runCliCaptured(["summarize", semi]);
    for (const argv of [
      ["report", semi, "--out", path.join(dir, "r.html")],
      ["chart", semi, "--kind", "box", "--out", path.join(dir, "c.svg")],
      ["chart", semi, "--kind", "heatmap", "--out", path.join(dir, "c.json")],
      ["calibrate", semi, "--labels", labels],
    ]) {
      const run = await runCliCaptured(argv);
      assert.equal(run.code, summarized.code, argv.join(" "));
      assert.equal(run.err, expected, argv.join(" "));
      assert.equal(run.out, "");
    }
    assert.equal(summarized.code, 1);
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
