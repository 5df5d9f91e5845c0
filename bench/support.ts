/**
 * Shared pieces of the benchmarks: figures and results, the fake server,
 * temporary folders, a judge for the fake server, and scoring rows with
 * answer correctness. Benchmarks are dev-only and may use test/support/.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { DataFrame } from "danfojs-node";
import { createJudge, scoreAnswerCorrectness, scoreRun, type AnswerCorrectnessOptions, type Judge, type JudgeOptions, type UsageSummary } from "../src/index";
import { FakeOpenAI, type FakeOpenAIOptions } from "../test/support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "../test/support/scripted-judge";
import type { BenchFigure } from "./csv";
import type { QaRow } from "./data";

export type { BenchFigure } from "./csv";

/** What one benchmark returns: its figures and notes for the printout. */
export interface BenchResult {
  /** The name `--only` selects, e.g. "work". */
  name: string;
  figures: BenchFigure[];
  /** Lines printed under the table (how the figures were made, what was checked). */
  notes: string[];
}

/** A figure with a target and whether it is met. */
export function figure(name: string, value: number | string, unit: string, target?: string, met?: boolean): BenchFigure {
  const f: BenchFigure = { name, value, unit };
  if (target !== undefined) f.target = target;
  if (met !== undefined) f.met = met;
  return f;
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 0): number {
  const k = 10 ** digits;
  return Math.round(value * k) / k;
}

/** The API key the benchmarks send to the fake server (it checks none). */
export const BENCH_KEY = "sk-bench-000000000000";

/** Server options of the scripted answer-correctness judge. */
export function scriptedServer(extra: FakeOpenAIOptions = {}): FakeOpenAIOptions {
  return { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, ...extra };
}

/** Runs `f` with a started fake server (127.0.0.1) and stops it afterwards. */
export async function withServer<T>(options: FakeOpenAIOptions, f: (server: FakeOpenAI, url: string) => Promise<T>): Promise<T> {
  const server = new FakeOpenAI(options);
  const url = await server.start();
  try {
    return await f(server, url);
  } finally {
    await server.stop();
  }
}

/** Runs `f` with a fresh temporary folder and removes it afterwards. */
export async function withTempDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "evalframe-bench-"));
  try {
    return await f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A judge for the fake server at `url`. */
export function benchJudge(url: string, options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: BENCH_KEY, baseURL: url, quiet: true, ...options });
}

/** A scored run: the frame, its usage, and its wall time. */
export interface ScoredRun {
  scored: DataFrame;
  usage: UsageSummary;
  ms: number;
}

/** Scores `rows` with answer correctness (default weights unless `metric` says otherwise) and times it. */
export async function scoreRows(rows: readonly QaRow[], judge: Judge, metric: AnswerCorrectnessOptions = {}): Promise<ScoredRun> {
  const t = performance.now();
  const scored = await scoreAnswerCorrectness(rows as unknown as Record<string, unknown>[], { judge, progress: false, quiet: true, ...metric });
  const ms = performance.now() - t;
  const run = scoreRun(scored);
  if (!run) throw new Error("scoreRun returned nothing for a frame score() made");
  return { scored, usage: run.usage, ms };
}

/** Unique texts a run embeds (an empty text is embedded as one space). */
export function uniqueEmbeddingTexts(rows: readonly QaRow[]): number {
  const texts = new Set<string>();
  for (const r of rows) {
    texts.add(r.response === "" ? " " : r.response);
    texts.add(r.reference === "" ? " " : r.reference);
  }
  return texts.size;
}

/** Paid calls: HTTP requests the server answered 200 (chat and embeddings). */
export function paidCalls(server: FakeOpenAI): number {
  const u = server.totalUsage();
  return u.chatResponses + u.embeddingResponses;
}
