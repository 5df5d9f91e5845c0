/**
 * The fused layout's reference batches under a reply cap: eight long
 * references in one call make a reply longer than many servers allow, so a
 * batch carries at most 8,000 characters of references (fewer in proportion
 * under a lower cap), and no reply is cut off (which would pay for it, retry
 * it, then split every reference alone).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, estimate, score, type Judge, type JudgeOptions } from "../src/index";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { openAITokens } from "./support/openai-tokens";
import { promptKind, requestData, scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, tokenizer: openAITokens }));
const quiet = { progress: false as const, quiet: true };

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-fus-refs-0000000000", baseURL: url(), model: "gpt-4o-mini", cache: false, retryBaseDelayMs: 1, quiet: true, ...options });
}

const sentence = (q: number, n: number) => `Fact ${q} number ${n} says something about the question at some considerable length, with detail.`;
const text = (q: number, from: number, count: number) => Array.from({ length: count }, (_, n) => sentence(q, from + n)).join(" ");

/** 16 questions with references of about 1,000 characters, one short answer each. */
function rows() {
  return Array.from({ length: 16 }, (_, q) => ({ id: `q${q}`, model: "a", user_input: `Q${q}?`, response: text(q, 0, 2), reference: text(q, 0, 10) }));
}

function referenceBatches(): string[][] {
  return server
    .chatRequests()
    .filter((r) => promptKind(r.body) === "statements_batch")
    .map((r) => (requestData(r.body as { messages: { role: string; content: unknown }[] }) as { texts: { text: string }[] }).texts.map((t) => t.text));
}

describe("fused layout: reference batches under a reply cap", () => {
  for (const maxTokens of [1024, undefined]) {
    it(`maxTokens ${String(maxTokens)}: no reference batch's reply is cut off, each reference is split once, and the plan and estimate count the calls made`, async () => {
      const judge = judgeFor(maxTokens === undefined ? {} : { maxTokens });
      const table = rows();
      const metric = () => answerCorrectness({ layout: "fused", weights: [1, 0] });
      const estimated = await estimate(table, [metric()], { judge });
      const scored = records(await score(table, [metric()], { judge, ...quiet }));
      assert.deepEqual(scored.map((r) => r["answer_correctness_error"]), table.map(() => ""));
      assert.deepEqual(scored.map((r) => [r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"]]), table.map(() => [2, 0, 8]));
      assert.equal(server.totalUsage().chatRepliesCut, 0, "no reply cut off at max_tokens");
      const batches = referenceBatches();
      assert.equal(batches.flat().length, 16, "each reference asked once");
      const most = maxTokens === undefined ? 8000 : 2000;
      assert.ok(batches.every((b) => b.length <= 8 && (b.reduce((n, t) => n + t.length, 0) <= most || b.length === 1)), batches.map((b) => b.map((t) => t.length).join("+")).join(", "));
      assert.equal(estimated.chatCalls, server.chatRequests().length, "the estimate plans the calls made");
      const planned = metric().planCalls!(table.map((r, index) => ({ ...r, index, retrieved_contexts: [] })), judge);
      assert.equal(planned.filter((s) => s.stage !== "embedding").reduce((a, s) => a + s.calls, 0), server.chatRequests().length, "progress plans the calls made");
    });
  }
});

/** Questions with references of `statements` sentences and one short answer each. */
function longReferences(questions: number, statements: number) {
  return Array.from({ length: questions }, (_, q) => ({ id: `q${q}`, model: "a", user_input: `Q${q}?`, response: text(q, 0, 1), reference: text(q, 0, statements) }));
}

describe("fused layout: several answers a call against long references", () => {
  for (const [answersPerCall, maxTokens, statements, reasons] of [
    [8, 1024, 10, true],
    [12, 4096, 25, true],
    [12, 1024, 25, false],
  ] as const) {
    it(`answersPerCall ${answersPerCall}, maxTokens ${maxTokens}, ${statements} reference statements, reasons ${reasons}: each answer's verdicts on the reference count toward the call's size, so no reply is cut off`, async () => {
      const judge = judgeFor({ maxTokens });
      const table = longReferences(16, statements);
      const metric = () => answerCorrectness({ layout: "fused", answersPerCall, reasons, weights: [1, 0] });
      const estimated = await estimate(table, [metric()], { judge });
      const scored = records(await score(table, [metric()], { judge, ...quiet }));
      assert.deepEqual(scored.map((r) => r["answer_correctness_error"]), table.map(() => ""));
      assert.deepEqual(scored.map((r) => [r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"]]), table.map(() => [1, 0, statements - 1]));
      assert.equal(server.totalUsage().chatRepliesCut, 0, "no reply cut off at max_tokens");
      const batched = server.chatRequests().filter((r) => promptKind(r.body) === "answers_statements_verdicts");
      assert.ok(batched.length < table.length, `still several answers a call: ${batched.length} calls for ${table.length} answers`);
      assert.equal(estimated.chatCalls, server.chatRequests().length, "the estimate plans the calls made");
      const planned = metric().planCalls!(table.map((r, index) => ({ ...r, index, retrieved_contexts: [] })), judge);
      assert.equal(planned.filter((s) => s.stage !== "embedding").reduce((a, s) => a + s.calls, 0), server.chatRequests().length, "progress plans the calls made");
    });
  }
});
