import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { DataFrame } from "danfojs-node";
import { loadDataset, toCSV, toDataFrame } from "../src/index";
import { MalformedFileError } from "../src/dataset/csv";
import { RepeatedFields } from "../src/dataset/repeated-fields";
import { MissingColumnError, MissingReadColumnError } from "../src/dataset/validate";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { records } from "./support/frames";

function column(df: DataFrame, name: string): unknown[] {
  const j = df.columns.indexOf(name);
  assert.ok(j >= 0, `no column ${name} in ${df.columns.join(", ")}`);
  return (df.values as unknown[][]).map((row) => row[j]);
}

const quiet = { warn: false as const };

describe("loadDataset: columns", () => {
  it("maps aliases to canonical names in place, whatever their case", async () => {
    const df = await loadDataset(
      [{ Question: "q", ANSWER: "a", domain: "x", Ground_Truth: "r", QID: "1", System: "m", contexts: '["c"]' }],
      quiet,
    );
    assert.deepEqual(df.columns, ["user_input", "response", "domain", "reference", "id", "model", "retrieved_contexts"]);
  });

  it("takes extra aliases from the caller", async () => {
    const df = await loadDataset([{ q: "q", a: "a", gold: "r" }], { aliases: { Q: "user_input", a: "response", gold: "reference" } });
    assert.deepEqual(df.columns, ["user_input", "response", "reference"]);
  });

  it("refuses an alias to a column evalframe does not read, and a dtype that is no type, before reading the file", async () => {
    const file = writeText(tempDir(), "al.csv", "qid,prompt,prediction,gold,score\n007,Q1?,Paris,Paris,1\n");
    await assert.rejects(loadDataset(file, { aliases: { gold: "referenc" as never } }), /^RangeError: loadDataset: aliases\["gold"\] is "referenc", not a column evalframe reads; an alias names one of user_input, response, reference, /);
    await assert.rejects(loadDataset([{ q: "q" }], { dtypes: { score: "float" as never } }), /^RangeError: loadDataset: dtypes\["score"\] is "float"; a column's type is "string", "number" or "boolean"$/);
    await assert.rejects(loadDataset(file.replace("al.csv", "absent.csv"), { dtypes: { score: "int" as never } }), /dtypes\["score"\] is "int"/, "the options are checked before the file is opened");
  });

  it("names the file and the row of a JSON array's item that is no row object", async () => {
    const file = writeText(tempDir(), "arr.json", '[{"question":"q","answer":"a"},{"question":"q2","answer":"b"},3]');
    await assert.rejects(loadDataset(file), /arr\.json: row 2 is not an object with named fields; every row must be like \{ "question": "…", "answer": "…" \} \(rows count from 0\)/);
  });

  it("refuses two columns that mean the same thing", async () => {
    await assert.rejects(loadDataset([{ question: "q", user_input: "q2", answer: "a" }]), /columns "question" and "user_input" both mean "user_input"/);
  });

  it("names the missing column, its aliases and the columns found", async () => {
    const dir = tempDir();
    const file = writeText(dir, "no-answer.csv", "question,ground_truth,notes\nq,r,n\n");
    await assert.rejects(loadDataset(file), (error: unknown) => {
      assert.ok(error instanceof MissingColumnError);
      assert.deepEqual(error.missing, ["response"]);
      assert.match(error.message, /missing required column "response" \(or "answer", "output", "prediction"\)/);
      assert.match(error.message, /the columns found are "user_input", "reference", "notes"/);
      return true;
    });
    await assert.rejects(loadDataset(file.replace("no-answer", "q-only"), quiet), /no such file/);
    await assert.rejects(
      loadDataset([{ question: "q", answer: "a" }], { required: ["user_input", "response", "reference"] }),
      /missing required column "reference"/,
    );
  });
});

describe("loadDataset: bad cells fail only their row", () => {
  const rows = [
    { id: "q1", model: "m", question: "What is 2+2?", answer: "4", reference: "4" },
    { id: "q2", model: "m", question: "  ", answer: "x", reference: "y" },
    { id: "q3", model: "m", question: "Q3", answer: "x", reference: "" },
    { id: "q4", model: "m", question: 42, answer: "x", reference: "y" },
    { id: "q5", model: "m", question: "Q5", answer: "x", reference: "y", contexts: '["unclosed, "b"]' },
    { id: "q6", model: "m", question: "Q6", answer: "x", reference: "y", contexts: '["fine", 7]' },
    { id: "q7", model: "", question: "Q7", answer: "x", reference: "y" },
    { id: "q1", model: "m", question: "What is 2+2?", answer: "four", reference: "4" },
    { id: "q9", model: "m", question: "Q9", answer: "", reference: "y", contexts: "one plain passage" },
    { id: "q10", model: "m", question: "Q10", answer: null, reference: "y", contexts: ["a", "b"] },
    { id: "q11", model: "m", question: "Q11", answer: "x", reference: "y", contexts: '["images/bar-chart.png", "Sales rose in Q3' },
    { id: "q12", model: "m", question: "Q12", answer: "x", reference: "y", contexts: "[1] A passage that cites its source first." },
  ];
  const expected: [number, RegExp][] = [
    [1, /^column "user_input" is empty; every row needs the question that was asked$/],
    [2, /^column "reference" is empty; fill in the reference answer or drop the row$/],
    [3, /^column "user_input" holds number 42, not text; write it as a string$/],
    [4, /^column "retrieved_contexts" looks like a list but is not valid JSON .*; write it as a JSON array of strings/],
    [5, /^column "retrieved_contexts" context 2 is 7, not text; every context must be a string$/],
    [6, /^column "model" is empty; name the model that gave this answer$/],
    [7, /^column "id": "q1" appears again for model "m" \(first at row 0\); each question id must appear once per model$/],
    // A list cut short (a spreadsheet's cell limit) is not taken for one passage of text.
    [10, /^column "retrieved_contexts" looks like a list but is not valid JSON .*; write it as a JSON array of strings/],
  ];

  it("puts a message naming the column in that row's input_error, and leaves the other rows alone", async () => {
    const warnings: string[] = [];
    const df = await loadDataset(rows, { warn: (m) => warnings.push(m) });
    assert.equal(df.shape[0], rows.length);
    const errors = column(df, "input_error") as string[];
    for (const [row, message] of expected) assert.match(errors[row] ?? "", message, `row ${row}`);
    const failing = new Set(expected.map(([row]) => row));
    errors.forEach((e, row) => {
      if (!failing.has(row)) assert.equal(e, "", `row ${row} should be fine`);
    });
    assert.deepEqual(column(df, "id"), rows.map((r) => r.id), "rows keep their order");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? "", /^evalframe: rows: 8 of 12 rows have bad input and will not be scored; see column "input_error"\. First: row 1: column "user_input" is empty/);
  });

  it("treats an empty or missing response as an answer, and normalises contexts to a JSON list", async () => {
    const df = await loadDataset(rows, quiet);
    assert.deepEqual(column(df, "response").slice(8, 10), ["", ""]);
    assert.deepEqual(column(df, "retrieved_contexts").slice(8), ['["one plain passage"]', '["a","b"]', '["images/bar-chart.png", "Sales rose in Q3', '["[1] A passage that cites its source first."]']);
  });

  it("names the file line of a bad row in the warning", async () => {
    const dir = tempDir();
    const file = writeText(dir, "bad.csv", 'id,model,question,answer,reference\nq1,m,"multi\nline",a,r\nq2,m,Q2,a,\n');
    const warnings: string[] = [];
    await loadDataset(file, { warn: (m) => warnings.push(m) });
    assert.match(warnings[0] ?? "", /bad\.csv: 1 of 2 rows .* First: row 1 \(line 4\): column "reference" is empty/);
  });

  it("warns once when id or model values differ only by spaces at their ends, naming the rows, and changes nothing", async () => {
    const dir = tempDir();
    const file = writeText(dir, "ws.csv", "id,model,question,answer,reference\nq1,m1,Q,A,R\nq1 ,m1 ,Q,B,R\nq2,m2,Q2,A2,R2\nq1, m2,Q,A,R\n");
    const warnings: string[] = [];
    const df = await loadDataset(file, { warn: (m) => warnings.push(m) });
    assert.deepEqual(warnings, [
      `evalframe: ${file}: 1 id value and 2 model values differ from another only by spaces at the start or end, so they print the same but count as different ` +
        `(id "q1 " at row 1 (line 3) prints as "q1"; model "m1 " at row 1 (line 3) prints as "m1"; model " m2" at row 3 (line 5) prints as "m2"); remove the spaces in the file if they are the same`,
    ]);
    assert.deepEqual(column(df, "model"), ["m1", "m1 ", "m2", " m2"], "the values are kept as written");
    // The value with spaces is named as the one that prints as the other, also when it comes first.
    const later: string[] = [];
    await loadDataset(writeText(dir, "later.csv", "id,model,question,answer,reference\nq5 ,m1,Q,A,R\nq5,m2,Q,B,R\n"), { warn: (m) => later.push(m) });
    assert.match(later[0] ?? "", /\(id "q5 " \(an earlier row\) prints as "q5" at row 1 \(line 3\)\)/);
    const clean: string[] = [];
    await loadDataset(writeText(dir, "clean.csv", "id,model,question,answer,reference\nq1,m1,Q,A,R\nq1,m2,Q,B,R\n"), { warn: (m) => clean.push(m) });
    assert.deepEqual(clean, []);
  });

  it("adds no input_error column when every row is fine", async () => {
    const df = await loadDataset([rows[0]!], quiet);
    assert.ok(!df.columns.includes("input_error"));
  });
});

