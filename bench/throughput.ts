/**
 * Throughput: 2,000 rows scored against a server that answers every request
 * after a fixed latency, at several concurrency limits. The ideal wall time
 * is (HTTP requests × latency) / concurrency; efficiency = ideal / actual.
 * The server runs in a process of its own; the judge has its defaults
 * (disk cache on, in a fresh folder) apart from the concurrency.
 */
import { performance } from "node:perf_hooks";
import { qaRows } from "./data";
import { startServerProcess } from "./server-worker";
import { benchJudge, figure, round, scoreRows, withTempDir, type BenchResult } from "./support";

/** Wall time against the ideal for each concurrency. */
export async function benchThroughput(options: { questions?: number; models?: number; latencyMs?: number; concurrency?: number[] } = {}): Promise<BenchResult> {
  const questions = options.questions ?? 400;
  const models = options.models ?? 5;
  const latencyMs = options.latencyMs ?? 200;
  const levels = options.concurrency ?? [8, 32, 64];
  const rows = qaRows(questions, models, 200);
  const figures = [];
  const notes: string[] = [];
  for (const concurrency of levels) {
    const server = await startServerProcess({ latencyMs });
    const run = await withTempDir(async (dir) => {
      try {
        const cpu = process.cpuUsage();
        const t = performance.now();
        const { scored } = await scoreRows(rows, benchJudge(server.url, { cacheDir: dir, concurrency }));
        const ms = performance.now() - t;
        const used = process.cpuUsage(cpu);
        const stats = await server.stats();
        const failed = (scored.column("answer_correctness_error").values as string[]).filter((e) => e !== "").length;
        return { ms, requests: stats.requests, maxInFlight: stats.maxInFlight, failed, cpuMs: (used.user + used.system) / 1000 };
      } finally {
        await server.stop();
      }
    });
    const ideal = (run.requests * latencyMs) / concurrency;
    const efficiency = (100 * ideal) / run.ms;
    const tag = `${rows.length} rows, ${latencyMs} ms, concurrency ${concurrency}`;
    figures.push(
      figure(`${tag}: wall time`, round(run.ms), "ms"),
      figure(`${tag}: ideal (${run.requests} req × ${latencyMs} ms / ${concurrency})`, round(ideal), "ms"),
      figure(`${tag}: efficiency`, round(efficiency, 1), "%", "≥ 85% (within 15% of ideal)", efficiency >= 85),
    );
    notes.push(
      `throughput concurrency ${concurrency}: ${run.requests} HTTP requests, at most ${run.maxInFlight} in flight at the server, ` +
        `${run.failed} rows failed, ${round(run.cpuMs)} ms CPU in the scoring process (the server runs in another).`,
    );
  }
  notes.push("throughput: answer correctness with the scripted judge, disk cache on (a fresh folder each run), the server in a process of its own.");
  return { name: "throughput", figures, notes };
}
