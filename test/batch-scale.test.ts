/**
 * Batch mode at scale: 500 rows × 3 models (167 questions) scored
 * interactively and through the fake Batches API give the same scores, with
 * one batch line per interactive call. batch.test.ts makes the same check on
 * 30 rows; this one runs in the full `npm test` only (SCALE in
 * scripts/test.mjs), as its point is the size.
 */
import { describe, it } from "node:test";
import { assertBatchLikeInteractive, batchRows } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));

describe("batch mode at scale", () => {
  it("scores 500 rows × 3 models like the interactive run, with one batch line per interactive call", async () => {
    await assertBatchLikeInteractive(server, url(), batchRows(500));
  });
});