describe("loadDataset: files and sources", () => {
  it("reads JSONL and names a malformed line", async () => {
    const dir = tempDir();
    const good = writeText(dir, "good.jsonl", '{"question":"q","answer":"a"}\n\n{"answer":"b","question":"q2","extra":1}\n');
    const df = await loadDataset(good);
    assert.deepEqual(records(df), [
      { user_input: "q", response: "a", extra: Number.NaN },
      { user_input: "q2", response: "b", extra: 1 },
    ]);
    const bad = writeText(dir, "bad.jsonl", '{"question":"q","answer":"a"}\n{"question": "q2", answer: "b"}\n');
    await assert.rejects(loadDataset(bad), (error: unknown) => {
      assert.ok(error instanceof MalformedFileError);
      assert.equal(error.line, 2);
      assert.match(error.message, /bad\.jsonl, line 2: not valid JSON/);
      return true;
    });
    const notObject = writeText(dir, "array.jsonl", '["q","a"]\n');
    await assert.rejects(loadDataset(notObject), /array\.jsonl, line 1: expected a JSON object/);
  });

  it("reads JSON arrays and TSV, and refuses an unknown extension", async () => {
    const dir = tempDir();
    const json = await loadDataset(writeText(dir, "d.json", '[{"query":"q","output":"a"}]'));
    assert.deepEqual(records(json), [{ user_input: "q", response: "a" }]);
    const tsv = await loadDataset(writeText(dir, "d.tsv", "prompt\tprediction\nq, with comma\ta\n"));
    assert.deepEqual(records(tsv), [{ user_input: "q, with comma", response: "a" }]);
    await assert.rejects(loadDataset(writeText(dir, "d.txt", "x")), /cannot tell the format of .*d\.txt/);
    const forced = await loadDataset(writeText(dir, "d2.txt", "question,answer\nq,a\n"), { format: "csv" });
    assert.equal(forced.shape[0], 1);
  });

  it("types each column from every cell, not from the first 20", async () => {
    const lines = ["question,answer,score,code,flag"];
    for (let i = 0; i < 30; i++) lines.push(`q${i},a,${i / 10},${i === 25 ? "n/a" : i},${i % 2 === 0}`);
    lines.push("q30,a,,007,");
    const dir = tempDir();
    const df = await loadDataset(writeText(dir, "typed.csv", lines.join("\n") + "\n"));
    const score = column(df, "score");
    assert.equal(score[3], 0.3);
    assert.ok(Number.isNaN(score[30]), "an empty numeric cell is NaN");
    assert.equal(column(df, "code")[25], "n/a", "a late text cell makes the column text");
    assert.equal(column(df, "code")[30], "007");
    assert.deepEqual(column(df, "flag").slice(0, 3), [true, false, true]);
    assert.equal(column(df, "flag")[30], null);
    const forced = await loadDataset(writeText(dir, "typed.csv", lines.join("\n") + "\n"), { dtypes: { score: "string" } });
    assert.equal(column(forced, "score")[3], "0.3");
  });

  it("reads 007 as 7 in a column forced to numbers (inferred, it stays text), and the row stays valid", async () => {
    const file = writeText(tempDir(), "zeros.csv", "question,answer,reference,rank\nWhat?,yes,no,007\nWhy?,b,c,1.5\n");
    assert.equal(column(await loadDataset(file), "rank")[0], "007");
    const warnings: string[] = [];
    const forced = await loadDataset(file, { dtypes: { rank: "number" }, warn: (m) => warnings.push(m) });
    assert.deepEqual(column(forced, "rank"), [7, 1.5]);
    assert.deepEqual(warnings, []);
    assert.ok(!forced.columns.includes("input_error"));
  });

  it("reads a DataFrame by column name, with numeric ids kept as text", async () => {
    const frame = new DataFrame({ id: [1, 2], answer: ["a", "b"], question: ["q1", "q2"] });
    const df = await loadDataset(frame);
    assert.deepEqual(records(df), [
      { id: "1", response: "a", user_input: "q1" },
      { id: "2", response: "b", user_input: "q2" },
    ]);
  });

  it("keeps a DataFrame's all-NaN number column as numbers", async () => {
    const frame = new DataFrame({ question: ["q1", "q2"], answer: ["a", "b"], score: [Number.NaN, Number.NaN] }, { dtypes: ["string", "string", "float32"] });
    const df = await loadDataset(frame);
    assert.deepEqual(df.dtypes, ["string", "string", "float32"]);
    assert.ok(column(df, "score").every((v) => Number.isNaN(v)));
  });

  it("never shifts a value into another column when rows have different keys", async () => {
    const df = await loadDataset(
      [
        { question: "q1", answer: "a1", note: "n1" },
        { answer: "a2", question: "q2" },
        { note: "n3", question: "q3", answer: "a3" },
      ],
      quiet,
    );
    assert.deepEqual(records(df), [
      { user_input: "q1", response: "a1", note: "n1" },
      { user_input: "q2", response: "a2", note: null },
      { user_input: "q3", response: "a3", note: "n3" },
    ]);
  });
});

