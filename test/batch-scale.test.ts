/**
 * Batch mode at scale: 500 rows × 3 models (167 questions) scored
 * interactively and through the fake Batches API give the same scores, with
 * one batch line per interactive call; and 6,200 rows, whose 8,267 texts are
 * more than one group of embeddings (similarities.ts asks for 8,192 at a
 * time), still have every text in the first stage's embeddings batch.
 * batch.test.ts makes the same check on 30 rows; this one runs in the full
 * `npm test` only (SCALE in scripts/test.mjs), as its point is the size.
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

describe("batch mode with more texts than one embedding group", () => {
  it("notes every text for the first stage's embeddings batch though they are asked for a group at a time: 6,200 rows, 8,267 texts", async () => {
    await assertBatchLikeInteractive(server, url(), batchRows(6200));
  });
});
