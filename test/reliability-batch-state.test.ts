/**
 * Batch mode under damaged files. A batch folder whose state file is damaged
 * (cut short by a full disk or a copy, edited by hand) is refused with what
 * to do, never read as "no batches": that would submit, and pay for, the
 * recorded batches again (a real worker process is killed with SIGKILL while
 * its batch runs). A batch output with a line cut off or without a body is
 * read but for that line, whose request is retried: one bad line no longer
 * throws away the paid replies of the whole batch.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, batchStatus, exportBatchRequests, importBatchResults, scoreBatch } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, runOfflineBatch } from "./support/batch-rows";
import { records } from "./support/frames";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));

/** Six rows' batch requests, exported and run by the offline runner: the results file, and what importing it needs. */
async function offlineResults(): Promise<{ data: Record<string, unknown>[]; results: string; options: { judge: ReturnType<typeof batchJudge> }; exported: { lines: number } }> {
  const data = rows(6);
  const dir = tempDir();
  const requests = path.join(dir, "requests.jsonl");
  const results = path.join(dir, "results.jsonl");
  const options = { judge: batchJudge(url(), tempDir()) };
  const exported = await exportBatchRequests(data, [answerCorrectness()], requests, options);
  runOfflineBatch(requests, results);
  return { data, results, options, exported };
}

describe("a damaged batch state file", () => {
  it("is refused naming the file and what to do, and no batch is submitted twice", async () => {
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir, stateFile, rowsFile } = await batchRunKilledAfterSubmitting(url(), rows(6));
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

describe("a batch output with lines that cannot be read", () => {
  it("uses the other lines and retries the requests of those, instead of failing the run", async () => {
    // The second output line is cut off (a runner that stopped mid-line).
    server.options.batches = { pollsToComplete: 1, outputLine: (text, n) => (n === 1 ? text.slice(0, text.length >> 1) : text) };
    const logs: string[] = [];
    const out = await scoreBatch(rows(6), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    const scored = records(out);
    assert.equal(scored.length, 6);
    assert.deepEqual(scored.map((r) => r["answer_correctness_error"]), Array(6).fill(""), "every row scored");
    assert.ok(logs.some((l) => /1 result line could not be read \(batch_\S+ output, line 2: not valid JSON \(cut off\?\)\); the other lines are used/.test(l)), logs.join("\n"));
    assert.ok(server.chatRequests().length >= 1, "the line's request was asked again interactively");
  });

  it("a 200 line with no body fails that line only (retried), not the run", async () => {
    server.options.batches = { pollsToComplete: 1, outputLine: (text, n) => (n === 2 ? text.replace(/"body":\{.*\},"error"/, '"body":null},"error"') : text) };
    const out = await scoreBatch(rows(6), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(records(out).map((r) => r["answer_correctness_error"]), Array(6).fill(""), "every row scored");
    assert.ok(server.chatRequests().length >= 1, "the line's request was asked again interactively");
  });

  it("an imported results file: the readable lines are used, the bad one is named, and its request is left for the next export", async () => {
    const { data, results, options, exported } = await offlineResults();
    const lines = readFileSync(results, "utf8").split("\n");
    lines[0] = lines[0]!.slice(0, 40);
    writeFileSync(results, lines.join("\n"));
    const imported = await importBatchResults(data, [answerCorrectness()], results, options);
    assert.equal(imported.applied, exported.lines - 1);
    assert.deepEqual(imported.unreadable, [`${results}, line 1: not valid JSON (cut off?)`]);
    assert.ok(imported.remaining >= 1);
    assert.equal(server.requests.length, 0, "nothing went to a server");
  });
});

describe("batch polling", () => {
  it("refuses a poll interval that is not a number of milliseconds, instead of polling without pause", async () => {
    await assert.rejects(
      scoreBatch(rows(3), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: Number.NaN, log: () => undefined, quiet: true }),
      /pollIntervalMs must be a number of milliseconds ≥ 0, got NaN/,
    );
    assert.equal(server.batchApi.created.length, 0, "nothing submitted");
  });
});

describe("a batch embeddings reply whose vectors are not numbered", () => {
  it("fails its line instead of putting vectors on the wrong texts", async () => {
    const { data, results, options } = await offlineResults();
    // A runner that gives the vectors in another order and without their index.
    const rewritten = readFileSync(results, "utf8")
      .split("\n")
      .map((line) => {
        if (line.trim() === "") return line;
        const parsed = JSON.parse(line) as { response: { body: { object?: string; data?: { index?: number; embedding: number[] }[] } } };
        const body = parsed.response.body;
        if (body.object === "list" && body.data) body.data = body.data.reverse().map(({ embedding }) => ({ embedding }));
        return JSON.stringify(parsed);
      });
    writeFileSync(results, rewritten.join("\n"));
    const imported = await importBatchResults(data, [answerCorrectness()], results, options);
    const failures = [...imported.failed.values()];
    assert.equal(failures.length, 1, failures.join("\n"));
    assert.match(failures[0]!, /batch embeddings reply is not \d+ vectors of numbers, one per text by its index/);
    assert.ok(imported.remaining >= 1, "its texts are asked for again");
  });
});
