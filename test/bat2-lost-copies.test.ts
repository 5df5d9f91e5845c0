/**
 * A stopped batch run resumed after its folder was tidied by hand (the
 * request file copies deleted to save room): the batches it submitted are
 * still resumed, their lines read again from their input files through the
 * Files API, instead of being submitted (and paid for) a second time.
 */
import assert from "node:assert/strict";
import { readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, score, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, batchScores as scores, submittedLines } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

describe("a stopped batch run whose request file copies were deleted", () => {
  it("resumes its batches from their input files, submitting none of their lines again", { timeout: 60_000 }, async () => {
    const data = rows(12);
    const expected = scores(await score(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), progress: false, quiet: true }));
    server.reset();
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir } = await batchRunKilledAfterSubmitting(url(), data);
    const first = [...server.batchApi.created];
    for (const name of readdirSync(batchDir).filter((n) => n.endsWith(".jsonl"))) rmSync(path.join(batchDir, name));
    // Some replies reached the cache meanwhile, so the lines still missing are not all of a batch's.
    await score(data.slice(0, 4), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), progress: false, quiet: true });
    const calls = server.chatRequests().length + server.embeddingRequests().length;
    server.options.batches = { pollsToComplete: 1 };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir, pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.deepEqual(server.batchApi.created.slice(0, first.length), first);
    assert.equal(server.batchApi.created.length, first.length + 1, `only stage 2 is new:\n${logs.join("\n")}`);
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
    assert.equal(logs.filter((l) => /the request file copy of batch batch_\d+ was gone; read again from its input file file-\d+/.test(l)).length, 2, logs.join("\n"));
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, calls, "nothing interactive");
  });
});
