/**
 * What a stopped batch run's next run counts and retries: with
 * `retryFailed: "batch"` a failing line gets one follow-up batch in all, not
 * one more per stop; and the usage line of a resumed run counts every line
 * of the batches it read, including those a stopped run had read into the
 * cache (that run never said them).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, score, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, submittedLines } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

describe('retryFailed: "batch" across a stopped run', () => {
  it("gives a line that keeps failing one follow-up batch in all: the resumed run fails its row instead of paying for a third round", async () => {
    const data = rows(6);
    let target: string | undefined;
    server.options.batches = {
      pollsToComplete: 1,
      failLine: (id, url) => {
        if (target === undefined && url === "/v1/chat/completions") target = id;
        return id === target;
      },
    };
    const cacheDir = tempDir();
    const batchDir = tempDir();
    let retrying = false;
    const stopAtFollowUp = (line: string): void => {
      if (/lines failed; retrying them in a follow-up batch/.test(line)) retrying = true;
      // The process stops once the follow-up batch is submitted.
      else if (retrying && /submitted batch_/.test(line)) throw new Error("stopped");
    };
    const options = { batchDir, pollIntervalMs: 5, quiet: true, retryFailed: "batch" } as const;
    await assert.rejects(scoreBatch(data, [answerCorrectness()], { ...options, judge: batchJudge(url(), cacheDir), log: stopAtFollowUp }), /stopped/);
    assert.ok(target !== undefined, "a line failed");
    assert.equal(submittedLines(server).filter((l) => l.custom_id === target).length, 2, "the line, then its follow-up");
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { ...options, judge: batchJudge(url(), cacheDir), log: (l) => logs.push(l) });
    assert.equal(submittedLines(server).filter((l) => l.custom_id === target).length, 2, `no third round:\n${logs.join("\n")}`);
    const failed = records(out).filter((r) => r["answer_correctness_error"] !== "");
    assert.ok(failed.length >= 1, "its row failed");
    assert.ok(failed.every((r) => /batch line failed \(HTTP 500\)/.test(String(r["answer_correctness_error"]))), JSON.stringify(failed));
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
    // A finished run keeps no rounds: the next run tries the failed line again, as a rerun retries failed rows.
    const state = JSON.parse(readFileSync(path.join(batchDir, "state.json"), "utf8")) as Record<string, unknown>;
    assert.equal(state["retries"], undefined);
    assert.equal(state["failed"], undefined);
  });
});

describe("the usage line of a run that resumed batches", () => {
  it("counts every line of the batches it read, also those already in the cache, so that batch lines and tokens are those paid for", { timeout: 60_000 }, async () => {
    const data = rows(12);
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir } = await batchRunKilledAfterSubmitting(url(), data);
    // Some of the batch's replies reached the cache before the stop (here: the first rows', asked directly).
    await score(data.slice(0, 4), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), progress: false, quiet: true });
    server.options.batches = { pollsToComplete: 1 };
    const judge = batchJudge(url(), cacheDir);
    const usage = judge.newUsage();
    const out = await scoreBatch(data, [answerCorrectness()], { judge, usage, batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.ok(records(out).every((r) => r["answer_correctness_error"] === ""), "every row scored");
    const lines = submittedLines(server);
    assert.equal(usage.summary().batchLines, lines.length, "every line of every batch read is counted once");
    const fullOutputTokens = server.batchApi.created
      .map((id) => server.batchApi.batches.get(id)!.output_file_id!)
      .flatMap((id) => server.batchApi.files.get(id)!.content.split("\n").filter((l) => l !== ""))
      .map((l) => (JSON.parse(l) as { response: { body: { usage: { prompt_tokens: number; completion_tokens?: number } } } }).response.body.usage)
      .reduce((n, u) => n + u.prompt_tokens + (u.completion_tokens ?? 0), 0);
    const summary = usage.summary();
    assert.equal(summary.promptTokens + summary.completionTokens + summary.embeddingTokens, fullOutputTokens, "the tokens of every line read");
  });
});
