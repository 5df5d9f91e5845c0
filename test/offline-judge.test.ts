import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { createJudge } from "../src/judge/create";
import { JudgeError } from "../src/judge/types";
import { OFFLINE_LABEL, OfflineJudge } from "../src/judge/offline-judge";
import { type JudgeTask, type StructuredRequest } from "../src/judge/types";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { records } from "./support/frames";
import { clearMemos } from "../src/judge/offline/memo";
import { qaRows } from "../bench/data";

const Statements = z.object({ statements: z.array(z.string()) });
const Verdicts = z.object({
  response: z.array(z.object({ reason: z.string(), verdict: z.enum(["TP", "FP"]) })),
  reference: z.array(z.object({ reason: z.string(), verdict: z.enum(["covered", "FN"]) })),
});
const Relevance = z.object({ relevant: z.boolean(), reason: z.string() });

function request<T>(task: JudgeTask, schema: z.ZodType<T>): StructuredRequest<T> {
  return { task, promptVersion: "t1", messages: [], schemaName: "t", jsonSchema: z.toJSONSchema(schema) as Record<string, unknown>, schema };
}

const cases = [
  {
    question: "Who discovered penicillin, and when?",
    response: "Penicillin was discovered by Alexander Fleming. He found it in 1929.",
    reference: "Alexander Fleming discovered penicillin in 1928.",
  },
  {
    question: "한글은 누가 언제 만들었나요?",
    response: "한글은 세종대왕이 만들었습니다. 1443년에 창제되었고 1446년에 반포되었습니다.",
    reference: "한글은 1443년에 세종대왕이 창제했다. 1446년에 훈민정음으로 반포되었다.",
  },
];

async function judgeAll() {
  const judge = createJudge({ judge: "offline" });
  const out = [];
  for (const c of cases) {
    const response = await judge.complete(request({ kind: "extract_statements", question: c.question, text: c.response }, Statements));
    const reference = await judge.complete(request({ kind: "extract_statements", question: c.question, text: c.reference }, Statements));
    const verdicts = await judge.complete(
      request({ kind: "classify_statements", question: c.question, response: response.statements, reference: reference.statements }, Verdicts),
    );
    const vectors = await judge.embed([c.response, c.reference]);
    out.push({ response, reference, verdicts, vectors });
  }
  return { out, usage: judge.usage.summary() };
}

