import assert from "node:assert/strict";
import { before, describe, it, mock } from "node:test";
import type { DataFrame } from "danfojs-node";
import { createJudge, loadDataset, scoreAnswerCorrectness, toDataFrame } from "../src/index";
import { agreement, compareModels, disagreements, MEAN_DISAGREES, summarize, worst } from "../src/analysis/index";
import { verdictSide } from "../src/analysis/compare";
import { holm, wilsonInterval } from "../src/stats";
import { meanWithCI, relevanceRate } from "../src/charts";
import { showTable, tableHTML } from "../src/display/table";
import { readFrame } from "../src/display/table";
import type { Cell } from "../src/dataset/table";
import { tempDir, writeText } from "./support/files";

const close = (actual: unknown, expected: number, tolerance = 1e-9) =>
  assert.ok(typeof actual === "number" && Math.abs(actual - expected) <= tolerance, `${String(actual)} is not within ${tolerance} of ${expected}`);

/** A frame's columns by name, read back through our typed tables (NaN stays NaN). */
function columns(df: DataFrame): Record<string, Cell[]> {
  return Object.fromEntries(readFrame(df, "test").columns.map((c) => [c.name, c.values]));
}

function rows(df: DataFrame): Record<string, Cell>[] {
  const t = readFrame(df, "test");
  return Array.from({ length: t.rowCount }, (_, i) => Object.fromEntries(t.columns.map((c) => [c.name, c.values[i] ?? null])));
}

const offline = { judge: createJudge({ judge: "offline" }), progress: false as const, quiet: true };

describe("summarize", () => {
  const scored = [
    { id: "q1", model: "a", answer_correctness: 1, answer_correctness_error: "" },
    { id: "q2", model: "a", answer_correctness: Number.NaN, answer_correctness_error: "judge timed out" },
    { id: "q3", model: "a", answer_correctness: 0.5, answer_correctness_error: "" },
    { id: "q4", model: "a", answer_correctness: 0.8, answer_correctness_error: "reply was cut off" },
    { id: "q1", model: "b", answer_correctness: null, answer_correctness_error: "bad input" },
    { id: "q2", model: "b", answer_correctness: 0.2, answer_correctness_error: "" },
    { id: "q3", model: "b", answer_correctness: 0.4, answer_correctness_error: "" },
    { id: "q4", model: "b", answer_correctness: 0.6, answer_correctness_error: "" },
  ];

  it("refuses a score of a known metric outside 0 to 1, or text, in a row that did not fail; a failed row's cell is not read", async () => {
    const percent = scored.map((r) => ({ ...r, answer_correctness: typeof r.answer_correctness === "number" ? r.answer_correctness * 100 : r.answer_correctness }));
    assert.throws(() => summarize(percent, { by: "model" }), /^RangeError: summarize: column "answer_correctness" row 0: 100 is not a score from -1 to 1; a column in percent must be divided by 100$/);
    const text = await loadDataset(writeText(tempDir(), "text.csv", "id,model,answer_correctness,answer_correctness_error\nq1,a,0.5,\nq2,a,n/a,\n"), { required: [], warn: false });
    assert.throws(() => summarize(text), /summarize: row 1: column "answer_correctness" holds "n\/a", which is not a number, not a score from -1 to 1; fix the cell, or empty it/);
    const negative = scored.map((r, i) => (i === 5 ? { ...r, answer_correctness: -1.2 } : r));
    assert.throws(() => compareModels(negative), /compareModels: column "answer_correctness" row 5: -1.2 is not a score from -1 to 1/);
    // A negative cosine similarity makes a score below 0 (Ragas' arithmetic): that is a score.
    assert.doesNotThrow(() => summarize(scored.map((r, i) => (i === 5 ? { ...r, answer_correctness: -0.03 } : r))));
    // A failed row may hold anything: it is not read.
    const failedCell = scored.map((r, i) => (i === 3 ? { ...r, answer_correctness: 80 } : r));
    assert.deepEqual(summarize(failedCell).column("mean").values, summarize(scored).column("mean").values);
    // A column of a metric with no known bounds is read as it is.
    assert.equal(summarize(scored.map((r) => ({ ...r, grade: 7 })), { metrics: "grade" }).column("mean").values[0], 7);
  });

  it("counts errors (NaN, null, or an error message) and never averages them in as 0", () => {
    const df = summarize(scored, { by: "model" });
    assert.deepEqual(df.columns, [
      "model", "metric", "n", "n_valid", "n_error", "mean", "std", "median", "p25", "p75", "min", "max", "ci_low", "ci_high", "pass_rate",
    ]);
    const [a, b] = rows(df);
    assert.deepEqual([a!.model, a!.metric, a!.n, a!.n_valid, a!.n_error], ["a", "answer_correctness", 4, 2, 2]);
    close(a!.mean, 0.75); // (1 + 0.5)/2: not (1 + 0 + 0.5 + 0)/4, and 0.8 (with an error) is left out
    close(a!.std, Math.SQRT1_2 / 2);
    close(a!.median, 0.75);
    assert.deepEqual([a!.min, a!.max], [0.5, 1]);
    assert.ok(Number.isNaN(a!.pass_rate as number), "0.5 is not a 0/1 score");
    assert.deepEqual([b!.n, b!.n_valid, b!.n_error], [4, 3, 1]);
    close(b!.mean, 0.4);
    close(b!.std, 0.2);
    close(b!.p25, 0.3);
    close(b!.p75, 0.5);
    assert.ok((b!.ci_low as number) <= 0.4 && 0.4 <= (b!.ci_high as number));
  });

  it("gives one row per metric without `by`, and a pass rate for 0/1 metrics", () => {
    const withRelevance = scored.map((r, i) => ({
      ...r,
      multimodal_relevance: i === 0 ? Number.NaN : i % 3 === 0 ? 0 : 1,
      multimodal_relevance_error: i === 0 ? "image not found" : "",
    }));
    const df = summarize(withRelevance);
    const c = columns(df);
    assert.deepEqual(c.metric, ["answer_correctness", "multimodal_relevance"]);
    assert.deepEqual(c.n, [8, 8]);
    assert.deepEqual(c.n_error, [3, 1]);
    close(c.mean![0], (1 + 0.5 + 0.2 + 0.4 + 0.6) / 5);
    close(c.pass_rate![1], 5 / 7); // rows 1..7: 0 at rows 3 and 6
    close(c.mean![1], 5 / 7);
  });

  it("groups by several columns in order of first appearance, keeping their types", () => {
    const data = [
      { model: "z", round: 2, answer_correctness: 0.5 },
      { model: "a", round: 1, answer_correctness: 0.7 },
      { model: "z", round: 1, answer_correctness: 0.9 },
      { model: "z", round: 2, answer_correctness: 0.1 },
    ];
    const c = columns(summarize(data, { by: ["model", "round"], bootstrap: 0 }));
    assert.deepEqual(c.model, ["z", "a", "z"]);
    assert.deepEqual(c.round, [2, 1, 1]);
    assert.deepEqual(c.n, [2, 1, 1]);
    close(c.mean![0], 0.3);
    assert.ok(Number.isNaN(c.ci_low![0] as number), "bootstrap: 0 gives no interval");
    assert.ok(Number.isNaN(c.std![1] as number), "one value has no sample standard deviation");
  });

  it("names the columns that exist when a metric or group column does not", () => {
    assert.throws(() => summarize(scored, { metrics: "faithfulness" }), /no metric column "faithfulness"; the columns are: id, model, answer_correctness, answer_correctness_error/);
    assert.throws(() => summarize(scored, { by: "judge" }), /no group column "judge"; the columns are: id, model/);
    assert.throws(() => summarize([{ id: "q1", score: 1 }]), /none of the score columns answer_correctness, .* is present.*the columns are: id, score\); name one with \{ metrics/);
    assert.throws(() => summarize(scored, { metrics: "model" }), /holds text, not scores/);
  });

  it("is seeded: same input, same numbers; another seed, another interval", () => {
    const many = Array.from({ length: 90 }, (_, i) => ({ model: i % 2 ? "a" : "b", answer_correctness: ((i * 37) % 101) / 100 }));
    const one = columns(summarize(many, { by: "model", seed: 1 }));
    assert.deepEqual(columns(summarize(many, { by: "model", seed: 1 })), one);
    const two = columns(summarize(many, { by: "model", seed: 2 }));
    assert.deepEqual(two.mean, one.mean);
    assert.notDeepEqual([two.ci_low, two.ci_high], [one.ci_low, one.ci_high]);
  });
});

