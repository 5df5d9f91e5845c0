/**
 * Each scored row says how it was scored (judge, layout, reasons, answers per
 * call, embedding model, weights, β, thresholds), and a comparison of two
 * runs says when they were scored differently: the judge labels over real
 * HTTP, compareRuns, `evalframe diff --fail-on-scoring-change` and the
 * report's line, on the bundled sample.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import {
  answerCorrectness,
  buildReport,
  compareRuns,
  createJudge,
  frameRecords,
  loadDataset,
  multimodalRelevance,
  score,
  scoreAnswerCorrectness,
  toCSV,
  toDataFrame,
} from "../src/index";
import { useFakeOpenAI, type ChatContext } from "./support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { sampleHeadRows } from "./support/sample";

const DETAILS = "answer_correctness_statements";

function scriptedBoth(ctx: ChatContext): object {
  return ctx.model === "vision-x" ? { reason: "consistent with the context", relevant: true } : scriptedAnswerCorrectness(ctx);
}

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedBoth, embed: scriptedEmbedding }));

function details(row: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(String(row[DETAILS])) as Record<string, unknown>;
}

describe("what a scored row records about how it was scored", () => {
  const rows = [
    { id: "r1", user_input: "Where is the Eiffel Tower?", response: "It is in Paris.", reference: "The Eiffel Tower is in Paris.", retrieved_contexts: '["The tower stands in Paris."]' },
    { id: "r2", user_input: "", response: "No question was asked.", reference: "Nothing.", retrieved_contexts: '["text"]' },
    { id: "r3", user_input: "What colour is the sky?", response: "Blue.", reference: "The sky is blue.", retrieved_contexts: '["The sky is blue."]' },
  ];
  const judge = () =>
    createJudge({ judge: "openai", apiKey: "sk-test-key-123456", baseURL: url(), model: "chat-x", visionModel: "vision-x", embeddingModel: "embed-x", cache: false, retryBaseDelayMs: 1 });

  it("each metric's judge column names the model it asked: the chat model for answer correctness, the vision model for relevance, on every row", async () => {
    const scored = frameRecords(await score(rows, [answerCorrectness(), multimodalRelevance()], { judge: judge(), progress: false, quiet: true }));
    const host = new URL(url()).host;
    assert.equal(scored[1]!["input_error"] !== "", true, "row r2 has an input error");
    assert.deepEqual(scored.map((r) => r["answer_correctness_judge"]), Array(3).fill(`chat-x @ ${host}`));
    assert.deepEqual(scored.map((r) => r["multimodal_relevance_judge"]), Array(3).fill(`vision-x @ ${host}`), "the failed row too");
    assert.ok(server.chatRequests().some((r) => r.body.model === "vision-x"), "relevance went to the vision model");
  });

  it("the details record the layout, reasons, answers per call and the embedding model (none when the semantic weight is 0)", async () => {
    const blended = frameRecords(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 2, reasons: true })], { judge: judge(), progress: false, quiet: true }));
    const d = details(blended[0]!);
    assert.deepEqual(
      { layout: d["layout"], reasons: d["reasons"], answersPerCall: d["answersPerCall"], embeddingModel: d["embeddingModel"], weights: d["weights"] },
      { layout: "fused", reasons: true, answersPerCall: 2, embeddingModel: "embed-x", weights: [0.75, 0.25] },
    );
    const factualOnly = frameRecords(await score(rows, [answerCorrectness({ weights: [1, 0] })], { judge: judge(), progress: false, quiet: true }));
    const f = details(factualOnly[0]!);
    assert.deepEqual([f["layout"], f["reasons"], f["answersPerCall"]], ["ragas", false, 1], "the default: Ragas' layout, verdicts without reasons, one answer a call");
    assert.equal("embeddingModel" in f, false);
  });
});

describe("two runs scored differently", () => {
  const offline = { judge: createJudge({ judge: "offline" }), progress: false as const, quiet: true };
  const sample = sampleHeadRows(8); // 8 questions × 3 models
  let plain: DataFrame;
  let fused: DataFrame;
  before(async () => {
    plain = await score(sample, [answerCorrectness()], offline);
    fused = await score(sample, [answerCorrectness({ layout: "fused", answersPerCall: 3, weights: [0.8, 0.2] })], offline);
  });

  it("runs scored alike: no scoring change and no warning", () => {
    const runs = compareRuns(plain, plain);
    assert.deepEqual(runs.scoringChanges, []);
    assert.deepEqual(runs.warnings, []);
  });

  it("names each setting that differs, with its values and the paired answers it covers, and warns", () => {
    const runs = compareRuns(plain, fused);
    assert.deepEqual(runs.scoringChanges, [
      { setting: "layout", before: "ragas", after: "fused", answers: 24 },
      { setting: "answers per call", before: "1", after: "3", answers: 24 },
      { setting: "weights", before: "0.75/0.25", after: "0.8/0.2", answers: 24 },
    ]);
    const warning = runs.warnings.find((w) => w.includes("scored differently"));
    assert.ok(warning, runs.warnings.join("\n"));
    assert.match(warning, /\(all 24 paired answers\): layout "ragas" before, "fused" after; answers per call "1" before, "3" after; weights "0\.75\/0\.25" before, "0\.8\/0\.2" after\./);
  });

  it("counts only the paired answers a change covers: a judge changed on some rows, and on rows the other run has not", () => {
    const after = frameRecords(plain).map((r, i) => (i < 5 ? { ...r, answer_correctness_judge: "gpt-4o-mini @ api.openai.com" } : r));
    const before = frameRecords(plain).filter((_, i) => i !== 0); // row 0 is not paired
    const runs = compareRuns(toDataFrame(before), toDataFrame(after));
    assert.deepEqual(runs.scoringChanges, [{ setting: "judge", before: "offline (approximate)", after: "gpt-4o-mini @ api.openai.com", answers: 4 }]);
    assert.ok(runs.warnings.some((w) => w.includes('judge "offline (approximate)" before, "gpt-4o-mini @ api.openai.com" after (4 of 23 paired answers)')), runs.warnings.join("\n"));
  });

  it("a table from before the record (no layout, reasons, answers per call or embedding model) is compared on what it records only", () => {
    const older = frameRecords(plain).map((r) => {
      const d = details(r);
      for (const key of ["layout", "reasons", "answersPerCall", "prompts", "embeddingModel"]) delete d[key];
      return { ...r, [DETAILS]: JSON.stringify(d) };
    });
    const runs = compareRuns(toDataFrame(older), fused);
    assert.deepEqual(runs.scoringChanges.map((c) => c.setting), ["weights"], "layout is unknown before, so not reported as changed");
    assert.deepEqual(compareRuns(toDataFrame(older), plain).scoringChanges, []);
  });

  describe("evalframe diff and the report", () => {
    const dir = tempDir();
    const files = { plain: path.join(dir, "plain.csv"), fused: path.join(dir, "fused.csv") };
    before(async () => {
      await toCSV(plain, files.plain);
      await toCSV(fused, files.fused);
    });

    it("--fail-on-scoring-change exits 1 naming the first difference, after the tables; runs scored alike pass", async () => {
      const r = await run(["diff", files.plain, files.fused, "--fail-on-scoring-change"]);
      assert.equal(r.code, 1);
      assert.match(r.out, /mean_before/, "the comparison is still printed");
      const last = r.err.trim().split("\n").at(-1)!;
      assert.equal(last, 'evalframe: fail-on-scoring-change: the runs were scored differently, so their change is not the answers\' alone: layout "ragas" before, "fused" after (24 paired answers); 2 more in the warning above');
      assert.match(r.err, /warning: answer_correctness was scored differently/);
      const alike = await run(["diff", files.plain, files.plain, "--fail-on-scoring-change"]);
      assert.equal(alike.code, 0, alike.err);
      assert.doesNotMatch(alike.err, /scored differently/);
    });

    it("--json carries the scoring changes", async () => {
      const r = await run(["diff", files.plain, files.fused, "--json"]);
      assert.equal(r.code, 0, r.err);
      const body = JSON.parse(r.out) as { scoringChanges: { setting: string }[] };
      assert.deepEqual(body.scoringChanges.map((c) => c.setting), ["layout", "answers per call", "weights"]);
    });

    it("the report says how the rows were scored, and when they were scored in several ways", () => {
      const one = buildReport(fused, { generatedAt: null });
      assert.match(
        one,
        /<p class="usage scoring">answer correctness scored with judge rules offline-rules-2026-12-05b · layout fused · reasons no · answers per call 3 · prompts ac-statements-batch-v2 ac-fused-batch-verdicts-only-v1 · embedding model offline-hashed-\d+ · weights 0\.8\/0\.2 · beta 1 · threshold none · similarity threshold none<\/p>/,
      );
      const mixed = toDataFrame([...frameRecords(plain).slice(0, 6), ...frameRecords(fused).slice(6)]);
      assert.match(buildReport(mixed, { generatedAt: null }), /answer correctness scored with 2 different ways, so its rows are not all comparable: [^<]*answers per call 3[^<]*\(18 rows\); [^<]*answers per call 1[^<]*\(6 rows\)/);
    });
  });
});

describe("a newer prompt between two runs", () => {
  it("is named as a change of how they were scored, and is not named again beside a change of layout", async () => {
    const rows = frameRecords(await scoreAnswerCorrectness(await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv")), { judge: createJudge({ judge: "offline" }), quiet: true, progress: false }));
    const cell = (r: Record<string, unknown>) => JSON.parse(String(r["answer_correctness_statements"])) as Record<string, unknown>;
    assert.equal(cell(rows[0]!)["prompts"], "ac-statements-v2 ac-classify-verdicts-only-v1", "each row records the prompts it was asked with");
    // The same run, as an older evalframe would have written it with an earlier classification prompt.
    const older = rows.map((r) => ({ ...r, answer_correctness_statements: JSON.stringify({ ...cell(r), prompts: "ac-statements-v2 ac-classify-verdicts-only-v0" }) }));
    const changes = compareRuns(toDataFrame(older), toDataFrame(rows)).scoringChanges;
    assert.deepEqual(changes.map((c) => [c.setting, c.before, c.after, c.answers]), [["prompts", "ac-statements-v2 ac-classify-verdicts-only-v0", "ac-statements-v2 ac-classify-verdicts-only-v1", 126]]);
    // A run scored before verdicts without reasons became the default: the reasons are the change, named once (not their prompts too).
    const withReasons = rows.map((r) => ({ ...r, answer_correctness_statements: JSON.stringify({ ...cell(r), reasons: true, prompts: "ac-statements-v2 ac-classify-v2" }) }));
    assert.deepEqual(
      compareRuns(toDataFrame(withReasons), toDataFrame(rows)).scoringChanges.map((c) => [c.setting, c.before, c.after]),
      [["reasons", "yes", "no"]],
    );
    // Another layout asks with other prompts: the layout is the change, named once.
    const fusedLike = rows.map((r) => ({ ...r, answer_correctness_statements: JSON.stringify({ ...cell(r), layout: "fused", prompts: "ac-statements-batch-v2 ac-fused-v1" }) }));
    assert.deepEqual(compareRuns(toDataFrame(rows), toDataFrame(fusedLike)).scoringChanges.map((c) => c.setting), ["layout"]);
  });
});
