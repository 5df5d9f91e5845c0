/**
 * The fused layout against a judge that does not always reply as asked:
 * batched replies that drop, repeat, reorder or renumber answers, give too
 * few or too many verdicts, move an answer under another question, or are
 * cut off. At 1, 3 and 8 answers a call, with and without reasons, every
 * row must get exactly the Ragas arithmetic of its own verdicts (computed
 * here from the scripted oracle), or fail naming what the reply did wrong;
 * no other answer of the call is failed or shifted.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, loadDataset, score, scoreRun, statements, type Judge, type JudgeOptions } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { promptKind, requestData, scriptedAnswerCorrectness, scriptedEmbedding, sentences } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));
const quiet = { progress: false as const, quiet: true };
const BATCHED = "answers_statements_verdicts";

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-fus-0000000000", baseURL: url(), cache: false, retryBaseDelayMs: 1, quiet: true, ...options });
}

/** 4 questions × 3 models, reference lengths differing from question to question, and two rows of other kinds. */
function rowsFor() {
  const rows = [];
  for (let q = 0; q < 4; q++) {
    const facts = Array.from({ length: 2 + (q % 3) }, (_, i) => `Fact ${q} n${i}.`);
    const reference = facts.join(" ");
    rows.push({ id: `q${q}`, model: "a", user_input: `Q${q}?`, response: facts.slice(0, 2).join(" "), reference });
    rows.push({ id: `q${q}`, model: "b", user_input: `Q${q}?`, response: `${facts[0]} Wrong ${q}.`, reference });
    rows.push({ id: `q${q}`, model: "c", user_input: `Q${q}?`, response: `${facts[facts.length - 1]} Wrong ${q} c. Extra ${q} c.`, reference });
  }
  // A model giving another's answer (judged once), and an empty answer.
  rows.push({ id: "q0", model: "d", user_input: "Q0?", response: rows[0]!.response, reference: rows[0]!.reference });
  rows.push({ id: "q1", model: "d", user_input: "Q1?", response: "", reference: rows[3]!.reference });
  return rows;
}

/** F-beta as Ragas defines it, computed here apart from the toolkit. */
function expectedFactual(response: string, reference: string, beta = 1): { tp: number; fp: number; fn: number; factual: number } {
  const a = sentences(response);
  const r = sentences(reference);
  const tp = a.filter((s) => r.includes(s)).length;
  const fp = a.length - tp;
  const fn = r.filter((s) => !a.includes(s)).length;
  const p = tp + fp === 0 ? 0 : tp / (tp + fp);
  const rc = tp + fn === 0 ? 0 : tp / (tp + fn);
  const factual = p === 0 && rc === 0 ? 0 : ((1 + beta * beta) * p * rc) / (beta * beta * p + rc);
  return { tp, fp, fn, factual };
}

type Entry = { answer: number; statements: string[]; response: unknown[]; reference: unknown[] };
type Batch = { questions: { answers: Entry[] }[] };

/** Ways a batched reply goes wrong; each applies only to replies for 2 answers or more. */
const MUTATIONS: Record<string, (reply: Batch) => void> = {
  "drops an answer": (r) => void r.questions[0]!.answers.pop(),
  "repeats an answer": (r) => void r.questions[0]!.answers.push({ ...r.questions[0]!.answers[0]! }),
  "swaps two answers": (r) => {
    const all = r.questions.flatMap((q) => q.answers);
    if (all.length < 2) return;
    const a = all[0]!;
    const b = all[1]!;
    const copy = { ...a };
    Object.assign(a, b);
    Object.assign(b, copy);
  },
  "numbers answers from 0": (r) => r.questions.flatMap((q) => q.answers).forEach((a) => (a.answer -= 1)),
  "numbers each question's answers from 1": (r) => r.questions.forEach((q) => q.answers.forEach((a, i) => (a.answer = i + 1))),
  "gives one verdict too few for an answer's statements": (r) => void r.questions[0]!.answers[0]!.response.pop(),
  "gives one verdict too many for the reference": (r) => void r.questions[0]!.answers[0]!.reference.push(r.questions[0]!.answers[0]!.reference[0]),
  "moves an answer under another question": (r) => {
    if (r.questions.length < 2) return void r.questions[0]!.answers.reverse();
    r.questions[1]!.answers.unshift(r.questions[0]!.answers.pop()!);
  },
  "leaves out a question": (r) => void (r.questions.length > 1 ? r.questions.pop() : r.questions[0]!.answers.pop()),
};

