/**
 * A separate process for the batch resume test: scores rows from a JSON file
 * in batch mode. Usage:
 *   node --require tsx/cjs test/support/batch-worker.ts BASE_URL CACHE_DIR BATCH_DIR ROWS_JSON
 */
import { readFileSync } from "node:fs";
import { answerCorrectness, createJudge, scoreBatch } from "../../src/index";

async function main(): Promise<void> {
  const [baseURL, cacheDir, batchDir, rowsFile] = process.argv.slice(2);
  if (!baseURL || !cacheDir || !batchDir || !rowsFile) throw new Error("usage: batch-worker BASE_URL CACHE_DIR BATCH_DIR ROWS_JSON");
  const rows = JSON.parse(readFileSync(rowsFile, "utf8")) as Record<string, unknown>[];
  const judge = createJudge({ judge: "openai", apiKey: "sk-worker-batch-0000", baseURL, cacheDir });
  await scoreBatch(rows, [answerCorrectness()], { judge, batchDir, pollIntervalMs: 20, log: (line) => console.log(line), quiet: true });
  console.log("finished");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
