/**
 * headline(): the run's conclusion in words, checked word for word on three
 * worked examples written by hand (a summary and a comparison as records),
 * and once end to end on a scored table.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { compareModels } from "../src/analysis/compare";
import { compareRuns } from "../src/analysis/compare-runs";
import { headline } from "../src/analysis/headline";
import { summarize } from "../src/analysis/summarize";
import { createJudge, loadDataset, scoreAnswerCorrectness } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";
import { skewedRuns } from "./support/runs";

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

  it("names the rows with no model (bad input) so that every sentence reads", () => {
    const summary = [summaryRow("a", 10, 0, 0.8, 0.7, 0.9), summaryRow("", 1, 1, Number.NaN, Number.NaN, Number.NaN)];
    const lines = headline(summary);
    assert.ok(lines.includes("(no model) has no scored answer."), lines.join("\n"));
    assert.ok(lines.some((l) => l.includes("1 of (no model)'s")), lines.join("\n"));
    assert.ok(!lines.some((l) => /^ |of 's/.test(l)), lines.join("\n"));
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
    // Four pairs: the mean's bootstrap interval excludes 0, but no exact Wilcoxon p from 4 pairs reaches 0.05; the clause says so.
    assert.equal(
      sentences[1],
      "solo scores 0.25 higher than duo (95% CI 0.15–0.35; Wilcoxon p_holm = 0.13; the verdict follows the rank test (which model wins the typical question), which finds no difference; the mean's interval excludes 0): no detectable difference, it may be chance.",
    );
    assert.throws(() => headline([{ model: "x", n: 1 }]), /no metric column/);
  });

  it("fifty models make a headline of a few lines: ten ranked by name and the rest counted, five neighbouring pairs and the rest counted", () => {
    const summary = Array.from({ length: 50 }, (_, m) => summaryRow(`m${String(m).padStart(2, "0")}`, 40, 0, 0.9 - m * 0.01, 0.85 - m * 0.01, 0.95 - m * 0.01));
    const comparison = summary.slice(0, -1).map((r, k) => pair(r.model, summary[k + 1]!.model, 0.01, -0.03, 0.05, "wilcoxon signed-rank (normal approx.)", 1, "no detectable difference"));
    const [ranking, chance, ...rest] = headline(summary, comparison);
    assert.equal(ranking, "Ranking by mean answer_correctness: m00 0.90 (95% CI 0.85–0.95), m01 0.89 (0.84–0.94), m02 0.88 (0.83–0.93), m03 0.87 (0.82–0.92), m04 0.86 (0.81–0.91), m05 0.85 (0.80–0.90), m06 0.84 (0.79–0.89), m07 0.83 (0.78–0.88), m08 0.82 (0.77–0.87), m09 0.81 (0.76–0.86), 40 more down to m49 0.41 (the summary lists them all); 40 answers each.");
    assert.equal((chance!.match(/ scores 0\.01 higher than /g) ?? []).length, 5);
    assert.match(chance!, /^m00 scores 0\.01 higher than m01 .*, and 44 more pairs of neighbours in the ranking \(the comparison lists them\): no detectable differences, they may be chance\.$/);
    assert.deepEqual(rest, []);
    // Six pairs are still named one by one (a count of one pair would read worse than the pair).
    const seven = headline(summary.slice(0, 7), comparison.slice(0, 6));
    assert.equal((seven[1]!.match(/ scores 0\.01 higher than /g) ?? []).length, 6);
    assert.doesNotMatch(seven[0]!, /more down to/);
  });

  it("names the judge the scored table names, given nothing: the offline judge's caveat is never left out; a judge object is read for its label", async () => {
    const judge = createJudge({ judge: "offline", quiet: true });
    const scored = await scoreAnswerCorrectness(await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv")), { judge, progress: false, quiet: true });
    const summary = summarize(scored, { by: "model" });
    const caveat = /^Scored by the offline judge \(approximate, lexical\)/;
    assert.match(headline(summary, compareModels(scored)).at(-1)!, caveat);
    assert.match(headline(summary, compareModels(scored), { judge }).at(-1)!, caveat);
    assert.equal(headline(summary, compareModels(scored), { judge: { label: "gpt-4o-mini @ api.openai.com" } }).at(-1), "Scored by gpt-4o-mini @ api.openai.com.");
    assert.doesNotMatch(headline(summary, compareModels(scored), { judge: "" }).join(" "), /Scored/);
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

describe("headline: when most answers failed, ties, too few pairs, and the change since a previous run", () => {
  const imageReason = (context: number) =>
    `relevance judgement failed: the offline judge cannot see images, and this verdict depends on context ${context} (images/chart-${context}.png); set OPENAI_API_KEY or OPENAI_BASE_URL and a vision model to judge this row`;
  // data/multimodal.csv scored offline, in small: ten questions, three models, one question scored, the rest failed on images.
  const mostlyFailed = Array.from({ length: 10 }, (_, q) =>
    ["atlas-pro", "chatter-xl", "swift-mini"].map((model) => ({
      id: `m${q}`,
      model,
      multimodal_relevance: q === 0 ? (model === "swift-mini" ? 0 : 1) : Number.NaN,
      multimodal_relevance_error: q === 0 ? "" : imageReason(1 + (q % 3)),
    })),
  ).flat();

  it("leads with the failures and their commonest reason, ranks no tied model ahead, and draws no conclusion from one pair", () => {
    const options = { metric: "multimodal_relevance", by: "model" };
    const summary = summarize(mostlyFailed, { ...options, metrics: "multimodal_relevance" });
    const sentences = headline(summary, compareModels(mostlyFailed, options), { metric: "multimodal_relevance", scored: mostlyFailed, judge: "offline (approximate)" });
    assert.deepEqual(sentences, [
      "Only 3 of 30 answers were scored on multimodal_relevance: 27 failed (9 of atlas-pro's, 9 of chatter-xl's, 9 of swift-mini's), all with “relevance judgement failed: the offline judge cannot see images, and this verdict depends on context N”; they are left out of the means, not counted as 0, so what follows rests on 3 answers.",
      "Ranking by mean multimodal_relevance: atlas-pro 1.00 (95% CI 0.21–1.00) tied with chatter-xl 1.00 (0.21–1.00), swift-mini 0.00 (0.00–0.79); 1 answer each.",
      "No conclusion about atlas-pro against chatter-xl (1 question scored for both) or chatter-xl against swift-mini (1 question scored for both): a difference needs at least 2 questions scored for both, so its 95% CI is n/a.",
      "Scored by the offline judge (approximate, lexical): good for trying the workflow, not for choosing a model; set a model to judge before you rely on these numbers.",
    ]);
    assert.ok(!sentences.some((s) => /0\.00–0\.00|1\.00–1\.00|scores 0\.00 higher/.test(s)), "no zero-width interval, no difference of nothing");
    // Without the scored table: the counts, no reason; reasons that differ: the commonest, with its count.
    assert.match(headline(summary, undefined, { metric: "multimodal_relevance" })[0]!, /^Only 3 of 30 answers were scored on multimodal_relevance: 27 failed \(9 of atlas-pro's, 9 of chatter-xl's, 9 of swift-mini's\); they are left out/);
    const mixed = mostlyFailed.map((r, i) => (i >= 24 ? { ...r, multimodal_relevance_error: "image not found: images/gone.png" } : r));
    assert.match(headline(summary, undefined, { metric: "multimodal_relevance", scored: mixed })[0]!, /27 failed \([^)]+\), most \(21\) with “relevance judgement failed: the offline judge cannot see images/);
    // Every answer failed: one sentence says so, not two.
    const none = mostlyFailed.map((r) => ({ ...r, multimodal_relevance: Number.NaN, multimodal_relevance_error: imageReason(1) }));
    const nothing = headline(summarize(none, { ...options, metrics: "multimodal_relevance" }), undefined, { metric: "multimodal_relevance", scored: none });
    assert.deepEqual(nothing, [
      "No answer could be scored on multimodal_relevance: all 30 answers failed (10 of atlas-pro's, 10 of chatter-xl's, 10 of swift-mini's), all with “relevance judgement failed: the offline judge cannot see images, and this verdict depends on context N”.",
    ]);
  });

  it("judge failures: the model's name is kept whole and the cause (HTTP status, invalid reply) decides the group", () => {
    // Worded as the OpenAI judge words them (src/judge/openai-judge.ts, structured.ts).
    const http401 = (n: number) =>
      `statement extraction of the response failed: statements request to gpt-4o-mini: HTTP 401 from https://api.openai.com/v1: 401 Incorrect API key provided: sk-[redacted]. Request ${n}; the API key was not accepted: check EVALFRAME_API_KEY / OPENAI_API_KEY, or the key for this base URL`;
    const invalid = (reply: string) =>
      `statement extraction of the response failed: statements request to gpt-4o-mini: no valid reply after 3 attempts; last problem: the reply is not valid JSON: "${reply}"`;
    const rows = Array.from({ length: 10 }, (_, i) => ({
      id: `q${i}`,
      model: "llama3.1",
      answer_correctness: i === 0 ? 0.5 : Number.NaN,
      answer_correctness_error: i === 0 ? "" : i <= 6 ? http401(i) : invalid(`Sure ${i}: {not json`),
    }));
    const sentences = headline(summarize(rows, { by: "model", metrics: "answer_correctness" }), undefined, { scored: rows });
    assert.match(
      sentences[0]!,
      /^Only 1 of 10 answers was scored on answer_correctness: 9 failed \(9 of llama3\.1's\), most \(6\) with “statement extraction of the response failed: statements request to gpt-4o-mini: HTTP 401”;/,
    );
    assert.doesNotMatch(sentences.join(" "), /gpt-No|llamaN|sk-/);
  });

  it("half the answers failed or fewer: the ranking first, the failures after it, as before", () => {
    const summary = [summaryRow("atlas-pro", 10, 5, 0.7, 0.6, 0.8), summaryRow("swift-mini", 10, 5, 0.5, 0.4, 0.6)];
    const sentences = headline(summary);
    assert.match(sentences[0]!, /^Ranking by mean answer_correctness: atlas-pro 0\.70/);
    assert.equal(sentences[1], "10 of 20 answers failed to score (5 of atlas-pro's, 5 of swift-mini's): they are left out of the means, not counted as 0.");
  });

  it("tied means: neither ranked ahead, and the pair 'scores the same'; an unpaired difference with one score a side: no conclusion", () => {
    const summary = [summaryRow("a", 12, 0, 0.5, 0.4, 0.6), summaryRow("b", 12, 0, 0.5, 0.41, 0.59), summaryRow("c", 12, 0, 0.2, 0.1, 0.3)];
    const comparison = [
      { ...pair("a", "b", 0, -0.1, 0.1, "wilcoxon signed-rank (exact)", 1, "no detectable difference"), n_pairs: 12 },
      { ...pair("b", "c", 0.3, 0.2, 0.4, "wilcoxon signed-rank (exact)", 0.001, "b better than c"), n_pairs: 12 },
    ];
    assert.deepEqual(headline(summary, comparison), [
      "Ranking by mean answer_correctness: a 0.50 (95% CI 0.40–0.60) tied with b 0.50 (0.41–0.59), c 0.20 (0.10–0.30); 12 answers each.",
      "b scores 0.30 higher than c (95% CI 0.20–0.40; Wilcoxon p_holm = 0.001): a real difference.",
      "a and b score the same (difference 0.00, 95% CI −0.10 to 0.10; Wilcoxon p_holm = 1.00): no detectable difference, it may be chance.",
    ]);
    const three = [summaryRow("x", 4, 0, 0.25, 0.1, 0.4), summaryRow("y", 4, 0, 0.25, 0.1, 0.4), summaryRow("z", 4, 0, 0.25, 0.1, 0.4)];
    assert.match(headline(three)[0]!, /: x 0\.25 \(95% CI 0\.10–0\.40\) tied with y 0\.25 \(0\.10–0\.40\) and z 0\.25 \(0\.10–0\.40\); 4 answers each\.$/);
    const unpaired = [summaryRow("p", 3, 2, 0.9, Number.NaN, Number.NaN), summaryRow("q", 5, 0, 0.4, 0.2, 0.6)];
    const thin = [{ ...pair("p", "q", 0.5, 0.3, 0.7, "two-sample bootstrap (unpaired)", 0.2, "no detectable difference", 'there is no "id" column'), n_pairs: 0 }];
    assert.deepEqual(headline(unpaired, thin).slice(1, 2), [
      "No conclusion about p against q (unpaired, 1 and 5 scored answers): a difference needs at least 2 questions scored for both (unpaired, 2 scored answers a side), so its 95% CI is n/a.",
    ]);
  });

  it("the change since the previous run: the models that changed beyond chance with their interval, the others, and the answers that moved", () => {
    const summary = [summaryRow("atlas-pro", 20, 0, 0.7, 0.6, 0.8), summaryRow("swift-mini", 20, 0, 0.5, 0.4, 0.6)];
    const run = (model: string, change: number, low: number, high: number, pHolm: number, verdict: string, extra: Record<string, number> = {}) => ({
      model, n_paired: 20, change, ci_low: low, ci_high: high, p_holm: pHolm, verdict, test: "wilcoxon signed-rank (exact)", improved: 0, worsened: 0, failed_after_only: 0, ...extra,
    });
    const change = {
      summary: [
        run("atlas-pro", -0.05, -0.09, -0.01, 0.012, "before better than after"),
        run("swift-mini", 0.01, -0.03, 0.05, 0.6, "no detectable difference"),
        run("(all)", -0.02, -0.05, 0.01, 0.2, "no detectable difference", { improved: 4, worsened: 9, failed_after_only: 1 }),
      ],
      changes: [...[-0.7, -0.6, -0.65, -0.1, -0.2, -0.1, -0.05, -0.1, -0.3].map((d) => ({ status: "worse", change: d })), ...[0.1, 0.2, 0.1, 0.05].map((d) => ({ status: "better", change: d }))],
    };
    const sentences = headline(summary, undefined, { change, judge: "hand-labelled" });
    assert.equal(
      sentences[1],
      "Since the previous run (mean answer_correctness): atlas-pro −0.05 (95% CI −0.09 to −0.01; Wilcoxon p_holm = 0.012); others unchanged within chance; answers: 4 better, 9 worse (3 by 0.5 or more), 1 newly failed.",
    );
    assert.equal(sentences.at(-1), "Scored from hand labels: the verdicts of a careful human reader, replayed.", "the judge still last");
    const calm = { summary: [run("atlas-pro", 0.01, -0.02, 0.04, 0.5, "no detectable difference"), run("swift-mini", 0, -0.03, 0.03, 1, "no detectable difference"), run("(all)", 0, -0.02, 0.02, 1, "no detectable difference")] };
    assert.equal(headline(summary, undefined, { change: calm })[1], "Since the previous run: every model's mean answer_correctness unchanged within chance; no answer's score moved.");
    const thin = { summary: [{ ...run("atlas-pro", 1, 1, 1, 1, "no detectable difference"), n_paired: 1 }, run("swift-mini", 0, -0.03, 0.03, 1, "no detectable difference"), run("(all)", 0, 0, 0, 1, "no detectable difference", { improved: 1 })] };
    assert.equal(headline(summary, undefined, { change: thin })[1], "Since the previous run: swift-mini unchanged within chance; too few answers scored in both runs to tell for atlas-pro; answer: 1 better.");
    assert.equal(headline(summary, undefined, { change: "the runs share no answer to pair." })[1], "Since the previous run: not compared (the runs share no answer to pair).");
  });

  it("a rank test and a mean that disagree: no difference claimed, in the comparison or in the change since the previous run", () => {
    // 85 questions a little better for a (+0.05), 15 much worse (−0.9): b's mean is higher, a wins the typical question.
    const scored = Array.from({ length: 100 }, (_, i) => [
      { id: `q${i}`, model: "a", answer_correctness: i % 20 < 17 ? 0.55 : 0.05 },
      { id: `q${i}`, model: "b", answer_correctness: i % 20 < 17 ? 0.5 : 0.95 },
    ]).flat();
    const lines = headline(summarize(scored, { by: "model" }), compareModels(scored));
    assert.match(lines[1]!, /^b scores 0\.09 higher than a on average \(95% CI 0\.\d\d–0\.\d\d\), but a scores higher on the typical question \(Wilcoxon p_holm < 0\.001\): inconclusive, the typical answer and the mean disagree\.$/);
    assert.ok(!lines.some((l) => /real difference/.test(l)), lines.join("\n"));
    const { before, after } = skewedRuns();
    const since = headline(summarize(after, { by: "model" }), undefined, { change: compareRuns(before, after) })[1]!;
    assert.match(since, /^Since the previous run: M −0\.0\d on average \(95% CI −0\.0\d to −0\.0\d\) while the typical answer moved the other way \(Wilcoxon p_holm < 0\.001\): inconclusive; answers: 340 better, 60 worse\.$/);
  });

  it("the change end to end: compareRuns of two runs, one model worse by 0.4 on every answer", () => {
    const before = Array.from({ length: 8 }, (_, i) => ["a", "b"].map((model) => ({ id: `q${i}`, model, answer_correctness: 0.5 + (i % 4) / 10 }))).flat();
    const after = before.map((r) => (r.model === "a" ? { ...r, answer_correctness: r.answer_correctness - 0.4 } : r));
    const runs = compareRuns(before, after);
    const sentence = headline(summarize(after, { by: "model" }), compareModels(after), { change: runs }).find((s) => s.startsWith("Since the previous run"));
    // Every answer moved by exactly −0.4: the bootstrap has no variation to resample, and a point is not printed as an interval.
    assert.match(sentence!, /^Since the previous run \(mean answer_correctness\): a −0\.40 \(95% CI n\/a: no variation to resample; Wilcoxon p_holm = 0\.0\d+\); others unchanged within chance; answers: 8 worse\.$/);
  });
});
