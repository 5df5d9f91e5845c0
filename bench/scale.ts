/**
 * Scale: a fully cached rerun of 10,000 rows (a new judge reading the disk
 * cache the first run wrote), and `summarize` / `compareModels` on 100,000
 * and 1,000,000 scored rows next to danfojs' own groupby mean on the same
 * DataFrame, each in a process of its own (time and memory).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { DiskCache } from "../src/judge/cache";
import { qaRows } from "./data";
import { SCALE_OPS, type ScaleOp, type ScaleOpResult } from "./scale-worker";
import { startServerProcess } from "./server-worker";
import { benchJudge, figure, round, scoreRows, withTempDir, type BenchFigure, type BenchResult } from "./support";

/** Runs one analysis operation in a child process. */
function runOp(op: ScaleOp, rows: number): Promise<ScaleOpResult> {
  const worker = path.join(__dirname, "scale-worker.ts");
  const child = spawn(process.execPath, ["--expose-gc", "--max-old-space-size=8192", "--import", "tsx", worker, op, String(rows)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`scale-worker ${op} ${rows} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split("\n").pop()!) as ScaleOpResult);
    }),
  );
}

/** Every cache entry file under `dir`. */
function cacheFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")).map((f) => path.join(dir, f));
}

async function cachedRerun(figures: BenchFigure[], notes: string[]): Promise<void> {
  const rows = qaRows(2000, 5, 600);
  const server = await startServerProcess({});
  try {
    await withTempDir(async (dir) => {
      const first = await scoreRows(rows, benchJudge(server.url, { cacheDir: dir, concurrency: 64 }));
      const firstStats = await server.stats();
      await server.reset();
      const rerun = await scoreRows(rows, benchJudge(server.url, { cacheDir: dir, concurrency: 64 }));
      const sent = (await server.stats()).requests;
      const u = rerun.usage;
      figures.push(
        figure("cache: fully cached rerun of 10,000 rows", round(rerun.ms), "ms", "< 2,000 ms", rerun.ms < 2000),
        figure("cache: HTTP requests on that rerun", sent, "requests", "= 0", sent === 0),
      );
      // Why the rerun takes what it takes: reading the entries one file each.
      const files = cacheFiles(dir);
      const keys = files.map((f) => path.basename(f, ".json"));
      const cache = new DiskCache(dir);
      let t = performance.now();
      await Promise.all(keys.map((k) => cache.get(k)));
      const getMs = performance.now() - t;
      t = performance.now();
      for (const f of files) readFileSync(f, "utf8");
      const syncMs = performance.now() - t;
      figures.push(
        figure(`cache: DiskCache.get of all ${files.length.toLocaleString("en-US")} entries (as a rerun reads them)`, round(getMs), "ms"),
        figure(`cache: the same files read with readFileSync, for comparison`, round(syncMs), "ms"),
      );
      notes.push(
        `cache: first run (server latency 0, concurrency 64, server in its own process) ${round(first.ms)} ms for ${firstStats.requests} requests; ` +
          `rerun: ${u.chatCalls} chat calls (${u.chatCacheHits} cached), ${u.embeddingTexts} texts to embed (${u.embeddingCacheHits} cached), ${u.chatHttpRequests + u.embeddingHttpRequests} HTTP requests.`,
      );
    });
  } finally {
    await server.stop();
  }
}

/** Runs the scale benchmarks. */
export async function benchScale(options: { sizes?: number[] } = {}): Promise<BenchResult> {
  const figures: BenchFigure[] = [];
  const notes: string[] = [];
  await cachedRerun(figures, notes);
  for (const rows of options.sizes ?? [100_000, 1_000_000]) {
    const tag = `${rows.toLocaleString("en-US")} rows`;
    const results = new Map<ScaleOp, ScaleOpResult>();
    for (const op of SCALE_OPS) results.set(op, await runOp(op, rows));
    for (const op of SCALE_OPS) {
      const r = results.get(op)!;
      const name = op === "danfo-groupby" ? "danfojs groupby().col().mean()" : `${op}()`;
      const target = rows === 100_000 && op !== "danfo-groupby" ? "< 2,000 ms" : undefined;
      figures.push(
        figure(`analysis ${tag}: ${name} time`, round(r.ms), "ms", target, target === undefined ? undefined : r.ms < 2000),
        figure(`analysis ${tag}: ${name} peak RSS above its start / process maxRSS`, `${round(r.peakDeltaMB)} / ${round(r.maxRssMB)}`, "MB"),
      );
    }
    const ours = results.get("summarize")!;
    const danfo = results.get("danfo-groupby")!;
    const nanGroups = danfo.means.filter((m) => m === null || Number.isNaN(m)).length;
    notes.push(
      `analysis ${tag}: 5 models, about 1% failed rows (NaN with a reason); DataFrame built in ${round(ours.buildMs)} ms (not timed), ` +
        `${round(ours.rssBeforeMB)} MB RSS before each operation. summarize/compareModels use the default 2,000 bootstrap replicates. ` +
        `danfojs' mean: ${nanGroups} of ${danfo.means.length} groups NaN (it does not skip failed rows); ours: ${ours.means.map((m) => round(m, 3)).join(", ")}.`,
    );
  }
  notes.push("analysis: each operation runs in its own process; peak RSS is sampled every 2 ms by a thread while it runs.");
  return { name: "scale", figures, notes };
}
