/**
 * The rows that summarize, compare, diff and calibrate name in their
 * messages, on real files through the command line: the row as loading
 * names it (0-based, as in a DataFrame) and the line of the file it starts
 * on, a header and multi-line quoted cells counted, after --where too; and
 * summarize's answers given twice for one (id, model).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calibrate, frameRecords, loadDataset, summarize } from "../src/index";
import { runCliCaptured as run } from "./support/cli";
import { tempDir, writeText } from "./support/files";

/** The one line a failed command prints, without the "evalframe: " in front. */
function failure(result: { code: number; err: string }): string {
  assert.equal(result.code, 1, result.err);
  const lines = result.err.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, result.err);
  return lines[0]!.replace(/^evalframe: /, "");
}

describe("rows named in messages", () => {
  const dir = tempDir();
  // Row 0 spans lines 2-3 (a note with a line break), so row 1 starts on line 4 and row 2 on line 5.
  const scored = writeText(dir, "scored.csv", 'id,model,note,answer_correctness\nq1,a,"two\nlines",0.5\nq2,a,x,75\nq1,b,x,0.2\nq2,b,x,0.3\n');

  it("summarize names the row and the line of a score out of range, after --where too", async () => {
    assert.match(failure(await run(["summarize", scored])), /column "answer_correctness" row 1 \(line 4\): 75 is not a score from -1 to 1; a column in percent must be divided by 100$/);
    // Only model a's rows are read: still the file's row 1, on line 4.
    assert.match(failure(await run(["summarize", scored, "--where", "model=a"])), /row 1 \(line 4\): 75 is not a score/);
    // Rows given in code have no line.
    assert.throws(() => summarize([{ model: "a", answer_correctness: 0.5 }, { model: "a", answer_correctness: 75 }]), /column "answer_correctness" row 1: 75 is not a score/);
  });

  it("diff names both rows of an answer given twice with their lines", async () => {
    const twice = writeText(dir, "twice.csv", 'id,model,note,answer_correctness\nq1,a,"two\nlines",0.5\nq2,a,x,0.4\nq1,b,x,0.2\nq1,a,x,0.3\n');
    assert.match(failure(await run(["diff", twice, scored])), /id "q1" appears twice for model "a" \(row 0 \(line 2\) and row 3 \(line 6\)\)/);
  });

  it("calibrate names label rows and scored rows by row and line", async () => {
    const grades = (name: string, rows: string) => writeText(dir, name, `id,model,note,human_score\n${rows}`);
    const outOfRange = grades("range.csv", 'q1,a,"a note\nover two lines",0.5\nq2,a,x,7\n');
    assert.match(failure(await run(["calibrate", scored, "--labels", outOfRange, "--label-score", "human_score"])), /label row 1 \(line 4\), column "human_score": 7 is not a score from 0 to 1/);
    const twice = grades("twice.csv", 'q1,a,"a note\nover two lines",0.5\nq2,a,x,1\nq1,a,x,1\n');
    assert.match(failure(await run(["calibrate", scored, "--labels", twice, "--label-score", "human_score"])), /label row 0 \(line 2\) and label row 2 \(line 5\) are both labels of \(id "q1", model "a"\)/);
    const text = grades("text.csv", "q1,a,x,0.5\nq2,a,x,abc\n");
    assert.match(failure(await run(["calibrate", scored, "--labels", text, "--label-score", "human_score"])), /label row 1 \(line 3\) is "abc", not a number/);

    const repeated = writeText(dir, "repeated.csv", 'id,model,answer_correctness\nq1,a,0.5\nq2,a,0.4\nq1,a,0.3\n');
    const fine = grades("fine.csv", "q1,a,x,0.5\n");
    assert.match(failure(await run(["calibrate", repeated, "--labels", fine, "--label-score", "human_score"])), /row 0 \(line 2\) and row 2 \(line 4\) of the scored table are both \(id "q1", model "a"\)/);
    // Labels given in code are rows of a list: no line.
    assert.throws(() => calibrate([{ id: "q1", model: "a", answer_correctness: 0.5 }], [{ id: "q1", model: "a", g: 2 }], { labelScore: "g" }), /label row 0, column "g": 2 is not a score/);
  });
});

describe("summarize: an answer given twice for one (id, model)", () => {
  const dir = tempDir();
  // Model a answers q1 twice (lines 2 and 4, the first over two lines): the second counts as failed, not as a third score.
  const file = writeText(dir, "twice.csv", 'id,model,user_input,response,reference,answer_correctness\nq1,a,Q1,"r\nr",ref,0.5\nq1,a,Q1,r2,ref,0.6\nq1,b,Q1,r,ref,0.7\nq2,a,Q2,r,ref,0.1\nq2,b,Q2,r,ref,0.2\n');
  const modelA = (records: Record<string, unknown>[]) => records.find((r) => r["model"] === "a")!;

  it("the library counts the repeat as failed, from the ids or from the input_error loading wrote", async () => {
    const loaded = await loadDataset(file, { warn: false });
    const a = modelA(frameRecords(summarize(loaded, { by: "model" })));
    assert.deepEqual([a["n"], a["n_valid"], a["n_error"], a["mean"]], [3, 2, 1, 0.3]);
    // Rows given in code: found by their ids.
    const rows = [{ id: "q1", model: "a", answer_correctness: 0.5 }, { id: "q1", model: "a", answer_correctness: 0.6 }, { id: "q2", model: "a", answer_correctness: 0.1 }];
    assert.equal(modelA(frameRecords(summarize(rows, { by: "model" })))["n_valid"], 2);
    // A table read without its id column still has loading's input_error.
    const noIds = frameRecords(loaded).map(({ id: _id, ...rest }) => rest);
    assert.equal(modelA(frameRecords(summarize(noIds, { by: "model" })))["n_valid"], 2);
  });

  it("the command line warns naming the repeated row, its line and the first answer's, and counts it as failed", async () => {
    for (const by of [[], ["--by", "model"]]) {
      const result = await run(["summarize", file, ...by, "--json"]);
      assert.equal(result.code, 0, result.err);
      assert.equal(
        result.err,
        'evalframe: warning: ' + file + ': 1 row answers an (id, model) that an earlier row answered, and is counted as failed (n_error), not averaged in: row 1 (line 4) (id "q1", model "a", first at row 0 (line 2)); each question id must appear once per model\n',
      );
      const a = modelA(JSON.parse(result.out) as Record<string, unknown>[]);
      assert.deepEqual([a["n"], a["n_valid"], a["n_error"], a["mean"]], [3, 2, 1, 0.3]);
    }
    const clean = await run(["summarize", file, "--where", "model=b"]);
    assert.equal(clean.err, "");
  });
});
