/**
 * Child process of the offline benchmark: scores `rows` rows with the
 * offline judge from the compiled package (dist/, as the CLI and notebooks
 * use it), and prints one JSON line: the wall time of the scoring call, the
 * CPU seconds of the process during it, and the process's peak memory.
 *
 * Two shapes of data: `--data synthetic` (default; bench/data's qaRows,
 * 5 models, nearly every sentence new) and `--data sample` (the rows of
 * data/qa-models.csv repeated with new ids, as a team's growing eval set
 * repeats questions, answers and references).
 *
 *   npx tsx bench/offline-worker.ts 100000                  # default threads (2 on 2+ processors)
 *   npx tsx bench/offline-worker.ts 50000 --threads 0       # one thread
 *   npx tsx bench/offline-worker.ts 100000 --data sample
 */
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { resourceUsage } from "node:process";
import { qaRows } from "./data";

/** `rows` rows of data/qa-models.csv, repeated in order; copy k's ids get the prefix "k/". */
async function sampleRows(dist: typeof import("../src/index"), rows: number): Promise<Record<string, unknown>[]> {
  const sample = dist.frameRecords(await dist.loadDataset(path.join(__dirname, "..", "data", "qa-models.csv")));
  return Array.from({ length: rows }, (_, i) => {
    const row = sample[i % sample.length]!;
    return { ...row, id: `${Math.floor(i / sample.length)}/${String(row["id"])}` };
  });
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 100_000);
  const at = process.argv.indexOf("--threads");
  const threads = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const shape = process.argv.includes("--data") ? process.argv[process.argv.indexOf("--data") + 1] : "synthetic";
  const dist = require(path.join(__dirname, "..", "dist", "index.js")) as typeof import("../src/index");
  const data = shape === "sample" ? await sampleRows(dist, rows) : qaRows(Math.ceil(rows / 5), 5).slice(0, rows);
  const judge = dist.createJudge({ judge: "offline", quiet: true, ...(threads === undefined ? {} : { threads }) });
  const t = performance.now();
  const cpu = process.cpuUsage();
  const scored = await dist.scoreAnswerCorrectness(data as unknown as Record<string, unknown>[], { judge, progress: false, quiet: true });
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const failed = dist.frameRecords(scored).filter((r) => r["answer_correctness_error"] !== "").length;
  console.log(JSON.stringify({ rows: data.length, ms, cpuSeconds: (used.user + used.system) / 1e6, peakMb: resourceUsage().maxRSS / 1024, failed }));
}

void main();