function answersIn(ctx: { messages: { role: string; content: unknown }[] }): number {
  const data = requestData(ctx) as { questions?: { answers: unknown[] }[] };
  return (data.questions ?? []).reduce((n, q) => n + q.answers.length, 0);
}

function checkScores(scored: Record<string, unknown>[], rows: ReturnType<typeof rowsFor>, what: string): void {
  assert.equal(scored.length, rows.length, `${what}: no row lost`);
  scored.forEach((r, i) => {
    const row = rows[i]!;
    assert.deepEqual([r["id"], r["model"]], [row.id, row.model], `${what}: row ${i} in place`);
    assert.equal(r["answer_correctness_error"], "", `${what}: row ${i} not failed: ${String(r["answer_correctness_error"])}`);
    const e = expectedFactual(row.response, row.reference);
    assert.deepEqual([r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"]], [e.tp, e.fp, e.fn], `${what}: row ${i} counts`);
    assert.ok(Math.abs(Number(r["answer_correctness"]) - e.factual) < 1e-12, `${what}: row ${i} score ${String(r["answer_correctness"])}, expected ${e.factual}`);
    const details = JSON.parse(String(r["answer_correctness_statements"])) as { response: { statement: string }[]; reference: { statement: string }[] };
    assert.deepEqual(details.response.map((v) => v.statement), sentences(row.response), `${what}: row ${i}'s own statements in the drill-down`);
    assert.deepEqual(details.reference.map((v) => v.statement), sentences(row.reference), `${what}: row ${i}'s own reference in the drill-down`);
  });
}

describe("fused layout: batched replies that go wrong", () => {
  for (const answersPerCall of [3, 8]) {
    for (const reasons of [true, false]) {
      for (const [name, mutate] of Object.entries(MUTATIONS)) {
        it(`answersPerCall ${answersPerCall}, reasons ${reasons}: a reply that ${name} is refused and its answers asked alone; every row keeps its own verdicts`, async () => {
          server.options.chat = (ctx) => {
            const reply = scriptedAnswerCorrectness(ctx) as Batch;
            if (promptKind(ctx.body) === BATCHED && answersIn(ctx) > 1) mutate(reply);
            return reply;
          };
          const rows = rowsFor();
          const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall, reasons, weights: [1, 0] })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet }));
          checkScores(scored, rows, name);
        });
      }
    }
  }
});

describe("fused layout: a batch of references whose reply goes wrong", () => {
  for (const answersPerCall of [1, 3, 8]) {
    it(`answersPerCall ${answersPerCall}: a reply that gives two references' statements in each other's place is refused; every row is judged against its own reference`, async () => {
      server.options.chat = (ctx) => {
        const reply = scriptedAnswerCorrectness(ctx) as { texts?: unknown[] };
        if (promptKind(ctx.body) === "statements_batch") reply.texts!.reverse();
        return reply;
      };
      const rows = rowsFor();
      const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall, weights: [1, 0] })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet }));
      checkScores(scored, rows, "references swapped");
      const kinds = server.chatRequests().map((r) => promptKind(r.body));
      assert.equal(kinds.filter((k) => k === "statements").length, 4, "each reference split alone once the batch is refused");
    });
  }
});

