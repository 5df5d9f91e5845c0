/**
 * `evalframe score --batch` on the command line when the Batch API stops a
 * run: the message says which batch and what to do, as a failure (exit 1),
 * not as an unexpected error, and with no API key in it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { batchRows, runOfflineBatch } from "./support/batch-rows";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { RUN_TS } from "./support/run-ts";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, batches: { pollsToComplete: 1 } }));

function csv(rows: Record<string, unknown>[]): string {
  const cols = Object.keys(rows[0]!);
  return [cols.join(","), ...rows.map((r) => cols.map((c) => JSON.stringify(String(r[c]))).join(","))].join("\n") + "\n";
}

describe("evalframe score --batch when the Batch API stops the run", () => {
  it("a batch the API failed: exit 1 naming the batch and its errors, then the same command finishes the run", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(6)));
    const env = { OPENAI_API_KEY: "sk-cli-batch-secret-7788", OPENAI_BASE_URL: url() };
    const args = ["score", input, "--out", path.join(dir, "scored.csv"), "--cache-dir", path.join(dir, "cache"), "--batch", "--batch-dir", path.join(dir, "batches"), "--poll-interval", "0.01"];
    server.options.batches = { pollsToComplete: 1, failWith: { code: "model_not_found", message: "The model gpt-4o-mini is not available for batch." } };
    const failed = await runCliCaptured(args, env);
    assert.equal(failed.code, 1, failed.err);
    assert.match(failed.err, /^evalframe: batch stage 1: the Batch API failed batch batch_\d+ .*The model gpt-4o-mini is not available for batch\. \(model_not_found\)\. None of its lines ran/m);
    assert.doesNotMatch(failed.err, /unexpected error|EVALFRAME_DEBUG/, failed.err);
    assert.doesNotMatch(failed.err, /sk-cli-batch-secret/);
    server.options.batches = { pollsToComplete: 1 };
    const again = await runCliCaptured(args, env);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out + again.err, /answer_correctness: 0 of 6 rows failed/, again.err);
  });
});

describe("evalframe score --batch stopped with Ctrl-C while it waits", () => {
  it("leaves the batch folder free, keys out of it, and the same command resumes its batches instead of submitting them again", { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(6)));
    const batchDir = path.join(dir, "batches");
    const key = "sk-cli-batch-secret-ctrlc-4455";
    const args = ["score", input, "--out", path.join(dir, "scored.csv"), "--cache-dir", path.join(dir, "cache"), "--batch", "--batch-dir", batchDir, "--poll-interval", "0.02"];
    server.options.batches = { pollsToComplete: 1_000_000 };
    const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: key, OPENAI_BASE_URL: url() };
    delete env["NODE_OPTIONS"];
    delete env["EVALFRAME_DEBUG"];
    const child = spawn(process.execPath, [...RUN_TS, path.join(__dirname, "..", "src", "cli.ts"), ...args], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => void (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const stateFile = path.join(batchDir, "state.json");
    const submitted = (): number => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as { batches: { batchId: string }[] }).batches.filter((b) => b.batchId !== "").length : 0);
    const deadline = Date.now() + 45_000;
    while (submitted() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(submitted(), 2, `the run submitted its first stage's two batches: ${err}`);
    const status = await runCliCaptured(["batch", "status", "--batch-dir", batchDir], {});
    assert.match(status.out, new RegExp(`in use by the batch run of process ${child.pid} on \\S+ since \\S+`), status.out);
    child.kill("SIGINT");
    assert.equal(await exited, 130, err);
    assert.ok(!existsSync(path.join(batchDir, "lock")), "the stopped run's lock is gone");
    assert.doesNotMatch(readFileSync(stateFile, "utf8"), new RegExp(key));
    const first = [...server.batchApi.created];
    server.options.batches = { pollsToComplete: 1 };
    const again = await runCliCaptured(args, { OPENAI_API_KEY: key, OPENAI_BASE_URL: url() });
    assert.equal(again.code, 0, again.err);
    assert.equal((again.err.match(/resuming batch_/g) ?? []).length, 2, again.err);
    assert.deepEqual(server.batchApi.created.slice(0, 2), first);
    assert.equal(server.batchApi.created.length, 3, "only stage 2 is new");
    assert.ok(!existsSync(path.join(batchDir, "lock")), "a finished run leaves the folder free");
    assert.doesNotMatch(again.err + again.out, new RegExp(key));
  });
});

describe("evalframe score --batch-import of results made with other judge settings", () => {
  it("says how many lines answer no request of this table and to give the export's judge flags, instead of asking for them to be exported (and paid) again", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(6)));
    const requests = path.join(dir, "requests.jsonl");
    const results = path.join(dir, "results.jsonl");
    const exported = await runCliCaptured(["score", input, "--judge", "openai", "--model", "gpt-4o", "--batch-export", requests], {});
    assert.equal(exported.code, 0, exported.err);
    runOfflineBatch(requests, results);
    // Another machine: another cache, and the import without --model.
    const env = { OPENAI_API_KEY: "sk-import-machine-2-0000" };
    const wrong = await runCliCaptured(["score", input, "--judge", "openai", "--cache-dir", path.join(dir, "cache-b"), "--out", path.join(dir, "s.csv"), "--batch-import", results], env);
    assert.equal(wrong.code, 0, wrong.err);
    assert.match(wrong.err, /evalframe: 8 lines of \S+results\.jsonl answer no request this table needs now: made with other judge settings \(--model/, wrong.err);
    const right = await runCliCaptured(["score", input, "--judge", "openai", "--model", "gpt-4o", "--cache-dir", path.join(dir, "cache-c"), "--out", path.join(dir, "s.csv"), "--batch-import", results], env);
    assert.equal(right.code, 0, right.err);
    assert.match(right.out, /read 9 results from /);
    assert.doesNotMatch(right.err, /no request this table needs/);
  });
});

describe("evalframe score --batch --batch-max-lines", () => {
  it("sends no batch of more lines than asked, with the scores of one batch a stage; a value that is not a whole number from 1 to 50,000 is bad usage", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(9)));
    const env = { OPENAI_API_KEY: "sk-cli-batch-lines-1111", OPENAI_BASE_URL: url() };
    const base = ["score", input, "--batch", "--poll-interval", "0.01"];
    server.options.batches = { pollsToComplete: 1, maxLines: 3 };
    const split = await runCliCaptured([...base, "--out", path.join(dir, "split.csv"), "--cache-dir", path.join(dir, "c1"), "--batch-dir", path.join(dir, "b1"), "--batch-max-lines", "3"], env);
    assert.equal(split.code, 0, split.err);
    const sizes = server.batchApi.created.map((id) => server.batchApi.batches.get(id)!.request_counts.total);
    assert.ok(sizes.length > 3 && sizes.every((n) => n <= 3), sizes.join(", "));
    server.reset();
    server.options.batches = { pollsToComplete: 1 };
    const whole = await runCliCaptured([...base, "--out", path.join(dir, "whole.csv"), "--cache-dir", path.join(dir, "c2"), "--batch-dir", path.join(dir, "b2")], env);
    assert.equal(whole.code, 0, whole.err);
    assert.equal(readFileSync(path.join(dir, "split.csv"), "utf8"), readFileSync(path.join(dir, "whole.csv"), "utf8"));
    // The same table, byte for byte, as the interactive path writes for the same replies.
    const interactive = await runCliCaptured(["score", input, "--out", path.join(dir, "interactive.csv"), "--cache-dir", path.join(dir, "c3"), "--no-progress"], env);
    assert.equal(interactive.code, 0, interactive.err);
    assert.equal(readFileSync(path.join(dir, "whole.csv"), "utf8"), readFileSync(path.join(dir, "interactive.csv"), "utf8"));
    for (const bad of ["0", "60000", "2.5"]) {
      const r = await runCliCaptured([...base, "--out", path.join(dir, "x.csv"), "--batch-max-lines", bad], env);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /--batch-max-lines must be a whole number from 1 to 50000/);
    }
  });
});

describe("evalframe score --batch --dry-run", () => {
  it("gives the batch price and says the time is the Batch API's, not the interactive estimate's", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    writeFileSync(input, csv(batchRows(6)));
    const r = await runCliCaptured(["score", input, "--judge", "openai", "--batch", "--dry-run"], {});
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /~\$[\d.]+ with --batch \(half price\)/);
    assert.match(r.out, /With --batch: .*up to 24 hours a stage/);
    const plain = await runCliCaptured(["score", input, "--judge", "openai", "--dry-run"], {});
    assert.doesNotMatch(plain.out, /With --batch:/);
  });
});