describe("toDataFrame", () => {
  it("sets dtypes from every value and places values by name", () => {
    const df = toDataFrame([{ a: "x", b: 1.25 }, { b: 0.1 + 0.2, a: "y" }, { a: "z" }]);
    assert.deepEqual(df.columns, ["a", "b"]);
    assert.deepEqual(df.dtypes, ["string", "float32"]);
    assert.deepEqual(df.values, [["x", 1.25], ["y", 0.30000000000000004], ["z", Number.NaN]]);
  });

  it("builds from a column object and refuses ragged columns", () => {
    const df = toDataFrame({ n: [1, null, 3], s: ["a", "b", "c"] }, { dtypes: { n: "number" } });
    assert.deepEqual(df.values, [[1, "a"], [Number.NaN, "b"], [3, "c"]]);
    assert.throws(() => toDataFrame({ a: [1, 2], b: [1] }), /column "b" has 1 values but column "a" has 2/);
  });

  it("builds an empty frame with its columns", () => {
    const df = toDataFrame({ a: [], b: [] });
    assert.deepEqual(df.shape, [0, 2]);
    assert.deepEqual(df.columns, ["a", "b"]);
  });
});

describe("round trips through CSV", () => {
  it("gives back the same values for a scored table, NaN, errors, Korean and formulas included", async () => {
    const scored = toDataFrame([
      { id: "q1", model: "m", user_input: "세종대왕은 언제?", response: "=1+1, \"quoted\"\nnext line", reference: "-40", answer_correctness: 0.5, answer_correctness_error: "", answer_correctness_semantic: Number.NaN },
      { id: "007", model: "m", user_input: "🚀 launch?", response: "", reference: "'=already quoted", answer_correctness: Number.NaN, answer_correctness_error: "judge reply invalid", answer_correctness_semantic: Number.NaN },
    ]);
    const dir = tempDir();
    for (const options of [{}, { lineEnding: "\r\n" as const, bom: true }]) {
      const file = path.join(dir, "nested", "scored.csv");
      await toCSV(scored, file, options);
      const back = await loadDataset(file);
      assert.deepEqual(back.columns, scored.columns);
      assert.deepEqual(records(back), records(scored));
      assert.deepEqual(back.dtypes, scored.dtypes, "an all-NaN score column reads back as numbers");
    }
    const written = readFileSync(path.join(dir, "nested", "scored.csv"), "utf8");
    assert.ok(written.includes("'=1+1"), "the formula is escaped in the file");
  });
});