describe("on data/qa-models.csv scored with the offline judge", () => {
  let scored: DataFrame;
  let thresholded: DataFrame;
  before(async () => {
    scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"), offline);
    thresholded = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"), { ...offline, threshold: 0.5 });
  });

  it("summarize gives identical numbers on every run, and they are the column's", () => {
    const first = columns(summarize(scored, { by: "model" }));
    const again = columns(summarize(scored, { by: "model" }));
    assert.deepEqual(again, first);
    assert.deepEqual(first.model, ["atlas-pro", "chatter-xl", "swift-mini"]);
    assert.deepEqual(first.n, [42, 42, 42]);
    const data = columns(scored);
    first.model!.forEach((model, g) => {
      const values = data.answer_correctness!.filter((_, i) => data.model![i] === model) as number[];
      close(first.mean![g], values.reduce((s, v) => s + v, 0) / values.length, 1e-12);
      assert.ok((first.ci_low![g] as number) < (first.mean![g] as number) && (first.mean![g] as number) < (first.ci_high![g] as number), "the CI contains the mean");
    });
  });

  it("summarize of a thresholded score: pass rate for the 0/1 column, none for the continuous one", () => {
    const c = columns(summarize(thresholded, { by: "model" }));
    assert.deepEqual(c.metric, [...Array(3).fill("answer_correctness"), ...Array(3).fill("answer_correctness_continuous")]);
    c.pass_rate!.slice(0, 3).forEach((p, i) => close(p, c.mean![i] as number, 0));
    c.pass_rate!.slice(3).forEach((p) => assert.ok(Number.isNaN(p as number)));
  });

  it("compareModels gives identical numbers on every run", () => {
    const first = columns(compareModels(scored));
    assert.deepEqual(columns(compareModels(scored)), first);
    assert.deepEqual(first.model_a, ["atlas-pro", "atlas-pro", "chatter-xl"]);
    assert.deepEqual(first.model_b, ["chatter-xl", "swift-mini", "swift-mini"]);
    assert.deepEqual(first.n_pairs, [42, 42, 42]);
    assert.deepEqual(first.p_holm, holm(first.p_value as number[]));
    first.test!.forEach((t) => assert.match(String(t), /^wilcoxon signed-rank/));
    const binary = columns(compareModels(thresholded));
    assert.deepEqual(columns(compareModels(thresholded)), binary);
    binary.test!.forEach((t) => assert.equal(t, "sign test (exact)"));
  });
});

