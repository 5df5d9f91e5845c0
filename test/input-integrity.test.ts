/**
 * Input is never changed silently ([E] item 10): a file that is not UTF-8 is
 * read with a warning naming its first bad line, or refused with strict; a
 * person's own leading apostrophe survives reading while evalframe's export
 * still round-trips exactly; objects and numbers in a JSONL file's text
 * columns fail their row with input_error, as the warning says.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { DataFrame } from "danfojs-node";
import { compareModels, createJudge, frameRecords, loadDataset, scoreAnswerCorrectness, summarize, toCSV } from "../src/index";
import { formatCsv } from "../src/dataset/export";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";

describe("input is never changed silently", () => {
  it("warns, naming the line, when a CSV is not UTF-8, and refuses it with strict", async () => {
    const dir = tempDir();
    const file = path.join(dir, "latin1.csv");
    const header = Buffer.from("user_input,response\nWhat?,Fine.\n");
    writeFileSync(file, Buffer.concat([header, Buffer.from("Where?,M"), Buffer.from([0xfc]), Buffer.from("nchen.\n")]));
    const warnings: string[] = [];
    const df = await loadDataset(file, { warn: (m) => warnings.push(m) });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /latin1\.csv: line 3 is not valid UTF-8 .*--strict/);
    assert.equal(frameRecords(df)[1]!["response"], "M\uFFFDnchen.");
    await assert.rejects(loadDataset(file, { strict: true, warn: false }), /line 3 is not valid UTF-8; save the file as UTF-8/);
    const run = await runCliCaptured(["score", file, "--out", path.join(dir, "out.csv"), "--strict", "--judge", "offline"]);
    assert.equal(run.code, 1);
    assert.match(run.err, /line 3 is not valid UTF-8/);
    const clean = path.join(dir, "clean.csv");
    writeFileSync(clean, "user_input,response\nWhere?,München.\n");
    const quiet: string[] = [];
    await loadDataset(clean, { strict: true, warn: (m) => quiet.push(m) });
    assert.deepEqual(quiet, []);
  });

  it("with strict, the CLI's not-UTF-8 message says how to fix it, not where the file was looked for", async () => {
    const dir = tempDir();
    const file = path.join(dir, "latin1.csv");
    writeFileSync(file, Buffer.concat([Buffer.from("user_input,response\nWhere?,M"), Buffer.from([0xfc]), Buffer.from("nchen.\n")]));
    const run = await runCliCaptured(["score", file, "--out", path.join(dir, "out.csv"), "--strict", "--judge", "offline"]);
    assert.equal(run.code, 1);
    assert.match(run.err, /line 2 is not valid UTF-8; save the file as UTF-8/);
    assert.doesNotMatch(run.err, /looked in|working directory|cannot read/);
  });

  it("a UTF-16 file (either byte order) is refused naming UTF-16 and how to fix it, strict or not", async () => {
    const dir = tempDir();
    const text = "id\tuser_input\tresponse\nq1\tWhat?\tFine.\n";
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16();
    for (const [name, bytes] of [["le.tsv", le], ["be.tsv", be], ["le.jsonl", le]] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      await assert.rejects(loadDataset(file, { warn: false }), /is UTF-16 .*save it as UTF-8/);
      for (const extra of [[], ["--strict"]]) {
        const run = await runCliCaptured(["score", file, "--out", path.join(dir, "out.csv"), "--judge", "offline", "--no-progress", ...extra]);
        assert.equal(run.code, 1, run.err);
        assert.match(run.err, new RegExp(`^evalframe: \\S*${name.replace(".", "\\.")}: the file is UTF-16 \\(it starts with the byte-order mark ${name.startsWith("le") ? "FF FE" : "FE FF"}\\), which evalframe does not read; save it as UTF-8`), run.err);
        assert.doesNotMatch(run.err, /fields|looked in/);
      }
    }
  });

  it("a .json file with a UTF-8 byte-order mark is read, as CSV and JSONL are; a JSON syntax error names its line and column", async () => {
    const dir = tempDir();
    const file = path.join(dir, "bom.json");
    writeFileSync(file, '\uFEFF[{"id":"q1","model":"m","question":"Capital?","answer":"Paris.","reference":"Paris."}]');
    assert.deepEqual(frameRecords(await loadDataset(file)).map((r) => r["user_input"]), ["Capital?"]);
    const run = await runCliCaptured(["score", file, "--out", path.join(dir, "bom.csv"), "--judge", "offline", "--no-progress"]);
    assert.equal(run.code, 0, run.err);
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, '[\n  {\n    "id": "q1",\n    "user_input": "Capital?"\n    "response": "Paris."\n  }\n]\n');
    await assert.rejects(loadDataset(bad), /bad\.json, line 5, column 5: not valid JSON \(Expected ',' or '}' after property value\)$/);
    const token = path.join(dir, "token.json");
    writeFileSync(token, '[\n  {"id": "q1"},\n  x\n]');
    await assert.rejects(loadDataset(token), /token\.json, line 3, column 3: not valid JSON \(Unexpected token 'x'\)$/);
    const cut = path.join(dir, "cut.json");
    writeFileSync(cut, '[\n  {"id": "q1"}');
    const r = await runCliCaptured(["score", cut, "--out", path.join(dir, "cut.csv"), "--judge", "offline"]);
    assert.equal(r.code, 1);
    assert.match(r.err, /cut\.json, line 2, column 15: not valid JSON \(.*\)/);
  });

  it("keeps a person's own leading apostrophe before =, +, - and @", async () => {
    const dir = tempDir();
    const file = path.join(dir, "mine.csv");
    writeFileSync(file, "user_input,response,'=note\nQ1,'=SUM(A1),'+1 for this\nQ2,'-5 degrees,'@home\nQ3,'plain,x\n");
    const rows = frameRecords(await loadDataset(file));
    assert.deepEqual(Object.keys(rows[0]!), ["user_input", "response", "'=note"]);
    assert.deepEqual(
      rows.map((r) => [r["response"], r["'=note"]]),
      [
        ["'=SUM(A1)", "'+1 for this"],
        ["'-5 degrees", "'@home"],
        ["'plain", "x"],
      ],
    );
  });

  it("reads evalframe's own export back exactly, escapes and all", async () => {
    const dir = tempDir();
    const original = [
      { user_input: "=1+1", response: "'=already quoted", reference: "-3", "=col": "@me" },
      { user_input: "plain", response: "'+x", reference: "''=two", "=col": "" },
    ];
    const file = path.join(dir, "export.csv");
    await toCSV(original, file);
    const text = readFileSync(file, "utf8");
    assert.ok(text.includes(`"'=1+1"`), "escaped fields are quoted");
    const back = frameRecords(await loadDataset(file));
    assert.deepEqual(back, original);
    assert.equal(formatCsv(back), text, "written again, byte for byte the same file");
  });

  it("still unescapes files written before escapes were quoted, told by evalframe's own columns", async () => {
    const dir = tempDir();
    const file = path.join(dir, "old-export.csv");
    writeFileSync(file, "user_input,response,answer_correctness,answer_correctness_error\nQ,'=1+1,0.5,\n");
    assert.equal(frameRecords(await loadDataset(file))[0]!["response"], "=1+1");
  });

  it("score warns once, read in parts, when model or id values differ only by spaces at their ends", async () => {
    const dir = tempDir();
    const file = path.join(dir, "ws.csv");
    writeFileSync(file, "id,model,question,answer,reference\nq1,m1,Q,Paris.,Paris.\nq2,m1,Q,Paris.,Paris.\nq1,m1 ,Q,Lyon.,Paris.\nq2,m1 ,Q,Lyon.,Paris.\n");
    const run = await runCliCaptured(["score", file, "--out", path.join(dir, "out.csv"), "--judge", "offline", "--no-progress", "--chunk-rows", "2"]);
    assert.equal(run.code, 0, run.err);
    const warnings = run.err.split("\n").filter((l) => /differs? from another only by spaces/.test(l));
    assert.deepEqual(warnings, [
      `evalframe: ${file}: 1 model value differs from another only by spaces at the start or end, so they print the same but count as different (model "m1 " at row 2 (line 4) prints as "m1"); remove the spaces in the file if they are the same`,
    ]);
  });

  it("fails a JSONL row whose text column holds an object or a number, with input_error, and scores the others", async () => {
    const dir = tempDir();
    const file = path.join(dir, "in.jsonl");
    writeFileSync(
      file,
      [
        { id: "1", user_input: "q?", response: { a: 1 }, reference: "The answer." },
        { id: "2", user_input: "q?", response: 42, reference: "The answer." },
        { id: "3", user_input: "q?", response: "The answer.", reference: "The answer." },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const out = path.join(dir, "out.csv");
    const run = await runCliCaptured(["score", file, "--out", out, "--judge", "offline", "--no-progress"]);
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /2 of 3 rows have bad input and will not be scored/);
    const rows = frameRecords(await loadDataset(out, { required: [], warn: false }));
    assert.match(String(rows[0]!["input_error"]), /column "response" holds an object, not text/);
    assert.match(String(rows[1]!["input_error"]), /column "response" holds number 42, not text/);
    const missing = (v: unknown) => v === null || (typeof v === "number" && Number.isNaN(v));
    assert.ok(missing(rows[0]!["answer_correctness"]) && missing(rows[1]!["answer_correctness"]), "no score for the bad rows");
    assert.match(String(rows[0]!["answer_correctness_error"]), /^input: /);
    assert.equal(rows[2]!["input_error"], "");
    assert.equal(rows[2]!["answer_correctness"], 1);
  });

  it("keeps a DataFrame's index when it scores it: the row labels of a filtered frame, to join the scores back by", async () => {
    const df = await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv"));
    const atlas = df.query(df["model"].eq("atlas-pro"));
    const judge = createJudge({ judge: "offline", quiet: true });
    const scored = await scoreAnswerCorrectness(atlas, { judge, progress: false, quiet: true });
    assert.deepEqual(scored.index, atlas.index);
    assert.deepEqual(scored.index.slice(0, 3), [0, 3, 6]);
    assert.deepEqual(scored["id"].values, atlas["id"].values);
    // The scores are those of the same rows scored whole.
    const whole = await scoreAnswerCorrectness(df, { judge, progress: false, quiet: true });
    assert.deepEqual(scored["answer_correctness"].values, (atlas.index as number[]).map((i) => whole["answer_correctness"].values[i]));
    assert.deepEqual(whole.index.slice(0, 3), [0, 1, 2]);
  });

  it("refuses row objects or a DataFrame with text in a score column, naming the row and column, instead of reading it as empty", async () => {
    const rows = [
      { id: "q1", model: "a", answer_correctness: 0.4, answer_correctness_tp: 2 },
      { id: "q1", model: "b", answer_correctness: "high", answer_correctness_tp: "three" },
      { id: "q2", model: "a", answer_correctness: 0.6, answer_correctness_tp: 1 },
      { id: "q2", model: "b", answer_correctness: 0.9, answer_correctness_tp: 1 },
    ];
    const named = /row 1: column "answer_correctness" holds "high", which is not a number; write a number or leave it empty; column "answer_correctness_tp" holds "three"/;
    assert.throws(() => summarize(rows), new RegExp(`^TypeError: summarize: ${named.source}`));
    assert.throws(() => compareModels(rows), new RegExp(`^TypeError: compareModels: ${named.source}`));
    // Written out, the cell would have been blank: the text is lost and reads back as a failed row.
    const dir = tempDir();
    await assert.rejects(toCSV(rows, path.join(dir, "out.csv")), new RegExp(`toCSV: ${named.source}`));
    const frame = new DataFrame(rows.map((r) => ({ ...r, answer_correctness: String(r.answer_correctness) })));
    assert.throws(() => summarize(frame), /summarize: row 1: column "answer_correctness" holds "high"/);
    // Numbers written as text, and booleans, are scores as they were.
    const fine = summarize(rows.map((r, i) => ({ ...r, answer_correctness: i === 1 ? "0.5" : r.answer_correctness, answer_correctness_tp: 1 })), { by: "model" });
    assert.equal(frameRecords(fine).find((r) => r["model"] === "b")!["n_valid"], 2);
  });
});
