/**
 * A separate process for the kill-and-resume test: asks the judge for N echo
 * replies with the disk cache on. Usage:
 *   node --require tsx/cjs test/support/judge-worker.ts BASE_URL CACHE_DIR N
 */
import { createJudge } from "../../src/judge/create";
import { echoRequest } from "./requests";

async function main(): Promise<void> {
  const [baseURL, cacheDir, n] = process.argv.slice(2);
  if (!baseURL || !cacheDir || !n) throw new Error("usage: judge-worker BASE_URL CACHE_DIR N");
  const judge = createJudge({ judge: "openai", apiKey: "sk-worker-secret-000000", baseURL, cacheDir, concurrency: 4, retryBaseDelayMs: 10 });
  await Promise.all(
    Array.from({ length: Number(n) }, async (_, i) => {
      await judge.complete(echoRequest(`item ${i}`));
    }),
  );
  const s = judge.usage.summary();
  console.log(JSON.stringify({ chatCalls: s.chatCalls, cached: s.chatCacheHits, http: s.chatHttpRequests }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