describe("compareModels", () => {
  const darwin = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];

  function paired(a: number[], b: number[], names = ["a", "b"]) {
    return a.flatMap((x, i) => [
      { id: `q${i + 1}`, model: names[0], answer_correctness: x, answer_correctness_error: "" },
      { id: `q${i + 1}`, model: names[1], answer_correctness: b[i], answer_correctness_error: "" },
    ]);
  }
  // Darwin's plant heights are no scores from 0 to 1: they go in a column of their own.
  const heights = (rows: ReturnType<typeof paired>) => rows.map(({ answer_correctness, answer_correctness_error, ...rest }) => ({ ...rest, height: answer_correctness, height_error: answer_correctness_error }));

  it("pairs by the question text when there is no id column, and says so; unpaired when a model answers a question twice", () => {
    const a = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0];
    const b = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0];
    const byId = rows(compareModels(paired(a, b)))[0]!;
    // The same answers, with the question text where the id was.
    const byText = paired(a, b).map(({ id, ...rest }) => ({ user_input: `What is ${id}?`, ...rest }));
    const r = rows(compareModels(byText))[0]!;
    assert.equal(byId["paired_by"], "id");
    assert.equal(r["paired_by"], "user_input");
    assert.deepEqual([r["n_pairs"], r["wins"], r["ties"], r["losses"], r["test"]], [12, 9, 2, 1, "sign test (exact)"]);
    close(r["p_value"], byId["p_value"] as number, 1e-12);
    const twice = [...byText, { user_input: "What is q1?", model: "a", answer_correctness: 0, answer_correctness_error: "" }];
    const u = rows(compareModels(twice))[0]!;
    assert.deepEqual([u["n_pairs"], u["test"], u["paired_by"]], [0, "two-sample bootstrap (unpaired)", ""]);
    assert.match(String(u["unpaired_because"]), /no "id" column, and a model in "model" answers the same question text more than once/);
    assert.equal(r["unpaired_because"], "", "a paired row has no reason");
    const disjoint = rows(compareModels([...paired([1, 0], [0, 1]).filter((x) => x.model === "a"), ...paired([1, 0], [0, 1]).filter((x) => x.model === "b").map((x) => ({ ...x, id: `z${x.id}` }))]))[0]!;
    assert.equal(disjoint["unpaired_because"], "no id was answered validly by both models");
    // A column named to pair by that the table lacks is a mistake, not a reason to compare unpaired.
    assert.throws(() => compareModels(paired(a, b), { pairBy: "qestion_id" }), /compareModels: no pairBy column "qestion_id"; the columns are: id, model, answer_correctness/);
  });

  it("gives no interval for one pair, or fewer than two scores a side unpaired (a bootstrap of one value is a CI of zero width)", () => {
    const one = rows(compareModels(paired([1], [0])))[0]!;
    assert.deepEqual([one["n_pairs"], one["mean_diff"]], [1, 1]);
    assert.ok(Number.isNaN(one["ci_low"]) && Number.isNaN(one["ci_high"]));
    const two = rows(compareModels(paired([1, 0.5], [0, 0])))[0]!;
    assert.ok(Number.isFinite(two["ci_low"]) && Number.isFinite(two["ci_high"]));
  });

  it("uses the exact sign test for 0/1 scores: 9 wins of 10 → p = 0.021484375", () => {
    const a = [1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0];
    const b = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0];
    const [r] = rows(compareModels(paired(a, b)));
    assert.equal(r!.test, "sign test (exact)");
    assert.deepEqual([r!.n_pairs, r!.wins, r!.ties, r!.losses], [12, 9, 2, 1]);
    close(r!.p_value, 0.021484375, 1e-12);
    close(r!.p_holm, 0.021484375, 1e-12);
    close(r!.mean_diff, 8 / 12, 1e-12);
    assert.equal(r!.verdict, "a better than b");
  });

  it("draws no conclusion from 5 questions with equal differences: the exact p is 2/32 (the normal approximation said 0.037)", () => {
    const data = paired([0.75, 0.75, 0.75, 0.75, 0.75, 0.6], [0.5, 0.5, 0.5, 0.5, 0.5, 0.6], ["a", "b"]);
    const [r] = rows(compareModels(data));
    assert.equal(r!.test, "wilcoxon signed-rank (exact)");
    assert.deepEqual([r!.n_pairs, r!.wins, r!.ties, r!.losses], [6, 5, 1, 0]);
    close(r!.p_value, 2 / 32, 1e-12);
    assert.equal(r!.verdict, "no detectable difference");
  });

  it("uses the Wilcoxon signed-rank test (exact for Darwin's data); failed and missing answers are dropped", () => {
    const base = darwin.map((_, i) => 100 + i);
    const data = paired(
      darwin.map((d, i) => base[i]! + d),
      base,
      ["crossed", "selfed"],
    );
    data.push({ id: "q16", model: "crossed", answer_correctness: 150, answer_correctness_error: "" });
    data.push({ id: "q16", model: "selfed", answer_correctness: Number.NaN, answer_correctness_error: "judge timed out" });
    data.push({ id: "q17", model: "crossed", answer_correctness: 120, answer_correctness_error: "" });
    // As answer_correctness they are refused: they are not scores from 0 to 1.
    assert.throws(() => compareModels(data), /compareModels: column "answer_correctness" row 0: 106 is not a score from -1 to 1/);
    const [r] = rows(compareModels(heights(data), { metric: "height" }));
    assert.equal(r!.test, "wilcoxon signed-rank (exact)");
    assert.deepEqual([r!.n_pairs, r!.n_dropped, r!.wins, r!.losses], [15, 2, 13, 2]);
    close(r!.p_value, 0.041259765625, 1e-12);
    close(r!.mean_diff, darwin.reduce((s, v) => s + v, 0) / 15, 1e-9);
    assert.equal(r!.verdict, "crossed better than selfed");
    assert.ok((r!.ci_low as number) < (r!.mean_diff as number) && (r!.mean_diff as number) < (r!.ci_high as number));
    // The other way round the verdict names the same winner.
    const [flipped] = rows(compareModels(heights(data), { metric: "height", baseline: "crossed" }));
    assert.equal(flipped!.model_a, "selfed");
    assert.equal(flipped!.verdict, "crossed better than selfed");
  });

  it("Holm across the rows; baseline rows; verdicts need p_holm < alpha", () => {
    const ids = Array.from({ length: 12 }, (_, i) => `q${i + 1}`);
    const data = ids.flatMap((id, i) => [
      { id, model: "base", answer_correctness: 0 },
      { id, model: "good", answer_correctness: i < 11 ? 1 : 0 },
      { id, model: "odd", answer_correctness: i % 2 },
      { id, model: "even", answer_correctness: (i + 1) % 2 },
    ]);
    const c = columns(compareModels(data, { baseline: "base" }));
    assert.deepEqual(c.model_a, ["good", "odd", "even"]);
    assert.deepEqual(c.model_b, ["base", "base", "base"]);
    assert.deepEqual(c.p_holm, holm(c.p_value as number[]));
    // good: 11 wins, 0 losses → p = 2/2^11; odd, even: 6 wins of 6 → p = 2/2^6 = 0.03125.
    // Holm (m = 3): 2/2^11·3 = 0.0029; 0.03125·2 = 0.0625; 0.03125·1 → 0.0625 (monotone).
    close(c.p_value![0], 2 / 2 ** 11, 1e-15);
    close(c.p_value![1], 0.03125, 1e-15);
    close(c.p_holm![0], 6 / 2 ** 11, 1e-15);
    close(c.p_holm![1], 0.0625, 1e-15);
    close(c.p_holm![2], 0.0625, 1e-15);
    assert.deepEqual(c.verdict, ["good better than base", "no detectable difference", "no detectable difference"]);
    const strict = columns(compareModels(data, { baseline: "base", alpha: 0.001 }));
    assert.deepEqual(strict.verdict, ["no detectable difference", "no detectable difference", "no detectable difference"]);
    assert.equal(columns(compareModels(data)).model_a!.length, 6, "all pairs of four models");
  });

  it("falls back to an unpaired test when answers cannot be paired: exact permutation for small samples, else the two-sample bootstrap", () => {
    const a = [0.9, 0.8, 0.95, 0.85, 0.9, 0.88];
    const b = [0.2, 0.3, 0.1, 0.25, 0.2, 0.15];
    const noId = [...a.map((x) => ({ model: "a", answer_correctness: x })), ...b.map((x) => ({ model: "b", answer_correctness: x }))];
    const [r] = rows(compareModels(noId));
    // 6 against 6: C(12, 6) = 924 splits, enumerated; fully separated, p = 2/924.
    assert.equal(r!.test, "permutation test (exact, unpaired)");
    close(r!.p_value, 2 / 924, 1e-15);
    assert.equal(r!.n_pairs, 0);
    close(r!.mean_diff, 0.88 - 0.2, 1e-12);
    assert.equal(r!.verdict, "a better than b");
    const disjoint = [
      ...a.map((x, i) => ({ id: `a${i}`, model: "a", answer_correctness: x })),
      ...b.map((x, i) => ({ id: `b${i}`, model: "b", answer_correctness: x })),
    ];
    assert.equal(rows(compareModels(disjoint))[0]!.test, "permutation test (exact, unpaired)");
    // 12 against 12: C(24, 12) = 2,704,156 splits, too many: the bootstrap's p-value.
    const twice = [...noId, ...noId.map((x) => ({ ...x }))];
    assert.equal(rows(compareModels(twice))[0]!.test, "two-sample bootstrap (unpaired)");
  });

  it("unpaired, one score a side: no interval, no p-value and no winner; two a side: the exact p-value, which cannot go below 1/3", () => {
    const one = rows(compareModels([{ id: "q1", model: "a", answer_correctness: 0.2 }, { id: "q2", model: "b", answer_correctness: 0.9 }]))[0]!;
    assert.ok(Number.isNaN(one["p_value"]) && Number.isNaN(one["p_holm"]) && Number.isNaN(one["ci_low"]));
    assert.equal(one["verdict"], "too few scored answers to test (1 and 1; 2 a side needed)");
    const two = rows(
      compareModels([
        { id: "q1", model: "a", answer_correctness: 0.2 },
        { id: "q2", model: "a", answer_correctness: 0.21 },
        { id: "q3", model: "b", answer_correctness: 0.9 },
        { id: "q4", model: "b", answer_correctness: 0.91 },
      ]),
    )[0]!;
    assert.equal(two["test"], "permutation test (exact, unpaired)");
    close(two["p_value"], 1 / 3, 1e-15);
    assert.equal(two["verdict"], "no detectable difference");
  });

  it("paired on one question only: no interval, no p-value and no winner, as the report's headline says", () => {
    const one = rows(
      compareModels([
        { id: "q1", model: "a", answer_correctness: 0.2 },
        { id: "q1", model: "b", answer_correctness: 0.9 },
        { id: "q2", model: "a", answer_correctness: Number.NaN, answer_correctness_error: "rate limited" },
        { id: "q2", model: "b", answer_correctness: 0.8 },
      ]),
    )[0]!;
    assert.equal(one["n_pairs"], 1);
    assert.ok(Number.isNaN(one["p_value"]) && Number.isNaN(one["p_holm"]) && Number.isNaN(one["ci_low"]), JSON.stringify(one));
    assert.equal(one["verdict"], "too few questions scored by both to test (1; 2 needed)");
  });

  it("a model without one scored answer: the verdict says so, not 'no detectable difference'", () => {
    const data = [
      ...paired([0.5, 0.6, 0.7], [0.4, 0.3, 0.2]),
      ...["q1", "q2", "q3"].map((id) => ({ id, model: "c", answer_correctness: Number.NaN, answer_correctness_error: "judge timed out" })),
    ];
    const c = columns(compareModels(data, { baseline: "a" }));
    assert.deepEqual(c.verdict!.slice(1), ["no scored answers from c"]);
    assert.ok(Number.isNaN(c.p_value![1]));
  });

  it("a winner always agrees with the mean: when the rank test and the mean lean opposite ways the verdict names none", () => {
    // 85 questions a little better for a (+0.05), 15 much worse (−0.9): the typical question favours a, the mean b.
    const a = Array.from({ length: 100 }, (_, i) => (i % 20 < 17 ? 0.55 : 0.05));
    const b = Array.from({ length: 100 }, (_, i) => (i % 20 < 17 ? 0.5 : 0.95));
    const r = rows(compareModels(paired(a, b)))[0]!;
    close(r["mean_diff"], (85 * 0.05 - 15 * 0.9) / 100, 1e-12);
    assert.ok((r["ci_high"] as number) < 0, "the mean favours b beyond chance");
    assert.ok((r["p_value"] as number) < 0.05, "the rank test favours a beyond chance");
    assert.equal(r["verdict"], "inconclusive: the typical answer and the mean disagree");
    assert.equal(r["verdict"], MEAN_DISAGREES);
  });

  it("verdictSide: a side only when p < alpha and the mean leans the same way; 'disagree' when either is beyond chance and they differ", () => {
    const s = (direction: number, meanDiff: number, ciLow: number, ciHigh: number) => ({ direction, meanDiff, ciLow, ciHigh });
    assert.equal(verdictSide(s(1, 0.1, 0.02, 0.2), 0.01, 0.05), "a");
    assert.equal(verdictSide(s(-1, -0.1, -0.2, -0.02), 0.01, 0.05), "b");
    assert.equal(verdictSide(s(1, 0.1, -0.02, 0.2), 0.2, 0.05), "none");
    assert.equal(verdictSide(s(1, -0.1, -0.2, 0.02), 0.01, 0.05), "disagree", "the rank test beyond chance, the mean the other way");
    assert.equal(verdictSide(s(1, -0.1, -0.2, -0.02), 0.3, 0.05), "disagree", "the mean beyond chance, the rank test leaning the other way");
    assert.equal(verdictSide(s(1, -0.1, -0.2, 0.02), 0.3, 0.05), "none");
    assert.equal(verdictSide(s(-1, -0.1, -0.2, -0.02), 0.3, 0.05), "none", "agreeing, the test not beyond chance: as before");
  });

  it("refuses duplicates, unknown columns and baselines, and a single model, saying why", () => {
    const data = paired([0.5, 0.6], [0.4, 0.3]);
    assert.throws(() => compareModels([...data, { id: "q1", model: "a", answer_correctness: 1, answer_correctness_error: "" }]), /1 \(id, model\) pair appears more than once: \("q1", "a"\)/);
    const thrice = [...data, ...[1, 2].map(() => ({ id: "q1", model: "a", answer_correctness: 1, answer_correctness_error: "" }))];
    assert.throws(() => compareModels(thrice), /compareModels: 1 \(id, model\) pair appears more than once: \("q1", "a"\); each model may answer each id once$/, "a pair three times is named once");
    assert.throws(() => compareModels(data, { metric: "accuracy" }), /no metric column "accuracy"; the columns are: id, model, answer_correctness/);
    assert.throws(() => compareModels(data, { baseline: "c" }), /baseline "c" is not a model.*the models are: a, b/);
    assert.throws(() => compareModels(data.filter((r) => r.model === "a")), /needs at least two models.*found 1: a/);
  });

  it("is seeded: same seed same interval, another seed another interval, same p-value", () => {
    const base = darwin.map((_, i) => 100 + i);
    const data = heights(paired(darwin.map((d, i) => base[i]! + d), base));
    const one = columns(compareModels(data, { metric: "height", seed: 1 }));
    assert.deepEqual(columns(compareModels(data, { metric: "height", seed: 1 })), one);
    const two = columns(compareModels(data, { metric: "height", seed: 2 }));
    assert.notDeepEqual([two.ci_low, two.ci_high], [one.ci_low, one.ci_high]);
    assert.deepEqual(two.p_value, one.p_value);
  });
});