describe("offline judge", () => {
  it("gives identical output on repeated runs, in English and Korean", async () => {
    const first = await judgeAll();
    const second = await judgeAll();
    assert.deepEqual(second.out, first.out);
    const [english, korean] = first.out;
    assert.deepEqual(english!.response.statements, ["Penicillin was discovered by Alexander Fleming.", "Alexander Fleming found it in 1929."]);
    assert.equal(korean!.response.statements.length >= 2, true);
    assert.ok(korean!.verdicts.response.some((v) => v.verdict === "TP"), JSON.stringify(korean!.verdicts));
    assert.ok(english!.verdicts.response.some((v) => v.verdict === "TP"));
    assert.equal(first.usage.judge, OFFLINE_LABEL);
    assert.equal(first.usage.chatCalls, 6);
    assert.equal(first.usage.costUSD, 0);
  });

  it("embeds text with no words as a fixed unit vector, not a zero vector", async () => {
    const judge = createJudge({ judge: "offline" });
    const [space, empty] = await judge.embed([" ", ""]);
    assert.equal(Math.hypot(...space!), 1);
    assert.deepEqual(space, empty);
  });

  it("refuses to judge a verdict that depends on an image it cannot see", async () => {
    const judge = createJudge({ judge: "offline" });
    const task: JudgeTask = {
      kind: "relevance",
      question: "What does the chart show?",
      response: "Sales grew.",
      contexts: [{ type: "text", text: "Quarterly sales" }, { type: "image", source: "data/images/sales.png", dataUri: "data:image/png;base64,AAAA" }],
    };
    await assert.rejects(judge.complete(request(task, Relevance)), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /cannot see images.*context 2 \(data\/images\/sales\.png\)/);
      return true;
    });
    const text = await judge.complete(request({ ...task, contexts: [{ type: "text", text: "Sales grew strongly in every quarter." }] }, Relevance));
    assert.equal(text.relevant, true);
  });

  it("fails a row mostly in a script it cannot read, and still reads English that quotes a few such letters", async () => {
    const rows = [
      { id: "ar", model: "m", user_input: "Capital of France?", response: "لندن هي عاصمة فرنسا.", reference: "باريس هي عاصمة فرنسا." },
      { id: "ja", model: "m", user_input: "Capital of Japan?", response: "東京です。", reference: "日本の首都は東京です。" },
      { id: "ru", model: "m", user_input: "Capital of Russia?", response: "Moscow.", reference: "Столица России — Москва." },
      { id: "en", model: "m", user_input: "How thin?", response: "About 5 μm, as the Greek letter μ says.", reference: "About 5 μm." },
      { id: "ko", model: "m", user_input: "한국의 수도는?", response: "서울입니다.", reference: "한국의 수도는 서울이다." },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    assert.deepEqual(out.map((r) => r["id"]), ["ar", "ja", "ru", "en", "ko"]);
    for (const [i, script] of [[0, "Arabic"], [1, "Japanese"], [2, "Cyrillic"]] as const) {
      assert.ok(Number.isNaN(out[i]!["answer_correctness"]), String(i));
      assert.match(String(out[i]!["answer_correctness_error"]), new RegExp(`the offline judge reads English and Korean, and this row's text is in ${script}; set OPENAI_API_KEY or OPENAI_BASE_URL`));
    }
    for (const r of out.slice(3)) assert.equal(r["answer_correctness_error"], "", String(r["id"]));
    const relevance: JudgeTask = { kind: "relevance", question: "Capital?", response: "東京です。", contexts: [{ type: "text", text: "日本の首都は東京です。" }] };
    await assert.rejects(createJudge({ judge: "offline" }).complete(request(relevance, Relevance)), /this row's answer is in Japanese/);
  });

  it("fails a row whose answer and reference are in different languages, and scores names with 'de', 'la' or 'El' as English", async () => {
    const reference = "The Danube flows into the Black Sea through a delta in Romania.";
    const question = "Where does the Danube end?";
    const rows = [
      { id: "de", model: "m", user_input: question, response: "Die Donau mündet über ein Delta in Rumänien in das Schwarze Meer.", reference },
      { id: "fr", model: "m", user_input: question, response: "Le Danube se jette dans la mer Noire par un delta en Roumanie.", reference },
      { id: "ko", model: "m", user_input: question, response: "도나우강은 루마니아의 삼각주를 지나 흑해로 흘러듭니다.", reference },
      { id: "en", model: "m", user_input: question, response: "It reaches the Black Sea through the delta in Romania, near the border with Ukraine.", reference },
      { id: "names", model: "m", user_input: "Who sailed with La Niña?", response: "Christopher Columbus sailed with La Niña, La Pinta and the Santa María.", reference: "Columbus sailed with La Niña, La Pinta and the Santa María in 1492." },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    for (const [i, language] of [[0, "German"], [1, "French"], [2, "Korean"]] as const) {
      assert.ok(Number.isNaN(out[i]!["answer_correctness"]), String(out[i]!["id"]));
      assert.match(String(out[i]!["answer_correctness_error"]), new RegExp(`the answer is in ${language} and the reference in English, and the offline judge matches words`));
    }
    for (const r of out.slice(3)) assert.equal(r["answer_correctness_error"], "", String(r["id"]));
    assert.ok((out[3]!["answer_correctness"] as number) > 0.5);
  });

  it("scores a refusal in another language 0, as a refusal in the reference's language", async () => {
    const reference = "경복궁은 1395년 조선 태조 때 지어졌습니다.";
    const question = "경복궁은 언제 지어졌나요?";
    const rows = [
      { id: "en", model: "m", user_input: question, response: "I'm sorry, I don't know.", reference },
      { id: "ko", model: "m", user_input: question, response: "모르겠습니다.", reference },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    for (const r of out) {
      assert.equal(r["answer_correctness_error"], "", String(r["id"]));
      assert.equal(r["answer_correctness_factual"], 0, String(r["id"]));
    }
  });

  it("tells a short Korean answer by its script, a short French one by two of its words, and keeps 'No no no.' English", async () => {
    const reference = "Lyon is the third-largest city of France.";
    const question = "Which city is the third-largest of France?";
    const rows = [
      { id: "ko", model: "m", user_input: question, response: "리옹이 세 번째입니다.", reference },
      { id: "fr", model: "m", user_input: question, response: "Lyon est la troisième.", reference },
      { id: "en", model: "m", user_input: question, response: "No no no. Lyon is.", reference },
    ];
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    assert.match(String(out[0]!["answer_correctness_error"]), /the answer is in Korean and the reference in English/);
    assert.match(String(out[1]!["answer_correctness_error"]), /the answer is in French and the reference in English/);
    assert.equal(out[2]!["answer_correctness_error"], "");
  });

  it("answers only evalframe's own tasks", async () => {
    await assert.rejects(createJudge({ judge: "offline" }).complete(request({ kind: "custom", name: "poem" }, Relevance)), /only evalframe's own tasks, not "poem"/);
  });
});

describe("offline judge on words that name Object.prototype's members", () => {
  it("scores rows that say constructor, toString, __proto__, … as any other words", async () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const rows = names.flatMap((name) => [
      { user_input: `What does ${name} do?`, response: `The ${name} builds the object. A local ${name} named Smith was hired.`, reference: `The ${name} builds the object.` },
      { user_input: `Who is the ${name}?`, response: `Smith is the ${name}.`, reference: `The ${name} of the house is Smith, born in ${name} county.` },
    ]);
    const out = records(await scoreAnswerCorrectness(rows, { judge: { judge: "offline" }, quiet: true, progress: false }));
    assert.equal(out.length, rows.length);
    for (const [i, r] of out.entries()) {
      assert.equal(r["answer_correctness_error"], "", `row ${i} (${rows[i]!.response}): ${String(r["answer_correctness_error"])}`);
      assert.ok((r["answer_correctness"] as number) > 0.5, `row ${i}: ${String(r["answer_correctness"])}`);
    }
  });
});

describe("offline judge on Ragas' documentation examples, through the scoring API", () => {
  async function scoreOne(user_input: string, response: string, reference: string) {
    const scored = await scoreAnswerCorrectness([{ user_input, response, reference }], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    return records(scored)[0]!;
  }

  it("scores the super bowl paraphrase (another date format) at least 0.8", async () => {
    const row = await scoreOne(
      "When was the first super bowl?",
      "The first superbowl was held on Jan 15, 1967",
      "The first superbowl was held on January 15, 1967",
    );
    assert.equal(row["answer_correctness_factual"], 1);
    assert.ok((row["answer_correctness"] as number) >= 0.8, `score ${String(row["answer_correctness"])}`);
  });

  it("gives 'born in Spain in 1879' one TP, one FP and one FN, and the right answer factual 1", async () => {
    const question = "Where and when was Einstein born?";
    const reference = "Einstein was born in 1879 in Germany.";
    const wrong = await scoreOne(question, "Einstein was born in Spain in 1879.", reference);
    assert.deepEqual([wrong["answer_correctness_tp"], wrong["answer_correctness_fp"], wrong["answer_correctness_fn"]], [1, 1, 1]);
    assert.equal(wrong["answer_correctness_factual"], 0.5);
    const details = JSON.parse(String(wrong["answer_correctness_statements"])) as { response: Array<{ statement: string; verdict: string; reason: string }> };
    const spain = details.response.find((v) => v.statement.includes("Spain"))!;
    assert.equal(spain.verdict, "FP");
    assert.match(spain.reason, /Spain.*Germany/);
    const right = await scoreOne(question, "Einstein was born in Germany in 1879.", reference);
    assert.equal(right["answer_correctness_factual"], 1);
  });
});

describe("offline judge answers depend on the task alone", () => {
  it("gives the same verdicts after its memos are cleared and in another order", async () => {
    const judge = createJudge({ judge: "offline", threads: 0 });
    const first = await judgeAll();
    clearMemos();
    // Other texts first, then the same cases: nothing read before may change an answer.
    await judge.complete(request({ kind: "extract_statements", question: "q", text: "Marie Curie was born in Warsaw in 1867. She won two Nobel Prizes." }, Statements));
    const again = await judgeAll();
    assert.deepEqual(again.out, first.out);
  });

  it("gives the same scores with worker threads as without, on a run that starts them", async () => {
    // 24 questions × 5 models; the threads start after 20 statement tasks instead of 2,000, so most of the run is threaded.
    const rows = qaRows(24, 5) as unknown as Record<string, unknown>[];
    const run = async (judge: OfflineJudge) => records(await scoreAnswerCorrectness(rows, { judge, progress: false, quiet: true }));
    const inProcess = await run(new OfflineJudge({ threads: 0 }));
    const threadedJudge = new OfflineJudge({ threads: 2, threadsAfter: 20 });
    const threaded = await run(threadedJudge);
    assert.ok(threadedJudge.threadsStarted, "the worker threads started");
    assert.equal(threaded.length, 120);
    assert.deepEqual(threaded, inProcess);
  });
});
