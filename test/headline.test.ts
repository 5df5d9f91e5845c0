/**
 * headline(): the run's conclusion in words, checked word for word on three
 * worked examples written by hand (a summary and a comparison as records),
 * and once end to end on a scored table.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { compareModels } from "../src/analysis/compare";
import { headline } from "../src/analysis/headline";
import { summarize } from "../src/analysis/summarize";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";

function summaryRow(model: string, n: number, errors: number, mean: number, low: number, high: number) {
  return { model, metric: "answer_correctness", n, n_valid: n - errors, n_error: errors, mean, ci_low: low, ci_high: high };
}

function pair(a: string, b: string, diff: number, low: number, high: number, test: string, pHolm: number, verdict: string, unpairedBecause = "") {
  return { model_a: a, model_b: b, mean_diff: diff, ci_low: low, ci_high: high, test, p_holm: pHolm, verdict, unpaired_because: unpairedBecause };
}

describe("headline", () => {
  it("a clear difference", () => {
    const summary = [summaryRow("swift-mini", 40, 0, 0.52, 0.45, 0.59), summaryRow("atlas-pro", 40, 0, 0.731, 0.68, 0.78)];
    const comparison = [pair("atlas-pro", "swift-mini", 0.21, 0.12, 0.3, "wilcoxon signed-rank (exact)", 0.001, "atlas-pro better than swift-mini")];
    assert.deepEqual(headline(summary, comparison, { judge: "gpt-4o-mini @ api.openai.com" }), [
      "Ranking by mean answer_correctness: atlas-pro 0.73 (95% CI 0.68–0.78), swift-mini 0.52 (0.45–0.59); 40 answers each.",
      "atlas-pro scores 0.21 higher than swift-mini (95% CI 0.12–0.30; Wilcoxon p_holm = 0.001): a real difference.",
      "Scored by gpt-4o-mini @ api.openai.com.",
    ]);
  });

  it("no difference, the comparison's models given the other way round, and the offline judge's caveat", () => {
    const summary = [summaryRow("a", 12, 0, 0.61, 0.5, 0.72), summaryRow("b", 12, 0, 0.58, 0.47, 0.69), summaryRow("c", 12, 0, 0.2, 0.1, 0.3)];
    const comparison = [
      pair("b", "a", -0.03, -0.11, 0.05, "wilcoxon signed-rank (exact)", 0.42, "no detectable difference"),
      pair("b", "c", 0.38, 0.25, 0.5, "sign test (exact)", 0.0004, "b better than c"),
      pair("a", "c", 0.41, 0.28, 0.53, "sign test (exact)", 0.0002, "a better than c"),
    ];
    assert.deepEqual(headline(summary, comparison, { judge: "offline (approximate)" }), [
      "Ranking by mean answer_correctness: a 0.61 (95% CI 0.50–0.72), b 0.58 (0.47–0.69), c 0.20 (0.10–0.30); 12 answers each.",
      "b scores 0.38 higher than c (95% CI 0.25–0.50; sign test p_holm < 0.001): a real difference.",
      "a scores 0.03 higher than b (95% CI −0.05 to 0.11; Wilcoxon p_holm = 0.42): no detectable difference, it may be chance.",
      "Scored by the offline judge (approximate, lexical): good for trying the workflow, not for choosing a model; set a model to judge before you rely on these numbers.",
    ]);
  });

  it("errors: counted per model, left out of the means, and an unpaired comparison says why", () => {
    const summary = [summaryRow("atlas-pro", 42, 3, 0.7, 0.64, 0.76), summaryRow("swift-mini", 42, 5, 0.66, 0.58, 0.73)];
    const comparison = [pair("atlas-pro", "swift-mini", 0.04, -0.06, 0.14, "two-sample bootstrap (unpaired)", 0.37, "no detectable difference", 'there is no "id" column and no question column (user_input)')];
    assert.deepEqual(headline(summary, comparison, { judge: "hand-labelled" }), [
      "Ranking by mean answer_correctness: atlas-pro 0.70 (95% CI 0.64–0.76, 39 answers), swift-mini 0.66 (0.58–0.73, 37 answers).",
      'atlas-pro scores 0.04 higher than swift-mini (95% CI −0.06 to 0.14; unpaired bootstrap p_holm = 0.37; unpaired because there is no "id" column and no question column (user_input)): no detectable difference, it may be chance.',
      "8 of 84 answers failed to score (5 of swift-mini's, 3 of atlas-pro's): they are left out of the means, not counted as 0.",
      "Scored from hand labels: the verdicts of a careful human reader, replayed.",
    ]);
  });

  it("end to end on a scored table: one model, two models, and a summary that is not one", () => {
    const rows = [0.2, 0.4, 0.6, 0.8].map((x, i) => ({ id: `q${i}`, model: "solo", answer_correctness: x, answer_correctness_error: "" }));
    const [first] = headline(summarize(rows, { by: "model" }), undefined);
    assert.match(first!, /^solo scores a mean answer_correctness of 0\.50 \(95% CI \d\.\d\d–\d\.\d\d; 4 answers\)\.$/);
    const two = [...rows, ...rows.map((r) => ({ ...r, model: "duo", answer_correctness: r.answer_correctness / 2 }))];
    const sentences = headline(summarize(two, { by: "model" }), compareModels(two));
    assert.equal(sentences.length, 2, "no judge given: no judge sentence");
    assert.match(sentences[1]!, /^solo scores 0\.25 higher than duo \(95% CI \d\.\d\d–\d\.\d\d; Wilcoxon p_holm (=|<) [\d.]+\): (a real difference|no detectable difference, it may be chance)\.$/);
    assert.throws(() => headline([{ model: "x", n: 1 }]), /no metric column/);
  });
});

describe("headline at the end of the CLI's score and compare", () => {
  it("says the same sentences after the tables", async () => {
    const out = path.join(tempDir(), "scored.csv");
    const sample = path.join(__dirname, "..", "data", "qa-models.csv");
    const scored = await runCliCaptured(["score", sample, "--out", out, "--judge", "offline", "--no-progress"]);
    assert.equal(scored.code, 0, scored.err);
    const ranking = /^Ranking by mean answer_correctness: atlas-pro 0\.\d\d \(95% CI [^)]+\), chatter-xl .*; 42 answers each\.$/m;
    assert.match(scored.out, ranking);
    assert.match(scored.out, /^Scored by the offline judge \(approximate, lexical\): good for trying the workflow, not for choosing a model/m);
    const compared = await runCliCaptured(["compare", out]);
    assert.equal(compared.code, 0, compared.err);
    const pairs = (text: string) => text.split("\n").filter((l) => / scores \d\.\d\d higher than /.test(l));
    assert.ok(pairs(scored.out).length >= 1);
    assert.deepEqual(pairs(compared.out), pairs(scored.out), "score (streamed) and compare (whole table) reach the same conclusion");
  });
});