describe("agreement", () => {
  // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15 → κ = 0.4 (see test/stats.test.ts).
  const judge: number[] = [];
  const human: number[] = [];
  for (const [x, y, count] of [[1, 1, 20], [1, 0, 5], [0, 1, 10], [0, 0, 15]] as const) {
    for (let i = 0; i < count; i++) judge.push(x), human.push(y);
  }

  it("Cohen's kappa for 0/1 scores, dropping and counting incomplete pairs", () => {
    const r = agreement([...judge, Number.NaN, 1], [...human, 1, null]);
    assert.deepEqual(r, { method: "cohen_kappa", value: r.value, n: 50, n_dropped: 2 });
    close(r.value, 0.4, 1e-15);
    const labels = agreement(judge.map((v) => (v ? "relevant" : "irrelevant")), human.map((v) => (v ? "relevant" : "irrelevant")));
    assert.equal(labels.method, "cohen_kappa");
    close(labels.value, 0.4, 1e-15);
    close(agreement(judge.map((v) => v === 1), human).value, 0.4, 1e-15);
  });

  it("accepts danfojs Series", () => {
    const df = toDataFrame({ judge, human });
    const r = agreement(df.column("judge"), df.column("human"));
    assert.equal(r.method, "cohen_kappa");
    close(r.value, 0.4, 1e-15);
  });

  it("Spearman for continuous scores", () => {
    const r = agreement([1, 2, 2, 3, Number.NaN], [0.1, 0.3, 0.2, 0.4, 0.5]);
    assert.equal(r.method, "spearman");
    close(r.value, Math.sqrt(0.9), 1e-12);
    assert.deepEqual([r.n, r.n_dropped], [4, 1]);
  });

  it("refuses sides of different lengths or kinds", () => {
    assert.throws(() => agreement([1, 0], [1]), /a has 2 values and b has 1/);
    assert.throws(() => agreement(["yes", "no"], [1, 0]), /text labels .* numbers/);
  });
});

