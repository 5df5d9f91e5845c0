/**
 * `evalframe batch status` on a folder whose lock a stopped run left: it says
 * the lock is left by a process that no longer runs (the next run takes the
 * folder over), not that a run is using the folder.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows } from "./support/batch-rows";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

describe("evalframe batch status with a lock in the folder", () => {
  it("tells a lock left by a process that no longer runs from one of a run going on", async () => {
    const batchDir = tempDir();
    await scoreBatch(rows(3), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    writeFileSync(path.join(batchDir, "lock"), `${JSON.stringify({ pid: dead, host: hostname(), since: "2026-12-05T06:00:00.000Z" })}\n`);
    const left = await runCliCaptured(["batch", "status", "--batch-dir", batchDir], {});
    assert.equal(left.code, 0, left.err);
    assert.match(left.out, new RegExp(`its lock was left by process ${dead} \\(since 2026-12-05T06:00:00\\.000Z\\), which no longer runs: the next run takes the folder over`), left.out);
    assert.doesNotMatch(left.out, /in use by/);
    // A process that runs (this test's parent) holds it: in use.
    writeFileSync(path.join(batchDir, "lock"), `${JSON.stringify({ pid: process.ppid, host: hostname(), since: "2026-12-05T06:00:00.000Z" })}\n`);
    const held = await runCliCaptured(["batch", "status", "--batch-dir", batchDir], {});
    assert.match(held.out, new RegExp(`in use by the batch run of process ${process.ppid} on `), held.out);
  });
});
