/**
 * Rate limits: the server enforces a budget of requests and of tokens per
 * window (refilled continuously, as OpenAI's are) and sends x-ratelimit-*
 * headers and 429 + retry-after. We score rows against it and report the
 * throughput the server admitted as a share of the most it would have
 * admitted in that time, and the share of requests answered 429.
 */
import type { RateLimitOptions } from "../test/support/fake-openai";
import { qaRows, type QaRow } from "./data";
import { startServerProcess, type ServerProcess, type ServerStats } from "./server-worker";
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
    const run = await scoreAgainst(server, rows, concurrency);
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
  await retryAfterOnly(figures, notes, latencyMs, concurrency);
  await busyGateway(figures, notes, latencyMs, concurrency);
  return { name: "ratelimit", figures, notes };
}

/** Scores `rows` against a server process (fresh cache), then stops it: wall time, rows failed, the server's counts. */
async function scoreAgainst(server: ServerProcess, rows: readonly QaRow[], concurrency: number): Promise<{ ms: number; failed: number; stats: ServerStats }> {
  return withTempDir(async (dir) => {
    try {
      const { scored, ms } = await scoreRows(rows, benchJudge(server.url, { cacheDir: dir, concurrency }));
      const failed = (scored.column("answer_correctness_error").values as string[]).filter((e) => e !== "").length;
      return { ms, failed, stats: await server.stats() };
    } finally {
      await server.stop();
    }
  });
}

/**
 * No limit, but a gateway that answers a share of requests 429 with a 1 s
 * `retry-after-ms` at random, whatever the rate: slowing down cannot help,
 * so the run should take about as long as without refusals plus the seconds
 * its refused requests wait (each stage waits for its last, which may be
 * refused twice or three times); a run paced at one request per Retry-After
 * would take one second per request. Once with no refusals for the
 * yardstick, then with one in ten (target: at most 10 s more) and one in
 * five refused.
 */
async function busyGateway(figures: BenchFigure[], notes: string[], latencyMs: number, concurrency: number): Promise<void> {
  const rows = qaRows(100, 3, 400);
  let freeMs = 0;
  for (const share of [0, 0.1, 0.2]) {
    const server = await startServerProcess({ latencyMs, ...(share > 0 ? { refuse: { share, retryAfterMs: 1000, seed: 7 } } : {}) });
    const run = await scoreAgainst(server, rows, concurrency);
    if (share === 0) {
      freeMs = run.ms;
      notes.push(`busy gateway: without refusals, ${rows.length} rows, ${run.stats.requests} requests, wall ${round(run.ms / 1000, 1)} s.`);
      continue;
    }
    const refused = run.stats.requests - run.stats.ok;
    // A refused request waits its second and may be refused again; each stage of the run waits for its last one.
    const extra = (run.ms - freeMs) / 1000;
    const tag = `busy gateway, ${Math.round(share * 100)}% refused at random (retry-after 1 s)`;
    figures.push(
      figure(`${tag}: rows failed`, run.failed, "", "0", run.failed === 0),
      share <= 0.1
        ? figure(`${tag}: wall time beyond the run without refusals`, round(extra, 1), "s", "≤ 10 s", extra <= 10)
        : figure(`${tag}: wall time beyond the run without refusals`, round(extra, 1), "s"),
    );
    notes.push(
      `${tag}: ${rows.length} rows, ${run.stats.requests} requests (${refused} answered 429); wall ${round(run.ms / 1000, 1)} s against ${round(freeMs / 1000, 1)} s without refusals; ${run.failed} rows failed.`,
    );
  }
}

/**
 * 120 requests a minute, with no x-ratelimit-* headers and only `retry-after`
 * in whole seconds on a 429 (as many gateways send): once as a bucket that
 * refills continuously, once as a fixed window that gives the whole budget
 * back each minute. The pace is learned from the 429s. Ideal time: for the
 * bucket, the requests beyond the first minute's budget at 2 a second; for
 * the window, the start of the last window a request needs.
 */
async function retryAfterOnly(figures: BenchFigure[], notes: string[], latencyMs: number, concurrency: number): Promise<void> {
  const perMinute = 120;
  for (const refill of ["bucket", "window"] as const) {
    const rows = qaRows(40, 3, 400);
    const rateLimit: RateLimitOptions = { requestsPerWindow: perMinute, tokensPerWindow: 100_000_000, windowMs: 60_000, headers: false, refill };
    const server = await startServerProcess({ latencyMs, rateLimit });
    const run = await scoreAgainst(server, rows, concurrency);
    const { stats } = run;
    const admitted = stats.rateLimit.admitted;
    const idealMs =
      refill === "bucket" ? (Math.max(0, admitted - perMinute) * 60_000) / perMinute : Math.floor(Math.max(0, admitted - 1) / perMinute) * 60_000;
    const ratio = run.ms / Math.max(1, idealMs + latencyMs);
    const limitedShare = (100 * stats.rateLimit.limited) / Math.max(1, stats.requests);
    const tag = `Retry-After only, ${perMinute} RPM ${refill === "bucket" ? "bucket" : "fixed window"}`;
    figures.push(
      figure(`${tag}: rows failed`, run.failed, "", "0", run.failed === 0),
      figure(`${tag}: requests answered 429`, round(limitedShare, 1), "%", "< 20%", limitedShare < 20),
      figure(`${tag}: wall time / ideal at the limit`, round(ratio, 2), "×", "≤ 1.3", ratio <= 1.3),
    );
    notes.push(
      `${tag}: ${rows.length} rows, ${stats.requests} requests (${admitted} admitted, ${stats.rateLimit.limited} answered 429); ` +
        `wall ${round(run.ms / 1000, 1)} s, ideal ${round(idealMs / 1000, 1)} s; ${run.failed} rows failed.`,
    );
  }
}