describe("disagreements and worst", () => {
  const data = [
    ["q1", "a", 1], ["q1", "b", 0], ["q1", "c", 0.5],
    ["q2", "a", 0.5], ["q2", "b", 0.5], ["q2", "c", 0.5],
    ["q3", "a", 0.9], ["q3", "b", Number.NaN], ["q3", "c", 0.2],
    ["q4", "a", 0.3], ["q4", "b", 0.1],
    ["q5", "a", 0.2], ["q5", "b", 0.9], ["q5", "c", 0.2],
    ["q10", "a", 0.15], ["q10", "b", 0.85], ["q10", "c", 0.5],
  ].map(([id, model, score]) => ({
    id,
    model,
    user_input: `question ${id}`,
    response: `${model} answers ${id}`,
    answer_correctness: score,
    answer_correctness_error: Number.isNaN(score) ? "judge failed" : id === "q4" && model === "b" ? "reply was cut off" : "",
  }));

  it("disagreements: largest spread first, ties by id, too few valid scores last", () => {
    const df = disagreements(data, { top: 10 });
    assert.deepEqual(df.columns, ["id", "user_input", "spread", "a", "a_response", "b", "b_response", "c", "c_response"]);
    const c = columns(df);
    // spreads: q1 1, q2 0, q3 0.7 (b failed), q4 NaN (b's score has an error, c missing), q5 0.7, q10 0.7
    assert.deepEqual(c.id, ["q1", "q3", "q5", "q10", "q2", "q4"]);
    close(c.spread![0], 1);
    close(c.spread![1], 0.7);
    assert.ok(Number.isNaN(c.spread![5] as number));
    assert.ok(Number.isNaN(c.b![1] as number), "a failed row shows NaN");
    assert.ok(Number.isNaN(c.c![5] as number), "a missing answer shows NaN");
    assert.equal(c.c_response![5], null);
    assert.equal(c.b_response![0], "b answers q1");
    assert.equal(c.user_input![0], "question q1");
    assert.deepEqual(columns(disagreements(data, { top: 2 })).id, ["q1", "q3"]);
    assert.equal(disagreements(data).shape[0], 6, "top defaults to 10");
  });

  it("disagreements: a missing question or answer text stays missing (null), an empty answer stays empty", () => {
    const c = columns(
      disagreements([
        { id: "q1", model: "a", user_input: null, response: null, answer_correctness: 1 },
        { id: "q1", model: "b", user_input: null, response: "", answer_correctness: 0 },
      ]),
    );
    assert.deepEqual(c.user_input, [null]);
    assert.deepEqual(c.a_response, [null]);
    assert.deepEqual(c.b_response, [""]);
  });

  it("worst: the lowest valid scores with every column, failed rows left out", () => {
    const df = worst(data, { n: 3 });
    assert.deepEqual(df.columns, Object.keys(data[0]!));
    const c = columns(df);
    assert.deepEqual(c.answer_correctness, [0, 0.15, 0.2]);
    assert.deepEqual([c.id, c.model], [["q1", "q10", "q3"], ["b", "a", "c"]]);
    const perModel = columns(worst(data, { n: 1, by: "model" }));
    assert.deepEqual(perModel.model, ["a", "b", "c"]);
    assert.deepEqual(perModel.answer_correctness, [0.15, 0, 0.2]);
    assert.equal(worst(data, { n: 100 }).shape[0], data.length - 2, "NaN and errored rows are not ranked");
    assert.throws(() => worst(data, { metric: "faithfulness" }), /no metric column "faithfulness"/);
  });
});

