/**
 * A batch folder whose state file is damaged (cut short by a full disk or a
 * copy, edited by hand) is refused with what to do, never read as "no
 * batches": that would submit, and pay for, the recorded batches again.
 * A real worker process is killed with SIGKILL while its batch runs.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, batchStatus, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { RUN_TS } from "./support/run-ts";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));

describe("a damaged batch state file", () => {
  it("is refused naming the file and what to do, and no batch is submitted twice", async () => {
    const dir = tempDir();
    const cacheDir = path.join(dir, "cache");
    const batchDir = path.join(dir, "batch");
    const stateFile = path.join(batchDir, "state.json");
    const rowsFile = path.join(dir, "rows.json");
    writeFileSync(rowsFile, JSON.stringify(rows(6)));
    server.options.batches = { pollsToComplete: 1_000_000 };
    const worker = path.join(__dirname, "support", "batch-worker.ts");
    const child = spawn(process.execPath, [...RUN_TS, worker, url(), cacheDir, batchDir, rowsFile], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const deadline = Date.now() + 30_000;
      const recorded = (): number =>
        existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as { batches: { batchId: string }[] }).batches.filter((b) => b.batchId !== "").length : 0;
      while (recorded() < 2) {
        assert.ok(Date.now() < deadline, "the worker submitted no batch");
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const submitted = [...server.batchApi.created];
    assert.equal(submitted.length, 2);
    const whole = readFileSync(stateFile, "utf8");
    server.options.batches = { pollsToComplete: 2 };
    for (const damaged of [whole.slice(0, whole.length >> 1), "null", '{"version":1}', "{}"]) {
      writeFileSync(stateFile, damaged);
      const refused = (error: unknown): boolean => {
        assert.ok(error instanceof Error);
        assert.ok(error.message.includes(stateFile), error.message);
        assert.match(error.message, /damaged.*restore it from a backup, or move it away/);
        return true;
      };
      await assert.rejects(batchStatus(batchDir), refused);
      await assert.rejects(
        scoreBatch(JSON.parse(readFileSync(rowsFile, "utf8")) as Record<string, unknown>[], [answerCorrectness()], {
          judge: batchJudge(url(), cacheDir),
          batchDir,
          pollIntervalMs: 5,
          log: () => undefined,
          quiet: true,
        }),
        refused,
      );
      assert.deepEqual(server.batchApi.created, submitted, `no batch submitted again (state ${JSON.stringify(damaged.slice(0, 30))})`);
    }
    // Put back whole, the run resumes the recorded batches.
    writeFileSync(stateFile, whole);
    await scoreBatch(JSON.parse(readFileSync(rowsFile, "utf8")) as Record<string, unknown>[], [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(server.batchApi.created.slice(0, 2), submitted);
  });
});
