/**
 * Lean replies ([F]): reasons come before verdicts and are limited by the
 * schema; a server that refuses the limit still gets strict JSON Schema;
 * the prompt cache's tokens, when a server reports them, are counted and
 * priced as cached.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createJudge, formatUsage, scoreAnswerCorrectness, scoreRun, type JudgeOptions } from "../src/index";
import { classifyRequest, REASON_MAX_LENGTH } from "../src/metrics/answer-correctness/prompts";
import { useFakeOpenAI } from "./support/fake-openai";
import { openAITokens } from "./support/openai-tokens";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

function judgeFor(options: JudgeOptions = {}) {
  return createJudge({ judge: "openai", apiKey: "sk-test-lean-000000000000", baseURL: url(), model: "gpt-4o-mini", cache: false, quiet: true, retryBaseDelayMs: 1, ...options });
}

const ROWS = [
  { id: "q1", model: "a", user_input: "Where is the Louvre?", response: "The Louvre is in Paris. The Louvre opened in 1793.", reference: "The Louvre is in Paris. The Louvre opened in 1793." },
  { id: "q1", model: "b", user_input: "Where is the Louvre?", response: "The Louvre is in Lyon.", reference: "The Louvre is in Paris. The Louvre opened in 1793." },
  { id: "q2", model: "a", user_input: "What is the boiling point of water?", response: "Water boils at 100 °C at sea level.", reference: "Water boils at 100 °C at sea level." },
];

describe("lean replies", () => {
  it("asks for the reason before the verdict, at most REASON_MAX_LENGTH characters, on both sides", () => {
    const schema = classifyRequest("q", ["a"], ["b"], { reasons: true }).jsonSchema as any;
    for (const side of ["response", "reference"]) {
      const entry = schema.properties[side].items;
      assert.deepEqual(Object.keys(entry.properties), ["reason", "verdict"]);
      assert.equal(entry.properties.reason.maxLength, REASON_MAX_LENGTH);
    }
  });

  it("keeps a verdict whose reason is longer than the limit (a server that does not enforce it): the limit saves tokens, it fails no row", async () => {
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as { response?: { reason: string }[]; reference?: { reason: string }[] };
      for (const v of [...(reply.response ?? []), ...(reply.reference ?? [])]) v.reason = `${v.reason} ${"because ".repeat(20)}`;
      return reply;
    };
    const scored = await scoreAnswerCorrectness(ROWS, { judge: judgeFor(), progress: false, quiet: true, reasons: true });
    assert.deepEqual(scored.column("answer_correctness_error").values, ["", "", ""]);
    assert.deepEqual(scored.column("answer_correctness_tp").values, [2, 0, 1]);
  });

  it("drops only the length limits when a server refuses them, keeps strict json_schema, and remembers", async () => {
    server.options.rejectLengthLimits = true;
    const judge = judgeFor({ concurrency: 1 });
    // Reasons asked for: their length limit is what such a server refuses.
    const scored = await scoreAnswerCorrectness(ROWS, { judge, progress: false, quiet: true, reasons: true });
    assert.deepEqual(scored.column("answer_correctness_error").values, ["", "", ""]);
    assert.deepEqual(["tp", "fp", "fn"].map((c) => scored.column(`answer_correctness_${c}`).values), [[2, 0, 1], [0, 1, 0], [0, 2, 0]]);
    const formats = server.chatRequests().map((r) => r.body.response_format);
    assert.ok(formats.every((f) => f.type === "json_schema" && f.json_schema.strict === true));
    const classifications = formats.filter((f) => f.json_schema.name === "verdicts");
    // One refused (with the limit), then every classification without it.
    assert.equal(classifications.filter((f) => JSON.stringify(f).includes("maxLength")).length, 1);
    assert.equal(classifications.length, 4);
    assert.equal(scoreRun(scored)!.usage.failures, 0);
  });

  it("counts the prompt tokens a server reports from its prompt cache, and prices them as cached", async () => {
    server.options.tokenizer = openAITokens;
    server.options.promptCache = { minTokens: 64, incrementTokens: 16 };
    const judge = judgeFor({ concurrency: 1 });
    const scored = await scoreAnswerCorrectness(ROWS, { judge, progress: false, quiet: true });
    const usage = scoreRun(scored)!.usage;
    const reported = server.totalUsage();
    assert.ok(reported.chatCachedPromptTokens > 0, "the fixed instructions and example repeat, so later requests read them from the cache");
    assert.equal(usage.cachedPromptTokens, reported.chatCachedPromptTokens);
    assert.equal(usage.promptTokens, reported.chatPromptTokens);
    const full = (usage.promptTokens * 0.15 + usage.completionTokens * 0.6) / 1e6;
    const expected = full - (usage.cachedPromptTokens * (0.15 - 0.075)) / 1e6;
    const chatCost = usage.costUSD! - (usage.embeddingTokens * 0.02) / 1e6;
    assert.ok(Math.abs(chatCost - expected) < 1e-12, `cost ${chatCost} should be ${expected}`);
    assert.match(formatUsage(usage), /prompt tokens from the provider's cache/);
  });
});
