/**
 * A batch folder written by an older evalframe, resumed by this one. The
 * fixture test/fixtures/upgrade/52626ec-batch was written by commit 52626ec
 * (2026-12-01): `evalframe score test/fixtures/upgrade/qa-q01.csv --batch
 * --batch-dir 52626ec-batch` against the fake OpenAI server at
 * http://127.0.0.1:47311/v1 (OPENAI_API_KEY=test-key), stopped while its
 * first stage's two batches ran. That version kept each stage's request file
 * as `stage-1-chat.jsonl`; later ones name it by its content.
 *
 * The user upgrades, adds a question, and runs again: the old batches hold
 * part of what the run needs and must be waited for and used, not their lines
 * submitted (and paid for) a second time.
 */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import OpenAI, { toFile } from "openai";
import { frameRecords, loadDataset } from "../src/index";
import { useFakeOpenAI } from "./support/fake-openai";
import { scriptedAnswerCorrectness } from "./support/scripted-judge";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { useFixedPortForwarder } from "./support/upg-fixed-port";

const FIXTURES = path.join(__dirname, "fixtures", "upgrade");
const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness, batches: { pollsToComplete: 1 } }));
const { base } = useFixedPortForwarder(url);

interface RecordedBatch {
  stage: number;
  endpoint: string;
  batchId: string;
  inputFileId: string;
}

/**
 * The fixture's folder, copied, with its batches submitted again to this test's
 * server (the server that ran them is gone): the same request files, the ids
 * this server gives them. Returns the folder and the old batches' request ids.
 */
async function oldFolder(): Promise<{ dir: string; oldIds: string[] }> {
  const dir = path.join(tempDir(), "batches");
  cpSync(path.join(FIXTURES, "52626ec-batch"), dir, { recursive: true });
  const stateFile = path.join(dir, "state.json");
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as { batches: RecordedBatch[] };
  const api = new OpenAI({ apiKey: "test-key", baseURL: base() });
  const oldIds: string[] = [];
  for (const batch of state.batches) {
    const name = `stage-${batch.stage}-${batch.endpoint === "/v1/embeddings" ? "embeddings" : "chat"}.jsonl`;
    const text = readFileSync(path.join(dir, name), "utf8");
    oldIds.push(...text.trim().split("\n").map((l) => (JSON.parse(l) as { custom_id: string }).custom_id));
    const file = await api.files.create({ file: await toFile(Buffer.from(text), name), purpose: "batch" });
    const created = await api.batches.create({ input_file_id: file.id, endpoint: batch.endpoint as "/v1/chat/completions", completion_window: "24h" });
    batch.inputFileId = file.id;
    batch.batchId = created.id;
  }
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return { dir, oldIds };
}

describe("an old batch folder (52626ec) resumed after the upgrade", () => {
  it("with a question added, its batches are waited for and used; only the new question's lines are submitted", async (t) => {
    if (base() === undefined) return t.skip("port 47311, which the fixture's request ids name, is taken");
    const { dir, oldIds } = await oldFolder();
    const seen = server.requests.length;
    const out = path.join(tempDir(), "scored.csv");
    const r = await run(
      ["score", path.join(FIXTURES, "qa-q01-q02.csv"), "--out", out, "--batch", "--batch-dir", dir, "--cache-dir", path.join(tempDir(), "cache"), "--poll-interval", "0.01", "--no-progress"],
      { OPENAI_API_KEY: "test-key", EVALFRAME_BASE_URL: base() },
    );
    assert.equal(r.code, 0, r.err);
    const uploads = server.requests.slice(seen).filter((q) => q.method === "POST" && q.path === "/v1/files");
    const resent = oldIds.filter((id) => uploads.some((q) => (q.raw ?? "").includes(id)));
    assert.deepEqual(resent, [], `request lines of the old batches submitted again:\n${r.err}`);
    assert.match(r.err, /batch stage 1: resuming batch_\d+ \(4 lines\) instead of submitting again/);
    const rows = frameRecords(await loadDataset(out));
    assert.equal(rows.length, 6);
    assert.deepEqual(rows.filter((row) => row["answer_correctness_error"] !== ""), [], "every row scored");
    const state = JSON.parse(readFileSync(path.join(dir, "state.json"), "utf8")) as { batches: { applied: boolean }[] };
    assert.ok(state.batches.every((b) => b.applied), "the old batches are marked used");
  });
});