describe("fused layout: one answer to a call, and reruns", () => {
  for (const reasons of [true, false]) {
    it(`reasons ${reasons}: a row whose reply keeps giving too few verdicts fails naming the row's problem; a rerun asks for it again, not the cached rows`, async () => {
      const cacheDir = tempDir();
      const broken = (ctx: Parameters<typeof scriptedAnswerCorrectness>[0]) => {
        const reply = scriptedAnswerCorrectness(ctx) as { response?: unknown[] };
        if (promptKind(ctx.body) === "statements_verdicts" && JSON.stringify(requestData(ctx)).includes("Wrong 2 c.")) reply.response!.pop();
        return reply;
      };
      server.options.chat = broken;
      const rows = rowsFor();
      const metric = () => answerCorrectness({ layout: "fused", reasons, weights: [1, 0] });
      const first = records(await score(rows, [metric()], { judge: judgeFor({ cache: true, cacheDir, maxInvalidReplies: 1 }), ...quiet }));
      const failed = first.flatMap((r, i) => (r["answer_correctness_error"] === "" ? [] : [i]));
      assert.deepEqual(failed, [8], "only q2's answer by c fails");
      assert.match(String(first[8]!["answer_correctness_error"]), /splitting and classifying the response failed: .*no valid reply after 2 attempts.*exactly one verdict for each of the 3 answer statements.*it gave 2/);
      checkScores(first.filter((_, i) => i !== 8), rows.filter((_, i) => i !== 8), "the others");
      // The server is fixed: only the failed row is asked again, and it is scored.
      server.reset();
      server.options.chat = scriptedAnswerCorrectness;
      const second = records(await score(rows, [metric()], { judge: judgeFor({ cache: true, cacheDir, maxInvalidReplies: 1 }), ...quiet }));
      checkScores(second, rows, "rerun");
      assert.equal(server.chatRequests().length, 1, "one call: the row that failed");
    });
  }

  for (const answersPerCall of [1, 3, 8]) {
    it(`answersPerCall ${answersPerCall}: replies cut off at the token limit are refused, retried, and never cached; the rows are scored once the server answers whole`, async () => {
      const cacheDir = tempDir();
      // Each request's first reply is cut off; its retry comes whole.
      const seen = new Set<string>();
      server.options.fault = (req) => {
        if (!req.path.endsWith("/chat/completions") || promptKind(req.body) === "statements_batch") return undefined;
        const data = JSON.stringify(requestData(req.body as { messages: { role: string; content: unknown }[] }));
        if (seen.has(data)) return undefined;
        seen.add(data);
        return { kind: "truncated" };
      };
      const rows = rowsFor();
      const metric = () => answerCorrectness({ layout: "fused", answersPerCall, weights: [1, 0] });
      const scored = records(await score(rows, [metric()], { judge: judgeFor({ cache: true, cacheDir, maxInvalidReplies: 2 }), ...quiet }));
      checkScores(scored, rows, "first replies cut off");
      server.reset();
      const again = records(await score(rows, [metric()], { judge: judgeFor({ cache: true, cacheDir }), ...quiet }));
      assert.deepEqual(again, scored);
      assert.equal(server.chatRequests().length, 0, "all from the cache");
    });
  }

  it("mixed faults at 3 answers a call: each row gets its own verdicts, and the statements table matches the counts", async () => {
    const names = Object.keys(MUTATIONS);
    let n = 0;
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as Batch;
      // Every batched reply goes wrong in its own way on its first attempt; the correction is heeded.
      const corrected = ctx.messages.some((m: { role: string; content: unknown }) => m.role === "user" && !/^\s*[[{]/.test(String(m.content)));
      if (promptKind(ctx.body) === BATCHED && answersIn(ctx) > 1 && !corrected) MUTATIONS[names[n++ % names.length]!]!(reply);
      return reply;
    };
    const rows = rowsFor();
    const frame = await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 3, weights: [1, 0] })], { judge: judgeFor(), ...quiet });
    const scored = records(frame);
    checkScores(scored, rows, "mixed");
    const table = records(statements(frame));
    rows.forEach((_, i) => {
      const mine = table.filter((s) => s["row"] === i);
      assert.equal(mine.filter((s) => s["verdict"] === "TP").length, scored[i]!["answer_correctness_tp"], `row ${i}: TP in the statements table`);
      assert.equal(mine.filter((s) => s["verdict"] === "FP").length, scored[i]!["answer_correctness_fp"], `row ${i}: FP in the statements table`);
      assert.equal(mine.filter((s) => s["verdict"] === "FN").length, scored[i]!["answer_correctness_fn"], `row ${i}: FN in the statements table`);
    });
  });
});

describe("fused layout: the usage line after bad replies", () => {
  it("counts every call, attempt and token the refused batches cost", async () => {
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as Batch;
      if (promptKind(ctx.body) === BATCHED && answersIn(ctx) > 1) MUTATIONS["drops an answer"]!(reply);
      return reply;
    };
    const rows = rowsFor();
    const frame = await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 3, weights: [1, 0] })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet });
    checkScores(records(frame), rows, "drops an answer");
    const usage = scoreRun(frame)!.usage;
    const requests = server.chatRequests();
    const batches = requests.filter((r) => promptKind(r.body) === BATCHED && answersIn(r.body as { messages: { role: string; content: unknown }[] }) > 1);
    const alone = requests.filter((r) => promptKind(r.body) === BATCHED).length - batches.length;
    assert.equal(usage.chatHttpRequests, requests.length, "every HTTP request counted");
    assert.equal(usage.retries, batches.length / 2, "each refused batch asked twice: one retry each");
    assert.equal(usage.failures, batches.length / 2, "each batch that stayed invalid counted as failed");
    assert.equal(usage.chatCalls, 1 + batches.length / 2 + alone, "one reference batch, the batched calls, each answer alone");
    assert.equal(usage.promptTokens, server.totalUsage().chatPromptTokens, "every attempt's prompt tokens");
  });
});

