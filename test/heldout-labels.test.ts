/**
 * The held-out set (data/qa-heldout.csv and its labels): answers written and
 * hand-labelled apart from the offline judge, in two splits: `dev`, read while
 * fixing the judge, and `test`, never read. The labels belong to their rows,
 * the labels judge replays them, and the offline judge keeps at least the
 * agreement it has on the test split (README, "Measured agreement"): a change
 * that loses it fails here before it reaches a user's own data.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { calibrate, type CalibrationReport } from "../src/analysis/calibrate";
import { loadDataset } from "../src/frame/load";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { readLabels } from "../src/labels/read";
import { labelCounts } from "../src/metrics/answer-correctness/label-score";
import { records } from "./support/frames";

const data = path.join(__dirname, "..", "data");
const CSV = path.join(data, "qa-heldout.csv");
const LABELS = path.join(data, "qa-heldout.labels.jsonl");
/** The same test answers labelled again by a second reader, apart (docs/labelling.md). */
const SECOND = path.join(data, "qa-heldout.second-reader.labels.jsonl");
const quiet = { progress: false, quiet: true } as const;

describe("held-out hand labels", () => {
  const labels = readLabels(LABELS).answerCorrectness;
  let rows: Record<string, unknown>[];

  before(async () => {
    rows = records(await loadDataset(CSV));
  });

  it("label every row, in order, with the row's own texts; a question's reference statements are one list for every model", () => {
    assert.equal(labels.length, rows.length);
    labels.forEach((l, i) => {
      const row = rows[i]!;
      assert.deepEqual([l.id, l.model, l.user_input, l.response, l.reference], [row["id"], row["model"], row["user_input"], row["response"], row["reference"]], `label line ${i + 1}`);
    });
    const byQuestion = new Map<string, string>();
    for (const l of labels) {
      const statements = JSON.stringify(l.reference_statements.map((s) => s.statement));
      assert.equal(byQuestion.get(l.id!) ?? statements, statements, `question ${String(l.id)}`);
      byQuestion.set(l.id!, statements);
    }
  });

  it("have a test split of English and Korean questions, each answered right, wrong and in part", () => {
    const test = rows.filter((r) => r["split"] === "test");
    assert.ok(test.length >= 120, `${test.length} test rows`);
    assert.deepEqual([...new Set(test.map((r) => r["lang"]))].sort(), ["en", "ko"]);
    for (const id of new Set(test.map((r) => String(r["id"])))) {
      assert.deepEqual(test.filter((r) => r["id"] === id).map((r) => r["role"]).sort(), ["mixed", "right", "wrong"], id);
    }
  });

  it("are replayed exactly by the labels judge", async () => {
    const scored = records(await scoreAnswerCorrectness(await loadDataset(CSV), { judge: createJudge({ judge: "labels", labels: LABELS }), ...quiet }));
    scored.forEach((row, i) => {
      const { tp, fp, fn } = labelCounts(labels[i]!);
      assert.deepEqual([row["answer_correctness_tp"], row["answer_correctness_fp"], row["answer_correctness_fn"]], [tp, fp, fn], `row ${i}`);
    });
  });

  it("of a second reader, for some test questions: each line its row's, one reference list per question, replayed exactly", async () => {
    const second = readLabels(SECOND).answerCorrectness;
    assert.ok(second.length >= 36, `${second.length} lines`);
    const byKey = new Map(rows.map((r) => [`${String(r["id"])}/${String(r["model"])}`, r]));
    const lists = new Map<string, string>();
    for (const l of second) {
      const row = byKey.get(`${String(l.id)}/${String(l.model)}`);
      assert.ok(row !== undefined && row["split"] === "test", `${String(l.id)} ${String(l.model)} is a test row`);
      assert.deepEqual([l.user_input, l.response, l.reference], [row["user_input"], row["response"], row["reference"]], `${String(l.id)} ${String(l.model)}`);
      const statements = JSON.stringify(l.reference_statements.map((x) => x.statement));
      assert.equal(lists.get(l.id!) ?? statements, statements, `question ${String(l.id)}`);
      lists.set(l.id!, statements);
    }
    const subset = second.map((l) => byKey.get(`${String(l.id)}/${String(l.model)}`)!);
    const scored = records(await scoreAnswerCorrectness(subset, { judge: createJudge({ judge: "labels", labels: SECOND }), ...quiet }));
    scored.forEach((row, i) => {
      const { tp, fp, fn } = labelCounts(second[i]!);
      assert.deepEqual([row["answer_correctness_tp"], row["answer_correctness_fp"], row["answer_correctness_fn"]], [tp, fp, fn], `line ${i + 1}`);
    });
  });

  describe("the offline judge on the test split", () => {
    let report: CalibrationReport;
    before(async () => {
      const scored = records(await scoreAnswerCorrectness(await loadDataset(CSV), { judge: createJudge({ judge: "offline", quiet: true }), ...quiet }));
      report = calibrate(scored.filter((r) => r["split"] === "test"), LABELS, { top: 0 });
    });

    it("keeps its measured agreement: factual Spearman ≥ 0.7 and the better of two answers scored higher in ≥ 75% of pairs", () => {
      const factual = records(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
      assert.ok((factual["spearman"] as number) >= 0.7, `Spearman ${String(factual["spearman"])}`);
      const order = records(report.answerOrder!).find((r) => r["target"] === "factual")!;
      assert.ok((order["share_ordered"] as number) >= 0.75, `answer order ${String(order["ordered"])} of ${String(order["n_pairs"])}`);
      assert.equal(report.rankingAgrees, true);
    });
  });
});
