/**
 * The two sets scored by a reader as a whole answer at a time (docs/labelling.md): 45 questions
 * of five kinds × three answers each, and a Ragas-style F1 per answer that the reader counted.
 * Both were written by someone who had not read the offline judge's code. Which model gave the
 * strong, the middling and the weak answer was drawn at random per question, so what they measure
 * is the order of answers to one question.
 *
 * - The fresh set (data/qa-fresh.csv) is held out: the judge is not changed because of it.
 * - The development set (data/qa-dev2.csv) is not: rules are tuned on it, so its floors are
 *   there to catch a change that undoes them, not to promise agreement on new data.
 *
 * The floors are below the figures measured (BENCHMARKS.md), so that a change that makes the
 * judge worse at picking the better answer fails here.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { calibrate, type CalibrationReport } from "../src/analysis/calibrate";
import { loadDataset } from "../src/frame/load";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { records } from "./support/frames";

const data = path.join(__dirname, "..", "data");

const SETS = [
  { name: "fresh set", file: "qa-fresh", spearman: 0.7, ordered: 0.8 },
  { name: "development set", file: "qa-dev2", spearman: 0.65, ordered: 0.75 },
];

for (const set of SETS) {
  describe(`the ${set.name}'s reader scores`, () => {
    const csv = path.join(data, `${set.file}.csv`);
    let rows: Record<string, unknown>[];
    let scores: Record<string, unknown>[];
    let report: CalibrationReport;

    before(async () => {
      rows = records(await loadDataset(csv));
      scores = records(await loadDataset(path.join(data, `${set.file}.scores.csv`), { required: [], warn: false }));
      const scored = await scoreAnswerCorrectness(await loadDataset(csv), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
      report = calibrate(scored, scores, { labelScore: "human_score", top: 0 });
    });

    it("score every answer once, from 0 to 1: 45 questions of five kinds, each model once per question", () => {
      assert.equal(rows.length, 135);
      assert.deepEqual(new Set(rows.map((r) => r["kind"])), new Set(["rag", "general", "explain", "short", "list"]));
      const keys = (list: Record<string, unknown>[]) => list.map((r) => `${String(r["id"])}/${String(r["model"])}`).sort();
      assert.deepEqual(keys(scores), keys(rows));
      assert.equal(new Set(keys(rows)).size, 135);
      assert.ok(scores.every((r) => typeof r["human_score"] === "number" && r["human_score"] >= 0 && r["human_score"] <= 1));
    });

    it(`the offline judge's factual part keeps a Spearman of at least ${set.spearman} with the scores and orders at least ${set.ordered * 100}% of a question's answer pairs as the reader does`, () => {
      const factual = records(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
      assert.ok((factual["spearman"] as number) >= set.spearman, `Spearman ${String(factual["spearman"])}`);
      const order = records(report.answerOrder!).find((r) => r["target"] === "factual")!;
      assert.ok((order["share_ordered"] as number) >= set.ordered, `ordered ${String(order["share_ordered"])}`);
    });
  });
}
