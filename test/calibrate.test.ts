/**
 * calibrate(): a judge's scored table against hand labels, on a worked
 * example small enough that every number was computed by hand (the
 * arithmetic is in the comments); a plain human score column; stale labels;
 * and `evalframe calibrate` in-process.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { readFileSync, writeFileSync } from "node:fs";
import { calibrate, frameRecords, loadDataset, loadTable, toCSV, toDataFrame } from "../src/index";
import { alignStatements, wordOverlap } from "../src/analysis/align";
import { LabelFileError, type LabelLine } from "../src/labels/types";
import { type AnswerCorrectnessDetails } from "../src/metrics/answer-correctness/details";
import { readFrame } from "../src/display/table";
import type { Cell } from "../src/dataset/table";
import { tempDir, writeText } from "./support/files";
import { runCliCaptured } from "./support/cli";

const close = (actual: unknown, expected: number, tolerance = 1e-12) =>
  assert.ok(typeof actual === "number" && Math.abs(actual - expected) <= tolerance, `${String(actual)} is not within ${tolerance} of ${expected}`);

function rows(df: DataFrame | undefined): Record<string, Cell>[] {
  assert.ok(df !== undefined, "expected a table");
  const t = readFrame(df, "test");
  return Array.from({ length: t.rowCount }, (_, i) => Object.fromEntries(t.columns.map((c) => [c.name, c.values[i] ?? null])));
}

// ---------------------------------------------------------------------------
// The worked example: 3 questions × 2 models (atlas, swift).

type V = [string, string];
interface Example {
  id: string;
  model: string;
  question: string;
  response: string;
  reference: string;
  label: { response: V[]; reference: V[] };
  judge: { response: V[]; reference: V[] };
  /** Final score the judge gave (0.75·factual + 0.25·semantic). */
  score: number;
  semantic: number;
  relevanceJudge: number;
  relevanceLabel: boolean;
}

const Q1 = "What is the capital of France, and which river runs through it?";
const Q2 = "At what temperature does water boil at sea level?";
const Q3 = "Who discovered penicillin, and when?";
const R1 = ["Paris is the capital of France.", "Paris lies on the Seine."];
const R2 = ["Water boils at 100 degrees Celsius."];
const R3 = ["Fleming discovered penicillin.", "Fleming discovered penicillin in 1928."];

const EXAMPLE: Example[] = [
  { // r1: label (TP 1, FP 1, FN 1) → F1 0.5; judge (2, 0, 0) → factual 1
    id: "q1", model: "atlas", question: Q1, response: "Paris is the capital of France. It lies on the Loire river.", reference: "Paris, on the Seine, is the capital of France.",
    label: { response: [[R1[0]!, "TP"], ["Paris lies on the Loire.", "FP"]], reference: [[R1[0]!, "covered"], [R1[1]!, "FN"]] },
    judge: { response: [[R1[0]!, "TP"], ["Paris lies on the Loire river.", "TP"]], reference: [[R1[0]!, "covered"], [R1[1]!, "covered"]] },
    score: 0.9, semantic: 0.6, relevanceJudge: 1, relevanceLabel: true,
  },
  { // r2: label (2, 0, 0) → 1; judge (2, 0, 0) → 1
    id: "q1", model: "swift", question: Q1, response: "Paris is the capital of France, on the Seine.", reference: "Paris, on the Seine, is the capital of France.",
    label: { response: [[R1[0]!, "TP"], ["Paris lies on the Seine.", "TP"]], reference: [[R1[0]!, "covered"], [R1[1]!, "covered"]] },
    judge: { response: [[R1[0]!, "TP"], ["Paris is on the Seine.", "TP"]], reference: [[R1[0]!, "covered"], [R1[1]!, "covered"]] },
    score: 1.0, semantic: 1.0, relevanceJudge: 1, relevanceLabel: true,
  },
  { // r3: label (1, 0, 0) → 1; judge (1, 0, 0) → 1
    id: "q2", model: "atlas", question: Q2, response: "At 100 °C.", reference: "Water boils at 100 degrees Celsius.",
    label: { response: [["Water boils at 100 degrees Celsius.", "TP"]], reference: [[R2[0]!, "covered"]] },
    judge: { response: [["Water boils at 100 °C.", "TP"]], reference: [[R2[0]!, "covered"]] },
    score: 0.95, semantic: 0.8, relevanceJudge: 1, relevanceLabel: false,
  },
  { // r4: label (0, 1, 1) → 0; judge (0, 2, 1) → 0
    id: "q2", model: "swift", question: Q2, response: "Water boils at 90 degrees Celsius. Water is wet.", reference: "Water boils at 100 degrees Celsius.",
    label: { response: [["Water boils at 90 degrees Celsius.", "FP"]], reference: [[R2[0]!, "FN"]] },
    judge: { response: [["Water boils at 90 degrees Celsius.", "FP"], ["Water is wet.", "FP"]], reference: [[R2[0]!, "FN"]] },
    score: 0.1, semantic: 0.4, relevanceJudge: 0, relevanceLabel: false,
  },
  { // r5: label (2, 0, 0) → 1; judge (1, 0, 1) → F1 = 2·1·½/(1 + ½) = 2/3
    id: "q3", model: "atlas", question: Q3, response: "Fleming discovered penicillin, in 1928.", reference: "Alexander Fleming discovered penicillin in 1928.",
    label: { response: [["Fleming discovered penicillin.", "TP"], ["Fleming discovered penicillin in 1928.", "TP"]], reference: [[R3[0]!, "covered"], [R3[1]!, "covered"]] },
    judge: { response: [["Alexander Fleming discovered penicillin in 1928.", "TP"]], reference: [[R3[0]!, "covered"], [R3[1]!, "FN"]] },
    score: 0.6, semantic: 0.4, relevanceJudge: 0, relevanceLabel: false,
  },
  { // r6: label (0, 1, 1) → 0; judge (1, 0, 0) → 1
    id: "q3", model: "swift", question: Q3, response: "Fleming discovered penicillin in 1929.", reference: "Alexander Fleming discovered penicillin in 1928.",
    label: { response: [["Fleming discovered penicillin in 1929.", "FP"]], reference: [[R3[0]!, "covered"], [R3[1]!, "FN"]] },
    judge: { response: [["Fleming discovered penicillin in 1929.", "TP"]], reference: [[R3[0]!, "covered"], [R3[1]!, "covered"]] },
    score: 0.8, semantic: 0.2, relevanceJudge: 0, relevanceLabel: true,
  },
];

