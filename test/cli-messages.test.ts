/**
 * Messages of the command line that a user acts on: the analysis commands
 * given a table with no score column name the file's own columns (not the
 * few they read) and say to score it first, or which option names the
 * score column; a row with every field empty is one problem, not four;
 * chart, report and diff say a problem in the command's words (chart --kind
 * box, report, the run's file), not the library function's (scoreBox,
 * buildReport, compareRuns (before run)); a .json input that is not an
 * array of row objects is told what it holds and how to fix it; a file that
 * is not UTF-8 is told about --strict in flags, and no warning escapes
 * runCli's writers. score's line of failed rows names the first of them and
 * its reason, so a CI log says which row to look at.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseCsv } from "../src/dataset/csv";
import { describe, it } from "node:test";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { writeSampleHead } from "./support/sample";

describe("an analysis command given a table without a score column", () => {
  const dir = tempDir();
  const input = writeSampleHead(dir, 2, "input.csv"); // id, domain, model, user_input, response, reference: not scored
  const columns = "id, domain, model, user_input, response, reference";

  it("compare, summarize and diff exit 1 naming every column of the file and the command to run first", async () => {
    const compare = await run(["compare", input]);
    assert.equal(compare.code, 1);
    assert.equal(
      compare.err,
      `evalframe: ${input}: compare: no score column "answer_correctness"; the file's columns are: ${columns}; it looks like a table that was not scored yet: score it first (evalframe score ${input} --out scored.csv), then compare the scored table\n`,
    );
    const summarize = await run(["summarize", input, "--json"]);
    assert.equal(summarize.code, 1);
    assert.equal(summarize.out, "");
    assert.match(summarize.err, new RegExp(`^evalframe: .*input\\.csv: summarize: no score column \\(answer_correctness, .*\\); the file's columns are: ${columns}; it looks like a table that was not scored yet: score it first`));
    const scored = writeText(dir, "scored.csv", "id,model,answer_correctness\nq1,m1,0.5\n");
    const diff = await run(["diff", input, scored]);
    assert.equal(diff.code, 1);
    assert.match(diff.err, new RegExp(`^evalframe: .*input\\.csv: diff: no score column "answer_correctness"; the file's columns are: ${columns}; it looks like a table that was not scored yet`));
  });

  it("a table of scores under its own name is told which option names the column", async () => {
    const own = writeText(dir, "own.csv", "model,grade\nm1,0.5\nm2,0.75\n");
    const r = await run(["summarize", own]);
    assert.equal(r.code, 1);
    assert.match(r.err, /own\.csv: summarize: no score column \(answer_correctness, .*\); the file's columns are: model, grade; name the column that holds the scores with --metrics COLUMN\n$/);
    const named = await run(["summarize", own, "--metrics", "grade"]);
    assert.equal(named.code, 0, named.err);
    assert.match(named.out, /grade/);
  });
});

describe("rows with every field empty (a spreadsheet's leftover rows)", () => {
  it("score names each as one problem saying to delete it, scores the other rows and keeps every row in place", async () => {
    const dir = tempDir();
    const input = writeText(dir, "sheet.csv", "id,model,question,answer,reference\nq1,m1,What?,Yes.,Yes.\n,,,,\nq2,m1,Who?,Bob.,Bob.\n,,,,\n");
    const out = path.join(dir, "scored.csv");
    const r = await run(["score", input, "--out", out, "--judge", "offline", "--no-progress"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /sheet\.csv: 2 of 4 rows have bad input and will not be scored; see column "input_error"\. First: row 1 \(line 3\): every field of this row is empty \(a spreadsheet's leftover row\?\); delete the row \(and 1 more\)\n/);
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    const at = (name: string) => records.map((rec) => rec.fields[header.indexOf(name)]);
    assert.deepEqual(at("id"), ["q1", "", "q2", ""]);
    assert.deepEqual(at("input_error"), ["", "every field of this row is empty (a spreadsheet's leftover row?); delete the row", "", "every field of this row is empty (a spreadsheet's leftover row?); delete the row"]);
    assert.deepEqual(at("answer_correctness").map((v) => v !== ""), [true, false, true, false]);
  });
});

describe("chart, report and diff in the command's words", () => {
  const dir = tempDir();
  const input = writeSampleHead(dir, 2, "input.csv");

  it("chart and report name the command and the kind, never a library function", async () => {
    const box = await run(["chart", input, "--kind", "box", "--out", path.join(dir, "box.svg")]);
    assert.equal(box.code, 1);
    assert.match(box.err, /^evalframe: .*input\.csv: chart --kind box: no column "answer_correctness"; the columns are "id", "domain", "model", "user_input", "response", "reference"\n$/);
    const wtl = await run(["chart", input, "--kind", "wtl", "--out", path.join(dir, "wtl.svg")]);
    assert.equal(wtl.code, 1);
    assert.match(wtl.err, /^evalframe: .*input\.csv: chart --kind wtl: no metric column "answer_correctness"/);
    const report = await run(["report", input, "--out", path.join(dir, "r.html")]);
    assert.equal(report.code, 1);
    assert.match(report.err, /^evalframe: .*input\.csv: report: no score column \(answer_correctness or multimodal_relevance\); score the table first/);
    for (const r of [box, wtl, report]) assert.doesNotMatch(r.err, /scoreBox|compareModels|winTieLoss|buildReport/);
    const scored = writeText(dir, "two.csv", "id,model,answer_correctness\nq1,a,0.5\nq1,b,0.6\nq2,a,1\nq2,b,0\n");
    const same = await run(["chart", scored, "--kind", "paired", "--models", "a,a", "--out", path.join(dir, "p.svg")]);
    assert.equal(same.code, 2);
    assert.equal(same.err, 'evalframe: chart: --models names "a" twice; give two different models, e.g. --models atlas-pro,swift-mini (see evalframe chart --help)\n');
  });

  it("diff names the run whose answers cannot be paired by its file", async () => {
    const good = writeText(dir, "good.csv", "id,model,answer_correctness\nq1,m1,0.5\nq2,m1,0.7\n");
    const twice = writeText(dir, "twice.csv", "id,model,answer_correctness\nq1,m1,0.5\nq1,m1,0.7\n");
    const r = await run(["diff", good, twice]);
    assert.equal(r.code, 1);
    assert.equal(r.err, `evalframe: ${twice}: id "q1" appears twice for model "m1" (row 0 (line 2) and row 1 (line 3)); each id may be answered once per model and run, so the answers can be paired\n`);
    const before = await run(["diff", twice, good]);
    assert.equal(before.code, 1);
    assert.match(before.err, new RegExp(`^evalframe: ${twice.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: id "q1" appears twice`));
  });
});

describe("a .json input that is not an array of row objects", () => {
  const dir = tempDir();
  const score = (file: string) => run(["score", file, "--out", path.join(dir, "out.csv"), "--judge", "offline", "--no-progress"]);

  it("names what the file holds and how to make it an array of rows (exit 1)", async () => {
    const one = await score(writeText(dir, "one.json", '{"id":"q1","model":"m1","question":"Q?","answer":"A.","reference":"A."}'));
    assert.equal(one.code, 1);
    assert.match(one.err, /one\.json: expected a JSON array of row objects, got one object \(keys: id, model, question, answer, reference\); put the rows in \[ … \], or write one object per line as JSON Lines \(\.jsonl\)\n$/);
    const wrapped = await score(writeText(dir, "wrapped.json", '{"rows":[{"id":"q1","model":"m1","question":"Q?","answer":"A.","reference":"A."}]}'));
    assert.equal(wrapped.code, 1);
    assert.match(wrapped.err, /wrapped\.json: expected a JSON array of row objects, got one object \(keys: rows\); its "rows" holds the rows: make that array the whole file\n$/);
  });

  it("an item that is no object is named with the file, as loadDataset names it", async () => {
    const mixed = writeText(dir, "mixed.json", '[{"id":"q1","model":"m1","question":"Q?","answer":"A.","reference":"A."}, 5]');
    const r = await score(mixed);
    assert.equal(r.code, 1);
    assert.equal(r.err, `evalframe: ${mixed}: row 1 is not an object with named fields; every row must be like { "question": "…", "answer": "…" } (rows count from 0)\n`);
  });
});

describe("a file that is not UTF-8", () => {
  const dir = tempDir();
  const file = path.join(dir, "latin1.csv");
  writeFileSync(file, Buffer.from("id,model,question,answer,reference\nq1,m1,Caf\xe9?,A.,A.\n", "latin1"));

  it("score --strict says to leave out --strict, not the API's 'strict off'", async () => {
    const r = await run(["score", file, "--out", path.join(dir, "o.csv"), "--judge", "offline", "--strict"]);
    assert.equal(r.code, 1);
    assert.equal(r.err, `evalframe: ${file}: line 2 is not valid UTF-8; save the file as UTF-8 (in Excel: "CSV UTF-8"), or leave out --strict to read the bad bytes as \uFFFD\n`);
  });

  it("an analysis command's error about its columns prints nothing around runCli's writers (no stray warning)", async () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const warn = console.warn;
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    console.warn = (...args: unknown[]) => void written.push(args.join(" "));
    let r;
    try {
      r = await run(["summarize", file]);
    } finally {
      process.stderr.write = write;
      console.warn = warn;
    }
    assert.equal(r.code, 1);
    assert.match(r.err, /latin1\.csv: summarize: no score column/);
    assert.deepEqual(written, []);
  });
});


describe("score's line of failed rows", () => {
  it("names the first failed row (its row in the output, id and model) and its reason, also in a later chunk", async () => {
    const dir = tempDir();
    const input = writeText(dir, "in.csv", "id,model,user_input,response,reference\nq1,m,What is 2+2?,4,4\nq2,m,What is 3+3?,6,6\nq3,m,What is 4+4?,8,\n");
    const out = path.join(dir, "out.csv");
    const result = await run(["score", input, "--judge", "offline", "--out", out, "--chunk-rows", "1", "--no-progress"]);
    assert.equal(result.code, 0, result.err);
    assert.match(
      result.out,
      /answer_correctness: 1 of 3 rows failed; first: row 2 \(id q3, model m\): input: column "reference" is empty; fill in the reference answer or drop the row; every reason is in column answer_correctness_error\n/,
    );
    const { header, records } = parseCsv(readFileSync(out, "utf8"));
    assert.equal(records[2]!.fields[header.indexOf("id")], "q3", "row 2 of the output is the row named");
  });
});
