/**
 * One analysis operation on a large scored table, in a process of its own so
 * that its memory is its own: builds the DataFrame (not timed), then times
 * the operation while a worker thread samples the process's RSS every 2 ms.
 * Prints one JSON line (see {@link ScaleOpResult}).
 *
 *   node --import tsx bench/scale-worker.ts summarize|compareModels|danfo-groupby ROWS
 */
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { compareModels, summarize, toDataFrame } from "../src/index";
import { scoredColumns } from "./data";

/** The operations the worker runs. */
export const SCALE_OPS = ["summarize", "compareModels", "danfo-groupby"] as const;
export type ScaleOp = (typeof SCALE_OPS)[number];

/** What the worker prints. */
export interface ScaleOpResult {
  op: ScaleOp;
  rows: number;
  /** Time of the operation alone. */
  ms: number;
  /** Time to build the DataFrame (not part of `ms`). */
  buildMs: number;
  /** RSS just before the operation, MB. */
  rssBeforeMB: number;
  /** Highest RSS sampled during the operation minus rssBefore, MB. */
  peakDeltaMB: number;
  /** process.resourceUsage().maxRSS at the end, MB (the whole process: runtime, input and operation). */
  maxRssMB: number;
  /** Per-model means the operation gave, in model order (NaN when it gave NaN). */
  means: number[];
}

/** Starts a thread that keeps the highest RSS it sees in a shared array. */
function rssSampler(): { peak: () => number; stop: () => Promise<number> } {
  const shared = new Float64Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require("node:worker_threads");
     const peak = new Float64Array(workerData);
     setInterval(() => { const r = process.memoryUsage.rss(); if (r > peak[0]) peak[0] = r; }, 2);`,
    { eval: true, workerData: shared.buffer },
  );
  return { peak: () => shared[0]!, stop: async () => (await worker.terminate(), shared[0]!) };
}

function numbers(values: unknown[]): number[] {
  return values.map((v) => (typeof v === "number" ? v : Number.NaN));
}

async function main(): Promise<void> {
  const op = process.argv[2] as ScaleOp;
  const rows = Number(process.argv[3]);
  if (!SCALE_OPS.includes(op) || !Number.isInteger(rows) || rows < 2) throw new Error(`usage: scale-worker ${SCALE_OPS.join("|")} ROWS`);
  let t = performance.now();
  const df = toDataFrame(scoredColumns(rows) as unknown as Record<string, unknown[]>);
  const buildMs = performance.now() - t;
  (globalThis as { gc?: () => void }).gc?.();
  const sampler = rssSampler();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = process.memoryUsage.rss();
  t = performance.now();
  let means: number[];
  if (op === "summarize") {
    const s = summarize(df, { by: "model" });
    means = numbers(s.column("mean").values as unknown[]);
  } else if (op === "compareModels") {
    const c = compareModels(df);
    const a = numbers(c.column("mean_a").values as unknown[]);
    means = [a[0]!, ...numbers(c.column("mean_b").values as unknown[]).slice(0, 4)];
  } else {
    const g = df.groupby(["model"]).col(["answer_correctness"]).mean();
    means = numbers(g.column("answer_correctness_mean").values as unknown[]);
  }
  const ms = performance.now() - t;
  await new Promise((resolve) => setTimeout(resolve, 10));
  const peak = Math.max(await sampler.stop(), process.memoryUsage.rss());
  const result: ScaleOpResult = {
    op,
    rows,
    ms,
    buildMs,
    rssBeforeMB: before / 1e6,
    peakDeltaMB: Math.max(0, peak - before) / 1e6,
    maxRssMB: process.resourceUsage().maxRSS / 1e3,
    means,
  };
  console.log(JSON.stringify(result));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
