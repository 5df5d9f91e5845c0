import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, batchStatus, createJudge, exportBatchRequests, importBatchResults, score, scoreBatch, type Judge, type JudgeOptions } from "../src/index";
import { assertBatchLikeInteractive, batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, batchScores as scores, submittedLines as linesOf } from "./support/batch-rows";
import { FakeOpenAI, useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";
import { records } from "./support/frames";
import { RUN_TS } from "./support/run-ts";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));

function judgeFor(cacheDir: string, options: JudgeOptions = {}): Judge {
  return batchJudge(url(), cacheDir, options);
}

/** Every request line of every batch input file the server received. */
function submittedLines(): { custom_id: string; url: string }[] {
  return linesOf(server);
}

const quiet = { progress: false as const, quiet: true };

describe("batch mode", () => {
  it("scores rows of 3 models like the interactive run, with one batch line per interactive call", async () => {
    // 10 questions × 3 models, and 8 texts per embeddings request so that the embeddings span
    // several requests and lines, as a large run's do: what is checked does not need more rows.
    // The same check on 500 rows with the default request size is batch-scale.test.ts (full `npm test`).
    await assertBatchLikeInteractive(server, url(), rows(30), { embeddingBatchSize: 8 });
  });

  it("never sends again what the cache holds", async () => {
    const cacheDir = tempDir();
    const data = rows(30);
    await score(data.slice(0, 15), [answerCorrectness()], { judge: judgeFor(cacheDir), ...quiet });
    server.reset();
    await scoreBatch(data, [answerCorrectness()], { judge: judgeFor(cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    const sent = new Set(submittedLines().map((l) => l.custom_id));
    const again = await scoreBatch(data, [answerCorrectness()], { judge: judgeFor(cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.equal(records(again).length, 30);
    assert.equal(submittedLines().length, sent.size, "a second run submits nothing");
    assert.ok(sent.size > 0 && sent.size < 2 * 30 + 10, `${sent.size} lines for the 15 uncached rows`);
  });

  it("resumes a stopped run without submitting the batch twice", async () => {
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir, rowsFile } = await batchRunKilledAfterSubmitting(url(), rows(12));
    const before = [...server.batchApi.created];
    assert.equal(before.length, 2, "stage 1: one chat and one embeddings batch");
    const status = await batchStatus(batchDir);
    assert.deepEqual(status.map((b) => [b.batchId, b.applied]), before.map((id) => [id, false]));

    server.options.batches = { pollsToComplete: 2 };
    const logs: string[] = [];
    const out = await scoreBatch(JSON.parse(readFileSync(rowsFile, "utf8")) as Record<string, unknown>[], [answerCorrectness()], {
      judge: judgeFor(cacheDir),
      batchDir,
      pollIntervalMs: 5,
      log: (l) => logs.push(l),
      quiet: true,
    });
    assert.deepEqual(server.batchApi.created.slice(0, 2), before);
    assert.equal(server.batchApi.created.length, 3, "only stage 2 is new");
    assert.ok(logs.filter((l) => /resuming batch_/.test(l)).length === 2, logs.join("\n"));
    assert.ok(logs.some((l) => /^batch stage 2: submitted batch_/.test(l)), logs.join("\n"));
    assert.ok(records(out).every((r) => r["answer_correctness_error"] === ""));
    // Each request file's copy is named by its stage and content: none written over another.
    const copies = readdirSync(batchDir).filter((f) => f.endsWith(".jsonl")).sort();
    assert.equal(copies.length, 3, copies.join(", "));
    assert.deepEqual(copies.map((f) => f.replace(/-[0-9a-f]{12}\.jsonl$/, "")), ["stage-1-chat", "stage-1-embeddings", "stage-2-chat"]);
  });

  it("finds a batch created just before the process stopped, instead of creating another", async () => {
    const dir = tempDir();
    const cacheDir = path.join(dir, "cache");
    const batchDir = path.join(dir, "batch");
    const rowsFile = path.join(dir, "rows.json");
    writeFileSync(rowsFile, JSON.stringify(rows(6)));
    server.options.batches = { pollsToComplete: 2, hangAfterCreate: true };
    const worker = path.join(__dirname, "support", "batch-worker.ts");
    const child = spawn(process.execPath, [...RUN_TS, worker, url(), cacheDir, batchDir, rowsFile], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const deadline = Date.now() + 30_000;
      while (server.batchApi.created.length < 1) {
        assert.ok(Date.now() < deadline, "the worker created no batch");
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const orphan = server.batchApi.created[0]!;
    const state = await batchStatus(batchDir);
    assert.deepEqual(state.map((b) => b.batchId), [""], "the stopped run recorded the upload, not the batch");
    server.options.batches = { pollsToComplete: 2 };
    const logs: string[] = [];
    await scoreBatch(rows(6), [answerCorrectness()], { judge: judgeFor(cacheDir), batchDir, pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.equal(server.batchApi.created[0], orphan);
    assert.ok(logs.some((l) => l.includes(`resuming ${orphan}`)), logs.join("\n"));
    assert.equal(server.batchApi.created.filter((id) => server.batchApi.batches.get(id)!.input_file_id === server.batchApi.batches.get(orphan)!.input_file_id).length, 1);
  });

  it("retries failed and expired lines interactively, or leaves their rows failed with the reason", async () => {
    const data = rows(9);
    const fail = (id: string, lineUrl: string) => lineUrl.endsWith("/chat/completions") && id.charCodeAt(id.length - 1) % 3 === 0;
    server.options.batches = { pollsToComplete: 1, failLine: fail };
    const retried = await scoreBatch(data, [answerCorrectness()], { judge: judgeFor(tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.ok(records(retried).every((r) => r["answer_correctness_error"] === ""), "all rows scored after interactive retries");
    assert.ok(server.chatRequests().length > 0, "the failed lines went interactively");

    server.reset();
    server.options.batches = { pollsToComplete: 1, failLine: fail };
    const left = await scoreBatch(data, [answerCorrectness()], { judge: judgeFor(tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true, retryFailed: "none" });
    const failed = records(left).filter((r) => r["answer_correctness_error"] !== "");
    assert.ok(failed.length > 0);
    for (const r of failed) {
      assert.ok(Number.isNaN(r["answer_correctness"]));
      assert.match(String(r["answer_correctness_error"]), /batch line failed \(HTTP 500\)/);
    }
    assert.equal(server.chatRequests().length, 0);

    server.reset();
    server.options.batches = { pollsToComplete: 1, expire: true };
    const expired = await scoreBatch(data, [answerCorrectness()], { judge: judgeFor(tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.ok(records(expired).every((r) => r["answer_correctness_error"] === ""), "expired lines were retried");
  });

  it("sends failed lines once more in a follow-up batch when asked to, then fails their rows", async () => {
    const fail = (id: string, lineUrl: string) => lineUrl.endsWith("/chat/completions") && id.charCodeAt(id.length - 1) % 3 === 0;
    server.options.batches = { pollsToComplete: 1, failLine: fail };
    const out = await scoreBatch(rows(9), [answerCorrectness()], { judge: judgeFor(tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true, retryFailed: "batch" });
    const lines = submittedLines();
    const failing = new Set(lines.filter((l) => fail(l.custom_id, l.url)).map((l) => l.custom_id));
    assert.ok(failing.size > 0);
    for (const id of failing) assert.equal(lines.filter((l) => l.custom_id === id).length, 2, "each failing line went in two batches");
    assert.ok(records(out).some((r) => /batch line failed/.test(String(r["answer_correctness_error"]))));
    assert.equal(server.chatRequests().length, 0);
  });

  it("reports usage at batch prices", async () => {
    const judge = judgeFor(tempDir(), { model: "gpt-4o-mini" });
    const usage = judge.newUsage();
    await scoreBatch(rows(6), [answerCorrectness({ weights: [1, 0] })], { judge, usage, batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    const s = usage.summary();
    assert.ok(s.batchLines > 0);
    const batch = s.byModel["gpt-4o-mini (batch)"]!;
    assert.ok(Math.abs((s.costUSD ?? Number.NaN) - ((batch.promptTokens * 0.15 + batch.completionTokens * 0.6) / 1e6) * 0.5) < 1e-12);
    assert.equal(s.chatHttpRequests, 0);
  });

  it("exports requests and imports results made by a separate offline runner", async () => {
    const data = rows(30);
    const expected = scores(await score(data, [answerCorrectness()], { judge: judgeFor(tempDir()), ...quiet }));
    server.reset();
    const cacheDir = tempDir();
    const dir = tempDir();
    const runner = path.join(__dirname, "support", "offline-runner.ts");
    const offline = { judge: judgeFor(cacheDir) };
    for (let stage = 1; ; stage++) {
      const requests = path.join(dir, `requests-${stage}.jsonl`);
      const exported = await exportBatchRequests(data, [answerCorrectness()], requests, offline);
      if (exported.lines === 0) break;
      assert.ok(stage <= 2, "two stages at most");
      const results = path.join(dir, `results-${stage}.jsonl`);
      const run = spawnSync(process.execPath, [...RUN_TS, runner, requests, results], { encoding: "utf8" });
      assert.equal(run.status, 0, run.stderr);
      const imported = await importBatchResults(data, [answerCorrectness()], results, offline);
      assert.equal(imported.failed.size, 0);
      assert.equal(imported.applied, exported.lines);
    }
    assert.equal(server.requests.length, 0, "nothing went to a server");
    const final = await score(data, [answerCorrectness()], { judge: judgeFor(cacheDir), ...quiet });
    assert.equal(server.requests.length, 0, "the final scoring is answered from the cache");
    assert.deepEqual(scores(final), expected);
  });

  it("refuses the offline judge", async () => {
    await assert.rejects(scoreBatch(rows(3), [answerCorrectness()], { judge: createJudge({ judge: "offline" }), batchDir: tempDir() }), /batch mode needs an OpenAI-compatible judge/);
  });

  it("sends the embeddings to a separate embeddings server at once, and only the chat requests to the Batch API", async () => {
    const embeddings = new FakeOpenAI({ embed: scriptedEmbedding });
    const embeddingURL = await embeddings.start();
    try {
      const data = rows(12);
      const interactive = await score(data, [answerCorrectness()], { judge: judgeFor(tempDir()), ...quiet });
      server.reset();
      const judge = judgeFor(tempDir(), { embeddingBaseURL: embeddingURL });
      const batched = await scoreBatch(data, [answerCorrectness()], { judge, batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
      assert.deepEqual(scores(batched), scores(interactive));
      assert.ok(submittedLines().length > 0 && submittedLines().every((l) => l.url === "/v1/chat/completions"), "no embedding line in a batch");
      assert.equal(server.embeddingRequests().length, 0, "the chat server embeds nothing");
      assert.ok(embeddings.embeddingRequests().length > 0);
      assert.equal(server.chatRequests().length, 0, "every chat request went through the Batch API");
    } finally {
      await embeddings.stop();
    }
  });
});
