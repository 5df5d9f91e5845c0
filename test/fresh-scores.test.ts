/**
 * The fresh set (data/qa-fresh.csv, 45 questions of five kinds × three
 * answers, and data/qa-fresh.scores.csv, a reader's Ragas-style F1 for each
 * answer; docs/labelling.md): a held-out set, written by someone who had not
 * read the offline judge's code, and not used to change it. Which model gave
 * the strong, the middling and the weak answer was drawn at random per
 * question, so what it measures is the order of answers to one question.
 * The floors are below the figures first measured (BENCHMARKS.md), so that a
 * change that makes the judge worse at picking the better answer fails here.
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
const CSV = path.join(data, "qa-fresh.csv");
const SCORES = path.join(data, "qa-fresh.scores.csv");

describe("the fresh set's reader scores", () => {
  let rows: Record<string, unknown>[];
  let scores: Record<string, unknown>[];
  let report: CalibrationReport;

  before(async () => {
    rows = records(await loadDataset(CSV));
    scores = records(await loadDataset(SCORES, { required: [], warn: false }));
    const scored = await scoreAnswerCorrectness(await loadDataset(CSV), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
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

  it("the offline judge's factual part keeps a Spearman of at least 0.7 with the scores and orders at least 80% of a question's answer pairs as the reader does", () => {
    const factual = records(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
    assert.ok((factual["spearman"] as number) >= 0.7, `Spearman ${String(factual["spearman"])}`);
    const order = records(report.answerOrder!).find((r) => r["target"] === "factual")!;
    assert.ok((order["share_ordered"] as number) >= 0.8, `ordered ${String(order["share_ordered"])}`);
  });
});
