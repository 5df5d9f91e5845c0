/**
 * Two batch folders, one cache: a run whose lines are already in flight in
 * a batch another batch folder submitted (a run stopped, or still going)
 * waits for that batch and reads its results instead of submitting (and
 * paying for) the same lines again.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, batchStatus, score, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, batchScores as scores, submittedLines } from "./support/batch-rows";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));

describe("a batch run with another batch folder and the same cache", () => {
  it("waits for the batches the other folder submitted for the same lines, naming that folder, instead of paying for them again", { timeout: 60_000 }, async () => {
    const data = rows(9);
    const expected = scores(await score(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), progress: false, quiet: true }));
    server.reset();
    server.options.batches = { pollsToComplete: 1_000_000 };
    // Folder A's run submitted stage 1 (chat and embeddings) and was stopped while they ran.
    const { cacheDir, batchDir: folderA } = await batchRunKilledAfterSubmitting(url(), data);
    const first = [...server.batchApi.created];
    assert.equal(first.length, 2, "folder A submitted two batches");
    server.options.batches = { pollsToComplete: 1 };
    const folderB = path.join(tempDir(), "batch-b");
    const logs: string[] = [];
    const judge = batchJudge(url(), cacheDir);
    const usage = judge.newUsage();
    const out = await scoreBatch(data, [answerCorrectness()], { judge, usage, batchDir: folderB, pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.deepEqual(server.batchApi.created.slice(0, 2), first);
    assert.equal(server.batchApi.created.length, 3, `only stage 2 is new:\n${logs.join("\n")}`);
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
    assert.equal(logs.filter((l) => l.includes(`submitted from the batch folder ${folderA}`) && /instead of submitting \(and paying for\) them again/.test(l)).length, 2, logs.join("\n"));
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
    // Folder A's lines are folder A's to count; this run counts its own stage 2.
    const stage2 = server.batchApi.batches.get(server.batchApi.created[2]!)!.request_counts.total;
    assert.equal(usage.summary().batchLines, stage2, "batch lines counted: this run's own");
    // The status of folder B says where the batches it waited for came from.
    const status = await runCliCaptured(["batch", "status", "--batch-dir", folderB], {});
    assert.equal(status.code, 0, status.err);
    assert.ok(status.out.includes(folderA), status.out);
    assert.equal((await batchStatus(folderB)).filter((b) => b.adoptedFrom === folderA).length, 2);
    // Folder A, run again, finds everything in the cache: nothing new, nothing paid.
    const again = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: folderA, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(scores(again), expected);
    assert.equal(server.batchApi.created.length, 3, "nothing submitted by folder A's rerun");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });

  it("a batch the other folder's run has read back, or one of another cache, is not waited for", async () => {
    const data = rows(6);
    server.options.batches = { pollsToComplete: 1 };
    const cacheDir = tempDir();
    await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    const done = server.batchApi.created.length;
    // Same cache: everything is in it, so nothing is submitted nor waited for.
    const logs: string[] = [];
    await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.equal(server.batchApi.created.length, done);
    // Another cache: its run pays for its own lines (the first folder's batches are not this cache's).
    const other = tempDir();
    await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), other), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.equal(server.batchApi.created.length, done * 2);
    assert.ok(!logs.some((l) => /submitted from the batch folder/.test(l)), logs.join("\n"));
    // The folders are recorded next to the cache, by path only.
    const records = readdirSync(path.join(cacheDir, "batch-folders"));
    assert.equal(records.length, 2, records.join(", "));
    for (const name of records) assert.doesNotMatch(readFileSync(path.join(cacheDir, "batch-folders", name), "utf8"), /sk-test/);
  });

  it("a batch of the other folder that this run's server does not know (404) is not waited for: its lines are submitted here, said in the log", { timeout: 60_000 }, async () => {
    const data = rows(6);
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir: folderA } = await batchRunKilledAfterSubmitting(url(), data);
    // Another server (or key) than the one folder A submitted to: it knows none of its batches.
    server.reset();
    server.options.batches = { pollsToComplete: 1 };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.ok(records(out).every((r) => r["answer_correctness_error"] === ""), "every row scored");
    assert.equal(logs.filter((l) => l.includes(`of the batch folder ${folderA} holds some of these lines, but the Batches API of`) && /refuses to read it \(404: another key/.test(l)).length, 2, logs.join("\n"));
    assert.equal(server.batchApi.created.length, 3, "its own three batches");
  });

  it("says when a run holds another batch folder with the same cache, whose later batches it cannot see", async () => {
    server.options.batches = { pollsToComplete: 1 };
    const cacheDir = tempDir();
    const folderA = path.join(tempDir(), "a");
    await scoreBatch(rows(3), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: folderA, pollIntervalMs: 5, log: () => undefined, quiet: true });
    // A run of this machine holds folder A now (a process that runs: this test's parent).
    writeFileSync(path.join(folderA, "lock"), `${JSON.stringify({ pid: process.ppid, host: hostname(), since: "2026-12-05T06:00:00.000Z" })}\n`);
    const logs: string[] = [];
    await scoreBatch(rows(6), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.equal(logs.filter((l) => new RegExp(`another batch run \\(process ${process.ppid} on .*\\) uses the same cache with the batch folder ${folderA.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .*may be paid for twice`).test(l)).length, 1, logs.join("\n"));
    // Not said once that run has ended.
    rmSync(path.join(folderA, "lock"));
    const quiet: string[] = [];
    await scoreBatch(rows(9), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => quiet.push(l), quiet: true });
    assert.ok(!quiet.some((l) => /uses the same cache with the batch folder/.test(l)), quiet.join("\n"));
  });

  it("an embeddings batch of the other folder made with another embedding model is not taken over: its vectors are not this run's", { timeout: 60_000 }, async () => {
    const data = rows(9);
    server.options.batches = { pollsToComplete: 1_000_000 };
    // Folder A (the default embedding model) submitted stage 1 and was stopped while it ran.
    const { cacheDir } = await batchRunKilledAfterSubmitting(url(), data);
    const [chatA, embeddingsA] = [...server.batchApi.created];
    server.options.batches = { pollsToComplete: 1 };
    const logs: string[] = [];
    const judge = batchJudge(url(), cacheDir, { embeddingModel: "text-embedding-3-large" });
    await scoreBatch(data, [answerCorrectness()], { judge, batchDir: path.join(tempDir(), "batch-b"), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    const created = server.batchApi.created.slice(2).map((id) => server.batchApi.batches.get(id)!.endpoint);
    assert.ok(created.includes("/v1/embeddings"), `this run embeds with its own model:\n${logs.join("\n")}`);
    assert.ok(!logs.some((l) => l.includes(embeddingsA!) && /submitted from the batch folder/.test(l)), logs.join("\n"));
    assert.ok(logs.some((l) => l.includes(chatA!)), "the chat batch, the same requests, is still taken over");
  });
});