const counts = (side: { response: V[]; reference: V[] }) => ({
  tp: side.response.filter(([, v]) => v === "TP").length,
  fp: side.response.filter(([, v]) => v === "FP").length,
  fn: side.reference.filter(([, v]) => v === "FN").length,
});
const JUDGE_FACTUAL = [1, 1, 1, 0, 2 / 3, 1];

/** The hand-written scored table, as `evalframe score` would write it. */
function scoredRecords(): Record<string, unknown>[] {
  return EXAMPLE.map((e, i) => {
    const details: AnswerCorrectnessDetails = {
      judge: "test-judge",
      weights: [0.75, 0.25],
      beta: 1,
      threshold: null,
      similarityThreshold: null,
      response: e.judge.response.map(([statement, verdict]) => ({ statement, verdict: verdict as "TP" | "FP", reason: "judge" })),
      reference: e.judge.reference.map(([statement, verdict]) => ({ statement, verdict: verdict as "covered" | "FN", reason: "judge" })),
    };
    const c = counts(e.judge);
    return {
      id: e.id, model: e.model, user_input: e.question, response: e.response, reference: e.reference,
      answer_correctness: e.score, answer_correctness_factual: JUDGE_FACTUAL[i], answer_correctness_semantic: e.semantic,
      answer_correctness_tp: c.tp, answer_correctness_fp: c.fp, answer_correctness_fn: c.fn, answer_correctness_error: "",
      answer_correctness_statements: JSON.stringify(details), answer_correctness_judge: "test-judge",
      multimodal_relevance: e.relevanceJudge, multimodal_relevance_error: "",
    };
  });
}

/** The hand labels of the example: one answer-correctness line and one multimodal line per row. */
function exampleLabels(): LabelLine[] {
  const ac = EXAMPLE.map((e) => ({
    id: e.id, model: e.model, user_input: e.question, response: e.response, reference: e.reference,
    response_statements: e.label.response.map(([statement, verdict]) => ({ statement, verdict, reason: "reader" })),
    reference_statements: e.label.reference.map(([statement, verdict]) => ({ statement, verdict, reason: "reader" })),
  }));
  const mm = EXAMPLE.map((e) => ({ id: e.id, model: e.model, user_input: e.question, response: e.response, relevant: e.relevanceLabel, reason: "reader" }));
  return [...ac, ...mm];
}

