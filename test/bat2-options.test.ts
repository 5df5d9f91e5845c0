/**
 * scoreBatch's options checked before anything is sent: a retryFailed value
 * that is none of the three is refused, naming them, where it acted as
 * "batch" (a follow-up batch, paid for) whatever was meant.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerCorrectness, scoreBatch, type BatchOptions } from "../src/index";
import { batchJudge, batchRows as rows } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

describe("scoreBatch's retryFailed", () => {
  it("refuses a value that is not interactive, batch or none before submitting anything", async () => {
    for (const bad of ["never", "Interactive", "batches"]) {
      await assert.rejects(
        scoreBatch(rows(3), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true, retryFailed: bad as BatchOptions["retryFailed"] }),
        (error: Error) => {
          assert.ok(error instanceof RangeError, String(error));
          assert.equal(error.message, `retryFailed must be "interactive", "batch" or "none", got "${bad}"`);
          return true;
        },
      );
    }
    assert.equal(server.batchApi.files.size + server.batchApi.created.length, 0, "nothing uploaded or submitted");
  });
});
