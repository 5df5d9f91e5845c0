/**
 * `evalframe score` reads, scores and writes a chunk of rows at a time
 * ([E] item 12): whatever the chunk size, the scored table, the statements,
 * the summary and the printed lines are those of one pass over the whole
 * table; a bad row in a late chunk still gives every row an input_error
 * field; a JSONL key first seen in a late chunk is a column of every row;
 * a CSV read in 1 MB pieces keeps quoted line breaks and multi-byte
 * characters cut at a piece's end.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { frameRecords, loadDataset, scoreAnswerCorrectness, createJudge } from "../src/index";
import { formatCsv } from "../src/dataset/export";
import { readRawChunks } from "../src/dataset/chunks";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";

const ROOT = path.join(__dirname, "..");

async function scoreWith(input: string, dir: string, chunkRows: number, extra: string[] = []) {
  const out = path.join(dir, `out-${chunkRows}.csv`);
  const st = path.join(dir, `st-${chunkRows}.csv`);
  const run = await runCliCaptured(["score", input, "--out", out, "--statements-out", st, "--judge", "offline", "--no-progress", "--chunk-rows", String(chunkRows), ...extra]);
  assert.equal(run.code, 0, run.err);
  // The usage line differs in its count of calls: a reference whose answers fall in two chunks is read in each.
  const printed = run.out.replace(/out-\d+|st-\d+/g, "F").replace(/\d+ chat calls.*$/m, "");
  return { out: readFileSync(out, "utf8"), statements: readFileSync(st, "utf8"), printed };
}

describe("score in chunks", () => {
  it("writes the same table, statements and summary in chunks of 7 rows as in one chunk, and as the library scores it", async () => {
    const dir = tempDir();
    const input = path.join(ROOT, "data", "qa-models.csv");
    const whole = await scoreWith(input, dir, 100_000);
    const chunked = await scoreWith(input, dir, 7);
    assert.equal(chunked.out, whole.out);
    assert.equal(chunked.statements, whole.statements);
    assert.equal(chunked.printed, whole.printed);
    const library = await scoreAnswerCorrectness(await loadDataset(input), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
    assert.equal(whole.out, formatCsv(library));
  });

  it("scores a thresholded file again without a threshold as it scores the file first given, in chunks and whole", async () => {
    const dir = tempDir();
    const input = path.join(ROOT, "data", "qa-models.csv");
    const thresholded = path.join(dir, "thresholded.csv");
    const first = await runCliCaptured(["score", input, "--out", thresholded, "--judge", "offline", "--no-progress", "--threshold", "0.5"]);
    assert.equal(first.code, 0, first.err);
    assert.ok(readFileSync(thresholded, "utf8").split("\n")[0]!.includes("answer_correctness_continuous"));
    const direct = await scoreWith(input, dir, 100_000);
    for (const chunkRows of [7, 100_000]) {
      const again = await scoreWith(thresholded, tempDir(), chunkRows);
      assert.equal(again.out, direct.out, `chunks of ${chunkRows}`);
    }
  });

  it("gives every row an input_error field when only a late chunk has a bad row", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, user_input: `Question ${i}?`, response: `Answer ${i}.`, reference: i === 10 ? "" : `Answer ${i}.` }));
    writeFileSync(input, formatCsv(rows));
    const chunked = await scoreWith(input, dir, 5);
    const whole = await scoreWith(input, dir, 100);
    assert.equal(chunked.out, whole.out);
    const back = frameRecords(await loadDataset(path.join(dir, "out-5.csv"), { required: [], warn: false }));
    assert.equal(back.length, 12);
    assert.match(String(back[10]!["input_error"]), /reference/);
    assert.deepEqual(back.filter((r) => r["input_error"] !== "").map((r) => r["id"]), ["q10"]);
    assert.equal(back[0]!["answer_correctness"], 1);
  });

  it("finds an (id, model) answered again in a later chunk, as in one table: never scored, and named by file row and line", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    // q1 of model a comes back in the third chunk of 2 rows; q3 twice inside the second; an id typed as a number in one chunk and text in another.
    const rows = [
      { id: "q1", model: "a", user_input: "Q1?", response: "One.", reference: "One." },
      { id: "7", model: "a", user_input: "Q7?", response: "Seven.", reference: "Seven." },
      { id: "q3", model: "a", user_input: "Q3?", response: "Three.", reference: "Three." },
      { id: "q3", model: "a", user_input: "Q3?", response: "Three again.", reference: "Three." },
      { id: "q1", model: "a", user_input: "Q1?", response: "One again.", reference: "One." },
      { id: "q1", model: "b", user_input: "Q1?", response: "One.", reference: "One." },
      { id: "7", model: "a", user_input: "Q7?", response: "Seven again.", reference: "Seven." },
    ];
    writeFileSync(input, formatCsv(rows));
    const chunked = await scoreWith(input, dir, 2);
    const whole = await scoreWith(input, dir, 100);
    assert.equal(chunked.out, whole.out);
    assert.equal(chunked.printed, whole.printed);
    const back = frameRecords(await loadDataset(path.join(dir, "out-2.csv"), { required: [], warn: false }));
    assert.deepEqual(
      back.map((r) => [r["response"], String(r["input_error"]).replace(/; each question.*/, "")]),
      [
        ["One.", ""],
        ["Seven.", ""],
        ["Three.", ""],
        ["Three again.", 'column "id": "q3" appears again for model "a" (first at row 2 (line 4))'],
        ["One again.", 'column "id": "q1" appears again for model "a" (first at row 0 (line 2))'],
        ["One.", ""],
        ["Seven again.", 'column "id": "7" appears again for model "a" (first at row 1 (line 3))'],
      ],
    );
    assert.ok(back.filter((r) => r["input_error"] !== "").every((r) => r["answer_correctness"] === "" || r["answer_correctness"] === null || Number.isNaN(r["answer_correctness"])));
  });

  it("treats a JSON Lines key that a row lacks as an empty cell in chunks too: the row is bad input, never scored", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.jsonl");
    const lines = [
      { id: "q1", model: "a", user_input: "Q1?", response: "One.", reference: "One." },
      { id: "q2", model: "a", user_input: "Q2?", response: "Two.", reference: "Two." },
      { id: "q3", model: "a", user_input: "Q3?", response: "Three." },
    ];
    writeFileSync(input, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const chunked = await scoreWith(input, dir, 2);
    const whole = await scoreWith(input, dir, 100);
    assert.equal(chunked.out, whole.out);
    const back = frameRecords(await loadDataset(path.join(dir, "out-2.csv"), { required: [], warn: false }));
    assert.match(String(back[2]!["input_error"]), /column "reference" is empty/);
    assert.ok(back[2]!["answer_correctness"] === null || back[2]!["answer_correctness"] === "" || Number.isNaN(back[2]!["answer_correctness"]), String(back[2]!["answer_correctness"]));
  });

  it("makes a JSONL key first seen in a late chunk a column of every row", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.jsonl");
    const lines = Array.from({ length: 9 }, (_, i) => JSON.stringify({ id: `q${i}`, user_input: "Q?", response: "Yes.", reference: "Yes.", ...(i === 8 ? { note: "late" } : {}) }));
    writeFileSync(input, `${lines.join("\n")}\n`);
    const chunked = await scoreWith(input, dir, 4);
    const whole = await scoreWith(input, dir, 100);
    assert.equal(chunked.out, whole.out);
    const header = chunked.out.split("\n")[0]!.split(",");
    assert.deepEqual(header.slice(0, 5), ["id", "user_input", "response", "reference", "note"]);
  });

  it("refuses a file with a header and no rows, and counts one row as one row", async () => {
    const dir = tempDir();
    const empty = path.join(dir, "empty.csv");
    writeFileSync(empty, "user_input,response,reference\n");
    const run = await runCliCaptured(["score", empty, "--out", path.join(dir, "o.csv"), "--judge", "offline", "--no-progress"]);
    assert.equal(run.code, 1);
    assert.match(run.err, /empty\.csv: no rows to score: the file has a header and nothing under it/);
    const one = path.join(dir, "one.csv");
    writeFileSync(one, "user_input,response,reference\nQ?,An answer.,An answer.\n");
    const single = await runCliCaptured(["score", one, "--out", path.join(dir, "o.csv"), "--judge", "offline", "--no-progress"]);
    assert.equal(single.code, 0, single.err);
    assert.match(single.out, /answer_correctness: 0 of 1 row failed/);
    assert.match(single.out, /o\.csv \(1 row\)/);
  });

  it("scores a JSON array in chunks as in one", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.json");
    writeFileSync(input, JSON.stringify(Array.from({ length: 9 }, (_, i) => ({ id: `q${i}`, user_input: "Q?", response: i % 2 ? "Yes." : "No.", reference: "Yes." }))));
    const chunked = await scoreWith(input, dir, 4);
    assert.equal(chunked.out, (await scoreWith(input, dir, 100)).out);
    assert.equal(chunked.out.trim().split("\n").length, 10);
  });

  it("reads a CSV of many pieces with quoted line breaks and multi-byte characters across the cuts", async () => {
    const dir = tempDir();
    const file = path.join(dir, "big.csv");
    const rows = Array.from({ length: 8000 }, (_, i) => ({ id: `r${i}`, user_input: `질문 ${i}: “quoted”, with a\nline break?`, response: "한국어 답변 ".repeat(20 + (i % 7)) }));
    writeFileSync(file, formatCsv(rows));
    assert.ok(readFileSync(file).length > 2 << 20, "more than two pieces");
    const seen: Record<string, unknown>[] = [];
    for await (const raw of readRawChunks(file, {}, 1000)) {
      for (let r = 0; r < raw.rowCount; r++) seen.push(Object.fromEntries(raw.names.map((n, j) => [n, raw.columns[j]![r]])));
    }
    assert.deepEqual(seen, rows);
  });

  it("reads cells and JSONL lines far longer than a piece (base64 images), CRLF line ends cut anywhere, as written", async () => {
    const dir = tempDir();
    // Lengths around the 64 KB piece: a record ends just before, at and after a cut, and one spans 20 pieces.
    const sizes = [10, 65_530, 65_536, 70_000, 1_300_000, 5, 131_071, 200_000];
    const rows = sizes.map((n, i) => ({ id: `r${i}`, user_input: `Q${i}?`, response: `data:image/png;base64,${"AbCd+/".repeat(Math.ceil(n / 6)).slice(0, n)}` }));
    const read = async (file: string) => {
      const seen: Record<string, unknown>[] = [];
      const lines: number[] = [];
      for await (const raw of readRawChunks(file, {}, 3)) {
        for (let r = 0; r < raw.rowCount; r++) seen.push(Object.fromEntries(raw.names.map((n, j) => [n, raw.columns[j]![r]])));
        lines.push(...(raw.lines ?? []));
      }
      return { seen, lines };
    };
    const csv = path.join(dir, "long.csv");
    writeFileSync(csv, formatCsv(rows, { lineEnding: "\r\n" }));
    assert.deepEqual(await read(csv), { seen: rows, lines: sizes.map((_, i) => i + 2) });
    const jsonl = path.join(dir, "long.jsonl");
    writeFileSync(jsonl, rows.map((r) => JSON.stringify(r)).join("\r\n") + "\r\n");
    assert.deepEqual(await read(jsonl), { seen: rows, lines: sizes.map((_, i) => i + 1) });
  });
});
