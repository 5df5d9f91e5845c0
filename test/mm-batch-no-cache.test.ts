/**
 * Batch mode keeps a batch's results in the reply cache and reads them back
 * from there. With the cache off (`--no-cache`, `cache: false`) each stage
 * found its requests still missing and submitted them again, without end,
 * each batch paid for: seen scoring multimodal relevance with `--batch
 * --no-cache`. It is now refused before anything is sent, and the same run
 * with the cache on goes through. The real CLI in-process, real files, the
 * fake server's Batches API.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { createJudge, multimodalRelevance, scoreBatch } from "../src/index";
import { formatCsv } from "../src/dataset/export";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";

const { server, url } = useFakeOpenAI(() => ({ chat: () => ({ reason: "Context 1 shows it.", relevant: true }), batches: { pollsToComplete: 1 } }));

/** A CSV of three rows over one local image, in a fresh folder with the image. */
function input(): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "images"));
  copyFileSync(path.join(__dirname, "..", "data", "images", "bar-chart.png"), path.join(dir, "images", "chart.png"));
  const rows = ["q1", "q2", "q3"].map((id) => ({ id, model: "m", user_input: `Question ${id}?`, response: "Q3", retrieved_contexts: JSON.stringify(["images/chart.png", "Sales by quarter."]) }));
  const file = path.join(dir, "input.csv");
  writeFileSync(file, formatCsv(rows));
  return file;
}

describe("batch mode and the cache", () => {
  // Without the rule the run never ends: a time limit turns that into a failure.
  it("--batch --no-cache is bad usage, before any batch is submitted", { timeout: 60_000 }, async () => {
    const file = input();
    const dir = path.dirname(file);
    const run = await runCliCaptured(
      ["score", file, "--out", path.join(dir, "scored.csv"), "--batch", "--batch-dir", path.join(dir, "batch"), "--poll-interval", "0.01", "--no-cache", "--no-progress"],
      { OPENAI_API_KEY: "sk-mm-batch-test", OPENAI_BASE_URL: url() },
    );
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /--batch keeps the batch's results in the cache .* does not go with --no-cache/);
    assert.equal(server.batchApi.created.length, 0, "no batch was submitted");
  });

  it("scoreBatch with a judge whose cache is off is refused before any batch; with a cache it submits one", { timeout: 60_000 }, async () => {
    const file = input();
    const judge = (cache: false | string) => createJudge({ judge: "openai", apiKey: "sk-mm-batch-test", baseURL: url(), ...(cache === false ? { cache: false } : { cacheDir: cache }), quiet: true });
    const options = { batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true };
    const metric = [multimodalRelevance({ imageRoot: path.dirname(file) })];
    await assert.rejects(scoreBatch(file, metric, { ...options, judge: judge(false) }), /cannot run with the cache off \(cache: false, --no-cache\)/);
    assert.equal(server.batchApi.created.length, 0);
    const scored = await scoreBatch(file, metric, { ...options, judge: judge(tempDir()) });
    assert.deepEqual(scored["multimodal_relevance"].values, [1, 1, 1]);
    assert.equal(server.batchApi.created.length, 1, "one batch for the one stage");
  });
});