describe("tableHTML and showTable", () => {
  it("escapes cells and names, rounds numbers for display only, shows NaN", () => {
    const df = toDataFrame([
      { "<b>name</b>": "<script>alert(1)</script>", score: 0.123456, n: 42, flag: true, missing: Number.NaN },
      { "<b>name</b>": "Tom & \"Jerry\"", score: 2 / 3, n: 7, flag: false, missing: 1 },
    ]);
    const html = tableHTML(df);
    assert.ok(!html.includes("<script>"), html);
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.ok(html.includes("&lt;b&gt;name&lt;/b&gt;"));
    assert.ok(html.includes("Tom &amp; &quot;Jerry&quot;"));
    assert.ok(html.includes(">0.123<") && html.includes(">0.667<") && html.includes(">42<"));
    assert.ok(html.includes(">NaN<"));
    assert.ok(tableHTML(df, { digits: 1 }).includes(">0.7<"));
    assert.deepEqual(columns(df).score, [0.123456, 2 / 3], "the frame keeps every digit");
  });

  it("shows at most maxRows rows and says how many there are", () => {
    const df = toDataFrame(Array.from({ length: 60 }, (_, i) => ({ i })));
    const html = tableHTML(df);
    assert.equal(html.split("<tr>").length - 1, 51, "a header row and 50 rows");
    assert.match(html, /<caption[^>]*>first 50 of 60 rows<\/caption>/);
    assert.ok(!tableHTML(df, { maxRows: 100 }).includes("<caption"));
  });

  it("renders every analysis result", () => {
    const scored = [
      { id: "q1", model: "a", answer_correctness: 0.5 },
      { id: "q1", model: "b", answer_correctness: 0.25 },
      { id: "q2", model: "a", answer_correctness: 1 },
      { id: "q2", model: "b", answer_correctness: 0.75 },
    ];
    for (const df of [summarize(scored, { by: "model" }), compareModels(scored), disagreements(scored), worst(scored)]) {
      assert.match(tableHTML(df), /^<table class="evalframe-table"/);
    }
  });

  it("showTable prints the frame outside a notebook", () => {
    const log = mock.method(console, "log", () => undefined);
    try {
      showTable(toDataFrame([{ model: "a", mean: 0.5 }]));
      showTable([{ model: "b", mean: 0.25 }]);
    } finally {
      log.mock.restore();
    }
    assert.equal(log.mock.callCount(), 2);
    assert.match(String(log.mock.calls[0]!.arguments[0]), /model/);
  });

  it("showTable takes a report's table that does not apply (undefined) and says so, as the README's calibrate lines do under strict types", () => {
    const log = mock.method(console, "log", () => undefined);
    const statements: DataFrame | undefined = undefined; // calibrate(scored, grades).statements for a score column
    try {
      showTable(statements);
    } finally {
      log.mock.restore();
    }
    assert.deepEqual(log.mock.calls.map((c) => c.arguments[0]), ["(no table: this part does not apply to this data)"]);
  });
});

