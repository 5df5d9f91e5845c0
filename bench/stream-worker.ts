/**
 * Child processes of the streamed-score benchmark.
 *
 *   npx tsx bench/stream-worker.ts write N FILE   # data/qa-models.csv repeated to N rows (ids "k/q01"), written as a stream
 *   npx tsx bench/stream-worker.ts score FILE OUT # `evalframe score FILE --out OUT --judge offline` from dist/, in this process
 *   npx tsx bench/stream-worker.ts cli ARGS...    # any `evalframe ARGS...` from dist/, in this process
 *   npx tsx bench/stream-worker.ts unique IN OUT  # a scored file's copies made unique: each copy's question, reference and
 *                                                 # answer end in " [k]" (k: its id's copy number), as real data differs
 *   npx tsx bench/stream-worker.ts revise IN OUT  # a second run of a scored file: every other answer changed (score × 0.9,
 *                                                 # " (revised)" after its text), for diff with many answers to write out
 *
 * `score` and `cli` print one JSON line: wall time, CPU seconds and the
 * process's peak memory (main and worker threads: they share the process).
 */
import { createWriteStream } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { resourceUsage } from "node:process";

const root = path.join(__dirname, "..");
type Dist = typeof import("../src/index");

async function write(rows: number, file: string): Promise<void> {
  const dist = require(path.join(root, "dist", "index.js")) as Dist;
  const sample = dist.frameRecords(await dist.loadDataset(path.join(root, "data", "qa-models.csv")));
  const columns = Object.keys(sample[0]!);
  // Each sample row as CSV once, without its id: the copies differ only in the id, which needs no quoting.
  const tails = sample.map((row) => {
    const text = (require(path.join(root, "dist", "dataset", "index.js")) as typeof import("../src/dataset/index")).formatCsv([{ ...row, id: "x" }], { columns });
    return text.slice(text.indexOf("\n") + 1 + 1).replace(/\n$/, "");
  });
  const out = createWriteStream(file);
  const put = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", () => resolve())));
  await put(`${columns.join(",")}\n`);
  let batch: string[] = [];
  for (let i = 0; i < rows; i++) {
    const k = i % sample.length;
    batch.push(`${Math.floor(i / sample.length)}/${String(sample[k]!["id"])}${tails[k]!}\n`);
    if (batch.length === 5000) {
      await put(batch.join(""));
      batch = [];
    }
  }
  await put(batch.join(""));
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

async function score(file: string, out: string): Promise<void> {
  const { runCli } = require(path.join(root, "dist", "cli", "main.js")) as typeof import("../src/cli/main");
  const t = performance.now();
  const cpu = process.cpuUsage();
  let printed = "";
  const code = await runCli(["score", file, "--out", out, "--judge", "offline", "--no-progress"], { out: (s) => void (printed += s), err: () => undefined });
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const rows = /wrote \S+ \(([\d,]+) rows\)/.exec(printed)?.[1]?.replace(/,/g, "");
  const failed = /answer_correctness: ([\d,]+) of/.exec(printed)?.[1]?.replace(/,/g, "");
  console.log(JSON.stringify({ code, rows: Number(rows), failed: Number(failed), ms, cpuSeconds: (used.user + used.system) / 1e6, peakMb: resourceUsage().maxRSS / 1024 }));
}

async function cli(args: string[]): Promise<void> {
  const { runCli } = require(path.join(root, "dist", "cli", "main.js")) as typeof import("../src/cli/main");
  const t = performance.now();
  const cpu = process.cpuUsage();
  const code = await runCli(args, { out: () => undefined, err: () => undefined });
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ code, ms, cpuSeconds: (used.user + used.system) / 1e6, peakMb: resourceUsage().maxRSS / 1024 }));
}

/** Copies a CSV file, each record's fields changed by `edit` (given the header and the record's number), every field quoted. */
async function rewriteCsv(input: string, output: string, edit: (fields: string[], header: readonly string[], n: number) => void): Promise<void> {
  const { CsvStreamParser } = require(path.join(root, "dist", "dataset", "csv.js")) as typeof import("../src/dataset/csv");
  const { textPieces } = require(path.join(root, "dist", "dataset", "file-text.js")) as typeof import("../src/dataset/file-text");
  const parser = new CsvStreamParser({ delimiter: "," }, input);
  const out = createWriteStream(output);
  const put = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", () => resolve())));
  const quoted = (fields: readonly string[]) => `${fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(",")}\n`;
  let n = 0;
  const write = async (records: readonly { fields: string[] }[]) => {
    const header = parser.header;
    if (header === undefined) return;
    if (n === 0) await put(quoted(header));
    let text = "";
    for (const { fields } of records) {
      edit(fields, header, n++);
      text += quoted(fields);
    }
    await put(text);
  };
  for await (const piece of textPieces(input, {})) await write(parser.push(piece));
  await write(parser.end());
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/**
 * The scored file `input` with each copy of a sample row told apart: " [k]" after its question,
 * reference and answer (k: the copy number its id starts with). Real data repeats a question and
 * its reference once per model, not every answer 1 in 126 rows: the analyses' memory is measured
 * on this file, so that keeping one string per repeated text is not flattered.
 */
function unique(input: string, output: string): Promise<void> {
  return rewriteCsv(input, output, (fields, header) => {
    const copy = fields[header.indexOf("id")]!.split("/")[0];
    for (const name of ["user_input", "response", "reference"]) {
      const j = header.indexOf(name);
      if (j >= 0) fields[j] = `${fields[j]} [${copy}]`;
    }
  });
}

/**
 * A second run of the scored file `input` in which every other answer changed: its score × 0.9
 * and " (revised)" after its text, for `evalframe diff` with many changed answers to write out.
 */
function revise(input: string, output: string): Promise<void> {
  return rewriteCsv(input, output, (fields, header, n) => {
    if (n % 2 !== 0) return;
    const score = header.indexOf("answer_correctness");
    const response = header.indexOf("response");
    fields[score] = String(Math.round(Number(fields[score] || 0) * 0.9 * 1e6) / 1e6);
    fields[response] = `${fields[response]} (revised)`;
  });
}

const [command, a, b] = process.argv.slice(2);
if (command === "write") void write(Number(a), b!);
else if (command === "score") void score(a!, b!);
else if (command === "cli") void cli(process.argv.slice(3));
else if (command === "unique") void unique(a!, b!);
else if (command === "revise") void revise(a!, b!);
else throw new Error("usage: stream-worker.ts write N FILE | score FILE OUT | cli ARGS... | unique IN OUT | revise IN OUT");