const jsonl = (lines: readonly unknown[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

describe("statement alignment", () => {
  it("pairs identical text first, then the highest word overlap at or above 0.5, one to one", () => {
    // "Paris lies on the Loire." {paris, lies, on, the, loire} vs "… Loire river." (+ river): 2·5/(5 + 6) = 10/11
    close(wordOverlap("Paris lies on the Loire.", "Paris lies on the Loire river."), 10 / 11);
    // r5: label 1 {fleming, discovered, penicillin} vs judge {alexander, fleming, discovered, penicillin, in, 1928}: 2·3/(3 + 6) = 2/3;
    //     label 2 (+ in, 1928) vs judge: 2·5/(5 + 6) = 10/11, higher, so label 2 takes the one judge statement.
    assert.deepEqual(alignStatements(["Fleming discovered penicillin.", "Fleming discovered penicillin in 1928."], ["Alexander Fleming discovered penicillin in 1928."]), [[1, 0]]);
    // Below the threshold nothing aligns: {the, sky, is, blue} vs {water, is, wet}: 2·1/(4 + 3) = 2/7.
    assert.deepEqual(alignStatements(["The sky is blue."], ["Water is wet."]), []);
    assert.deepEqual(alignStatements(["A b.", "C d."], ["C  d.", "A b."]), [[0, 1], [1, 0]]);
  });
});

describe("calibrate: the worked example", () => {
  const dir = tempDir();
  const labelFile = writeText(dir, "example.labels.jsonl", jsonl(exampleLabels()));
  const report = calibrate(toDataFrame(scoredRecords()), labelFile, { top: 3 });

  it("matches every row by (id, model), none stale", () => {
    assert.equal(report.labels, "statements");
    assert.equal(report.matchedBy, "id");
    assert.equal(report.beta, 1);
    assert.deepEqual(rows(report.coverage), [
      { kind: "answer_correctness", labels: 6, matched: 6, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 },
      { kind: "multimodal_relevance", labels: 6, matched: 6, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 },
    ]);
    assert.equal(rows(report.stale).length, 0);
  });

  it("statement agreement: accuracy and kappa of the aligned verdicts, per side", () => {
    const [response, reference] = rows(report.statements);
    // Response side. Label statements 2+2+1+1+2+1 = 9, judge 2+2+1+2+1+1 = 9. Aligned (judge, label):
    //   r1 (TP,TP) (TP,FP) · r2 (TP,TP) (TP,TP) · r3 (TP,TP) · r4 (FP,FP) ["Water is wet." unaligned] ·
    //   r5 (TP,TP) [label "Fleming discovered penicillin." unaligned] · r6 (TP,FP)   → 8 pairs, 6 agree: 0.75.
    //   Kappa: judge TP 7 / FP 1, label TP 5 / FP 3; chance = 7·5 + 1·3 = 38;
    //   (8·6 − 38)/(8² − 38) = 10/26.
    assert.deepEqual({ ...response, accuracy: null, kappa: null }, {
      side: "response", verdicts: "TP/FP", n_rows: 6, n_label: 9, n_judge: 9, n_aligned: 8, n_agree: 6, accuracy: null, kappa: null,
    });
    close(response!.accuracy, 0.75);
    close(response!.kappa, 10 / 26);
    // Reference side: the judge's reference statements are the labelled ones (10 each, all aligned).
    //   r1 (cov,cov) (cov,FN) · r2 (cov,cov) ×2 · r3 (cov,cov) · r4 (FN,FN) · r5 (cov,cov) (FN,cov) · r6 (cov,cov) (cov,FN)
    //   → 7 of 10 agree: 0.7. Judge covered 8 / FN 2, label covered 7 / FN 3; chance = 8·7 + 2·3 = 62;
    //   kappa = (10·7 − 62)/(10² − 62) = 8/38.
    assert.deepEqual([reference!.n_label, reference!.n_judge, reference!.n_aligned, reference!.n_agree], [10, 10, 10, 7]);
    close(reference!.accuracy, 0.7);
    close(reference!.kappa, 8 / 38);
  });

  it("row agreement of the factual part and of the final score: Spearman (with ties), MAE and bias, overall and per model", () => {
    const table = rows(report.rows);
    assert.deepEqual(table.map((r) => [r.target, r.judge_column, r.label_column, r.model, r.n]), [
      ["factual", "answer_correctness_factual", "label_f1", "(all)", 6],
      ["factual", "answer_correctness_factual", "label_f1", "atlas", 3],
      ["factual", "answer_correctness_factual", "label_f1", "swift", 3],
      ["score", "answer_correctness", "label_f1", "(all)", 6],
      ["score", "answer_correctness", "label_f1", "atlas", 3],
      ["score", "answer_correctness", "label_f1", "swift", 3],
    ]);
    const [factualAll, factualAtlas, factualSwift, scoreAll, scoreAtlas, scoreSwift] = table;
    // Labels' F1 by row: L = [0.5, 1, 1, 0, 1, 0]; average ranks [3, 5, 5, 1.5, 5, 1.5] (mean 3.5;
    // deviations dy = [−0.5, 1.5, 1.5, −2, 1.5, −2], Σdy² = 15).
    //
    // Factual: J = [1, 1, 1, 0, 2/3, 1]; ranks [4.5, 4.5, 4.5, 1, 2, 4.5], dx = [1, 1, 1, −2.5, −1.5, 1], Σdx² = 12.5;
    //   Σdx·dy = −0.5 + 1.5 + 1.5 + 5 − 2.25 − 2 = 3.25 → ρ = 3.25/√(12.5·15).
    //   J − L = [0.5, 0, 0, 0, −1/3, 1] → MAE = (11/6)/6 = 11/36, bias = (7/6)/6 = 7/36.
    close(factualAll!.spearman, 3.25 / Math.sqrt(12.5 * 15));
    close(factualAll!.mae, 11 / 36);
    close(factualAll!.bias, 7 / 36);
    // atlas (r1, r3, r5): J = [1, 1, 2/3], L = [0.5, 1, 1]; ranks [2.5, 2.5, 1] and [1, 2.5, 2.5]:
    //   Σdx·dy = 0.5·(−1) + 0.5·0.5 + (−1)·0.5 = −0.75, Σdx² = Σdy² = 1.5 → ρ = −0.5;
    //   J − L = [0.5, 0, −1/3] → MAE = 5/18, bias = 1/18.
    close(factualAtlas!.spearman, -0.5);
    close(factualAtlas!.mae, 5 / 18);
    close(factualAtlas!.bias, 1 / 18);
    // swift (r2, r4, r6): J = [1, 0, 1], L = [1, 0, 0]; ranks [2.5, 1, 2.5] and [3, 1.5, 1.5]:
    //   Σdx·dy = 0.5·1 + (−1)(−0.5) + 0.5·(−0.5) = 0.75 → ρ = 0.75/1.5 = 0.5; J − L = [0, 0, 1] → MAE = bias = 1/3.
    close(factualSwift!.spearman, 0.5);
    close(factualSwift!.mae, 1 / 3);
    close(factualSwift!.bias, 1 / 3);
    // Final score: J = [0.9, 1, 0.95, 0.1, 0.6, 0.8]; ranks [4, 6, 5, 1, 2, 3], dx = [0.5, 2.5, 1.5, −2.5, −1.5, −0.5], Σdx² = 17.5;
    //   Σdx·dy = −0.25 + 3.75 + 2.25 + 5 − 2.25 + 1 = 9.5 → ρ = 9.5/√(17.5·15) ≈ 0.5864.
    //   J − L = [0.4, 0, −0.05, 0.1, −0.4, 0.8] → MAE = 1.75/6, bias = 0.85/6.
    close(scoreAll!.spearman, 9.5 / Math.sqrt(17.5 * 15));
    close(scoreAll!.mae, 1.75 / 6);
    close(scoreAll!.bias, 0.85 / 6);
    // atlas: J = [0.9, 0.95, 0.6] (ranks [2, 3, 1]), L = [0.5, 1, 1] (ranks [1, 2.5, 2.5]):
    //   Σdx·dy = 0·(−1) + 1·0.5 + (−1)·0.5 = 0 → ρ = 0; J − L = [0.4, −0.05, −0.4] → MAE = 0.85/3, bias = −0.05/3.
    close(scoreAtlas!.spearman, 0);
    close(scoreAtlas!.mae, 0.85 / 3);
    close(scoreAtlas!.bias, -0.05 / 3);
    // swift: J = [1, 0.1, 0.8] (ranks [3, 1, 2]), L = [1, 0, 0] (ranks [3, 1.5, 1.5]):
    //   Σdx·dy = 1·1 + (−1)(−0.5) + 0 = 1.5, Σdx² = 2, Σdy² = 1.5 → ρ = 1.5/√3 = √3/2;
    //   J − L = [0, 0.1, 0.8] → MAE = bias = 0.9/3 = 0.3.
    close(scoreSwift!.spearman, Math.sqrt(3) / 2);
    close(scoreSwift!.mae, 0.3);
    close(scoreSwift!.bias, 0.3);
    // Rows the labels score 0: r4 and r6 (L = 0). Factual J there = [0, 1] → one of two at ≥ 0.5;
    // final score J there = [0.1, 0.8] → one of two. atlas has none (NaN share); swift has both.
    assert.deepEqual(table.map((r) => r.n_label_zero), [2, 0, 2, 2, 0, 2]);
    close(factualAll!.high_on_label_zero, 0.5);
    assert.ok(Number.isNaN(factualAtlas!.high_on_label_zero as number));
    close(factualSwift!.high_on_label_zero, 0.5);
    close(scoreAll!.high_on_label_zero, 0.5);
  });

  it("model ranking: means under the judge and under the labels, with ranks", () => {
    // atlas: judge (0.9 + 0.95 + 0.6)/3 = 2.45/3, labels (0.5 + 1 + 1)/3 = 2.5/3;
    // swift: judge (1 + 0.1 + 0.8)/3 = 1.9/3, labels (1 + 0 + 0)/3 = 1/3 → atlas first on both sides.
    const [atlas, swift] = rows(report.ranking);
    assert.deepEqual([atlas!.model, atlas!.n, atlas!.judge_rank, atlas!.label_rank], ["atlas", 3, 1, 1]);
    assert.deepEqual([swift!.model, swift!.n, swift!.judge_rank, swift!.label_rank], ["swift", 3, 2, 2]);
    close(atlas!.judge_mean, 2.45 / 3);
    close(atlas!.label_mean, 2.5 / 3);
    close(swift!.judge_mean, 1.9 / 3);
    close(swift!.label_mean, 1 / 3);
    assert.equal(report.rankingAgrees, true);
  });

  it("answer order: of two answers to one question that the labels score differently, is the better one scored higher?", () => {
    // Factual, per question: q1 L [0.5, 1], J [1, 1] → tied; q2 L [1, 0], J [1, 0] → ordered;
    // q3 L [1, 0], J [2/3, 1] → reversed. Final score: q1 J [0.9, 1] → ordered; q2 [0.95, 0.1] → ordered;
    // q3 [0.6, 0.8] → reversed.
    assert.deepEqual(rows(report.answerOrder), [
      { target: "factual", judge_column: "answer_correctness_factual", label_column: "label_f1", n_questions: 3, n_pairs: 3, ordered: 1, tied: 1, reversed: 1, share_ordered: 1 / 3 },
      { target: "score", judge_column: "answer_correctness", label_column: "label_f1", n_questions: 3, n_pairs: 3, ordered: 2, tied: 0, reversed: 1, share_ordered: 2 / 3 },
    ]);
  });

  it("lists the largest disagreements with the statements whose verdicts differ, and those left without a partner", () => {
    // |J − L| = [0.4, 0, 0.05, 0.1, 0.4, 0.8]: r6 (0.8), then r1 and r5 (0.4 each, in table order).
    const top = rows(report.disagreements);
    assert.deepEqual(top.map((r) => [r.id, r.model]), [["q3", "swift"], ["q1", "atlas"], ["q3", "atlas"]]);
    close(top[0]!.judge, 0.8);
    assert.equal(top[0]!.label, 0);
    close(top[0]!.difference, 0.8);
    close(top[2]!.difference, 0.6 - 1);
    assert.equal(top[0]!.user_input, Q3);
    assert.equal(top[0]!.response, "Fleming discovered penicillin in 1929.");
    assert.equal(
      top[0]!.statements,
      'response "Fleming discovered penicillin in 1929.": judge TP, label FP; reference "Fleming discovered penicillin in 1928.": judge covered, label FN',
    );
    assert.equal(
      top[1]!.statements,
      'response "Paris lies on the Loire." (judge: "Paris lies on the Loire river."): judge TP, label FP; reference "Paris lies on the Seine.": judge covered, label FN',
    );
    assert.equal(top[2]!.statements, 'reference "Fleming discovered penicillin in 1928.": judge FN, label covered; label only: response "Fleming discovered penicillin."');
    const all = rows(calibrate(scoredRecords(), labelFile, { top: Infinity }).disagreements);
    assert.deepEqual(all.map((r) => r.id + "/" + String(r.model)), ["q3/swift", "q1/atlas", "q3/atlas", "q2/swift", "q2/atlas", "q1/swift"]);
    assert.equal(all[3]!.statements, 'judge only: response "Water is wet."');
    assert.equal(all[5]!.statements, "");
  });

  it("multimodal relevance: accuracy and kappa of 0/1 against the labelled relevant, overall and per model", () => {
    // (judge, label) by row: r1 (1,1) r2 (1,1) r3 (1,0) r4 (0,0) r5 (0,0) r6 (0,1).
    // All: 4 of 6 agree; judge 1s 3 / 0s 3, labels 1s 3 / 0s 3; chance = 3·3 + 3·3 = 18; kappa = (6·4 − 18)/(36 − 18) = 1/3.
    // atlas (r1, r3, r5): 2 of 3; judge 1s 2 / 0s 1, labels 1s 1 / 0s 2; chance = 2·1 + 1·2 = 4; kappa = (3·2 − 4)/(9 − 4) = 0.4.
    // swift (r2, r4, r6): 2 of 3; judge 1s 1 / 0s 2, labels 1s 2 / 0s 1; chance 4; kappa 0.4.
    const table = rows(report.relevance);
    assert.deepEqual(table.map((r) => [r.model, r.n, r.n_agree]), [["(all)", 6, 4], ["atlas", 3, 2], ["swift", 3, 2]]);
    close(table[0]!.accuracy, 4 / 6);
    close(table[0]!.kappa, 1 / 3);
    close(table[1]!.accuracy, 2 / 3);
    close(table[1]!.kappa, 0.4);
    close(table[2]!.kappa, 0.4);
  });

  it("gives the same report from parsed label objects and from a scored CSV read back", async () => {
    const fromObjects = calibrate(scoredRecords(), exampleLabels(), { top: 3 });
    const csv = path.join(dir, "scored.csv");
    await toCSV(scoredRecords(), csv);
    const fromCsv = calibrate(await loadDataset(csv), labelFile, { top: 3 });
    for (const other of [fromObjects, fromCsv]) {
      for (const key of ["coverage", "statements", "rows", "ranking", "disagreements", "relevance"] as const) {
        assert.deepEqual(rows(other[key]), rows(report[key]), key);
      }
    }
  });
});

describe("calibrate: a plain human score column", () => {
  // Human grades by row (r1…r6): atlas [0.5, 1, 0], swift [1, 0.5, 1].
  const human = [
    { id: "q1", model: "atlas", human_score: 0.5 },
    { id: "q1", model: "swift", human_score: 1 },
    { id: "q2", model: "atlas", human_score: 1 },
    { id: "q2", model: "swift", human_score: 0.5 },
    { id: "q3", model: "atlas", human_score: 0 },
    { id: "q3", model: "swift", human_score: 1 },
  ];

  it("compares the final score with the grades, and finds that the judge ranks the models the other way round", () => {
    const report = calibrate(scoredRecords(), toDataFrame(human), { labelScore: "human_score" });
    assert.equal(report.labels, "score");
    assert.equal(report.statements, undefined);
    assert.equal(report.relevance, undefined);
    assert.deepEqual(rows(report.coverage), [{ kind: "score (human_score)", labels: 6, matched: 6, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 }]);
    const all = rows(report.rows).find((r) => r.target === "score" && r.model === "(all)");
    assert.deepEqual([all!.target, all!.judge_column, all!.label_column, all!.model, all!.n], ["score", "answer_correctness", "human_score", "(all)", 6]);
    // The factual part is compared with the grades too (a grade of the answer's facts is what it scores).
    const factual = rows(report.rows).find((r) => r.target === "factual" && r.model === "(all)");
    assert.deepEqual([factual!.judge_column, factual!.label_column, factual!.n], ["answer_correctness_factual", "human_score", 6]);
    // J = [0.9, 1, 0.95, 0.1, 0.6, 0.8] (ranks [4, 6, 5, 1, 2, 3], Σdx² = 17.5);
    // H = [0.5, 1, 1, 0.5, 0, 1] (ranks [2.5, 5, 5, 2.5, 1, 5], dy = [−1, 1.5, 1.5, −1, −2.5, 1.5], Σdy² = 15);
    // Σdx·dy = −0.5 + 3.75 + 2.25 + 2.5 + 3.75 − 0.75 = 11 → ρ = 11/√(17.5·15) ≈ 0.679.
    // J − H = [0.4, 0, −0.05, −0.4, 0.6, −0.2] → MAE = 1.65/6 = 0.275, bias = 0.35/6.
    close(all!.spearman, 11 / Math.sqrt(17.5 * 15));
    close(all!.mae, 0.275);
    close(all!.bias, 0.35 / 6);
    // atlas: judge 2.45/3 ≈ 0.817, humans 1.5/3 = 0.5; swift: judge 1.9/3 ≈ 0.633, humans 2.5/3 ≈ 0.833.
    const ranking = rows(report.ranking);
    assert.deepEqual(ranking.map((r) => [r.model, r.judge_rank, r.label_rank]), [["atlas", 1, 2], ["swift", 2, 1]]);
    close(ranking[0]!.label_mean, 0.5);
    close(ranking[1]!.label_mean, 2.5 / 3);
    assert.equal(report.rankingAgrees, false);
    // Largest |J − H|: r5 (0.6), then r1 and r4 (0.4).
    assert.deepEqual(rows(report.disagreements).slice(0, 3).map((r) => [r.id, r.model, r.statements]), [["q3", "atlas", ""], ["q1", "atlas", ""], ["q2", "swift", ""]]);
    // Within each question the judge scores the better-graded answer higher: q1 0.9 < 1 (0.5 < 1),
    // q2 0.95 > 0.1 (1 > 0.5), q3 0.6 < 0.8 (0 < 1); the models' order is reversed all the same.
    assert.deepEqual(rows(report.answerOrder).filter((r) => r.target === "score").map((r) => [r.n_pairs, r.ordered, r.share_ordered]), [[3, 3, 1]]);
    assert.deepEqual(rows(report.answerOrder).map((r) => r.target), ["factual", "score"]);
  });

  it("answer order counts every pair of a question's answers, and skips questions whose answers the labels score alike", () => {
    const scored = [
      { id: "a", model: "m1", user_input: "Q a", response: "r1", answer_correctness: 0.9 },
      { id: "a", model: "m2", user_input: "Q a", response: "r2", answer_correctness: 0.95 },
      { id: "a", model: "m3", user_input: "Q a", response: "r3", answer_correctness: 0.2 },
      { id: "b", model: "m1", user_input: "Q b", response: "r4", answer_correctness: 0.1 },
      { id: "b", model: "m2", user_input: "Q b", response: "r5", answer_correctness: 0.7 },
    ];
    const grades = [
      { id: "a", model: "m1", grade: 1 },
      { id: "a", model: "m2", grade: 0.5 },
      { id: "a", model: "m3", grade: 0 },
      { id: "b", model: "m1", grade: 1 },
      { id: "b", model: "m2", grade: 1 },
    ];
    // a: (m1, m2) labels 1 > 0.5 but judge 0.9 < 0.95 → reversed; (m1, m3) and (m2, m3) ordered. b: equal labels, no pair.
    const [order] = rows(calibrate(scored, grades, { labelScore: "grade" }).answerOrder);
    assert.deepEqual(order, { target: "score", judge_column: "answer_correctness", label_column: "grade", n_questions: 1, n_pairs: 3, ordered: 2, tied: 0, reversed: 1, share_ordered: 2 / 3 });
    // Without ids, answers belong to one question by its text.
    const byText = calibrate(scored.map(({ id: _id, ...r }) => r), grades.map((g, i) => ({ user_input: scored[i]!.user_input, model: g.model, grade: g.grade })), { labelScore: "grade" });
    assert.equal(rows(byText.answerOrder)[0]!.n_pairs, 3);
  });

  it("names the row and column of a grade outside 0–1, and the columns when the score column is missing", () => {
    const bad = human.map((h, i) => (i === 3 ? { ...h, human_score: 4 } : h));
    assert.throws(() => calibrate(scoredRecords(), bad, { labelScore: "human_score" }), /calibrate: label row 3, column "human_score": 4 is not a score from 0 to 1/);
    assert.throws(() => calibrate(scoredRecords(), human, { labelScore: "grade" }), /no label score column "grade"; the columns are: id, model, human_score/);
    assert.throws(() => calibrate(scoredRecords(), human), /a table without response_statements or relevant; for a column of human scores, name it: .*labelScore: "human_score"/);
    const mixed = human.map((h, i) => (i === 1 ? { ...h, human_score: true } : h));
    // The cell that is no number is named, not a valid grade before it.
    assert.throws(() => calibrate(scoredRecords(), mixed, { labelScore: "human_score" }), /column "human_score" holds text \(label row 1 is "true", not a number: the column mixes true\/false with other grades; write them all as 1 and 0\); give every grade as a number from 0 to 1, or every grade as true\/false/);
    const typo = human.map((h, i) => (i === 4 ? { ...h, human_score: "abc" } : h));
    assert.throws(() => calibrate(scoredRecords(), typo, { labelScore: "human_score" }), /column "human_score" holds text \(label row 4 is "abc", not a number\)/);
    // A column of booleans alone counts true as 1 and false as 0: all six grades 1/0 here.
    const passFail = human.map((h) => ({ ...h, human_score: h.human_score >= 0.5 }));
    const report = calibrate(scoredRecords(), passFail, { labelScore: "human_score" });
    assert.deepEqual(rows(report.ranking).map((r) => r.label_mean), [2 / 3, 1]);
  });
});

describe("calibrate: stale labels, unlabelled rows and matching by question", () => {
  it("leaves out and lists a label whose response changed, and matches by (user_input, model) without ids", () => {
    const scored = scoredRecords().map(({ id: _id, ...rest }) => rest); // no id column: match by (user_input, model)
    const labels = exampleLabels()
      .slice(0, 5) // r6 unlabelled; no multimodal labels
      .map((l, i) => (i === 3 ? { ...l, response: "Water boils at 90 °C." } : l)); // r4 was answered differently when labelled
    labels.push({ ...labels[0]!, id: "q9", user_input: "A question nobody was asked?" }); // matches no row
    const report = calibrate(scored, labels);
    assert.equal(report.matchedBy, "user_input");
    assert.deepEqual(rows(report.coverage), [{ kind: "answer_correctness", labels: 6, matched: 4, stale: 1, unlabelled_rows: 1, unused_labels: 1, judge_failed: 0 }]);
    assert.deepEqual(rows(report.stale), [{ id: "q2", model: "swift", user_input: Q2, kind: "answer_correctness", field: "response", where: "labels[3]" }]);
    // Rows r1, r2, r3, r5 remain: J = [0.9, 1, 0.95, 0.6], L = [0.5, 1, 1, 1] → bias = (0.4 + 0 − 0.05 − 0.4)/4 = −0.0125.
    const score = rows(report.rows).find((r) => r.target === "score" && r.model === "(all)")!;
    assert.equal(score.n, 4);
    close(score.bias, -0.05 / 4);
    assert.equal(rows(report.statements)[0]!.n_rows, 4);
  });

  it("compares a label's texts only with texts the table has: a missing reference column or response is no change, an empty response is", () => {
    const labels = exampleLabels().slice(0, 6);
    const noReference = scoredRecords().map(({ reference: _reference, ...rest }, i) => (i === 0 ? { ...rest, response: null } : rest));
    assert.deepEqual(rows(calibrate(noReference, labels).coverage), [{ kind: "answer_correctness", labels: 6, matched: 6, stale: 0, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 }]);
    const emptied = scoredRecords().map((r, i) => (i === 0 ? { ...r, response: "" } : r));
    const report = calibrate(emptied, labels);
    assert.deepEqual(rows(report.coverage), [{ kind: "answer_correctness", labels: 6, matched: 5, stale: 1, unlabelled_rows: 0, unused_labels: 0, judge_failed: 0 }]);
    assert.equal(rows(report.stale)[0]!.field, "response");
  });

  it("says so when no label matches any row, and names bad label files", () => {
    const labels = exampleLabels().map((l) => ({ ...l, model: `${l.model!}-v2` }));
    assert.throws(() => calibrate(scoredRecords(), labels), /calibrate: none of the 6 scored rows matched any of the 6 labels by \(id, model\); check that the ids/);
    const broken = exampleLabels().map((l, i) => (i === 0 ? { ...l, response_statements: [{ statement: "X.", verdict: "maybe" }] } : l));
    assert.throws(() => calibrate(scoredRecords(), broken), (error: unknown) => error instanceof LabelFileError && /labels\[0\], field response_statements\[0\]\.verdict/.test(error.message));
  });
});

describe("evalframe calibrate", () => {
  const dir = tempDir();
  const labelFile = writeText(dir, "example.labels.jsonl", jsonl(exampleLabels()));
  const scoredCsv = path.join(dir, "scored.csv");

  const run = runCliCaptured;

  it("prints the tables, exits 0, and gives the same numbers as JSON", async () => {
    await toCSV(scoredRecords(), scoredCsv);
    const result = await run(["calibrate", scoredCsv, "--labels", labelFile, "--top", "3"]);
    assert.equal(result.code, 0, result.err);
    assert.equal(result.err, "");
    for (const heading of ["coverage", "statement agreement", "row agreement", "model ranking: the judge orders the models as the labels do", "largest disagreements (top 3)", "multimodal relevance agreement"]) {
      assert.ok(result.out.includes(heading), `missing "${heading}" in:\n${result.out}`);
    }
    assert.match(result.out, /rows matched by \(id, model\)/);
    assert.match(result.out, /response +TP\/FP +6 +9 +9 +8 +6 +0\.75 +0\.385\n/); // 10/26 = 0.3846…
    assert.match(result.out, /reference +covered\/FN +6 +10 +10 +10 +7 +0\.7 +0\.211\n/); // 8/38 = 0.2105…
    assert.match(result.out, /score +answer_correctness +label_f1 +\(all\) +6 +0\.586 +0\.292 +0\.142 +2 +0\.5\n/); // 9.5/√262.5, 1.75/6, 0.85/6
    assert.doesNotMatch(result.out, /stale labels/);

    const json = await run(["calibrate", scoredCsv, "--labels", labelFile, "--json"]);
    assert.equal(json.code, 0, json.err);
    const body = JSON.parse(json.out) as { rankingAgrees: boolean; statements: { kappa: number }[]; relevance: { kappa: number }[] };
    assert.equal(body.rankingAgrees, true);
    close(body.statements[0]!.kappa, 10 / 26);
    close(body.relevance[0]!.kappa, 1 / 3);
  });

  it("reads a human score column with --label-score", async () => {
    const grades = path.join(dir, "grades.csv");
    await toCSV(EXAMPLE.map((e, i) => ({ id: e.id, model: e.model, human_score: [0.5, 1, 1, 0.5, 0, 1][i] })), grades);
    const result = await run(["calibrate", scoredCsv, "--labels", grades, "--label-score", "human_score"]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /model ranking: the judge orders the models differently from the labels/);
    assert.match(result.out, /score +answer_correctness +human_score +\(all\) +6 +0\.679 +0\.275 +0\.058 +1 +1\n/);
  });

  it("reads only the rows --where names, in calibrate and in summarize and compare, and says why when none is left", async () => {
    await toCSV(scoredRecords(), scoredCsv);
    const atlas = await run(["calibrate", scoredCsv, "--labels", labelFile, "--where", "model=atlas", "--json"]);
    assert.equal(atlas.code, 0, atlas.err);
    const body = JSON.parse(atlas.out) as { where: string; coverage: Record<string, number>[]; rows: Record<string, unknown>[] };
    assert.equal(body.where, "model=atlas");
    assert.deepEqual(body.coverage[0], { kind: "answer_correctness", labels: 6, matched: 3, stale: 0, unlabelled_rows: 0, unused_labels: 3, judge_failed: 0 });
    assert.deepEqual(body.rows.filter((r) => r["target"] === "factual").map((r) => [r["model"], r["n"]]), [["(all)", 3], ["atlas", 3]]);
    const printed = await run(["calibrate", scoredCsv, "--labels", labelFile, "--where", "model=atlas|swift"]);
    assert.match(printed.out, /\(its rows where model=atlas\|swift; labels of the others count as unused\)/);
    assert.match(printed.out, /answer_correctness +6 +6 +0 +0 +0 +0\n/);

    const summary = await run(["summarize", scoredCsv, "--where", "model=swift", "--json"]);
    assert.equal(summary.code, 0, summary.err);
    assert.deepEqual([...new Set((JSON.parse(summary.out) as { model: string }[]).map((r) => r.model))], ["swift"]);
    const both = await run(["compare", scoredCsv, "--where", "id=q1|q2", "--json"]);
    assert.equal(both.code, 0, both.err);
    assert.equal((JSON.parse(both.out) as { n_pairs: number }[])[0]!.n_pairs, 2);

    const unknown = await run(["calibrate", scoredCsv, "--labels", labelFile, "--where", "split=test"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /--where names column "split", which .*scored\.csv does not have; its columns are: id, model, /);
    const none = await run(["summarize", scoredCsv, "--where", "model=atlas", "--where", "id=q9"]);
    assert.equal(none.code, 2);
    assert.match(none.err, /no row of .*scored\.csv has id=q9 \(with the conditions before it\); its values there are: q1, q2, q3/);
    const malformed = await run(["compare", scoredCsv, "--where", "model"]);
    assert.equal(malformed.code, 2);
    assert.match(malformed.err, /--where "model" is not COLUMN=VALUE/);
  });

  it("names the first unlabelled rows and unused labels, with where each is, and says how many more", async () => {
    await toCSV(scoredRecords(), scoredCsv);
    const [first, ...others] = exampleLabels().slice(0, 6);
    // One label matches; the other five have a mistyped id, and one more is for a question never asked.
    const labels = [first!, ...others.map((l) => ({ ...l, id: `x${String(l.id)}` })), { ...first!, id: "q9" }];
    const file = writeText(dir, "typos.labels.jsonl", jsonl(labels));
    const printed = await run(["calibrate", scoredCsv, "--labels", file]);
    assert.equal(printed.code, 0, printed.err);
    const lines = printed.out.split("\n");
    const unlabelled = lines.find((l) => l.startsWith("unlabelled rows"));
    assert.equal(unlabelled, 'unlabelled rows (answer_correctness): 5: id "q1", model "swift" (row 1 (line 3)); id "q2", model "atlas" (row 2 (line 4)); id "q2", model "swift" (row 3 (line 5)); id "q3", model "atlas" (row 4 (line 6)); id "q3", model "swift" (row 5 (line 7))');
    const unused = lines.find((l) => l.startsWith("unused labels"));
    assert.match(unused ?? "", /^unused labels \(answer_correctness\): 6: id "xq1", model "swift" \(.*typos\.labels\.jsonl, line 2\); .*; and 1 more$/);
    assert.equal(unused!.split("; ").length, 6, "five named, then how many more");

    const json = await run(["calibrate", scoredCsv, "--labels", file, "--json"]);
    assert.equal(json.code, 0, json.err);
    const body = JSON.parse(json.out) as { unmatched: { kind: string; unlabelledRows: { count: number; more: number; first: { id: string; where: string }[] }; unusedLabels: { count: number; more: number; first: { id: string }[] } }[] };
    const [ac] = body.unmatched;
    assert.equal(ac!.kind, "answer_correctness");
    assert.deepEqual([ac!.unlabelledRows.count, ac!.unlabelledRows.more, ac!.unlabelledRows.first[0]], [5, 0, { id: "q1", model: "swift", user_input: null, where: "row 1 (line 3)" }]);
    assert.deepEqual([ac!.unusedLabels.count, ac!.unusedLabels.more, ac!.unusedLabels.first.map((l) => l.id)], [6, 1, ["xq1", "xq2", "xq2", "xq3", "xq3"]]);
  });

  it("exits 2 without --labels, and 1 with one line for a label file it cannot use", async () => {
    const missing = await run(["calibrate", scoredCsv]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /calibrate: --labels is required/);
    const bad = writeText(dir, "bad.jsonl", `${JSON.stringify(exampleLabels()[0])}\nnot json\n`);
    const failed = await run(["calibrate", scoredCsv, "--labels", bad]);
    assert.equal(failed.code, 1);
    assert.equal(failed.err.split("\n").filter(Boolean).length, 1);
    assert.match(failed.err, /bad\.jsonl, line 2: not valid JSON/);
    const help = await run(["calibrate", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.out, /evalframe calibrate <scored\.csv> --labels labels\.jsonl/);
  });
});

describe("README: calibrate with a column of human grades", () => {
  it("its example loads the grades file first: calibrate refuses a file name with labelScore, and takes the loaded table", async () => {
    const readme = readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
    const line = readme.split("\n").find((l) => /calibrate\(scored, .*labelScore: "human_score"/.test(l));
    assert.ok(line !== undefined, "README shows calibrate with labelScore");
    const labels = /calibrate\(scored, (.+), \{ labelScore/.exec(line)![1]!;
    assert.match(labels, /^await loadTable\("grades\.csv", \{ required: \[\] \}\)$/, `README passes ${labels}`);
    // What the README's call does, with the sample's hand scores as grades.
    const dir = tempDir();
    const scored = await loadDataset(path.join(__dirname, "..", "data", "qa-assistant.csv"));
    const rows = frameRecords(scored).map((r) => ({ ...r, answer_correctness: 0.5, answer_correctness_error: "" }));
    const grades = path.join(dir, "grades.csv");
    writeFileSync(grades, readFileSync(path.join(__dirname, "..", "data", "qa-assistant.scores.csv")));
    // A file name is refused, saying how to load it; loaded as the README loads it, it is read.
    assert.throws(() => calibrate(rows, grades, { labelScore: "human_score" }), /load a file first: calibrate\(scored, await loadTable\(".*grades\.csv", \{ required: \[\] \}\), \{ labelScore: "human_score" \}\)/);
    await assert.rejects(loadTable(grades), /missing required column "user_input"/, "without required: [] the grades file is refused");
    const report = calibrate(rows, await loadTable(grades, { required: [] }), { labelScore: "human_score" });
    assert.equal(report.rows!.shape[0], 4); // the score over all rows and per model (strong, middling, weak)
  });
});
