/**
 * The fused layout ([F]): one call per answer that splits and classifies it,
 * the references split 8 to a call. Through the fake server's scripted
 * judge (the exact oracle of answer-correctness.test.ts), the offline judge
 * and the bundled hand labels, it must give the Ragas layout's verdicts and
 * scores; and it must cost at most 1.1 chat calls per row at 3 models.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, loadDataset, score, scoreBatch, scoreRun, type Judge, type JudgeOptions } from "../src/index";
import { tempDir } from "./support/files";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { promptKind, scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));
const quiet = { progress: false as const, quiet: true };
const DATA = path.join(__dirname, "..", "data");

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-fused-0000000000", baseURL: url(), cache: false, retryBaseDelayMs: 1, quiet: true, ...options });
}

/** The exact-oracle rows of answer-correctness.test.ts (counts known under the scripted judge). */
const ROWS = [
  { response: "A one. B two. X wrong.", reference: "A one. B two. C three." },
  { response: "A one.", reference: "A one." },
  { response: "X wrong. Y wrong.", reference: "A one. B two." },
  { response: "A one. B two. C three. D four. E five.", reference: "A one. B two." },
  { response: "", reference: "A one. B two." },
  { response: "B two. Z extra.", reference: "A one. B two. C three. D four." },
].map((r, i) => ({ id: `q${i}`, model: "m", user_input: `Question ${i}?`, ...r }));

const COLUMNS = ["answer_correctness", "answer_correctness_factual", "answer_correctness_semantic", "answer_correctness_tp", "answer_correctness_fp", "answer_correctness_fn", "answer_correctness_error"];

/** What both layouts must agree on: scores, counts, errors, and every statement's verdict. */
function verdicts(rows: Record<string, unknown>[]) {
  return rows.map((r) => {
    const details = String(r["answer_correctness_statements"]) === "" ? undefined : JSON.parse(String(r["answer_correctness_statements"]));
    const sides = details ? { response: details.response.map((v: { statement: string; verdict: string }) => [v.statement, v.verdict]), reference: details.reference.map((v: { statement: string; verdict: string }) => [v.statement, v.verdict]) } : undefined;
    return { ...Object.fromEntries(COLUMNS.map((c) => [c, r[c]])), sides };
  });
}

/** N questions × 3 models whose answers keep some reference sentences and add wrong ones. */
function threeModels(questions: number) {
  const rows = [];
  for (let q = 0; q < questions; q++) {
    const reference = `Fact ${q} one. Fact ${q} two. Fact ${q} three.`;
    rows.push({ id: `q${q}`, model: "a", user_input: `Q${q}?`, response: `Fact ${q} one. Fact ${q} two.`, reference });
    rows.push({ id: `q${q}`, model: "b", user_input: `Q${q}?`, response: `Fact ${q} one. Wrong ${q}.`, reference });
    rows.push({ id: `q${q}`, model: "c", user_input: `Q${q}?`, response: q % 10 === 0 ? "" : `Fact ${q} three.`, reference });
  }
  return rows;
}

