/**
 * Child process of the offline benchmark: scores `rows` synthetic rows
 * (bench/data's qaRows, 5 models) with the offline judge from the compiled
 * package (dist/, as the CLI and notebooks use it), and prints one JSON line:
 * the wall time of the scoring call and the process's peak memory.
 *
 *   npx tsx bench/offline-worker.ts 100000
 */
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { resourceUsage } from "node:process";
import { qaRows } from "./data";

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 100_000);
  const dist = require(path.join(__dirname, "..", "dist", "index.js")) as typeof import("../src/index");
  const data = qaRows(Math.ceil(rows / 5), 5).slice(0, rows);
  const judge = dist.createJudge({ judge: "offline", quiet: true });
  const t = performance.now();
  const scored = await dist.scoreAnswerCorrectness(data as unknown as Record<string, unknown>[], { judge, progress: false, quiet: true });
  const ms = performance.now() - t;
  const failed = dist.frameRecords(scored).filter((r) => r["answer_correctness_error"] !== "").length;
  console.log(JSON.stringify({ rows: data.length, ms, peakMb: resourceUsage().maxRSS / 1024, failed }));
}

void main();
