/**
 * Runs the benchmarks, prints one table of their figures (with targets and
 * whether each is met) and their notes, and writes bench/results.json.
 *
 *   npm run bench                      every benchmark
 *   npm run bench -- --only soak       one (or several: --only work,scale)
 *
 * Benchmarks print figures; none asserts a time. Their servers listen on
 * 127.0.0.1 and stop with them.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { benchCost } from "./cost";
import { benchCsv } from "./csv";
import { benchOffline } from "./offline";
import { benchProgress } from "./progress";
import { benchRateLimit } from "./ratelimit";
import { benchScale } from "./scale";
import { benchStream } from "./stream";
import { benchSoak } from "./soak";
import { benchStartup } from "./startup";
import type { BenchFigure, BenchResult } from "./support";
import { benchThroughput } from "./throughput";
import { benchWork } from "./work";

const BENCHMARKS: Record<string, () => Promise<BenchResult>> = {
  work: benchWork,
  cost: () => benchCost(),
  throughput: () => benchThroughput(),
  ratelimit: () => benchRateLimit(),
  soak: () => benchSoak(),
  scale: () => benchScale(),
  stream: () => benchStream(),
  csv: async () => ({ name: "csv", figures: await benchCsv(), notes: [] }),
  offline: () => benchOffline(),
  progress: () => benchProgress(),
  startup: () => benchStartup(),
};

interface Ran extends BenchResult {
  ms: number;
  ranAt: string;
  /** The machine it ran on: results.json keeps each benchmark's latest run, and runs with --only may be on different machines. */
  machine: string;
}

function parseOnly(argv: readonly string[]): string[] {
  const i = argv.findIndex((a) => a === "--only" || a.startsWith("--only="));
  if (i < 0) return Object.keys(BENCHMARKS);
  const value = argv[i]!.includes("=") ? argv[i]!.slice("--only=".length) : argv[i + 1];
  const names = (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes one or more of ${Object.keys(BENCHMARKS).join(", ")} (comma-separated); got ${JSON.stringify(value ?? "")}`);
  }
  return names;
}

function formatValue(value: number | string): string {
  return typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 4 }) : value;
}

/** The figures as a plain-text table. */
function table(results: readonly Ran[]): string {
  const rows: string[][] = [["benchmark", "figure", "value", "unit", "target", "met"]];
  for (const r of results) {
    for (const f of r.figures as BenchFigure[]) {
      rows.push([r.name, f.name, formatValue(f.value), f.unit, f.target ?? "", f.met === undefined ? "" : f.met ? "yes" : "NO"]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => [...row[c]!].length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => (c === 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd();
  const out = [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  ")];
  let last = "";
  for (const row of rows.slice(1)) {
    if (row[0] !== last && last !== "") out.push("");
    last = row[0]!;
    out.push(line(row));
  }
  return out.join("\n");
}

async function main(): Promise<void> {
  const names = parseOnly(process.argv.slice(2));
  const started = performance.now();
  // Other processes share the machine: keep the highest 1-minute load average seen, to print with the times.
  let maxLoad = loadavg()[0]!;
  const loadTimer = setInterval(() => (maxLoad = Math.max(maxLoad, loadavg()[0]!)), 5000);
  loadTimer.unref();
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const ran: Ran[] = [];
  for (const name of names) {
    const t = performance.now();
    console.error(`bench: ${name}…`);
    const result = await BENCHMARKS[name]!();
    const ms = performance.now() - t;
    ran.push({ ...result, ms, ranAt: new Date().toISOString(), machine });
    console.error(`bench: ${name} done in ${(ms / 1000).toFixed(1)} s`);
  }
  const totalMs = performance.now() - started;
  clearInterval(loadTimer);
  maxLoad = Math.max(maxLoad, loadavg()[0]!);

  console.log(table(ran));
  console.log("");
  for (const r of ran) for (const note of r.notes) console.log(`- ${note}`);
  console.log("");
  for (const r of ran) console.log(`${r.name}: ${(r.ms / 1000).toFixed(1)} s`);
  console.log(`total: ${(totalMs / 1000).toFixed(1)} s on ${machine}, finished ${new Date().toISOString()}`);
  console.log(`highest 1-minute load average during the run: ${maxLoad.toFixed(2)} (${cpus().length} cores; it counts the benchmarks' own processes, up to about 2, and any others)`);
  const missed = ran.flatMap((r) => r.figures.filter((f) => f.met === false).map((f) => f.name));
  console.log(missed.length === 0 ? "targets: all met" : `targets not met: ${missed.join("; ")}`);

  // bench/results.json keeps the latest result of each benchmark (a run with --only replaces only its own).
  const file = path.join(__dirname, "results.json");
  let saved: { results?: Record<string, Ran> } = {};
  if (existsSync(file)) {
    try {
      saved = JSON.parse(readFileSync(file, "utf8")) as typeof saved;
    } catch {
      saved = {};
    }
  }
  const results = { ...(saved.results ?? {}) };
  for (const r of ran) results[r.name] = r;
  writeFileSync(file, `${JSON.stringify({ updated: new Date().toISOString(), machine, lastRunMs: totalMs, maxLoad, results }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
