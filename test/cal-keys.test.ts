/**
 * calibrate with grades a team typed into a spreadsheet: labels that name no
 * model, a row whose id was left blank, ids whose leading zeros the
 * spreadsheet dropped, two annotators' grades of one answer. Each either
 * matches as it should or stops with a message that names the label and
 * says what to fix.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { calibrate, loadTable, toCSV } from "../src/index";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const QUESTIONS = ["What is the capital of France?", "When did World War II end?", "Who wrote Hamlet?"];

/** A scored table of `models` answering three questions with ids 007, 008, 009. */
function scored(models: readonly string[]): Record<string, string | number>[] {
  return models.flatMap((model, m) =>
    QUESTIONS.map((question, q) => ({
      id: `00${q + 7}`,
      model,
      user_input: question,
      response: `answer ${q} of ${model}`,
      reference: `reference ${q}`,
      answer_correctness: [0.9, 0.2, 0.6][q]! - 0.1 * m,
    })),
  );
}

describe("calibrate: grades keyed the way a spreadsheet keeps them", () => {
  const dir = tempDir();

  it("matches grades that name no model to a table of one model's answers, and names the models when there are several", async () => {
    const grades = writeText(dir, "id-only.csv", "id,human_score\r\n007,1\r\n008,0\r\n009,0.5\r\n");
    const table = await loadTable(grades, { required: [] });
    const report = calibrate(scored(["alpha"]), table, { labelScore: "human_score" });
    assert.equal(report.coverage.column("matched").values[0], 3);
    assert.equal(report.unmatched[0]!.unusedLabels.count, 0);
    assert.throws(
      () => calibrate(scored(["alpha", "beta"]), table, { labelScore: "human_score" }),
      /the labels name no model, and the scored table has answers from 2 models \("alpha", "beta"\); give each label the model/,
    );
  });

  it("names the grade whose id was left blank, instead of matching every grade by an empty question", async () => {
    const grades = writeText(dir, "blank-id.csv", "id,model,human_score\n007,alpha,1\n,alpha,0\n009,alpha,0.5\n");
    const table = await loadTable(grades, { required: [] });
    assert.throws(
      () => calibrate(scored(["alpha"]), table, { labelScore: "human_score" }),
      (error: unknown) => error instanceof Error && /label row 1 \(line 3\) has no id/.test(error.message) && !/user_input ""/.test(error.message),
    );
  });

  it("says when ids match only without their leading zeros, and still does not match them", async () => {
    const scoredCsv = path.join(dir, "scored.csv");
    await toCSV(scored(["alpha", "beta"]), scoredCsv);
    const none = writeText(dir, "zeros.csv", "id,model,human_score\n7,alpha,1\n8,alpha,0\n");
    const failed = await runCliCaptured(["calibrate", scoredCsv, "--labels", none, "--label-score", "human_score"]);
    assert.equal(failed.code, 1);
    assert.match(failed.err, /2 unused labels would match an unlabelled row if case, spaces or leading zeros were ignored, e\.g\. label row 0 \(line 2\) \(id "7", model "alpha"\) and row 0 \(line 2\) \(id "007", model "alpha"\)/);
    assert.match(failed.err, /format that column as text/);

    const some = writeText(dir, "some-zeros.csv", "id,model,human_score\n007,alpha,1\n8,alpha,0\n009,Beta,0.5\n");
    const partly = await runCliCaptured(["calibrate", scoredCsv, "--labels", some, "--label-score", "human_score", "--json"]);
    assert.equal(partly.code, 0, partly.err);
    const body = JSON.parse(partly.out) as { coverage: { matched: number }[]; unmatched: { hint?: string }[] };
    assert.equal(body.coverage[0]!.matched, 1, "only the exact key matches");
    assert.match(body.unmatched[0]!.hint ?? "", /^2 unused labels would match/);
  });

  it("matches an id typed with a combining accent (as macOS keeps it) to the same id written as one character", async () => {
    const rows = scored(["alpha"]).map((r, i) => ({ ...r, id: `caf\u00e9-${i}` }));
    const grades = writeText(dir, "accents.csv", ["id,model,human_score", ...rows.map((r, i) => `cafe\u0301-${i},alpha,${i / 2}`)].join("\n"));
    const report = calibrate(rows, await loadTable(grades, { required: [] }), { labelScore: "human_score" });
    assert.equal(report.coverage.column("matched").values[0], 3);
  });

  it("refuses two annotators' grades of one answer, saying how to combine or compare them", async () => {
    const grades = writeText(dir, "two-annotators.csv", "id,model,human_score\n007,alpha,1\n007,alpha,0.5\n");
    const table = await loadTable(grades, { required: [], warn: false });
    assert.throws(
      () => calibrate(scored(["alpha"]), table, { labelScore: "human_score" }),
      /label row 0 \(line 2\) and label row 1 \(line 3\) are both labels of \(id "007", model "alpha"\); keep one label per row \(two annotators' grades of one answer: average them/,
    );
  });
});
