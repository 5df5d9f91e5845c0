/** The bundled sample, cut down for tests whose point is not its size. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { formatCsv } from "../../src/dataset/export";
import { writeText } from "./files";

const SAMPLE_JSONL = path.join(__dirname, "..", "..", "data", "qa-models.jsonl");

/**
 * The rows of the sample's first `questions` questions, each with every
 * model's answer (data/qa-models.jsonl, the source of qa-models.csv).
 *
 * @example
 * sampleHeadRows(4).length // 12: 4 questions × 3 models
 */
export function sampleHeadRows(questions: number): Record<string, unknown>[] {
  const rows = readFileSync(SAMPLE_JSONL, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const ids = new Set([...new Set(rows.map((r) => r["id"]))].slice(0, questions));
  return rows.filter((r) => ids.has(r["id"]));
}

/** {@link sampleHeadRows} written as CSV to `name` in `dir`; returns its path. */
export function writeSampleHead(dir: string, questions: number, name = "qa-models.csv"): string {
  return writeText(dir, name, formatCsv(sampleHeadRows(questions)));
}
