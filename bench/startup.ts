/**
 * Start-up of the command line: `evalframe --help` against `summarize`,
 * `compare` and `chart` on the bundled data scored offline, each a process of
 * its own from dist/, runs interleaved, medians quoted. With
 * EVALFRAME_BENCH_BEFORE=<a dist/ folder of another build> the same commands
 * of that build run in the same loop, for a before/after pair.
 *
 *   npm run build && npm run bench -- --only startup
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && ln -s "$PWD/../<repo>/node_modules" . && npx tsc -p .)
 *   EVALFRAME_BENCH_BEFORE=/tmp/before/dist npm run bench -- --only startup
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { figure, round, withTempDir, type BenchFigure, type BenchResult } from "./support";

const RUNS = 7;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Wall time of one process, in seconds. */
function timed(cli: string, args: string[], cwd: string): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, [cli, ...args], { cwd, stdio: "ignore" });
  if (run.status !== 0) throw new Error(`${path.basename(cli)} ${args.join(" ")} exited with ${run.status}`);
  return (performance.now() - start) / 1000;
}

/** Runs the start-up benchmark. */
export async function benchStartup(): Promise<BenchResult> {
  const figures: BenchFigure[] = [];
  const notes: string[] = [];
  const cli = path.join(__dirname, "..", "dist", "cli.js");
  if (!existsSync(cli)) return { name: "startup", figures, notes: ["startup: skipped, dist/ is missing (run npm run build first)"] };
  const before = process.env["EVALFRAME_BENCH_BEFORE"];
  const builds: [string, string][] = [["", cli]];
  if (before) builds.push([" (before)", path.join(before, "cli.js")]);
  await withTempDir(async (dir) => {
    const scored = path.join(dir, "scored.csv");
    const sample = path.join(__dirname, "..", "data", "qa-models.csv");
    spawnSync(process.execPath, [cli, "score", sample, "--judge", "offline", "--out", scored, "--no-progress"], { stdio: "ignore" });
    const commands: [string, string[]][] = [
      ["--help", ["--help"]],
      ["summarize", ["summarize", scored]],
      ["compare", ["compare", scored]],
      ["chart", ["chart", scored, "--kind", "box", "--out", path.join(dir, "box.png")]],
    ];
    const times = new Map<string, number[]>();
    for (let i = 0; i < RUNS; i++) {
      for (const [label, file] of builds) {
        for (const [name, args] of commands) {
          const key = `${name}${label}`;
          times.set(key, [...(times.get(key) ?? []), timed(file, args, dir)]);
        }
      }
    }
    for (const [label] of builds) {
      const help = median(times.get(`--help${label}`)!);
      figures.push(figure(`evalframe --help${label}, wall time`, round(help, 2), "s"));
      for (const [name, target] of [["summarize", 0.5], ["compare", 0.5], ["chart", 1]] as const) {
        const t = median(times.get(`${name}${label}`)!);
        const over = t - help;
        figures.push(figure(`evalframe ${name}${label}, wall time (beyond --help)`, `${round(t, 2)} (+${round(over, 2)})`, "s", label === "" ? `+< ${target} s` : undefined, label === "" ? over < target : undefined));
      }
    }
    notes.push(`startup: medians of ${RUNS} runs each, interleaved; summarize/compare/chart of data/qa-models.csv scored offline (126 rows), chart a PNG box plot.`);
  });
  return { name: "startup", figures, notes };
}
