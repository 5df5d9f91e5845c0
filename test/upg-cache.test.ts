/**
 * A reply cache written by an older evalframe, used by this one. The fixture
 * test/fixtures/upgrade/c0d2993-cache was written by commit c0d2993
 * (2026-12-04) with `evalframe score test/fixtures/upgrade/qa-q01-q02.csv
 * --cache-dir c0d2993-cache`, then the same with `--layout fused`, against the
 * fake OpenAI server at http://127.0.0.1:47311/v1 (OPENAI_API_KEY=test-key);
 * what those runs wrote is c0d2993-server-ragas.csv and -fused.csv.
 *
 * The user upgrades and scores the same table with the same cache (and the
 * same settings: reasons on, the default then): nothing
 * whose prompt did not change may be paid again, and the fused layout's
 * reference batches, whose prompt is now ac-statements-batch-v2, must be
 * asked again rather than answered from a reply made under v1.
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { answerCorrectness, createJudge, frameRecords, loadDataset, score, toCSV } from "../src/index";
import { useFakeOpenAI } from "./support/fake-openai";
import { promptKind, scriptedAnswerCorrectness } from "./support/scripted-judge";
import { tempDir } from "./support/files";
import { useFixedPortForwarder } from "./support/upg-fixed-port";

const FIXTURES = path.join(__dirname, "fixtures", "upgrade");
const { server, url } = useFakeOpenAI(() => ({ chat: scriptedAnswerCorrectness }));
const { base } = useFixedPortForwarder(url);

/** The score columns of a scored file, row by row. */
async function scores(file: string) {
  return frameRecords(await loadDataset(file)).map((r) => [r["id"], r["model"], r["answer_correctness"], r["answer_correctness_tp"], r["answer_correctness_fp"], r["answer_correctness_fn"], r["answer_correctness_error"]]);
}

describe("an old cache folder (c0d2993) after the upgrade", () => {
  /**
   * The table scored as the old runs were (their defaults: gpt-4o-mini, text-embedding-3-small, reasons on),
   * with a copy of the old cache; the scored file is written as the command line writes it.
   */
  async function scoreWithOldCache(layout: "ragas" | "fused"): Promise<string> {
    const dir = tempDir();
    const cache = path.join(dir, "cache");
    cpSync(path.join(FIXTURES, "c0d2993-cache"), cache, { recursive: true });
    const judge = createJudge({ judge: "openai", apiKey: "test-key", baseURL: base(), model: "gpt-4o-mini", embeddingModel: "text-embedding-3-small", cacheDir: cache });
    const scored = await score(await loadDataset(path.join(FIXTURES, "qa-q01-q02.csv")), [answerCorrectness({ layout, reasons: true })], { judge, progress: false, quiet: true });
    const file = path.join(dir, "scored.csv");
    await toCSV(scored, file);
    return file;
  }

  it("the Ragas layout pays for nothing again: every reply and vector comes from the old cache, and the scores are the old run's", async (t) => {
    if (base() === undefined) return t.skip("port 47311, which the fixture's cache keys name, is taken");
    const file = await scoreWithOldCache("ragas");
    assert.equal(server.chatRequests().length, 0, `chat requests: ${server.chatRequests().map((q) => promptKind(q.body)).join(", ")}`);
    assert.equal(server.embeddingRequests().length, 0, "embeddings from the cache");
    assert.deepEqual(await scores(file), await scores(path.join(FIXTURES, "c0d2993-server-ragas.csv")));
  });

  it("the fused layout asks its reference batch again (a new prompt) and nothing else; the answers' cached verdicts are used", async (t) => {
    if (base() === undefined) return t.skip("port 47311, which the fixture's cache keys name, is taken");
    const file = await scoreWithOldCache("fused");
    assert.deepEqual(
      server.chatRequests().map((q) => promptKind(q.body)),
      ["statements_batch"],
      "only the reference batch, whose prompt changed, is asked again",
    );
    assert.deepEqual(await scores(file), await scores(path.join(FIXTURES, "c0d2993-server-fused.csv")));
  });
});
