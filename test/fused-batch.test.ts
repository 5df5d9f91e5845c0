/**
 * The fused layout with several answers to a call ([F], `answersPerCall`):
 * a question's answers are split and judged in one call that sends the
 * question and its reference statements once. Through the fake server's
 * scripted judge (the exact oracle), the offline judge and the hand labels
 * it must give the Ragas layout's verdicts; a bad batched reply must fail
 * only the answers it must; an answer judged once is never asked again,
 * whatever rows come with it next time; estimates plan the calls it makes.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, estimate, loadDataset, score, type Judge, type JudgeOptions } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir, writeText } from "./support/files";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { openAITokens } from "./support/openai-tokens";
import { promptKind, requestData, scriptedAnswerCorrectness, scriptedEmbedding, sentences } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, tokenizer: openAITokens }));
const quiet = { progress: false as const, quiet: true };
const DATA = path.join(__dirname, "..", "data");
const KEY = "sk-test-fused-batch-0000000000";
const BATCHED = "answers_statements_verdicts";

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: KEY, baseURL: url(), model: "gpt-4o-mini", cache: false, retryBaseDelayMs: 1, quiet: true, ...options });
}

/** N questions × the given models; each model keeps some reference sentences and adds its own wrong one. */
function rowsFor(questions: number, models: readonly string[]) {
  const rows = [];
  for (let q = 0; q < questions; q++) {
    const reference = `Fact ${q} one. Fact ${q} two. Fact ${q} three.`;
    for (const [m, model] of models.entries()) {
      const response = m === 0 ? `Fact ${q} one. Fact ${q} two.` : m === 1 ? `Fact ${q} one. Wrong ${q}.` : q % 10 === 0 ? "" : `Fact ${q} three. Wrong ${q} by ${model}.`;
      rows.push({ id: `q${q}`, model, user_input: `Q${q}?`, response, reference });
    }
  }
  return rows;
}

const SCORES = ["answer_correctness", "answer_correctness_factual", "answer_correctness_semantic", "answer_correctness_tp", "answer_correctness_fp", "answer_correctness_fn", "answer_correctness_error"];

/** Scores, counts, errors and every statement's verdict (with its reason); not the record of how the judge was asked, which differs by design. */
function outcome(rows: Record<string, unknown>[]) {
  return rows.map((r) => ({ ...Object.fromEntries(SCORES.map((c) => [c, r[c]])), statements: verdictsOf(r["answer_correctness_statements"]) }));
}

function verdictsOf(cell: unknown): unknown {
  if (typeof cell !== "string" || cell === "") return cell;
  const { layout: _layout, reasons: _reasons, answersPerCall: _answersPerCall, prompts: _prompts, ...rest } = JSON.parse(cell) as Record<string, unknown>;
  return rest;
}

/** The batched requests the server saw: their questions, each with its reference statements and its answers' texts. */
function batchedRequests(): { questions: { question: string; reference: string[]; answers: string[] }[] }[] {
  return server
    .chatRequests()
    .filter((r) => promptKind(r.body) === BATCHED)
    .map((r) => {
      const data = requestData(r.body as { messages: { role: string; content: unknown }[] }) as { questions: { question: string; reference: string[]; answers: { answer: number; text: string }[] }[] };
      let n = 0;
      for (const q of data.questions) for (const a of q.answers) assert.equal(a.answer, ++n, "answers are numbered from 1 across the call");
      return { questions: data.questions.map((q) => ({ ...q, answers: q.answers.map((a) => a.text) })) };
    });
}

