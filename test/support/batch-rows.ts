/**
 * Rows, judges and checks shared by the batch-mode tests (batch.test.ts and
 * its full-size twin batch-scale.test.ts): questions answered by three
 * models, the scores that must agree between interactive and batch runs, and
 * the request lines the fake Batches API received.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { DataFrame } from "danfojs-node";
import { answerCorrectness, createJudge, score, scoreBatch, type Judge, type JudgeOptions } from "../../src/index";
import type { FakeOpenAI } from "./fake-openai";
import { tempDir } from "./files";
import { records } from "./frames";
import { RUN_TS } from "./run-ts";

/** A judge against the fake server at `url`, caching in `cacheDir`, retrying at once. */
export function batchJudge(url: string, cacheDir: string, options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: "sk-test-batch-key-1234", baseURL: url, cacheDir, retryBaseDelayMs: 1, ...options });
}

/** `n` rows: questions answered by the models "good", "verbose" and "wrong", in turn (500 rows: 167 questions, the last by two). */
export function batchRows(n = 500): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const q = Math.floor(i / 3);
    const model = ["good", "verbose", "wrong"][i % 3]!;
    const reference = `Fact ${q} one. Fact ${q} two.`;
    const response = model === "good" ? `Fact ${q} two. Fact ${q} one.` : model === "verbose" ? `Fact ${q} one. Extra ${q} claim.` : `Wrong ${q} claim.`;
    return { id: `q${q}`, model, user_input: `Question ${q}?`, response, reference };
  });
}

/** Scores that must agree between interactive and batch runs. */
export function batchScores(df: DataFrame): unknown[] {
  return records(df).map((r) => [r["id"], r["model"], r["answer_correctness"], r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"], r["answer_correctness_error"]]);
}

/** Every request line of every batch input file the server received. */
export function submittedLines(server: FakeOpenAI): { custom_id: string; url: string }[] {
  const api = server.batchApi;
  return api.created.flatMap((id) =>
    api.files
      .get(api.batches.get(id)!.input_file_id)!
      .content.split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { custom_id: string; url: string }),
  );
}

/**
 * Scores `data` interactively, then in batch mode with a fresh cache, and
 * checks that the batch run gives the same scores with one batch line per
 * interactive call (embeddings split into several lines as into several
 * requests), no interactive call, no duplicate custom_id, and three batches.
 */
export async function assertBatchLikeInteractive(server: FakeOpenAI, url: string, data: Record<string, unknown>[], options: JudgeOptions = {}): Promise<void> {
  const interactive = await score(data, [answerCorrectness()], { judge: batchJudge(url, tempDir(), options), progress: false, quiet: true });
  const calls = server.chatRequests().length + server.embeddingRequests().length;
  const embeddingCalls = server.embeddingRequests().length;
  server.reset();

  const logs: string[] = [];
  const batched = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url, tempDir(), options), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
  assert.deepEqual(batchScores(batched), batchScores(interactive));
  assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "no interactive call in batch mode");
  const lines = submittedLines(server);
  assert.equal(lines.length, calls, "batch lines = interactive calls");
  assert.ok(embeddingCalls > 1, `the texts to embed fill several requests (${embeddingCalls})`);
  assert.equal(lines.filter((l) => l.url === "/v1/embeddings").length, embeddingCalls, "one embeddings line per embeddings request");
  assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no duplicate custom_id");
  assert.deepEqual(server.batchApi.created.length, 3, "stage 1 chat, stage 1 embeddings, stage 2 chat");
  assert.ok(logs.some((l) => /batch stage 2: submitted/.test(l)));
}

/** The folders of a batch run that {@link batchRunKilledAfterSubmitting} stopped. */
export interface KilledBatchRun {
  cacheDir: string;
  batchDir: string;
  /** The batch folder's state file, as the killed run left it. */
  stateFile: string;
  /** The rows it was scoring, as JSON. */
  rowsFile: string;
}

/**
 * Starts a batch run of `data` in a real worker process (test/support/batch-worker.ts) against
 * the fake server at `url`, and kills it with SIGKILL once its state file records `count`
 * submitted batches (within 30 s). The server should be told not to finish batches meanwhile.
 */
export async function batchRunKilledAfterSubmitting(url: string, data: readonly Record<string, unknown>[], count = 2): Promise<KilledBatchRun> {
  const dir = tempDir();
  const run = { cacheDir: path.join(dir, "cache"), batchDir: path.join(dir, "batch"), stateFile: path.join(dir, "batch", "state.json"), rowsFile: path.join(dir, "rows.json") };
  writeFileSync(run.rowsFile, JSON.stringify(data));
  const worker = path.join(__dirname, "batch-worker.ts");
  const child = spawn(process.execPath, [...RUN_TS, worker, url, run.cacheDir, run.batchDir, run.rowsFile], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const deadline = Date.now() + 30_000;
    const recorded = (): number =>
      existsSync(run.stateFile) ? (JSON.parse(readFileSync(run.stateFile, "utf8")) as { batches: { batchId: string }[] }).batches.filter((b) => b.batchId !== "").length : 0;
    while (recorded() < count) {
      assert.ok(Date.now() < deadline, "the worker submitted no batch");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
  return run;
}

/** Runs the batch `requests` file through the offline runner (test/support/offline-runner.ts), writing `results`. */
export function runOfflineBatch(requests: string, results: string): void {
  const run = spawnSync(process.execPath, [...RUN_TS, path.join(__dirname, "offline-runner.ts"), requests, results], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
}
