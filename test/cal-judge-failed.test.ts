/**
 * calibrate after a run in which the judge failed on some labelled rows (a
 * real HTTP judge answering 400 for them): those rows cannot be compared,
 * and the report counts and names them instead of comparing fewer rows
 * than were labelled without a word.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { calibrate, createJudge, frameRecords, loadDataset, loadTable, scoreAnswerCorrectness, toCSV } from "../src/index";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const ROWS = [
  ["007", "alpha", "What is the capital of France?", "Paris is the capital of France.", "Paris is the capital of France."],
  ["007", "beta", "What is the capital of France?", "Lyon is the capital of France.", "Paris is the capital of France."],
  ["008", "alpha", "When did World War II end?", "World War II ended in 1945.", "World War II ended in 1945."],
  ["008", "beta", "When did World War II end?", "World War II ended in 1944.", "World War II ended in 1945."],
];

describe("calibrate when the judge failed on labelled rows", () => {
  const fake = useFakeOpenAI(() => ({
    chat: scriptedAnswerCorrectness,
    embed: (text: string) => scriptedEmbedding(text),
    // The judge fails on the answers that name Lyon: a 400 is not retried.
    fault: (req) => (JSON.stringify(req.body ?? "").includes("Lyon") ? { kind: "status", status: 400 } : undefined),
  }));
  const dir = tempDir();

  it("counts the labelled rows the judge failed on in coverage, names them, and compares the rest", async () => {
    const data = writeText(dir, "qa.csv", `id,model,question,answer,reference\n${ROWS.map((r) => r.join(",")).join("\n")}\n`);
    const judge = createJudge({ judge: "openai", baseURL: fake.url(), apiKey: "sk-test", model: "gpt-4o-mini", cache: false });
    const scored = await scoreAnswerCorrectness(await loadDataset(data), { judge });
    const scoredCsv = path.join(dir, "scored.csv");
    await toCSV(scored, scoredCsv);
    assert.equal(frameRecords(scored).filter((r) => r["answer_correctness_error"]).length, 1, "one row failed");

    const grades = writeText(dir, "grades.csv", "id,model,human_score\n007,alpha,1\n007,beta,0\n008,alpha,1\n008,beta,0\n");
    const report = calibrate(scored, await loadTable(grades, { required: [] }), { labelScore: "human_score" });
    assert.deepEqual(frameRecords(report.coverage)[0], { kind: "score (human_score)", labels: 4, matched: 4, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 1 });
    assert.deepEqual(report.unmatched[0]!.judgeFailed, { count: 1, first: [{ id: "007", model: "beta", user_input: null, where: "row 1" }], more: 0 });
    assert.equal(frameRecords(report.rows!).find((r) => r["target"] === "score" && r["model"] === "(all)")!["n"], 3);

    const labels = writeText(
      dir,
      "qa.labels.jsonl",
      ROWS.map(([id, model, user_input, response, reference]) =>
        JSON.stringify({
          id, model, user_input, response, reference,
          response_statements: [{ statement: response, verdict: response === reference ? "TP" : "FP" }],
          reference_statements: [{ statement: reference, verdict: response === reference ? "covered" : "FN" }],
        }),
      ).join("\n"),
    );
    const printed = await runCliCaptured(["calibrate", scoredCsv, "--labels", labels]);
    assert.equal(printed.code, 0, printed.err);
    assert.match(printed.out, /answer_correctness +4 +4 +0 +0 +0 +1\n/);
    assert.match(printed.out, /labelled rows the judge failed to score, left out \(answer_correctness\): 1: id "007", model "beta" \(row 1 \(line 3\)\)/);
    assert.match(printed.out, /response +TP\/FP +3 +3 +3 +3 /, "the statements of the three scored rows are compared");
  });
});