describe("answer correctness, fused layout, several answers to a call", () => {
  for (const answersPerCall of [3, 8]) {
    it(`gives the Ragas layout's scores and verdicts, in ⌈answers/${answersPerCall}⌉ calls, each question and reference sent once per call`, async () => {
      const rows = rowsFor(20, ["a", "b", "c"]);
      const ragas = records(await score(rows, [answerCorrectness()], { judge: judgeFor(), ...quiet }));
      server.reset();
      const batched = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall })], { judge: judgeFor(), ...quiet }));
      assert.deepEqual(outcome(batched), outcome(ragas));

      const answers = rows.filter((r) => r.response !== "").length;
      const kinds = server.chatRequests().map((r) => promptKind(r.body));
      assert.equal(kinds.filter((k) => k === "statements_batch").length, Math.ceil(20 / 8));
      assert.equal(kinds.filter((k) => k === BATCHED).length, Math.ceil(answers / answersPerCall));
      assert.equal(kinds.length, Math.ceil(20 / 8) + Math.ceil(answers / answersPerCall), "no other call");
      const sent = batchedRequests();
      assert.deepEqual(sent.flatMap((b) => b.questions.flatMap((q) => q.answers)).sort(), rows.filter((r) => r.response !== "").map((r) => r.response).sort(), "every answer once");
      for (const batch of sent) {
        assert.ok(batch.questions.reduce((n, q) => n + q.answers.length, 0) <= answersPerCall);
        const names = batch.questions.map((q) => q.question);
        assert.equal(new Set(names).size, names.length, `a question is sent once per call: ${names.join(", ")}`);
        for (const q of batch.questions) assert.deepEqual(q.reference, sentences(rows.find((r) => r.user_input === q.question)!.reference), "the reference's statements, as extracted");
      }
      // Progress plans exactly the calls made.
      const planned = answerCorrectness({ layout: "fused", answersPerCall }).planCalls!(rows.map((r, index) => ({ ...r, index, retrieved_contexts: [] }))).filter((s) => s.stage !== "embedding");
      assert.equal(planned.reduce((a, s) => a + s.calls, 0), kinds.length);
    });
  }

  it("sends the first answers' calls while a later batch of references is still being split", async () => {
    const slow = 2500;
    // The last batch of references (questions 16 to 23) is answered late.
    server.options.latencyMs = (req) => (promptKind(req.body) === "statements_batch" && JSON.stringify(req.body).includes("Q16?") ? slow : 0);
    const rows = rowsFor(24, ["a", "b", "c"]);
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6 })], { judge: judgeFor(), ...quiet }));
    assert.deepEqual(scored.filter((r) => r["answer_correctness_error"] !== ""), []);
    const late = server.chatRequests().find((r) => promptKind(r.body) === "statements_batch" && JSON.stringify(r.body).includes("Q16?"))!;
    const early = server.chatRequests().filter((r) => promptKind(r.body) === BATCHED && r.receivedAt < late.receivedAt + slow - 1000);
    assert.ok(early.length >= 5, `${early.length} batched calls arrived before the late references were split`);
  });

  it("costs fewer prompt tokens per row than one answer to a call, and far fewer calls", async () => {
    const rows = rowsFor(12, ["a", "b", "c"]);
    await score(rows, [answerCorrectness({ layout: "fused" })], { judge: judgeFor(), ...quiet });
    const one = server.totalUsage();
    const oneCalls = server.chatRequests().length;
    server.reset();
    await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6 })], { judge: judgeFor(), ...quiet });
    const six = server.totalUsage();
    assert.ok(six.chatPromptTokens < one.chatPromptTokens / 2, `prompt tokens: ${six.chatPromptTokens} batched, ${one.chatPromptTokens} one to a call`);
    assert.ok(server.chatRequests().length * 3 < oneCalls, `${server.chatRequests().length} calls batched, ${oneCalls} one to a call`);
  });

  it("gives the Ragas layout's verdicts with the offline judge and with the bundled hand labels", async () => {
    const table = await loadDataset(path.join(DATA, "qa-models.csv"));
    for (const judge of [createJudge({ judge: "offline", quiet: true }), createJudge({ judge: "labels", labels: path.join(DATA, "qa-models.labels.jsonl") })]) {
      const ragas = records(await score(table, [answerCorrectness()], { judge, ...quiet }));
      const batched = records(await score(table, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge, ...quiet }));
      assert.equal(batched.length, ragas.length);
      assert.deepEqual(outcome(batched), outcome(ragas), judge.label);
    }
  });

  it("puts fewer long answers in a call: at most 6,000 characters of answers, and a longer answer alone", async () => {
    const sentence = (q: number, n: number) => `Fact ${q} number ${n} is a long sentence that goes on about the question for a good while.`;
    const long = (q: number, from: number, count: number) => Array.from({ length: count }, (_, n) => sentence(q, from + n)).join(" ");
    const rows = [0, 1, 2, 3].flatMap((q) => {
      const reference = long(q, 0, 4);
      // Three answers of about 2,600 characters each, and one of about 7,000.
      return ["a", "b", "c"].map((model, m) => ({ id: `q${q}`, model, user_input: `Q${q}?`, response: long(q, m, q === 3 && m === 0 ? 80 : 30), reference }));
    });
    const ragas = records(await score(rows, [answerCorrectness()], { judge: judgeFor(), ...quiet }));
    server.reset();
    const batched = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor(), ...quiet }));
    assert.deepEqual(outcome(batched), outcome(ragas));
    const sent = batchedRequests().map((b) => b.questions.flatMap((q) => q.answers));
    assert.ok(sent.every((answers) => answers.length === 1 || answers.reduce((n, a) => n + a.length, 0) <= 6000), sent.map((a) => a.map((x) => x.length).join("+")).join(", "));
    assert.deepEqual(sent.filter((answers) => answers.some((a) => a.length > 6000)).map((answers) => answers.length), [1], "the longest answer alone");
    assert.equal(sent.flat().length, 12);
    assert.ok(sent.length <= 8, `${sent.length} calls for 12 answers`);
  });

  it("under a small reply cap (maxTokens) puts fewer answers in a call, so that no batched reply is cut off", async () => {
    const sentence = (q: number, n: number) => `Fact ${q} number ${n} says something about the question at some length.`;
    const text = (q: number, from: number, count: number) => Array.from({ length: count }, (_, n) => sentence(q, from + n)).join(" ");
    // 6 questions × 3 models, answers of about 400 characters: 18 answers, 7,000 characters.
    const rows = [0, 1, 2, 3, 4, 5].flatMap((q) => ["a", "b", "c"].map((model, m) => ({ id: `q${q}`, model, user_input: `Q${q}?`, response: text(q, m, 6), reference: text(q, 0, 3) })));
    const capped = judgeFor({ maxTokens: 1024 });
    const ragas = records(await score(rows, [answerCorrectness()], { judge: judgeFor({ maxTokens: 1024 }), ...quiet }));
    assert.equal(server.totalUsage().chatRepliesCut, 0, "one answer's reply fits the cap");
    server.reset();
    const estimated = await estimate(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: capped });
    const batched = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: capped, ...quiet }));
    assert.deepEqual(outcome(batched), outcome(ragas));
    assert.equal(server.totalUsage().chatRepliesCut, 0, "no reply cut off at max_tokens");
    const sent = batchedRequests().map((b) => b.questions.flatMap((q) => q.answers));
    assert.ok(sent.every((answers) => answers.reduce((n, a) => n + a.length, 0) <= 1500), sent.map((a) => a.map((x) => x.length).join("+")).join(", "));
    assert.equal(sent.flat().length, 18, "each answer asked once");
    assert.equal(estimated.chatCalls, server.chatRequests().length, "the estimate plans the calls made");
    const planned = answerCorrectness({ layout: "fused", answersPerCall: 8 }).planCalls!(rows.map((r, index) => ({ ...r, index, retrieved_contexts: [] })), capped);
    assert.equal(planned.filter((s) => s.stage !== "embedding").reduce((a, s) => a + s.calls, 0), server.chatRequests().length, "progress plans the calls made");
  });

  it("sends one answer given by two models once, and both rows get its verdicts", async () => {
    const rows = rowsFor(2, ["a", "b"]).concat(rowsFor(2, ["a"]).map((r) => ({ ...r, model: "copy" })));
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor(), ...quiet }));
    const answers = batchedRequests().flatMap((b) => b.questions.flatMap((q) => q.answers));
    assert.equal(answers.length, 4, answers.join(" | "));
    const copies = scored.filter((r) => r["model"] === "copy");
    const originals = scored.filter((r) => r["model"] === "a");
    assert.deepEqual(outcome(copies), outcome(originals));
  });

  it("asks each answer alone when a batched reply stays invalid, so only the answer it must fails", async () => {
    // Any reply that judges "Wrong 1." is short of one verdict: the batch fails, then that answer alone.
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as { questions?: { answers: { statements: string[]; response: unknown[] }[] }[] };
      for (const q of reply.questions ?? []) for (const a of q.answers) if (a.statements.includes("Wrong 1.")) a.response.pop();
      return reply;
    };
    const rows = rowsFor(3, ["a", "b", "c"]);
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet }));
    const failed = scored.filter((r) => r["answer_correctness_error"] !== "");
    assert.deepEqual(failed.map((r) => [r["id"], r["model"]]), [["q1", "b"]]);
    assert.match(String(failed[0]!["answer_correctness_error"]), /splitting and classifying the response failed: .*answer 1: the reply must give exactly one verdict for each of the 2 answer statements/);
    assert.ok(Number.isNaN(failed[0]!["answer_correctness"]));
    assert.deepEqual(scored.filter((r) => r["answer_correctness_error"] === "").length, rows.length - 1);
    const sizes = batchedRequests().map((b) => b.questions.reduce((n, q) => n + q.answers.length, 0));
    assert.ok(sizes.filter((n) => n === 1).length >= 7, `each answer of the failed batch asked alone: ${sizes.join(",")}`);
  });

  it("refuses a batched reply whose entries are out of order (answers swapped), then asks each answer alone", async () => {
    const rows = rowsFor(3, ["a", "b", "c"]);
    const ragas = records(await score(rows, [answerCorrectness()], { judge: judgeFor(), ...quiet }));
    server.reset();
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as { questions?: { answers: unknown[] }[] };
      for (const q of reply.questions ?? []) if (q.answers.length > 1) q.answers.reverse();
      return reply;
    };
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet }));
    assert.deepEqual(outcome(scored), outcome(ragas), "no row gets another answer's verdicts");
    const sizes = batchedRequests().map((b) => b.questions.reduce((n, q) => n + q.answers.length, 0));
    assert.ok(sizes.filter((n) => n > 1).length >= 2 && sizes.filter((n) => n === 1).length >= 8, `the swapped batches refused, then each answer alone: ${sizes.join(",")}`);
  });

  it("does not split a batch refused for a rate limit: its rows fail with the reason, no call more", async () => {
    server.options.fault = (req) => (req.path.endsWith("/chat/completions") && promptKind(req.body) === BATCHED ? { kind: "status", status: 429, headers: { "retry-after": "60" } } : undefined);
    const rows = rowsFor(2, ["a", "b", "c"]);
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ rateLimitWaitMs: 300 }), ...quiet }));
    const answered = scored.filter((r) => r["response"] !== "");
    assert.ok(answered.every((r) => /splitting and classifying the response failed: .*429/.test(String(r["answer_correctness_error"]))), JSON.stringify(answered.map((r) => r["answer_correctness_error"])));
    const sizes = batchedRequests().map((b) => b.questions.reduce((n, q) => n + q.answers.length, 0));
    assert.ok(sizes.length > 0 && sizes.every((n) => n === answered.length), `the one batch of ${answered.length}, never split: ${sizes.join(",")}`);
  });

  it("asks only for answers not judged before, whatever rows come with them: each answer of a batch is cached by itself", async () => {
    const cacheDir = tempDir();
    const first = rowsFor(6, ["a", "b"]);
    const judged = records(await score(first, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
    server.reset();
    // The same rows again: nothing is asked.
    const again = records(await score(first, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
    assert.deepEqual(again, judged);
    assert.equal(server.chatRequests().length, 0);
    // A third model added: the batches are cut differently, yet only its answers are asked.
    const more = rowsFor(6, ["a", "b", "c"]);
    const scored = records(await score(more, [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
    const asked = batchedRequests().flatMap((b) => b.questions.flatMap((q) => q.answers));
    assert.deepEqual(asked.sort(), more.filter((r) => r.model === "c" && r.response !== "").map((r) => r.response).sort());
    assert.equal(server.chatRequests().length, batchedRequests().length, "no reference is split again");
    assert.deepEqual(outcome(scored.filter((r) => r["model"] !== "c")), outcome(judged));
    // The estimate knows it too: every call but those is cached.
    const estimated = await estimate(more.concat(rowsFor(6, ["x", "y", "d"]).filter((r) => r.model === "d")), [answerCorrectness({ layout: "fused", answersPerCall: 8 })], { judge: judgeFor({ cache: true, cacheDir }) });
    assert.equal(estimated.chatCalls - estimated.cachedChatCalls, 1, "only model d's answers: one batched call");
  });

  it("estimates the calls it makes, and fewer prompt tokens than one answer to a call", async () => {
    const rows = rowsFor(10, ["a", "b", "c"]);
    const judge = judgeFor();
    const [alone, batched] = await Promise.all([estimate(rows, [answerCorrectness({ layout: "fused" })], { judge }), estimate(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6 })], { judge })]);
    assert.equal(server.chatRequests().length, 0, "an estimate calls nothing");
    await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6 })], { judge, ...quiet });
    assert.equal(batched.chatCalls, server.chatRequests().length);
    assert.ok(batched.promptTokens < alone.promptTokens / 2, `${batched.promptTokens} batched, ${alone.promptTokens} alone`);
    const used = server.totalUsage();
    assert.ok(Math.abs(batched.promptTokens - used.chatPromptTokens) / used.chatPromptTokens < 0.1, `estimated ${batched.promptTokens}, sent ${used.chatPromptTokens}`);
  });

  it("without reasons: the same verdicts, and the batched schema asks for verdict strings alone", async () => {
    const rows = rowsFor(4, ["a", "b", "c"]);
    const withReasons = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6 })], { judge: judgeFor(), ...quiet }));
    server.reset();
    const bare = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 6, reasons: false })], { judge: judgeFor(), ...quiet }));
    const strip = (rows: Record<string, unknown>[]) => outcome(rows).map((r) => ({ ...r, statements: r.statements === "" ? "" : JSON.parse(JSON.stringify(r.statements), (k, v: unknown) => (k === "reason" ? undefined : v)) }));
    assert.deepEqual(strip(bare), strip(withReasons));
    const bodies = server.chatRequests().filter((r) => promptKind(r.body) === BATCHED);
    assert.ok(bodies.length > 0);
    for (const body of bodies) {
      const entry = body.body.response_format.json_schema.schema.properties.questions.items.properties.answers.items;
      assert.equal(entry.properties.response.items.type, "string");
      assert.doesNotMatch(JSON.stringify(body.body.messages), /reason/i);
    }
  });

  it("refuses a bad answersPerCall, or one without the fused layout, when the metric is built", () => {
    for (const bad of [0, 2.5, 13, Number.NaN]) assert.throws(() => answerCorrectness({ layout: "fused", answersPerCall: bad }), /answersPerCall must be a whole number from 1 to 12/);
    assert.throws(() => answerCorrectness({ answersPerCall: 4 }), /answersPerCall applies to the fused layout only .*add layout: "fused"/);
  });

  it("--answers-per-call on the command line batches the fused layout's answers", async () => {
    const dir = tempDir();
    const rows = rowsFor(4, ["a", "b", "c"]);
    const input = writeText(dir, "rows.csv", ["id,model,user_input,response,reference", ...rows.map((r) => [r.id, r.model, r.user_input, r.response, r.reference].map((c) => JSON.stringify(c)).join(","))].join("\n") + "\n");
    const run = await runCliCaptured(["score", input, "--out", path.join(dir, "scored.csv"), "--judge", "openai", "--no-cache", "--no-progress", "--layout", "fused", "--answers-per-call", "6"], { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url() });
    assert.equal(run.code, 0, run.err);
    assert.equal(batchedRequests().length, Math.ceil(rows.filter((r) => r.response !== "").length / 6));
    const refused = await runCliCaptured(["score", input, "--out", path.join(dir, "x.csv"), "--judge", "offline", "--answers-per-call", "6"], {});
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--answers-per-call .*--layout fused/);
  });
});