describe("answer correctness, fused layout", () => {
  for (const options of [{}, { weights: [0.5, 0.5] as [number, number], beta: 2, threshold: 0.5 }]) {
    it(`gives the Ragas layout's verdicts and scores on the exact-oracle rows (${JSON.stringify(options)})`, async () => {
      const ragas = records(await score(ROWS, [answerCorrectness(options)], { judge: judgeFor(), ...quiet }));
      const ragasCalls = server.chatRequests().length;
      server.reset();
      const fused = records(await score(ROWS, [answerCorrectness({ ...options, layout: "fused" })], { judge: judgeFor(), ...quiet }));
      assert.deepEqual(verdicts(fused), verdicts(ragas));
      assert.deepEqual(fused.map((r) => r["answer_correctness_error"]), ROWS.map(() => ""));
      const kinds = server.chatRequests().map((r) => promptKind(r.body));
      // One batch for the 6 references; one call per non-empty answer; nothing else.
      assert.deepEqual(kinds.filter((k) => k === "statements_batch").length, 1);
      assert.deepEqual(kinds.filter((k) => k === "statements_verdicts").length, 5);
      assert.equal(kinds.length, 6);
      assert.ok(kinds.length < ragasCalls, `${kinds.length} calls, Ragas layout ${ragasCalls}`);
    });
  }

  it("makes at most 1.1 chat calls per row at 3 models, and progress plans exactly the calls it makes", async () => {
    const rows = threeModels(40);
    const scored = await score(rows, [answerCorrectness({ layout: "fused" })], { judge: judgeFor(), ...quiet });
    const chat = server.chatRequests().length;
    assert.ok(chat / rows.length <= 1.1, `${chat} chat calls for ${rows.length} rows`);
    assert.equal(chat, Math.ceil(40 / 8) + rows.filter((r) => r.response !== "").length);
    const metric = answerCorrectness({ layout: "fused" });
    const planned = metric.planCalls!(rows.map((r, index) => ({ ...r, index, retrieved_contexts: [] }))).filter((s) => s.stage !== "embedding");
    assert.equal(planned.reduce((a, s) => a + s.calls, 0), chat);
    const out = records(scored);
    assert.deepEqual(out.slice(0, 3).map((r) => [r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"]]), [[2, 0, 1], [1, 1, 2], [0, 0, 3]]);
    assert.equal(scoreRun(scored)!.usage.failures, 0);
  });

  it("fails only the row whose fused reply stays invalid, with the reason", async () => {
    // The first fused call's reply never fits (3 attempts); the other rows are scored.
    let bad = 0;
    server.options.chat = (ctx) => {
      if (promptKind(ctx.body) === "statements_verdicts" && JSON.stringify(ctx.messages).includes("Question 0?") && bad++ < 10) return { unexpected: true };
      return scriptedAnswerCorrectness(ctx);
    };
    const fused = records(await score(ROWS.slice(0, 4), [answerCorrectness({ layout: "fused" })], { judge: judgeFor(), ...quiet }));
    assert.match(String(fused[0]!["answer_correctness_error"]), /splitting and classifying the response failed: .*statements_verdicts/);
    assert.ok(Number.isNaN(fused[0]!["answer_correctness"]));
    assert.deepEqual(fused.slice(1).map((r) => r["answer_correctness_error"]), ["", "", ""]);
  });

  it("splits a batch's references one at a time when the batch keeps failing, so no row is lost", async () => {
    server.options.fault = (req) => (req.path.endsWith("/chat/completions") && promptKind(req.body) === "statements_batch" ? { kind: "status", status: 500 } : undefined);
    const fused = records(await score(ROWS.slice(0, 4), [answerCorrectness({ layout: "fused" })], { judge: judgeFor({ maxRetries: 1 }), ...quiet }));
    assert.deepEqual(fused.map((r) => r["answer_correctness_error"]), ["", "", "", ""]);
    assert.deepEqual(fused.map((r) => r["answer_correctness_tp"]), [2, 1, 0, 2]);
    assert.equal(server.chatRequests().filter((r) => promptKind(r.body) === "statements").length, 4, "each reference split alone");
  });

  it("gives the same verdicts as the Ragas layout with the offline judge and with the bundled hand labels", async () => {
    const table = await loadDataset(path.join(DATA, "qa-models.csv"));
    for (const judge of [createJudge({ judge: "offline", quiet: true }), createJudge({ judge: "labels", labels: path.join(DATA, "qa-models.labels.jsonl") })]) {
      const ragas = records(await score(table, [answerCorrectness()], { judge, ...quiet }));
      const fused = records(await score(table, [answerCorrectness({ layout: "fused" })], { judge, ...quiet }));
      assert.equal(fused.length, ragas.length);
      assert.deepEqual(verdicts(fused), verdicts(ragas), judge.label);
    }
  });

  it("refuses an unknown layout when the metric is built", () => {
    assert.throws(() => answerCorrectness({ layout: "fast" as never }), /layout must be "ragas" or "fused"; got "fast"/);
    assert.throws(() => answerCorrectness({ reasons: "no" as never }), /reasons must be true or false; got "no"/);
  });
});

describe("answer correctness, fused layout, in batch mode", () => {
  for (const answersPerCall of [1, 6]) {
    it(`scores through the Batch API in two stages (references, then answers ${answersPerCall} to a call) like an interactive run, with no single-reference split`, async () => {
      server.options.batches = { pollsToComplete: 1 };
      const rows = threeModels(12);
      const metric = () => answerCorrectness({ layout: "fused", answersPerCall });
      const interactive = records(await score(rows, [metric()], { judge: judgeFor(), ...quiet }));
      server.reset();
      const batched = records(
        await scoreBatch(rows, [metric()], { judge: judgeFor({ cache: true, cacheDir: tempDir() }), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true }),
      );
      assert.deepEqual(verdicts(batched), verdicts(interactive));
      assert.equal(server.chatRequests().length, 0, "no interactive chat call");
      const kinds = server.batchApi
        .createdLines()
        .filter((l) => l.url === "/v1/chat/completions")
        .map((l) => promptKind(l.body));
      assert.deepEqual(kinds.filter((k) => k === "statements_batch").length, Math.ceil(12 / 8));
      assert.equal(kinds.filter((k) => k === "statements").length, 0, "a reference waiting for its batch is not split alone");
      const answerKind = answersPerCall === 1 ? "statements_verdicts" : "answers_statements_verdicts";
      assert.equal(kinds.filter((k) => k === answerKind).length, Math.ceil(rows.filter((r) => r.response !== "").length / answersPerCall));
    });
  }
});
