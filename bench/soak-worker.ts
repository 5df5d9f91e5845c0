/**
 * A separate process for the soak benchmark: scores the rows of DATA_FILE
 * with answer correctness against BASE_URL with the disk cache in CACHE_DIR,
 * then writes what every row got to OUT_FILE (atomically) and prints the
 * run's usage as one JSON line. The parent kills it at random points.
 *
 *   node --import tsx bench/soak-worker.ts BASE_URL CACHE_DIR DATA_FILE OUT_FILE
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createJudge, scoreAnswerCorrectness, scoreRun } from "../src/index";

/** The key sent to the fake server (it checks none). */
const BENCH_KEY = "sk-bench-000000000000";

/** What the worker writes for each row, in the frame's order. */
export interface SoakRowOut {
  id: string;
  model: string;
  score: number | null;
  tp: number | null;
  fp: number | null;
  fn: number | null;
  error: string;
  /** answer_correctness_statements (JSON text; "" when the row failed before its statements). */
  details: string;
}

/** Judge settings of the soak: short timeout and backoff so that hangs and retries cost seconds, not minutes. */
export const SOAK_JUDGE = { concurrency: 16, timeoutMs: 2000, retryBaseDelayMs: 50, retryMaxDelayMs: 2000, maxRetries: 6 } as const;

async function main(): Promise<void> {
  const [baseURL, cacheDir, dataFile, outFile] = process.argv.slice(2);
  if (!baseURL || !cacheDir || !dataFile || !outFile) throw new Error("usage: soak-worker BASE_URL CACHE_DIR DATA_FILE OUT_FILE");
  const rows = JSON.parse(readFileSync(dataFile, "utf8")) as Record<string, unknown>[];
  const judge = createJudge({ judge: "openai", apiKey: BENCH_KEY, baseURL, cacheDir, quiet: true, ...SOAK_JUDGE });
  const scored = await scoreAnswerCorrectness(rows, { judge, progress: false, quiet: true });
  const col = (name: string): unknown[] => scored.column(name).values as unknown[];
  const [id, model, score, tp, fp, fn, error, details] = [
    "id",
    "model",
    "answer_correctness",
    "answer_correctness_tp",
    "answer_correctness_fp",
    "answer_correctness_fn",
    "answer_correctness_error",
    "answer_correctness_statements",
  ].map(col) as unknown[][];
  const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const out: SoakRowOut[] = id!.map((_, i) => ({
    id: String(id![i]),
    model: String(model![i]),
    score: num(score![i]),
    tp: num(tp![i]),
    fp: num(fp![i]),
    fn: num(fn![i]),
    error: String(error![i] ?? ""),
    details: String(details![i] ?? ""),
  }));
  writeFileSync(`${outFile}.tmp`, JSON.stringify(out));
  renameSync(`${outFile}.tmp`, outFile);
  const u = scoreRun(scored)!.usage;
  console.log(JSON.stringify({ chatCalls: u.chatCalls, chatCacheHits: u.chatCacheHits, chatHttp: u.chatHttpRequests, embeddingHttp: u.embeddingHttpRequests, retries: u.retries, failures: u.failures }));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
