/**
 * Messages that quote a cell cut it between characters: a Chinese question
 * with a character outside the BMP (𠮷) or an emoji at the cut shows whole,
 * never as half a surrogate pair ("\ud842").
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareModels, compareRuns, frameRecords, loadDataset } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { failuresLine } from "../src/cli/failures";
import { excerpt } from "../src/judge/structured";
import { shortened } from "../src/display/words";

const HALF = /\\ud[89ab][0-9a-f]{2}|\\ud[c-f][0-9a-f]{2}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/iu;

describe("messages quoting text of other scripts", () => {
  it("an id asked with two questions quotes the question cut between characters", async () => {
    const dir = tempDir();
    const long = `${"問".repeat(58)}😀𠮷の質問です`;
    const file = writeText(dir, "ids.csv", `id,model,question,answer,reference\nq1,a,短い質問,It is Tokyo.,Tokyo.\nq1,b,${long},It is Tokyo.,Tokyo.\n`);
    const run = await runCliCaptured(["score", file, "--out", `${dir}/out.csv`, "--no-progress", "--judge", "offline"], {});
    assert.match(run.err, /another question than/u, run.err);
    assert.doesNotMatch(run.err, HALF, run.err);
    assert.match(run.err, /問{58}😀…/u, run.err);
  });

  it("the same question written composed for one model and decomposed for another is one question, not an id asked twice", async () => {
    const dir = tempDir();
    const file = writeText(dir, "nfd.csv", `id,model,question,answer,reference\nq1,a,Où est Zürich?,In Switzerland.,Zürich is in Switzerland.\nq1,b,${"Où est Zürich?".normalize("NFD")},In Austria.,Zürich is in Switzerland.\n`);
    const run = await runCliCaptured(["score", file, "--out", `${dir}/out.csv`, "--no-progress", "--judge", "offline"], {});
    assert.equal(run.code, 0, run.err);
    assert.doesNotMatch(run.err, /different questions/u, run.err);
  });

  it("a value under an unnamed column is quoted cut between characters", async () => {
    const dir = tempDir();
    const file = writeText(dir, "extra.csv", `question,answer,reference,\n東京？,東京,東京,${"字".repeat(28)}😀😀 more\n`);
    await assert.rejects(loadDataset(file), (e: Error) => {
      assert.doesNotMatch(e.message, HALF, e.message);
      assert.match(e.message, /字{28}😀…/u, e.message);
      return true;
    });
  });
});

describe("messages that cut a long reason or reply", () => {
  it("cut between characters: the failure line of a run, and a reply's excerpt", () => {
    const reason = `${"x".repeat(198)}😀 and more`;
    const line = failuresLine([{ metric: "answer_correctness", failed: 1, first: reason, firstRow: "row 0" }], 1);
    assert.match(line, /first: row 0: x{198}😀…; every reason/);
    assert.doesNotMatch(line, /\\ud83d|\ud83d(?!\ude00)/u, "no half of the emoji");
    const reply = `${"y".repeat(159)}𠮷 tail`;
    assert.equal(excerpt(reply), `${"y".repeat(159)}𠮷…`);
    assert.equal(shortened("ab😀cd", 3), "ab…");
    assert.equal(shortened("abc", 3), "abc");
  });
});

describe("keys written composed and decomposed", () => {
  it("pair as one key: compareModels by --pair-by user_input, and compareRuns by id", () => {
    const composed = "Wo liegt Zürich?";
    const decomposed = "Wo liegt Zu\u0308rich?";
    const rows = [
      { id: "q1", model: "a", user_input: composed, answer_correctness: 0.9 },
      { id: "q1", model: "b", user_input: decomposed, answer_correctness: 0.4 },
      { id: "q2", model: "a", user_input: "Was ist 2+2?", answer_correctness: 0.8 },
      { id: "q2", model: "b", user_input: "Was ist 2+2?", answer_correctness: 0.3 },
    ];
    const byQuestion = frameRecords(compareModels(rows, { pairBy: "user_input" }))[0]!;
    assert.equal(byQuestion["n_pairs"], 2, "the question about Zürich pairs, however it is written");
    const before = [{ id: "Zürich", model: "a", answer_correctness: 0.5 }];
    const after = [{ id: "Zu\u0308rich", model: "a", answer_correctness: 0.7 }];
    const runs = frameRecords(compareRuns(before, after).summary).find((r) => r["model"] === "a")!;
    assert.equal(runs["n_paired"], 1);
  });
});
