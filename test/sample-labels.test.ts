/**
 * The bundled hand labels against the bundled sample data: the labels judge
 * replays them exactly, and the offline judge agrees with them as far as the
 * README says (factual Spearman ≥ 0.8, the models in the labels' order, at
 * most 5% of plainly wrong answers scored 0.5 or more).
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { calibrate, type CalibrationReport } from "../src/analysis/calibrate";
import { loadDataset } from "../src/frame/load";
import { scoreAnswerCorrectness, scoreMultimodalRelevance } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { readLabels } from "../src/labels/read";
import { labelCounts, labelFactual } from "../src/metrics/answer-correctness/label-score";
import { records } from "./support/frames";

const data = path.join(__dirname, "..", "data");
const LABELS = path.join(data, "qa-models.labels.jsonl");
const quiet = { progress: false, quiet: true } as const;

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Models ordered best first by the mean of `value` over their rows. */
function order(rows: readonly Record<string, unknown>[], value: (row: Record<string, unknown>, i: number) => number): string[] {
  const models = [...new Set(rows.map((r) => String(r["model"])))];
  const means = models.map((m) => mean(rows.flatMap((r, i) => (r["model"] === m ? [value(r, i)] : []))));
  return models.map((m, i) => [m, means[i]!] as const).sort((a, b) => b[1] - a[1]).map(([m]) => m);
}

describe("bundled hand labels", () => {
  const labels = readLabels(LABELS).answerCorrectness;
  let offline: DataFrame;
  let report: CalibrationReport;

  before(async () => {
    const table = await loadDataset(path.join(data, "qa-models.csv"));
    offline = await scoreAnswerCorrectness(table, { judge: createJudge({ judge: "offline", quiet: true }), ...quiet });
    report = calibrate(offline, LABELS);
  });

  it("label every row of the sample, in order", async () => {
    const rows = records(await loadDataset(path.join(data, "qa-models.csv")));
    assert.equal(labels.length, rows.length);
    labels.forEach((l, i) => assert.deepEqual([l.id, l.model], [rows[i]!["id"], rows[i]!["model"]]));
  });

  it("are replayed exactly by the labels judge", async () => {
    const table = await loadDataset(path.join(data, "qa-models.csv"));
    const scored = records(await scoreAnswerCorrectness(table, { judge: createJudge({ judge: "labels", labels: LABELS }), ...quiet }));
    scored.forEach((row, i) => {
      const { tp, fp, fn } = labelCounts(labels[i]!);
      assert.deepEqual([row["answer_correctness_tp"], row["answer_correctness_fp"], row["answer_correctness_fn"]], [tp, fp, fn], `row ${i}`);
      assert.equal(row["answer_correctness_judge"], "hand-labelled");
    });
  });

  it("agree with the offline judge's factual score: Spearman ≥ 0.8", () => {
    const all = records(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
    assert.equal(all["n"], labels.length);
    assert.ok((all["spearman"] as number) >= 0.8, `Spearman ${String(all["spearman"])}`);
  });

  it("put the models in the same order as the offline judge's factual score and final score", () => {
    const rows = records(offline);
    const byLabels = order(rows, (_, i) => labelFactual(labels[i]!));
    assert.deepEqual(order(rows, (r) => r["answer_correctness_factual"] as number), byLabels);
    assert.equal(report.rankingAgrees, true);
  });

  it("score at most 5% of the plainly wrong answers (labels' F1 = 0) at 0.5 or more", () => {
    const all = records(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
    assert.ok((all["n_label_zero"] as number) >= 10, "the sample has plainly wrong answers");
    assert.ok((all["high_on_label_zero"] as number) <= 0.05, `share ${String(all["high_on_label_zero"])}`);
  });
});

describe("bundled multimodal labels", () => {
  it("are replayed by the labels judge for all 30 rows, remote images included, with nothing fetched", async () => {
    const table = await loadDataset(path.join(data, "multimodal.csv"));
    const labels = readLabels(path.join(data, "multimodal.labels.jsonl")).multimodal;
    const scored = records(
      await scoreMultimodalRelevance(table, {
        judge: createJudge({ judge: "labels", labels: path.join(data, "multimodal.labels.jsonl") }),
        imageRoot: data,
        // A fetch would fail here (no network, and private addresses are refused): none is made.
        ...quiet,
      }),
    );
    assert.equal(scored.length, 30);
    scored.forEach((row, i) => {
      assert.equal(row["multimodal_relevance_error"], "", `row ${i}`);
      assert.equal(row["multimodal_relevance"], labels[i]!.relevant ? 1 : 0, `row ${i}`);
    });
  });
});