describe("fused layout: a model that numbers answers its own way", () => {
  it("numbering from 0 refuses the batches, but each answer asked alone is scored: its only entry cannot belong to another answer", async () => {
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as Batch;
      if (promptKind(ctx.body) === BATCHED) MUTATIONS["numbers answers from 0"]!(reply);
      return reply;
    };
    const rows = rowsFor();
    const scored = records(await score(rows, [answerCorrectness({ layout: "fused", answersPerCall: 8, weights: [1, 0] })], { judge: judgeFor({ maxInvalidReplies: 1 }), ...quiet }));
    checkScores(scored, rows, "numbered from 0");
  });
});

describe("fused layout on the command line, with a judge that replies badly", () => {
  it("--layout fused --answers-per-call 3 --no-reasons: the one answer that stays invalid fails, named; the statements file matches the scores", async () => {
    const dir = tempDir();
    const rows = rowsFor();
    const input = path.join(dir, "rows.csv");
    writeFileSync(input, ["id,model,user_input,response,reference", ...rows.map((r) => [r.id, r.model, r.user_input, r.response, r.reference].map((c) => JSON.stringify(c)).join(","))].join("\n") + "\n");
    const names = Object.keys(MUTATIONS);
    let n = 0;
    server.options.chat = (ctx) => {
      const reply = scriptedAnswerCorrectness(ctx) as Batch;
      if (promptKind(ctx.body) !== BATCHED) return reply;
      if (answersIn(ctx) > 1) MUTATIONS[names[n++ % names.length]!]!(reply);
      else if (JSON.stringify(requestData(ctx)).includes("Wrong 2 c.")) reply.questions[0]!.answers[0]!.reference.pop();
      return reply;
    };
    const env = { OPENAI_API_KEY: "sk-test-fus-cli-0000000000", OPENAI_BASE_URL: url() };
    const args = ["score", input, "--judge", "openai", "--no-cache", "--no-progress", "--layout", "fused", "--answers-per-call", "3", "--no-reasons", "--weights", "1,0"];
    const run = await runCliCaptured([...args, "--out", path.join(dir, "scored.csv"), "--statements-out", path.join(dir, "statements.csv")], env);
    assert.ok(run.code === 0 || run.code === 1, run.err);
    assert.match(run.out + run.err, /1 of 14 rows failed; first: row 8 \(id q2, model c\): splitting and classifying the response failed/);
    const scored = records(await loadDataset(path.join(dir, "scored.csv")));
    assert.equal(scored.length, rows.length);
    const failedRows = scored.flatMap((r, i) => (String(r["answer_correctness_error"] ?? "") === "" ? [] : [i]));
    assert.deepEqual(failedRows, [8], "only q2's answer by c fails");
    assert.match(String(scored[8]!["answer_correctness_error"]), /exactly one verdict for each of the \d reference statements/);
    checkScores(scored.filter((_, i) => i !== 8).map((r) => ({ ...r, answer_correctness_error: String(r["answer_correctness_error"] ?? "") })), rows.filter((_, i) => i !== 8), "command line");
    const lines = readFileSync(path.join(dir, "statements.csv"), "utf8").trim().split("\n").slice(1);
    rows.forEach((_, i) => {
      const mine = lines.filter((l) => l.startsWith(`${i},`));
      const count = (v: string) => mine.filter((l) => l.includes(`,${v},`)).length;
      if (i === 8) return assert.equal(mine.length, 0, "no statements for the failed row");
      assert.deepEqual([count("TP"), count("FP"), count("FN")], [scored[i]!["answer_correctness_tp"], scored[i]!["answer_correctness_fp"], scored[i]!["answer_correctness_fn"]].map(Number), `row ${i} in the statements file`);
    });
  });
});