describe("loadDataset: only some columns", () => {
  it("keeps the columns named, by the file's name or the canonical one, and input_error; from CSV, TSV, JSONL, JSON and rows alike", async () => {
    const dir = tempDir();
    const rows = [
      { id: "a", question: "Where?", answer: "Paris.", answer_correctness: 0.5, answer_correctness_statements: '{"judge":"x"}', input_error: "" },
      { id: "b", question: "When?", answer: "1889.", answer_correctness: 1, answer_correctness_statements: '{"judge":"y"}', input_error: "row b: was bad" },
    ];
    const csv = "id,question,answer,answer_correctness,answer_correctness_statements,input_error\n" + rows.map((r) => `${r.id},${r.question},${r.answer},${r.answer_correctness},"${r.answer_correctness_statements.replace(/"/g, '""')}",${r.input_error}`).join("\n") + "\n";
    const sources = [
      writeText(dir, "s.csv", csv),
      writeText(dir, "s.tsv", csv.replace(/,/g, "\t")),
      writeText(dir, "s.jsonl", rows.map((r) => JSON.stringify(r)).join("\n")),
      writeText(dir, "s.json", JSON.stringify(rows)),
    ];
    for (const source of [...sources, rows]) {
      const df = await loadDataset(source, { columns: ["user_input", "answer_correctness"], required: [], warn: false });
      const label = typeof source === "string" ? path.basename(source) : "rows";
      assert.deepEqual(df.columns, ["user_input", "answer_correctness", "input_error"], label);
      assert.deepEqual(records(df).map((r) => [r["user_input"], r["answer_correctness"]]), [["Where?", 0.5], ["When?", 1]], label);
    }
  });

  it("refuses a column to read that the file does not have, naming it, the columns found and the fix", async () => {
    const dir = tempDir();
    const csv = "id,question,model,answer_correctness\nq1,Where?,m1,1\n";
    const sources = [writeText(dir, "r.csv", csv), writeText(dir, "r.tsv", csv.replace(/,/g, "\t")), writeText(dir, "r.jsonl", '{"id":"q1","question":"Where?","model":"m1","answer_correctness":1}\n')];
    for (const file of sources) {
      await assert.rejects(
        loadDataset(file, { columns: ["model", "answer_corectness"], required: [], warn: false }),
        (error: Error) => {
          assert.ok(error instanceof MissingReadColumnError, path.basename(file));
          assert.equal(
            error.message,
            `${file}: the columns to read include "answer_corectness", which the file does not have; the columns found are "id", "question", "model", "answer_correctness"; ` +
              `name each column in { columns: [...] } as the header names it, or by its canonical name ("user_input" for a "question" column), or leave it out`,
          );
          return true;
        },
      );
    }
    await assert.rejects(loadDataset([{ id: "q1", model: "m1" }], { columns: ["score", "judge", "model"], required: [], warn: false }), /^MissingReadColumnError: rows: the columns to read include "score" and "judge", which the table does not have; the columns found are "id", "model"; .*leave them out$/);
    // By canonical name or by the file's own name, a column the file has is read.
    const df = await loadDataset(sources[0]!, { columns: ["user_input", "model"], required: [], warn: false });
    assert.deepEqual(records(df), [{ user_input: "Where?", model: "m1" }]);
    assert.deepEqual(records(await loadDataset(sources[0]!, { columns: ["question"], required: [], warn: false })), [{ user_input: "Where?" }]);
  });

  it("the command line reads the score columns a file has, and names a column given by a flag that it lacks", async () => {
    const file = writeText(tempDir(), "scored.csv", "id,model,answer_correctness\nq1,m1,1\nq2,m1,0\n");
    const run = await runCliCaptured(["summarize", file]);
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /m1/);
    const by = await runCliCaptured(["summarize", file, "--by", "domain"]);
    assert.equal(by.code, 2);
    assert.match(by.err, /--by names column "domain", which .*scored\.csv does not have; its columns are: id, model, answer_correctness/);
  });

  it("unescapes formulas as the whole file says, even when the columns that tell are left out", async () => {
    // A file with evalframe's own error column takes its unquoted "'=" as an escape (files written before toCSV quoted them).
    const file = writeText(tempDir(), "old.csv", "response,answer_correctness_error\n'=1+1,\n");
    const all = records(await loadDataset(file, { required: [], warn: false }));
    const some = records(await loadDataset(file, { columns: ["response"], required: [], warn: false }));
    assert.equal(all[0]!["response"], "=1+1");
    assert.deepEqual(some, [{ response: "=1+1" }]);
  });

  it("cellText rewrites each CSV field as it is read, told its column (as the table names it) and row", async () => {
    const file = writeText(tempDir(), "c.csv", 'question,answer,notes\nWhere?,Paris.,"a ""long"" note"\n\nWho?,Ada.,"kept whole"\n');
    const seen: string[] = [];
    const cellText = (column: string, text: string, row: number) => (seen.push(`${column}@${row}`), column === "notes" && row === 0 ? text.slice(0, 3) : text);
    const df = await loadDataset(file, { cellText, warn: false });
    assert.deepEqual(records(df), [
      { user_input: "Where?", response: "Paris.", notes: 'a "' },
      { user_input: "Who?", response: "Ada.", notes: "kept whole" },
    ]);
    // The blank line is no row: rows are the table's, not the file's lines.
    assert.deepEqual(seen, ["user_input@0", "response@0", "notes@0", "user_input@1", "response@1", "notes@1"]);
  });

  it("cellText is told a column's table name under the caller's aliases and a formula-escaped header", async () => {
    const file = writeText(tempDir(), "a.csv", "'=gold,question,output,answer_correctness_error\nParis.,Where?,Paris!,\n");
    const seen = new Set<string>();
    const cellText = (column: string, text: string) => (seen.add(column), column === "reference" ? text.toUpperCase() : text);
    const df = await loadDataset(file, { cellText, aliases: { output: "response" }, required: [], warn: false });
    assert.deepEqual(records(df), [{ "=gold": "Paris.", user_input: "Where?", response: "Paris!", answer_correctness_error: "" }]);
    assert.deepEqual([...seen], ["=gold", "user_input", "response", "answer_correctness_error"]);
    const gold = await loadDataset(file, { cellText, aliases: { "=gold": "reference" }, required: [], warn: false });
    assert.equal(records(gold)[0]!["reference"], "PARIS.");
  });

  it("reads a large CSV piece by piece with the same values and line numbers as a small one: Korean text, quoted line breaks, a bad row", async () => {
    const line = (i: number) => `q${i},"질문 ${i}, with a comma","line one\nline two ${i}",${i % 7 === 0 ? "" : (i % 10) / 10}`;
    const body = Array.from({ length: 30_000 }, (_, i) => line(i)).join("\n"); // about 2 MB: many pieces
    const file = writeText(tempDir(), "big.csv", `id,question,answer,score\n${body}\nq-bad,,answer without a question,0.5\n`);
    const warnings: string[] = [];
    const df = await loadDataset(file, { warn: (m) => warnings.push(m) });
    const got = records(df);
    assert.equal(got.length, 30_001);
    assert.deepEqual(got[29_999], { id: "q29999", user_input: "질문 29999, with a comma", response: "line one\nline two 29999", score: 0.9, input_error: "" });
    assert.ok(Number.isNaN(got[7]!["score"]));
    assert.match(String(got[30_000]!["input_error"]), /user_input/);
    assert.match(warnings[0] ?? "", /row 30000 \(line 60002\)/, "the bad row's line counts the quoted line breaks before it");
  });
});