describe("summarize: one honest interval for 0/1 scores", () => {
  // Ten answers per model, every valid score 0 or 1 (multimodal_relevance, or answer_correctness with a threshold).
  const binary = ["all", "none", "some"].flatMap((model) =>
    Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, model, multimodal_relevance: model === "all" ? 1 : model === "none" ? 0 : i < 7 ? 1 : 0 })),
  );

  it("gives a 0/1 metric the Wilson score interval (the chart's), never a zero-width 1–1 or 0–0", () => {
    const [all, none, some] = rows(summarize(binary, { by: "model", metrics: "multimodal_relevance" }));
    close(all!.ci_low, 0.7224672001371107);
    assert.equal(all!.ci_high, 1);
    assert.equal(none!.ci_low, 0);
    close(none!.ci_high, 0.2775327998628892);
    for (const [row, successes] of [[all!, 10], [none!, 0], [some!, 7]] as const) {
      const w = wilsonInterval(successes, 10);
      assert.deepEqual([row.ci_low, row.ci_high], [w.low, w.high], `${String(row.model)}: wilsonInterval(${successes}, 10)`);
      assert.equal(row.pass_rate, successes / 10);
    }
    // The same confidence as asked; from one valid score on (1 of 1: 0.21–1), where a bootstrap has no interval.
    const ninety = rows(summarize(binary, { by: "model", metrics: "multimodal_relevance", confidence: 0.9 }))[2]!;
    assert.deepEqual([ninety.ci_low, ninety.ci_high], [wilsonInterval(7, 10, 0.9).low, wilsonInterval(7, 10, 0.9).high]);
    const one = rows(summarize([{ model: "solo", multimodal_relevance: 1 }], { by: "model", metrics: "multimodal_relevance" }))[0]!;
    close(one.ci_low, 0.20654931437723745);
    assert.equal(one.ci_high, 1);
    // bootstrap: 0 still means no interval, of either kind.
    assert.ok(Number.isNaN(rows(summarize(binary, { by: "model", metrics: "multimodal_relevance", bootstrap: 0 }))[0]!.ci_low as number));
  });

  it("a thresholded answer_correctness is 0/1 too; a metric is 0/1 only when every group's scores are, and a continuous one keeps its bootstrap", () => {
    const thresholded = binary.map((r) => ({ id: r.id, model: r.model, answer_correctness: r.multimodal_relevance }));
    const t = rows(summarize(thresholded, { by: "model" }));
    assert.deepEqual([t[0]!.ci_low, t[0]!.ci_high], [wilsonInterval(10, 10).low, 1]);
    // A continuous metric with one group that happens to score 1 throughout: one kind of interval for the whole metric (bootstrap), no pass rate.
    const mixed = binary.map((r, i) => ({ id: r.id, model: r.model, answer_correctness: r.model === "all" ? 1 : ((i * 7) % 10) / 10 }));
    const m = rows(summarize(mixed, { by: "model" }));
    assert.deepEqual([m[0]!.ci_low, m[0]!.ci_high, m[0]!.pass_rate], [1, 1, Number.NaN], "a bootstrap of ten 1s");
    assert.ok(m.every((r) => Number.isNaN(r.pass_rate as number)));
    const continuous = m[2]!;
    assert.ok((continuous.ci_low as number) < (continuous.mean as number) && (continuous.mean as number) < (continuous.ci_high as number));
  });

  it("the chart beside it draws the same interval and names it: relevanceRate and meanWithCI say Wilson for 0/1 scores, bootstrap otherwise", () => {
    const summary = summarize(binary, { by: "model", metrics: "multimodal_relevance" });
    const s = rows(summary);
    const drawn = (spec: Record<string, unknown>) => (spec["data"] as { values: Record<string, unknown>[] }).values;
    const subtitle = (spec: Record<string, unknown>) => [(spec["title"] as { subtitle: string | string[] }).subtitle].flat().join(" · ");
    const rate = relevanceRate(binary);
    drawn(rate).forEach((v, i) => assert.deepEqual([v["ci_low"], v["ci_high"]], [s[i]!.ci_low, s[i]!.ci_high], String(v["model"])));
    assert.match(subtitle(rate), /95% Wilson score interval/);
    const mean = meanWithCI(summary, { metric: "multimodal_relevance", judgeLabel: false });
    drawn(mean).forEach((v, i) => assert.deepEqual([v["ci_low"], v["ci_high"]], [s[i]!.ci_low, s[i]!.ci_high], String(v["model"])));
    assert.match(subtitle(mean), /95% Wilson score interval/);
    assert.doesNotMatch(subtitle(mean), /bootstrap/);
    const scores = binary.map((r, i) => ({ ...r, answer_correctness: ((i * 7) % 10) / 10 + 0.05 }));
    const continuous = meanWithCI(summarize(scores, { by: "model" }), { judgeLabel: false });
    assert.match(subtitle(continuous), /95% bootstrap CI of the mean/);
    assert.doesNotMatch(subtitle(continuous), /Wilson/);
  });
});
