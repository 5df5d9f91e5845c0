/**
 * What `evalframe calibrate` tells a user who has labelled only a few rows:
 * a bias that is zero reads zero, a blank Spearman says why, a Spearman over
 * a handful of rows says it is rough, and the ranking heading makes no claim
 * about the order of models where there is none to compare.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { calibrate, frameRecords, loadTable, toCSV } from "../src/index";
import type { LabelLine } from "../src/labels/types";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

/** Two questions × two models; the factual part is 1 or 0, the final score near it. */
const SCORED = [
  { id: "q1", model: "alpha", user_input: "Q1?", response: "a1", answer_correctness: 0.95, answer_correctness_factual: 1 },
  { id: "q1", model: "beta", user_input: "Q1?", response: "b1", answer_correctness: 0.15, answer_correctness_factual: 0 },
  { id: "q2", model: "alpha", user_input: "Q2?", response: "a2", answer_correctness: 0.9, answer_correctness_factual: 1 },
  { id: "q2", model: "beta", user_input: "Q2?", response: "b2", answer_correctness: 0.1, answer_correctness_factual: 0 },
];

describe("calibrate on a few labelled rows", () => {
  const dir = tempDir();
  const scoredCsv = path.join(dir, "scored.csv");

  it("reads a bias of 0 as 0, not as a float's noise", () => {
    // factual − grade: 1 − 1, 0 − 0.2, 1 − 0.8, 0 − 0 → 0, −0.2, 0.2 (as 0.19999999999999996), 0: the mean is 0, in floats −5.6e-17.
    const grades = [
      { id: "q1", model: "alpha", human_score: 1 },
      { id: "q1", model: "beta", human_score: 0.2 },
      { id: "q2", model: "alpha", human_score: 0.8 },
      { id: "q2", model: "beta", human_score: 0 },
    ];
    const rows = frameRecords(calibrate(SCORED, grades, { labelScore: "human_score" }).rows!);
    const all = rows.find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
    assert.equal(all["bias"], 0);
    assert.ok(Math.abs((all["mae"] as number) - 0.1) < 1e-12); // (0 + 0.2 + 0.2 + 0) / 4
  });

  it("says why a Spearman is blank and that one over a few rows says little, and claims no order of models where the labels tie them", async () => {
    await toCSV(SCORED, scoredCsv);
    // Every grade 1: the labels give no order, so every Spearman is blank, and the two models tie under the labels.
    const grades = writeText(dir, "all-ones.csv", "id,model,human_score\nq1,alpha,1\nq1,beta,1\nq2,alpha,1\nq2,beta,1\n");
    const result = await runCliCaptured(["calibrate", scoredCsv, "--labels", grades, "--label-score", "human_score"]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /spearman is blank \(NaN\) for factual \(all\) \(n 4\), factual alpha \(n 2\), .*: the judge or the labels give every row there the same value/);
    assert.match(result.out, /model ranking: the judge orders the models differently from the labels \(the labels score some models alike on average\)/);

    // Grades that order the four rows: Spearman 1 over the table (n 4) and over each model's two rows, all rough.
    const ordered = writeText(dir, "ordered.csv", "id,model,human_score\nq1,alpha,1\nq1,beta,0\nq2,alpha,0.5\nq2,beta,0.2\n");
    const few = await runCliCaptured(["calibrate", scoredCsv, "--labels", ordered, "--label-score", "human_score"]);
    assert.equal(few.code, 0, few.err);
    assert.match(few.out, /spearman over fewer than 10 rows says little \(two rows always give 1 or -1\): .*score alpha \(n 2\), score beta \(n 2\); label more rows/);
    assert.match(few.out, /model ranking: the judge orders the models as the labels do/);
  });

  it("does not say the judge orders the models as the labels do when only one model was labelled", async () => {
    await toCSV(SCORED, scoredCsv);
    const grades = writeText(dir, "alpha-only.csv", "id,model,human_score\nq1,alpha,1\nq2,alpha,0.5\n");
    const result = await runCliCaptured(["calibrate", scoredCsv, "--labels", grades, "--label-score", "human_score"]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /model ranking: one model, so there is no order of models to compare/);

    const one = writeText(dir, "one-grade.csv", "id,model,human_score\nq1,alpha,1\n");
    const single = await runCliCaptured(["calibrate", scoredCsv, "--labels", one, "--label-score", "human_score"]);
    assert.equal(single.code, 0, single.err);
    assert.match(single.out, /spearman is blank \(NaN\) for factual \(all\) \(n 1\), factual alpha \(n 1\), score \(all\) \(n 1\), score alpha \(n 1\): one row has no order to compare/);
    assert.doesNotMatch(result.out, /orders the models as the labels do/);
    const json = await runCliCaptured(["calibrate", scoredCsv, "--labels", grades, "--label-score", "human_score", "--json"]);
    assert.equal((JSON.parse(json.out) as { rankingAgrees: unknown }).rankingAgrees, null, "no order of models to agree on");

    // Every label stale (the answers were edited since): nothing is compared, and no ranking is claimed.
    const stale = writeText(dir, "stale.csv", "id,model,response,human_score\nq1,alpha,an older answer,1\nq1,beta,another older answer,0\n");
    const none = await runCliCaptured(["calibrate", scoredCsv, "--labels", stale, "--label-score", "human_score"]);
    assert.equal(none.code, 0, none.err);
    assert.match(none.out, /score \(human_score\) +2 +0 +2 /);
    assert.match(none.out, /model ranking: no labelled row was compared, so there is no ranking/);
  });

  it("counts two answers whose labels have the same F1 from other counts as alike, not as a pair the labels order", () => {
    // Label F1 2/3 both ways: 1 TP, 1 FP, 0 FN → 0.6666666666666666; 3 TP, 1 FP, 2 FN → 0.6666666666666665 in floats.
    const reference = "R1. R2. R3.";
    const line = (model: string, response: [string, string][], covered: string[]): LabelLine => ({
      id: "q1", model, user_input: "Q1?", response: `answer of ${model}`, reference,
      response_statements: response.map(([statement, verdict]) => ({ statement, verdict })),
      reference_statements: ["R1.", "R2.", "R3."].map((statement, i) => ({ statement, verdict: covered[i]! })),
    });
    const labels = [
      line("alpha", [["A1.", "TP"], ["A2.", "FP"]], ["covered", "covered", "covered"]),
      line("beta", [["B1.", "TP"], ["B2.", "TP"], ["B3.", "TP"], ["B4.", "FP"]], ["covered", "FN", "FN"]),
    ];
    const scored = ["alpha", "beta"].map((model) => ({ id: "q1", model, user_input: "Q1?", response: `answer of ${model}`, reference, answer_correctness: 0.5, answer_correctness_factual: 0.5 }));
    const report = calibrate(scored, labels);
    const order = frameRecords(report.answerOrder!);
    assert.deepEqual(order.map((r) => [r["target"], r["n_pairs"], r["tied"]]), [["factual", 0, 0], ["score", 0, 0]]);
    assert.equal(report.rankingAgrees, true, "the labels and the judge both score the two models alike");
    assert.deepEqual(frameRecords(report.ranking!).map((r) => r["label_rank"]), [1.5, 1.5]);
  });

  it("says why a kappa is blank: judge and labels give one and the same verdict on every statement", async () => {
    const input = writeText(
      dir,
      "right.csv",
      "id,model,question,answer,reference\nq1,alpha,Who wrote Hamlet?,William Shakespeare wrote Hamlet.,Hamlet was written by William Shakespeare.\n" +
        "q2,alpha,When did World War II end?,World War II ended in 1945.,World War II ended in 1945.\n",
    );
    const scored = path.join(dir, "right-scored.csv");
    assert.equal((await runCliCaptured(["score", input, "--judge", "offline", "--out", scored])).code, 0);
    // Labels that copy the offline judge's own statements and verdicts (all TP and covered).
    const rows = frameRecords(await loadTable(scored, { required: [] }));
    const labels = writeText(
      dir,
      "right.labels.jsonl",
      rows
        .map((r) => {
          const details = JSON.parse(String(r["answer_correctness_statements"])) as { response: { statement: string; verdict: string }[]; reference: { statement: string; verdict: string }[] };
          assert.ok([...details.response, ...details.reference].every((s) => s.verdict === "TP" || s.verdict === "covered"));
          const copy = (list: { statement: string; verdict: string }[]) => list.map(({ statement, verdict }) => ({ statement, verdict }));
          return JSON.stringify({ id: r["id"], model: r["model"], user_input: r["user_input"], response: r["response"], reference: r["reference"], response_statements: copy(details.response), reference_statements: copy(details.reference) });
        })
        .join("\n"),
    );
    const result = await runCliCaptured(["calibrate", scored, "--labels", labels]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /response +TP\/FP +2 +2 +2 +2 +2 +1 +NaN\n/);
    assert.match(result.out, /kappa is blank \(NaN\) for response \(n 2\), reference \(n 2\): the judge and the labels give one and the same verdict there/);
  });

  it("gives a table without a model column its overall rows only, not the same rows again under a blank model", () => {
    const scored = SCORED.filter((r) => r.model === "alpha").map(({ model: _, ...r }) => r);
    const report = calibrate(scored, [{ id: "q1", human_score: 1 }, { id: "q2", human_score: 0.5 }], { labelScore: "human_score" });
    assert.deepEqual(frameRecords(report.rows!).map((r) => [r["target"], r["model"], r["n"]]), [["factual", "(all)", 2], ["score", "(all)", 2]]);
  });
});
