/**
 * The command line's streamed score at scale: `evalframe score` with the
 * offline judge on data/qa-models.csv repeated to 200,000 rows (70 MB, the
 * size of the file [E] was reported with) and to 1,000,000 rows, each in a
 * process of its own, from dist/ (time, CPU, peak memory); then summarize,
 * compare, diff and report of the 200,000-row scored file, its copies told
 * apart (`stream-worker.ts unique`: each question and reference repeated once
 * per model, every answer its own, as in real data).
 *
 *   npm run build && npm run bench -- --only stream
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import { figure, round, withTempDir, type BenchFigure, type BenchResult } from "./support";

interface ScoreResult {
  code: number;
  rows: number;
  failed: number;
  ms: number;
  cpuSeconds: number;
  peakMb: number;
}

function child(args: string[]): Promise<string> {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "stream-worker.ts"), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => proc.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`stream-worker ${args[0]} exited with ${code}`)))));
}

/**
 * The analysis commands on the scored file, each in a process of its own:
 * the file is read whole, so its peak memory is the figure to watch.
 */
async function analyses(scored: string, dir: string, n: string): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const commands: [string, string[]][] = [
    ["summarize", ["summarize", scored]],
    ["compare", ["compare", scored]],
    ["diff (the file against itself)", ["diff", scored, scored, "--top", "0"]],
    ["report", ["report", scored, "--out", path.join(dir, "report.html")]],
  ];
  for (const [name, args] of commands) {
    const run = JSON.parse((await child(["cli", ...args])).trim().split("\n").pop()!) as { code: number; ms: number; peakMb: number };
    figures.push(
      figure(`${name} of the ${n}-row scored file, wall time (exit ${run.code})`, round(run.ms / 1000, 1), "s"),
      figure(`${name} of the ${n}-row scored file, peak memory`, round(run.peakMb), "MB", "< 1 GB", run.code === 0 && run.peakMb < 1024),
    );
  }
  return figures;
}

/** Runs the streamed-score benchmark. */
export async function benchStream(): Promise<BenchResult> {
  const figures: BenchFigure[] = [];
  const notes: string[] = [];
  if (!existsSync(path.join(__dirname, "..", "dist", "cli", "main.js"))) {
    return { name: "stream", figures, notes: ["stream: skipped, dist/ is missing (run npm run build first)"] };
  }
  for (const rows of [200_000, 1_000_000]) {
    await withTempDir(async (dir) => {
      const input = path.join(dir, "in.csv");
      await child(["write", String(rows), input]);
      const mb = statSync(input).size / 1e6;
      const run = JSON.parse((await child(["score", input, path.join(dir, "out.csv")])).trim().split("\n").pop()!) as ScoreResult;
      const n = rows.toLocaleString("en-US");
      const target = rows === 200_000;
      figures.push(
        figure(`score ${n} rows offline (CLI, streamed), wall time`, round(run.ms / 1000, 1), "s", target ? "< 60 s" : "completes", target ? run.ms < 60_000 : run.code === 0 && run.rows === rows),
        figure(`score ${n} rows offline (CLI, streamed), peak memory`, round(run.peakMb), "MB", target ? "< 1 GB" : undefined, target ? run.peakMb < 1024 : undefined),
        figure(`score ${n} rows offline (CLI, streamed), CPU time`, round(run.cpuSeconds, 1), "s"),
      );
      notes.push(`stream ${n}: ${round(mb, 1)} MB of CSV (data/qa-models.csv repeated, new ids); exit ${run.code}, ${run.rows.toLocaleString("en-US")} rows written, ${run.failed} failed.`);
      if (target) {
        // Analysed with its copies told apart (each question once per model, each answer once), as real data is.
        const unique = path.join(dir, "unique.csv");
        await child(["unique", path.join(dir, "out.csv"), unique]);
        figures.push(...(await analyses(unique, dir, n)));
        notes.push(`stream ${n}: summarize, compare, diff and report read the scored file with each copy's question, reference and answer marked " [k]", so that no two copies' texts are the same.`);
      }
    });
  }
  return { name: "stream", figures, notes };
}