describe("loadDataset: one string for a text repeated down a column", () => {
  it("keeps every row's own values where columns repeat (model, question, how it was scored) and answers never do", async () => {
    // 3 models answer each question; the answers all differ; a column that is unique for its first 6,000 rows
    // (the loader stops looking it up) and repeats after; more than 4,096 rows so that every check runs.
    const rows = 3 * 4_000;
    const models = ["gpt-4o", "llama-3", "mistral"];
    const line = (i: number) =>
      `r${i},${models[i % 3]},"Question ${Math.floor(i / 3)}, asked of every model","Answer ${i}: ""its own""","{""judge"":""x"",""beta"":1}",${i < 6_000 ? `u${i}` : "same"}`;
    const body = Array.from({ length: rows }, (_, i) => line(i)).join("\n");
    const file = writeText(tempDir(), "repeats.csv", `id,model,question,answer,answer_correctness_statements,tail\n${body}\n`);
    const got = records(await loadDataset(file, { warn: false }));
    assert.equal(got.length, rows);
    for (const i of [0, 1, 2, 3, 4_095, 4_096, 4_097, 5_999, 6_000, 8_191, 8_192, rows - 1]) {
      assert.deepEqual(got[i], {
        id: `r${i}`,
        model: models[i % 3],
        user_input: `Question ${Math.floor(i / 3)}, asked of every model`,
        response: `Answer ${i}: "its own"`,
        answer_correctness_statements: '{"judge":"x","beta":1}',
        tail: i < 6_000 ? `u${i}` : "same",
      }, `row ${i}`);
    }
    assert.equal(new Set(got.map((r) => r["response"])).size, rows, "no answer taken for another's");
  });

  it("copies a text the first time its column shows it; a column of unique texts is copied field by field, and no text is ever another's", () => {
    let copies = 0;
    const repeated = new RepeatedFields(2, (text) => (copies++, `${text}`));
    for (let i = 0; i < 50_000; i++) {
      assert.equal(repeated.field(0, `model ${i % 3}`), `model ${i % 3}`);
      assert.equal(repeated.field(1, `answer ${i}`), `answer ${i}`);
    }
    // Three texts copied once each in column 0; every field of column 1.
    assert.equal(copies, 3 + 50_000);
    // A column of more distinct texts than it remembers (131,072) still gives each field its own text.
    const many = new RepeatedFields(1, (text) => text);
    for (let i = 0; i < 300_000; i++) assert.equal(many.field(0, `q${i % 150_000}`), `q${i % 150_000}`);
  });
});
