/**
 * `--batch-export` / `exportBatchRequests` past the limits on one batch: the
 * requests are split as a batch run splits a stage (one endpoint a file,
 * each within the lines, bytes and texts-to-embed limits), each file can be
 * run and imported, and the output names the files.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, exportBatchRequests, importBatchResults, score } from "../src/index";
import { batchJudge, batchRows as rows, batchScores as scores, runOfflineBatch } from "./support/batch-rows";
import { runCliCaptured } from "./support/cli";
import { useFakeOpenAI } from "./support/fake-openai";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const { url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

function jsonl(file: string): { custom_id: string; url: string; body: { input?: string[] } }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { custom_id: string; url: string; body: { input?: string[] } });
}

describe("exportBatchRequests over the limits on one batch", () => {
  it("writes several files, one endpoint each and each within the limits, holding the requests of one file; each runs and imports to the interactive scores", async () => {
    const data = rows(24);
    const expected = scores(await score(data, [answerCorrectness()], { judge: batchJudge(url(), tempDir(), { embeddingBatchSize: 4 }), progress: false, quiet: true }));
    const dir = tempDir();
    const options = { judge: batchJudge(url(), tempDir(), { embeddingBatchSize: 4 }) };
    const whole = path.join(dir, "whole.jsonl");
    const one = await exportBatchRequests(data, [answerCorrectness()], whole, options);
    assert.deepEqual(one.files, [whole], "within the limits: one file, as before");
    const file = path.join(dir, "requests.jsonl");
    const limits = { maxLinesPerBatch: 5, maxBatchBytes: 6_000, maxEmbeddingInputsPerBatch: 10 };
    const sizes: number[] = [];
    for (let stage = 1; stage <= 3; stage++) {
      const exported = await exportBatchRequests(data, [answerCorrectness()], file, { ...options, ...limits });
      if (stage === 1) {
        assert.ok(exported.files.length > 2, `split into ${exported.files.length} files`);
        assert.deepEqual(
          exported.files,
          exported.files.map((_, i) => path.join(dir, `requests-${i + 1}.jsonl`)),
        );
        assert.ok(!existsSync(file), "the unsplit name is not written");
        const all = exported.files.flatMap((f) => jsonl(f));
        assert.deepEqual(all.map((l) => l.custom_id).sort(), jsonl(whole).map((l) => l.custom_id).sort(), "the same requests as the one file");
        for (const f of exported.files) {
          const lines = jsonl(f);
          assert.ok(lines.length <= 5, `${f}: ${lines.length} lines`);
          assert.ok(Buffer.byteLength(readFileSync(f)) <= 6_000, `${f}: bytes`);
          assert.equal(new Set(lines.map((l) => l.url)).size, 1, `${f}: one endpoint`);
          assert.ok(lines.reduce((n, l) => n + (l.body.input?.length ?? 0), 0) <= 10, `${f}: texts to embed`);
        }
      }
      // What is on disk is what this export wrote: an earlier stage's files, run by mistake, would be paid for again.
      const onDisk = readdirSync(dir).filter((n) => /^requests(-\d+)?\.jsonl$/.test(n)).sort();
      assert.deepEqual(onDisk, exported.files.map((f) => path.basename(f)).sort(), `stage ${stage}: ${onDisk.join(", ")}`);
      sizes.push(exported.files.length);
      if (stage === 3) assert.deepEqual(exported.removed, Array.from({ length: sizes[1]! }, (_, i) => path.join(dir, `requests-${i + 1}.jsonl`)), "the second stage's files, named");
      if (exported.lines === 0) break;
      // Each file run by the offline runner, and its results imported on their own.
      for (const [i, f] of exported.files.entries()) {
        const results = path.join(dir, `results-${stage}-${i}.jsonl`);
        runOfflineBatch(f, results);
        const imported = await importBatchResults(data, [answerCorrectness()], results, options);
        assert.equal(imported.failed.size, 0);
        assert.deepEqual(imported.unreadable, []);
      }
    }
    assert.ok(sizes.length === 3 && sizes[2]! === 1 && sizes[0]! > 1, `split, then one (empty) file once nothing is left: ${sizes.join(", ")}`);
    assert.deepEqual(scores(await score(data, [answerCorrectness()], { ...options, progress: false, quiet: true })), expected);
  });
});

describe("evalframe score --batch-export with --batch-max-lines", () => {
  it("says how many files it wrote, and names them", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.csv");
    const data = rows(9);
    writeFileSync(input, ["id,model,user_input,response,reference", ...data.map((r) => [r["id"], r["model"], r["user_input"], r["response"], r["reference"]].map((v) => JSON.stringify(String(v))).join(","))].join("\n") + "\n");
    const requests = path.join(dir, "requests.jsonl");
    const r = await runCliCaptured(["score", input, "--judge", "openai", "--cache-dir", path.join(dir, "cache"), "--batch-export", requests, "--batch-max-lines", "4"], {});
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /wrote 13 batch request lines \(12 chat, 1 embeddings\) in 4 files, one endpoint each and each within the limits on one batch \(--batch-max-lines.*; run each \(e\.g\. with vLLM's batch runner\), then import each results file \(or them joined\): evalframe score /, r.out);
    for (let i = 1; i <= 4; i++) assert.ok(r.out.includes(path.join(dir, `requests-${i}.jsonl`)), r.out);
    assert.ok(jsonl(path.join(dir, "requests-1.jsonl")).length === 4, "4 lines in the first file");
    // Exported again in one file: the numbered files of the split export are removed, and named.
    const whole = await runCliCaptured(["score", input, "--judge", "openai", "--cache-dir", path.join(dir, "cache"), "--batch-export", requests], {});
    assert.equal(whole.code, 0, whole.err);
    assert.match(whole.out, /removed the request files an earlier export left under these names \(not needed now; run, they would be paid for again\): \S+requests-1\.jsonl, \S+requests-2\.jsonl, \S+requests-3\.jsonl, \S+requests-4\.jsonl\n/, whole.out);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith(".jsonl")), ["requests.jsonl"]);
  });
});
