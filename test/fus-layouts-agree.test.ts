/**
 * The default (Ragas) layout and the fused layout, at 1, 3 and 8 answers a
 * call, with and without reasons, through one scripted judge on the bundled
 * sample: the same statements, verdicts, counts and scores, and threshold,
 * custom weights and β applied alike in every layout.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, loadDataset, score, type Judge } from "../src/index";
import { useFakeOpenAI } from "./support/fake-openai";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));
const quiet = { progress: false as const, quiet: true };
const SAMPLE = path.join(__dirname, "..", "data", "qa-models.csv");
const COMPARED = ["answer_correctness", "answer_correctness_continuous", "answer_correctness_factual", "answer_correctness_semantic", "answer_correctness_tp", "answer_correctness_fp", "answer_correctness_fn", "answer_correctness_error"];

function judge(): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-fus-agree-0000000000", baseURL: url(), cache: false, retryBaseDelayMs: 1, quiet: true });
}

/** What every layout must agree on: scores, counts, errors, and each statement with its verdict (reasons left out: without them they are ""). */
function outcome(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((r) => {
    const cell = String(r["answer_correctness_statements"] ?? "");
    const d = cell === "" ? undefined : (JSON.parse(cell) as { response: { statement: string; verdict: string }[]; reference: { statement: string; verdict: string }[]; weights: unknown; beta: unknown; threshold: unknown });
    const sides = d && { response: d.response.map((v) => [v.statement, v.verdict]), reference: d.reference.map((v) => [v.statement, v.verdict]), weights: d.weights, beta: d.beta, threshold: d.threshold };
    return { ...Object.fromEntries(COMPARED.map((c) => [c, r[c]])), sides };
  });
}

describe("every layout gives the Ragas layout's verdicts on the bundled sample", () => {
  for (const options of [{}, { weights: [0.4, 0.6] as [number, number], beta: 0.5, threshold: 0.6 }, { weights: [1, 0] as [number, number], threshold: 0.5 }]) {
    it(`options ${JSON.stringify(options)}`, async () => {
      const table = await loadDataset(SAMPLE);
      const ragas = outcome(records(await score(table, [answerCorrectness(options)], { judge: judge(), ...quiet })));
      assert.ok(ragas.every((r) => r["answer_correctness_error"] === ""), "the Ragas layout scores every row");
      if ("threshold" in options) assert.ok(ragas.every((r) => r["answer_correctness"] === (Number(r["answer_correctness_continuous"]) >= options.threshold! ? 1 : 0)), "the threshold binarizes");
      for (const answersPerCall of [1, 3, 8]) {
        for (const reasons of [true, false]) {
          const fused = outcome(records(await score(table, [answerCorrectness({ ...options, layout: "fused", answersPerCall, reasons })], { judge: judge(), ...quiet })));
          assert.deepEqual(fused, ragas, `fused, ${answersPerCall} a call, reasons ${reasons}`);
        }
      }
      const bare = outcome(records(await score(table, [answerCorrectness({ ...options, reasons: false })], { judge: judge(), ...quiet })));
      assert.deepEqual(bare, ragas, "Ragas layout without reasons");
    });
  }
});
