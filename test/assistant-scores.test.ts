/**
 * The assistant set (data/qa-assistant.csv, 40 questions of four kinds × a
 * strong, a middling and a weak answer, and data/qa-assistant.scores.csv, a
 * reader's 0–1 score for each answer; docs/labelling.md): ordinary traffic,
 * scored by a reader rather than labelled statement by statement. The
 * offline judge must keep the models in the reader's order and its measured
 * agreement with the scores (BENCHMARKS.md), so that a change that makes it
 * prefer a middling model over a strong one fails here.
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
const CSV = path.join(data, "qa-assistant.csv");
const SCORES = path.join(data, "qa-assistant.scores.csv");

describe("the assistant set's reader scores", () => {
  let rows: Record<string, unknown>[];
  let scores: Record<string, unknown>[];
  let report: CalibrationReport;
  let scored: Record<string, unknown>[];

  before(async () => {
    rows = records(await loadDataset(CSV));
    scores = records(await loadDataset(SCORES, { required: [], warn: false }));
    scored = records(await scoreAnswerCorrectness(await loadDataset(CSV), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true }));
    report = calibrate(scored, scores, { labelScore: "human_score", top: 0 });
  });

  it("score every answer once, from 0 to 1, for 40 questions of four kinds and three models", () => {
    assert.equal(rows.length, 120);
    assert.deepEqual(new Set(rows.map((r) => r["kind"])), new Set(["rag", "general", "explain", "short"]));
    assert.deepEqual(new Set(rows.map((r) => r["model"])), new Set(["strong", "middling", "weak"]));
    const keys = (list: Record<string, unknown>[]) => list.map((r) => `${String(r["id"])}/${String(r["model"])}`).sort();
    assert.deepEqual(keys(scores), keys(rows));
    assert.ok(scores.every((r) => typeof r["human_score"] === "number" && r["human_score"] >= 0 && r["human_score"] <= 1));
  });

  it("the offline judge keeps the reader's model order and a Spearman of at least 0.65 with the scores", () => {
    assert.equal(report.rankingAgrees, true);
    const final = records(report.rows!).find((r) => r["model"] === "(all)")!;
    assert.ok((final["spearman"] as number) >= 0.65, `Spearman ${String(final["spearman"])}`);
    const mean = (model: string) => {
      const own = scored.filter((r) => r["model"] === model).map((r) => r["answer_correctness"] as number);
      return own.reduce((a, b) => a + b, 0) / own.length;
    };
    assert.ok(mean("strong") > mean("middling") && mean("middling") > mean("weak"), `strong ${mean("strong")}, middling ${mean("middling")}, weak ${mean("weak")}`);
  });
});
