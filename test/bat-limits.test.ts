/**
 * Batch mode against the ways a real Batch API ends a batch other than
 * "completed": limits on one input file, a batch that fails validation, a
 * 429 on creation, output files that are gone, and cancelled batches.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { answerCorrectness, score, scoreBatch, type JudgeOptions } from "../src/index";
import { batchJudge, batchRows as rows, batchRunKilledAfterSubmitting, batchScores as scores, submittedLines } from "./support/batch-rows";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { records } from "./support/frames";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 2 } }));
const quiet = { progress: false as const, quiet: true };

async function interactive(data: Record<string, unknown>[], options: JudgeOptions = {}): Promise<unknown[]> {
  const out = scores(await score(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir(), options), ...quiet }));
  server.reset();
  return out;
}

describe("batch mode within the Batch API's limits", () => {
  it("splits a stage into batches of at most maxLinesPerBatch lines, maxBatchBytes bytes and maxEmbeddingInputsPerBatch texts to embed, with the interactive run's scores", async () => {
    const data = rows(24);
    const expected = await interactive(data, { embeddingBatchSize: 4 });
    server.options.batches = { pollsToComplete: 2, maxLines: 5, maxBytes: 6_000, maxEmbeddingInputs: 10 };
    const logs: string[] = [];
    const limits = { maxLinesPerBatch: 5, maxBatchBytes: 6_000, maxEmbeddingInputsPerBatch: 10 };
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir(), { embeddingBatchSize: 4 }), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true, ...limits });
    assert.deepEqual(scores(out), expected);
    const batches = server.batchApi.created.map((id) => server.batchApi.batches.get(id)!);
    assert.ok(batches.every((b) => b.status === "completed"), batches.map((b) => `${b.id} ${b.status} ${JSON.stringify(b.errors)}`).join("\n"));
    assert.ok(batches.length > 3, `${batches.length} batches`);
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line in two batches");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("a batch that fails validation", () => {
  it("stops the run naming the batch and the API's errors, and sends nothing interactively", async () => {
    server.options.batches = { pollsToComplete: 1, failWith: { code: "invalid_request", message: "Model fake-model is not available for batch.", line: 1 } };
    const batchDir = tempDir();
    await assert.rejects(
      scoreBatch(rows(6), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true }),
      (error: Error) => {
        assert.match(error.message, /failed batch batch_\d+ \(\d+ \/v1\/\S+ lines, input file file-\d+, a copy of it at \S+stage-1-\w+-[0-9a-f]{12}\.jsonl\) without running it: Model fake-model is not available for batch\. \(line 1, invalid_request\)\. None of its lines ran/);
        return true;
      },
    );
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "no line is retried interactively");
    // Once fixed, the same command submits its lines afresh instead of resuming the failed batch.
    const failedBatches = server.batchApi.created.length;
    server.options.batches = { pollsToComplete: 1 };
    const out = await scoreBatch(rows(6), [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.ok(records(out).every((r) => r["answer_correctness_error"] === ""), "every row scored on the rerun");
    assert.ok(server.batchApi.created.length > failedBatches, "new batches on the rerun");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive on the rerun");
  });
});

describe("a batch whose output file is gone", () => {
  it("retries its lines as lines that did not run, naming the file, instead of failing at that batch on every run", async () => {
    const data = rows(6);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1, outputGone: true };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.ok(logs.some((l) => /the output file file-\d+ of batch batch_\d+ is gone \(404/.test(l)), logs.join("\n"));
    assert.ok(server.chatRequests().length > 0, "its lines went interactively");
  });
});

describe("a batch refused on creation (429, enqueued token limit)", () => {
  it("says which batch and to run again later; the rerun creates it from the same upload", async () => {
    const data = rows(6);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1, refuseCreates: 2 };
    const judge = batchJudge(url(), tempDir());
    const batchDir = tempDir();
    await assert.rejects(scoreBatch(data, [answerCorrectness()], { judge, batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true }), (error: Error) => {
      assert.match(error.message, /did not create the batch of \d+ \/v1\/chat\/completions lines \(input file file-\d+, uploaded\): .*Enqueued token limit.*none of this run.s batches is in progress to make room: run the same command again once .* give fewer lines a batch, maxLinesPerBatch, --batch-max-lines/);
      assert.doesNotMatch(error.message, /sk-test/);
      return true;
    });
    const uploads = server.batchApi.files.size;
    const listed = server.requests.filter((r) => r.method === "GET" && r.path === "/v1/batches").length;
    const out = await scoreBatch(data, [answerCorrectness()], { judge, batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.equal(server.requests.filter((r) => r.method === "GET" && r.path === "/v1/batches").length, listed, "the refused batch is not looked for among the organisation's batches");
    assert.deepEqual(scores(out), expected);
    const inputs = server.batchApi.created.map((id) => server.batchApi.batches.get(id)!.input_file_id);
    assert.equal(new Set(inputs).size, inputs.length, "one batch per upload");
    assert.ok(inputs.includes("file-1") || uploads > 0, "the first upload was used");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("a batch refused on creation while this run's other batches are in progress", () => {
  it("waits for them to make room and creates it then, said once in the log", async () => {
    const data = rows(12);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 3, refuseCreatesWhileRunning: true };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true, maxLinesPerBatch: 4 });
    assert.deepEqual(scores(out), expected);
    assert.ok(server.batchApi.refusedCreates > 0, "the fake refused some creations");
    assert.ok(logs.some((l) => /refused to create the batch of \d+ lines for now \(429, enqueued token limit\); trying again as batch_\d+ of this run finishes/.test(l)), logs.join("\n"));
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("an expired batch with an error file", () => {
  it("the lines that ran are used, the others retried interactively, each once", async () => {
    const data = rows(9);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1, endAs: "expired" };
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(scores(out), expected);
    const lines = submittedLines(server);
    const interactiveChats = server.chatRequests().length;
    assert.ok(interactiveChats > 0 && interactiveChats < lines.length, `${interactiveChats} interactive of ${lines.length}`);
  });
});

describe("a cancelled batch", () => {
  it("keeps the lines that ran and stops, sending none of the others interactively; the same command then submits the rest", async () => {
    const data = rows(9);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1, endAs: "cancelled" };
    const judge = batchJudge(url(), tempDir());
    const batchDir = tempDir();
    await assert.rejects(scoreBatch(data, [answerCorrectness()], { judge, batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true }), /batch stage 1: batch batch_\d+ was cancelled; the \d+ of its \d+ lines that ran are kept in the cache, the other \d+ were not run \(nor paid for\)\. Run the same command again/);
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
    const outputs = server.batchApi.created.map((id) => server.batchApi.batches.get(id)!.output_file_id).filter((id): id is string => id !== null);
    const ran = new Set(outputs.flatMap((id) => server.batchApi.files.get(id)!.content.split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as { custom_id: string }).custom_id)));
    const before = server.batchApi.created.length;
    server.options.batches = { pollsToComplete: 1 };
    const out = await scoreBatch(data, [answerCorrectness()], { judge, batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(scores(out), expected);
    const again = server.batchApi.created.slice(before).flatMap((id) => server.batchApi.files.get(server.batchApi.batches.get(id)!.input_file_id)!.content.split("\n").filter((l) => l !== "").map((l) => (JSON.parse(l) as { custom_id: string }).custom_id));
    assert.ok(again.every((id) => !ran.has(id)), "no line that ran is submitted again");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("a run stopped between the batches of a split stage", () => {
  it("resumes the batches not yet read, whatever the parts the rest now falls into: no line submitted twice", async () => {
    const data = rows(24);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1, maxLines: 5 };
    const cacheDir = tempDir();
    const batchDir = tempDir();
    let completed = 0;
    const stopAtSecond = (line: string): void => {
      // The second batch read is where the process "stops": the first one's results are in the cache.
      if (/: completed/.test(line) && ++completed === 2) throw new Error("stopped");
    };
    const options = { batchDir, pollIntervalMs: 5, quiet: true, maxLinesPerBatch: 5 } as const;
    await assert.rejects(scoreBatch(data, [answerCorrectness()], { ...options, judge: batchJudge(url(), cacheDir), log: stopAtSecond }), /stopped/);
    const before = server.batchApi.created.length;
    assert.ok(before > 2, `${before} batches in stage 1`);
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { ...options, judge: batchJudge(url(), cacheDir), log: (l) => logs.push(l) });
    assert.deepEqual(scores(out), expected);
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
    assert.equal(logs.filter((l) => /resuming batch_/.test(l)).length, before - 1, logs.join("\n"));
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("two batch runs in one batch folder at once", () => {
  it("the second is refused, naming the folder and the run that holds it, and nothing is submitted twice", async () => {
    const data = rows(6);
    server.options.batches = { pollsToComplete: 3 };
    const batchDir = tempDir();
    const cacheDir = tempDir();
    const run = (): Promise<unknown> => scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true });
    const results = await Promise.allSettled([run(), run()]);
    const refused = results.filter((r) => r.status === "rejected");
    assert.equal(refused.length, 1, results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok")).join("\n"));
    assert.match(String((refused[0] as PromiseRejectedResult).reason), /another batch run \(process \d+.*\) is using the batch folder .*: wait for it to finish, or give this run its own batch folder/);
    const lines = submittedLines(server);
    assert.equal(new Set(lines.map((l) => l.custom_id)).size, lines.length, "no line submitted twice");
    // Once the first has finished, the folder is free again.
    await run();
  });
});

describe("a status poll the server cannot answer for a moment", () => {
  it("is tried again at the next interval instead of ending a run that waits for its batches; each failed poll is said", async () => {
    const data = rows(6);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 2, failPolls: 3 };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir()), batchDir: tempDir(), pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.equal(logs.filter((l) => /could not get the status of batch_\d+ \(.*503.*\); trying again/.test(l)).length, 3, logs.join("\n"));
    assert.equal(server.batchApi.created.length, 3, "no batch submitted twice");
  });
});

describe("a run stopped while it read a batch's results into the cache", () => {
  it("resumes that batch for the lines and texts still missing instead of submitting them in a new one", { timeout: 60_000 }, async () => {
    const data = rows(12);
    const expected = await interactive(data);
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir } = await batchRunKilledAfterSubmitting(url(), data);
    const first = [...server.batchApi.created];
    // Some of its replies reached the cache before the stop (here: the first rows', asked directly).
    await score(data.slice(0, 4), [answerCorrectness()], { judge: batchJudge(url(), cacheDir), ...quiet });
    const calls = server.chatRequests().length + server.embeddingRequests().length;
    server.options.batches = { pollsToComplete: 1 };
    const logs: string[] = [];
    const out = await scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir, pollIntervalMs: 5, log: (l) => logs.push(l), quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.equal(logs.filter((l) => /resuming batch_/.test(l)).length, first.length, logs.join("\n"));
    assert.deepEqual(server.batchApi.created.slice(0, first.length), first);
    assert.equal(server.batchApi.created.length, first.length + 1, `only stage 2 is new:\n${logs.join("\n")}`);
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, calls, "nothing interactive");
  });
});

describe("a recorded batch the Batches API does not know", () => {
  it("stops the run naming the batch, the server, and what to do, instead of submitting (and paying for) its lines again", { timeout: 60_000 }, async () => {
    const data = rows(9);
    server.options.batches = { pollsToComplete: 1_000_000 };
    const { cacheDir, batchDir } = await batchRunKilledAfterSubmitting(url(), data);
    // Another server (or key) than the one that submitted them: it knows none of the batches.
    server.reset();
    server.options.batches = { pollsToComplete: 1 };
    await assert.rejects(scoreBatch(data, [answerCorrectness()], { judge: batchJudge(url(), cacheDir), batchDir, pollIntervalMs: 5, log: () => undefined, quiet: true }), (error: Error) => {
      assert.match(error.message, /the Batches API of gpt-4o-mini @ 127\.0\.0\.1:\d+ does not know batch batch_\d+ \(404\), submitted \S+ with \d+ \S+ lines: give this run the key, organisation and server that submitted it; or, to submit its lines again \(and pay for them again\), move \S+state\.json away/);
      return true;
    });
    assert.equal(server.batchApi.created.length, 0, "nothing submitted again");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});

describe("an output file with repeated and unknown custom_ids", () => {
  it("reads each request's first line once and ignores lines of no request of the run: the interactive scores, each line counted once", async () => {
    const data = rows(6);
    const expected = await interactive(data);
    server.options.batches = {
      pollsToComplete: 1,
      outputLine: (text) => {
        const line = JSON.parse(text) as { custom_id: string; response: { body: unknown } };
        const unknown = JSON.stringify({ ...line, custom_id: `${line.custom_id}-other-run` });
        const repeated = JSON.stringify({ ...line, response: { status_code: 500, body: { error: { message: "a repeat" } } } });
        return `${text}\n${repeated}\n${unknown}`;
      },
    };
    const judge = batchJudge(url(), tempDir());
    const usage = judge.newUsage();
    const out = await scoreBatch(data, [answerCorrectness()], { judge, usage, batchDir: tempDir(), pollIntervalMs: 5, log: () => undefined, quiet: true });
    assert.deepEqual(scores(out), expected);
    assert.equal(usage.summary().batchLines, submittedLines(server).length, "one batch line counted per request");
    assert.equal(server.chatRequests().length + server.embeddingRequests().length, 0, "nothing interactive");
  });
});
