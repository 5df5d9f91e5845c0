/**
 * Batch mode at scale: 500 rows × 3 models (167 questions) scored
 * interactively and through the fake Batches API give the same scores, with
 * one batch line per interactive call; and 6,200 rows, whose 8,267 texts are
 * more than one group of embeddings (similarities.ts asks for 8,192 at a
 * time), through the Batches API only, still have every text in the first
 * stage's embeddings batch.
 * batch.test.ts makes the same check on 30 rows; this one runs in the full
 * `npm test` only (SCALE in scripts/test.mjs), as its point is the size.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerCorrectness, scoreBatch } from "../src/index";
import { assertBatchLikeInteractive, batchJudge, batchRows, submittedLines } from "./support/batch-rows";
import { tempDir } from "./support/files";
import { records } from "./support/frames";
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
    const rows = batchRows(6200);
    const texts = new Set(rows.flatMap((r) => [r["response"], r["reference"]]));
    assert.equal(texts.size, 8267, "more texts than one group of 8,192");
    const scored = records(await scoreBatch(rows, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true }));
    assert.equal(scored.filter((r) => r["answer_correctness_error"] !== "").length, 0, "every row scored");
    const embeddings = submittedLines(server).filter((l) => l.url === "/v1/embeddings");
    assert.equal(embeddings.length, Math.ceil(8267 / 256), "every text in embeddings lines of 256");
    assert.deepEqual(server.batchApi.created.length, 3, "stage 1 chat, stage 1 embeddings, stage 2 chat: no stage more for the second group");
  });
});
