/**
 * `evalframe score --batch` on the command line when the Batch API stops a
 * run: the message says which batch and what to do, as a failure (exit 1),
 * not as an unexpected error, and with no API key in it.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { batchRows } from "./support/batch-rows";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

function csv(rows: Record<string, unknown>[]): string {
  const cols = Object.keys(rows[0]!);
  return [cols.join(","), ...rows.map((r) => cols.map((c) => JSON.stringify(String(r[c]))).join(","))].join("\n") + "\n";
}

describe("evalframe score --batch when the Batch API stops the run", () => {
  it("a batch the API failed: exit 1 naming the batch and its errors, then the same command finishes the run", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(6)));
    const env = { OPENAI_API_KEY: "sk-cli-batch-secret-7788", OPENAI_BASE_URL: url() };
    const args = ["score", input, "--out", path.join(dir, "scored.csv"), "--cache-dir", path.join(dir, "cache"), "--batch", "--batch-dir", path.join(dir, "batches"), "--poll-interval", "0.01"];
    server.options.batches = { pollsToComplete: 1, failWith: { code: "model_not_found", message: "The model gpt-4o-mini is not available for batch." } };
    const failed = await runCliCaptured(args, env);
    assert.equal(failed.code, 1, failed.err);
    assert.match(failed.err, /^evalframe: batch stage 1: the Batch API failed batch batch_\d+ .*The model gpt-4o-mini is not available for batch\. \(model_not_found\)\. None of its lines ran/m);
    assert.doesNotMatch(failed.err, /unexpected error|EVALFRAME_DEBUG/, failed.err);
    assert.doesNotMatch(failed.err, /sk-cli-batch-secret/);
    server.options.batches = { pollsToComplete: 1 };
    const again = await runCliCaptured(args, env);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out + again.err, /answer_correctness: 0 of 6 rows failed/, again.err);
  });
});
