/**
 * The command line never prints user data raw: control characters in model
 * names, ids and questions reach the terminal as visible escapes.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { printable } from "../src/display/printable";
import { formatTable } from "../src/display/text-table";
import { displayNumber } from "../src/display/html";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";

const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const run = runCliCaptured;

describe("terminal-safe CLI output", () => {
  it("shows control characters and direction overrides as escapes, keeping line breaks and tabs", () => {
    assert.equal(printable("a\u001b]0;title\u0007b"), "a\\x1b]0;title\\x07b");
    assert.equal(printable("nul\u0000 del\u007f cr\r rtl\u202e c1\u009b"), "nul\\x00 del\\u007f cr\\x0d rtl\\u202e c1\\u009b");
    assert.equal(printable("line\nnext\tcol"), "line\nnext\tcol");
  });

  it("a number that is not 0 but rounds to it at the digits shown says so (a p-value of 3.5e-5 read as 0)", () => {
    assert.deepEqual([displayNumber(0.000035), displayNumber(-0.0002), displayNumber(0.12345), displayNumber(0), displayNumber(0.0004999), displayNumber(0.0005)], ["<0.001", ">-0.001", "0.123", "0", "<0.001", "0.001"]);
    assert.equal(displayNumber(0.004, 2), "<0.01");
    const lines = formatTable([{ pair: "a vs b", p_value: 0.000035 }]).split("\n");
    assert.match(lines[2]!, /^a vs b +<0\.001$/);
  });

  it("text tables measure a cell after its escapes, so the columns stay aligned", () => {
    const lines = formatTable([{ model: "\u001b[31mred\u001b[0m", mean: 0.5 }, { model: "plain", mean: 0.25 }]).split("\n");
    assert.deepEqual(lines, ["model               mean", "------------------  ----", "\\x1b[31mred\\x1b[0m   0.5", "plain               0.25"]);
  });

  it("text tables measure Korean and other wide text in terminal columns (two a character), so the columns line up", () => {
    const lines = formatTable([
      { model: "모델-가나다", answer: "한글을 만든 왕은 세종대왕입니다", mean: 0.5 },
      { model: "atlas-pro", answer: "Ｆｕｌｌ café", mean: 0.25 },
    ], { maxWidth: 20 }).split("\n");
    assert.deepEqual(lines, [
      "model        answer                mean",
      "-----------  --------------------  ----",
      "모델-가나다  한글을 만든 왕은 세…   0.5",
      "atlas-pro    Ｆｕｌｌ café         0.25",
    ]);
    // Every line ends at the same terminal column: the mean column is right-aligned under its header.
    const width = (text: string) => Array.from(text).reduce((w, ch) => w + (/[\u1100-\u115f\uac00-\ud7a3\uff00-\uff60]/.test(ch) ? 2 : 1), 0);
    assert.deepEqual(lines.map(width), [39, 39, 39, 39]);
  });

  it("summarize and compare print hostile model names and ids escaped, in tables and in errors", async () => {
    const dir = tempDir();
    const file = path.join(dir, "scored.csv");
    const models = ["clear\u001b[2J", "bell\u0007", "nul\u0000x"];
    const lines = ["id,model,answer_correctness"];
    for (let q = 0; q < 6; q++) for (const [m, model] of models.entries()) lines.push(`q${q}\u001b[31m,"${model}",${(0.2 * m + 0.1 * (q % 3)).toFixed(2)}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    for (const args of [["summarize", file, "--by", "model"], ["compare", file]]) {
      const result = await run(args);
      assert.equal(result.code, 0, result.err);
      assert.ok(!RAW.test(result.out) && !RAW.test(result.err), `${args[0]} printed a raw control character`);
      assert.match(result.out, /clear\\x1b\[2J/);
    }
    const missing = await run(["summarize", path.join(dir, "no\u001b[2Jsuch.csv")]);
    assert.notEqual(missing.code, 0);
    assert.ok(!RAW.test(missing.err));
    assert.match(missing.err, /no\\x1b\[2Jsuch\.csv/);
  });
  it("shows invisible characters, direction marks, line separators and lone surrogates as escapes, so two names that differ only by them do not look the same", async () => {
    assert.equal(printable("gpt-4o\u200b"), "gpt-4o\\u200b");
    assert.equal(printable("a\u200fb\u2028c\u2060d\ufeffe"), "a\\u200fb\\u2028c\\u2060d\\ufeffe");
    assert.equal(printable("tag\u{e0041}"), "tag\\udb40\\udc41");
    assert.equal(printable("lone\ud800 and \udc00"), "lone\\ud800 and \\udc00");
    // Emoji sequences, accents and the joiners scripts need are left alone.
    assert.equal(printable("ok 😀 👨\u200d👩\u200d👧 é نمی\u200cخواهم"), "ok 😀 👨\u200d👩\u200d👧 é نمی\u200cخواهم");
    const dir = tempDir();
    const file = path.join(dir, "lookalike.csv");
    const lines = ["id,model,answer_correctness"];
    for (let q = 0; q < 6; q++) lines.push(`q${q},gpt-4o,0.2`, `q${q},gpt-4o\u200b,0.9`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    for (const args of [["summarize", file, "--by", "model"], ["compare", file]]) {
      const result = await run(args);
      assert.equal(result.code, 0, result.err);
      assert.ok(!result.out.includes("\u200b"), `${args[0]} printed a zero-width space raw`);
      assert.match(result.out, /gpt-4o\\u200b/);
    }
  });

  it("a column name with a line break stays on the table's header line", () => {
    const lines = formatTable([{ "score\nnew": 0.5, model: "a" }]).split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^score ⏎ new +model$/);
  });
  it("--json output with hostile model names stays valid JSON, and reads back as the names themselves", async () => {
    const dir = tempDir();
    const file = path.join(dir, "json.csv");
    const models = ["csi\u009b31m", "del\u007fx", "tag\u{e0041}", "rtl\u202e", "esc\u001b[2J"];
    const lines = ["id,model,answer_correctness"];
    for (let q = 0; q < 4; q++) for (const [m, model] of models.entries()) lines.push(`q${q},"${model}",${(0.1 * m + 0.05 * q).toFixed(2)}`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = await run(["summarize", file, "--by", "model", "--json"]);
    assert.equal(result.code, 0, result.err);
    assert.ok(!RAW.test(result.out) && !/[\u200b\u2028\u{e0000}-\u{e007f}]/u.test(result.out), "a raw control character was printed");
    const parsed = JSON.parse(result.out) as { model: string }[];
    assert.deepEqual(parsed.map((r) => r.model).sort(), [...models].sort());
  });
});
