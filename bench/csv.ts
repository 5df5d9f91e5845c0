/**
 * CSV throughput: write and read back a 100,000-row scored table (text with
 * commas, quotes, line breaks, Korean and formula-like cells; NaN scores).
 * Prints its figures; asserts no time.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { loadDataset, toCSV, toDataFrame } from "../src/index";

/** One figure of a benchmark. */
export interface BenchFigure {
  name: string;
  /** A number, or text such as "12 / 30" when two figures go together. */
  value: number | string;
  unit: string;
  /** The target it is held to, in words (e.g. "< 2,000 ms"), when there is one. */
  target?: string;
  /** Whether the target is met. */
  met?: boolean;
}

/** Runs the CSV benchmark on `rows` rows and returns its figures. */
export async function benchCsv(rows = 100_000): Promise<BenchFigure[]> {
  const texts = ["Paris, France", 'He said "yes"', "line one\nline two", "세종대왕 1443", "=SUM(A1:A3)", "-40 degrees"];
  const records = Array.from({ length: rows }, (_, i) => ({
    id: `q${i % 1000}`,
    model: `model-${Math.floor(i / 1000)}`,
    user_input: `Question ${i}?`,
    response: texts[i % texts.length],
    reference: texts[(i + 1) % texts.length],
    answer_correctness: i % 17 === 0 ? Number.NaN : (i % 100) / 100,
  }));
  const dir = mkdtempSync(path.join(tmpdir(), "evalframe-bench-"));
  try {
    const file = path.join(dir, "scored.csv");
    const df = toDataFrame(records);
    let t = performance.now();
    await toCSV(df, file);
    const writeMs = performance.now() - t;
    t = performance.now();
    const back = await loadDataset(file, { warn: false });
    const readMs = performance.now() - t;
    if (back.shape[0] !== rows) throw new Error(`read back ${back.shape[0]} rows, wrote ${rows}`);
    const mb = statSync(file).size / 1e6;
    return [
      { name: `toCSV ${rows.toLocaleString("en")} rows`, value: Math.round(writeMs), unit: "ms" },
      { name: `loadDataset ${rows.toLocaleString("en")} rows`, value: Math.round(readMs), unit: "ms" },
      { name: "file size", value: Math.round(mb * 10) / 10, unit: "MB" },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
