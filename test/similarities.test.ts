/**
 * The semantic part of answer correctness for a run: texts embedded a group
 * at a time through a real HTTP server, each distinct text once, the same
 * request count as one batch for the run, each row's cosine as if every
 * vector were held, and a failing group failing only its own rows.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createJudge, scoreAnswerCorrectness, type Judge, type JudgeOptions } from "../src/index";
import { cosineSimilarity } from "../src/metrics/math";
import { rowSimilarities } from "../src/metrics/answer-correctness/similarities";
import type { EvalRow } from "../src/metrics/metric";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-similarities-0000", baseURL: url(), cache: false, retryBaseDelayMs: 1, maxRetries: 0, quiet: true, ...options });
}

/** 30 questions × 3 models; each question's reference is shared by its three rows, and question 0's reference comes back at the end (far from its first rows). */
function rows(): EvalRow[] {
  const out: EvalRow[] = [];
  for (let q = 0; q < 30; q++) {
    for (const m of ["a", "b", "c"]) out.push({ index: out.length, user_input: `Q${q}?`, reference: `Reference ${q}.`, response: m === "c" ? `Reference ${q}.` : `Answer ${q} by ${m}.`, retrieved_contexts: [], model: m, id: `q${q}` });
  }
  out.push({ index: out.length, user_input: "Q0?", reference: "Reference 0.", response: "A late answer.", retrieved_contexts: [], model: "d", id: "q0" });
  out.push({ index: out.length, user_input: "Q31?", reference: "", response: "", retrieved_contexts: [], model: "d", id: "q31" });
  return out;
}

const text = (t: string) => (t === "" ? " " : t);

describe("answer correctness: similarities, a group of texts at a time", () => {
  it("sends each distinct text once, in as many requests as one batch for the run, and gives every row its cosine", async () => {
    const judge = judgeFor({ embeddingBatchSize: 4 });
    const all = rows();
    const distinct = new Set(all.flatMap((r) => [text(r.response), text(r.reference ?? "")]));
    // Groups of 8 texts: two requests of 4 each, every group but the last full.
    const got = await rowSimilarities(all, judge, judge.newUsage(), 8);
    const sent = server.embeddingRequests().map((r) => r.body.input as string[]);
    assert.equal(new Set(sent.flat()).size, sent.flat().length, "no text embedded twice");
    assert.equal(sent.flat().length, distinct.size);
    assert.equal(sent.length, Math.ceil(distinct.size / 4));
    assert.ok(sent.slice(0, -1).every((batch) => batch.length === 4), "every request but the last is full");
    assert.equal(got.size, all.length);
    for (const row of all) {
      const expected = cosineSimilarity(scriptedEmbedding(text(row.reference ?? "")), scriptedEmbedding(text(row.response)));
      assert.deepEqual(got.get(row.index), { cosine: expected }, `row ${row.index}`);
    }
  });

  it("a group whose request fails gives only its rows the failure; the next groups are embedded", async () => {
    server.options.fault = (req) => (req.path.endsWith("/embeddings") && JSON.stringify(req.body).includes("Answer 1 by a") ? { kind: "status", status: 500 } : undefined);
    const judge = judgeFor({ embeddingBatchSize: 4 });
    const all = rows();
    const got = await rowSimilarities(all, judge, judge.newUsage(), 8);
    const failed = all.filter((r) => "batchError" in got.get(r.index)!).map((r) => r.index);
    // The first group's 8 texts are rows 0-6's (rows 2 and 5 repeat a reference); "Answer 1 by a" is row 3's.
    assert.deepEqual(failed, [0, 1, 2, 3, 4, 5, 6], "only the rows of the failing group");
    // Rows 7 and 8 share row 6's reference, which was in the failing group: it is asked again with theirs.
    assert.ok(all.slice(7).every((r) => "cosine" in got.get(r.index)!), "the groups after it are embedded");
  });

  it("through score(): each row's semantic part is the cosine of its own two texts' vectors", async () => {
    const all = rows().map((r, i) => ({ id: `r${i}`, model: "m", user_input: r.user_input, response: r.response, reference: r.reference }));
    const whole = records(await scoreAnswerCorrectness(all, { judge: judgeFor(), progress: false, quiet: true }));
    for (const [i, row] of whole.entries()) {
      const reference = text(String(all[i]!.reference));
      const response = text(String(all[i]!.response));
      if (row["answer_correctness_error"] === "") assert.equal(row["answer_correctness_semantic"], cosineSimilarity(scriptedEmbedding(reference), scriptedEmbedding(response)), `row ${i}`);
    }
  });
});
