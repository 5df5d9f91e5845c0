/**
 * Rate limits: the server enforces a budget of requests and of tokens per
 * window (refilled continuously, as OpenAI's are) and sends x-ratelimit-*
 * headers and 429 + retry-after. We score rows against it and report the
 * throughput the server admitted as a share of the most it would have
 * admitted in that time, and the share of requests answered 429.
 */
import { performance } from "node:perf_hooks";
import type { RateLimitOptions } from "../test/support/fake-openai";
import { qaRows } from "./data";
import { startServerProcess } from "./server-worker";
import { benchJudge, figure, round, scoreRows, withTempDir, type BenchFigure, type BenchResult } from "./support";

interface Scenario {
  name: string;
  /** Which budget binds. */
  binding: "requests" | "tokens";
  rateLimit: RateLimitOptions;
  questions: number;
  models: number;
}

const WINDOW_MS = 10_000;
/** A per-minute figure from a per-window one. */
const perMinute = (perWindow: number): number => (perWindow * 60_000) / WINDOW_MS;

/** Runs each scenario: latency 100 ms, concurrency 16 (the default), cache on. */
export async function benchRateLimit(options: { latencyMs?: number; concurrency?: number } = {}): Promise<BenchResult> {
  const latencyMs = options.latencyMs ?? 100;
  const concurrency = options.concurrency ?? 16;
  const scenarios: Scenario[] = [
    {
      name: "requests-bound",
      binding: "requests",
      rateLimit: { requestsPerWindow: 200, tokensPerWindow: 100_000_000, windowMs: WINDOW_MS },
      questions: 100,
      models: 5,
    },
    {
      name: "tokens-bound",
      binding: "tokens",
      rateLimit: { requestsPerWindow: 100_000, tokensPerWindow: 150_000, windowMs: WINDOW_MS },
      questions: 100,
      models: 5,
    },
  ];
  const figures: BenchFigure[] = [];
  const notes: string[] = [];
  for (const s of scenarios) {
    const rows = qaRows(s.questions, s.models, 400);
    const server = await startServerProcess({ latencyMs, rateLimit: s.rateLimit });
    const run = await withTempDir(async (dir) => {
      try {
        const t = performance.now();
        const { scored, usage } = await scoreRows(rows, benchJudge(server.url, { cacheDir: dir, concurrency }));
        const ms = performance.now() - t;
        const failed = (scored.column("answer_correctness_error").values as string[]).filter((e) => e !== "").length;
        return { ms, usage, failed, stats: await server.stats() };
      } finally {
        await server.stop();
      }
    });
    const { stats } = run;
    const first = stats.arrivals[0] ?? 0;
    const last = stats.arrivals[stats.arrivals.length - 1] ?? first;
    const span = Math.max(1, last - first);
    const limit = s.binding === "requests" ? s.rateLimit.requestsPerWindow : s.rateLimit.tokensPerWindow;
    const used = s.binding === "requests" ? stats.rateLimit.admitted : stats.rateLimit.tokens;
    // The most the server admits in `span`: one full budget at the start plus the refill.
    const most = limit + (limit * span) / s.rateLimit.windowMs;
    const share = (100 * used) / most;
    const achievedPerMinute = (used * 60_000) / span;
    const limitedShare = (100 * stats.rateLimit.limited) / Math.max(1, stats.requests);
    const unit = s.binding === "requests" ? "RPM" : "TPM";
    const tag = `${s.name} (${perMinute(limit).toLocaleString("en-US")} ${unit})`;
    figures.push(
      figure(`${tag}: share of the most the server admits`, round(share, 1), "%", "≥ 90%", share >= 90),
      figure(`${tag}: achieved ${unit} (incl. the first full budget)`, round(achievedPerMinute), unit),
      figure(`${tag}: requests answered 429`, round(limitedShare, 2), "%", "< 1%", limitedShare < 1),
    );
    notes.push(
      `${tag}: ${rows.length} rows, ${stats.requests} requests (${stats.rateLimit.admitted} admitted, ${stats.rateLimit.limited} answered 429), ` +
        `${stats.rateLimit.tokens.toLocaleString("en-US")} tokens, requests arriving over ${round(span / 1000, 1)} s; ` +
        `wall ${round(run.ms / 1000, 1)} s; ${run.failed} rows failed; budget ${limit.toLocaleString("en-US")} ${s.binding} per ${s.rateLimit.windowMs / 1000} s.`,
    );
  }
  notes.push(
    "ratelimit: share = admitted (requests or tokens) / (one window's budget + the refill over the time requests were arriving): 100% means no budget was left unused.",
  );
  return { name: "ratelimit", figures, notes };
}
