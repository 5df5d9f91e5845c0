/**
 * Rate limits never fail a row ([E] item 1): against a server with a
 * sustained limit, with x-ratelimit-* headers or with Retry-After only, as a
 * continuous bucket or a fixed window, every row is scored and 429s stay
 * few (also when the limit says only retry-after-ms); a server that refuses
 * a share of requests whatever the rate is waited out without slowing the
 * run; a request outlives any number of 429s within its deadline; after the
 * deadline the embedding batch's rows fail with its reason instead of asking
 * one by one. Limits are per 3 s instead of per minute (rateLimitWindowMs
 * says so) to keep the run short; bench/ratelimit.ts runs them per minute.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createJudge, frameRecords, scoreAnswerCorrectness, type JudgeOptions } from "../src/index";
import { qaRows } from "../bench/data";
import { FakeOpenAI, type RateLimitOptions } from "./support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const WINDOW_MS = 3_000;

interface Outcome {
  rows: number;
  failed: string[];
  requests: number;
  limited: number;
  embeddingRequests: number;
  ms: number;
}

async function scoreUnder(rateLimit: RateLimitOptions | undefined, rows: number, options: JudgeOptions = {}, server = new FakeOpenAI()): Promise<Outcome> {
  server.options = { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, latencyMs: 20, ...server.options, ...(rateLimit ? { rateLimit } : {}) };
  const url = await server.start();
  try {
    const judge = createJudge({
      judge: "openai",
      apiKey: "sk-test-rate-0123456789",
      baseURL: url,
      cache: false,
      rateLimitWindowMs: WINDOW_MS,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 200,
      ...options,
    });
    const data = qaRows(Math.ceil(rows / 3), 3, 21).slice(0, rows);
    const t = Date.now();
    const scored = await scoreAnswerCorrectness(data as unknown as Record<string, unknown>[], { judge, progress: false, quiet: true });
    const ms = Date.now() - t;
    const records = frameRecords(scored);
    return {
      rows: records.length,
      failed: records.map((r) => String(r["answer_correctness_error"])).filter((e) => e !== ""),
      requests: server.requests.length,
      limited: server.rateLimitStats().limited,
      embeddingRequests: server.requests.filter((r) => r.path.endsWith("/embeddings")).length,
      ms,
    };
  } finally {
    await server.stop();
  }
}

// The cases run side by side: each has its own server and judge, and most of their time is waiting out the limits.
describe("rate limits", { concurrency: true }, () => {
  it("with Retry-After only (no x-ratelimit-* headers), a sustained limit fails no row and few requests get 429", async () => {
    // 40 requests per 3 s, refilled continuously; the run needs about 3 times that. The requests in
    // flight when the budget runs out are refused whatever the client does: 16 at most, of about 130.
    const out = await scoreUnder({ requestsPerWindow: 40, tokensPerWindow: 100_000_000, windowMs: WINDOW_MS, headers: false }, 60);
    assert.equal(out.rows, 60);
    assert.deepEqual(out.failed, []);
    assert.ok(out.requests > 80, `the run had to outlast twice the budget (${out.requests} requests)`);
    assert.ok(out.limited / out.requests < 0.2, `${out.limited} of ${out.requests} requests answered 429`);
  });

  it("with Retry-After only, a fixed window that resets all at once fails no row", async () => {
    const out = await scoreUnder({ requestsPerWindow: 50, tokensPerWindow: 100_000_000, windowMs: WINDOW_MS, headers: false, refill: "window" }, 60);
    assert.deepEqual(out.failed, []);
    assert.ok(out.limited / out.requests < 0.2, `${out.limited} of ${out.requests} requests answered 429`);
  });

  it("a limit that says only retry-after-ms (to the millisecond) is paced too: few requests get 429", async () => {
    // Its retry-after-ms is the few ms until the next request is let in, which says nothing of the rate.
    const out = await scoreUnder({ requestsPerWindow: 40, tokensPerWindow: 100_000_000, windowMs: WINDOW_MS, headers: false, retryAfterMs: true }, 60);
    assert.deepEqual(out.failed, []);
    assert.ok(out.requests > 80, `the run had to outlast twice the budget (${out.requests} requests)`);
    assert.ok(out.limited / out.requests < 0.2, `${out.limited} of ${out.requests} requests answered 429`);
  });

  it("a server that refuses one request in ten whatever the rate is waited out request by request, not by slowing the run", async () => {
    // No limit: every tenth chat request is refused with a 300 ms Retry-After, however slowly they come.
    // Slowing down cannot help, so the run must not sink to one request per Retry-After (120 requests: 36 s).
    let chats = 0;
    const server = new FakeOpenAI();
    server.options.fault = (req) =>
      req.path.endsWith("/chat/completions") && chats++ % 10 === 3 ? { kind: "status", status: 429, headers: { "retry-after-ms": "300" } } : undefined;
    const out = await scoreUnder(undefined, 60, {}, server);
    assert.deepEqual(out.failed, []);
    assert.ok(chats >= 100, `${chats} chat requests, a tenth of them refused`);
    assert.ok(out.ms < 12_000, `took ${out.ms} ms`);
  });

  it("with x-ratelimit-* headers, fails no row and nearly nothing gets 429", async () => {
    const out = await scoreUnder({ requestsPerWindow: 40, tokensPerWindow: 100_000_000, windowMs: WINDOW_MS }, 45);
    assert.deepEqual(out.failed, []);
    assert.ok(out.limited <= Math.max(1, 0.01 * out.requests), `${out.limited} of ${out.requests} requests answered 429`);
  });

  it("does not count 429s against maxRetries: a request outlives many of them", async () => {
    // Every chat request is refused 8 times before it gets through.
    let chats = 0;
    const refusing = new FakeOpenAI();
    refusing.options.fault = (req) => (req.path.endsWith("/chat/completions") && chats++ % 9 !== 8 ? { kind: "status", status: 429, headers: { "retry-after-ms": "5" } } : undefined);
    const limited = await scoreUnder(undefined, 1, { maxRetries: 1, concurrency: 1 }, refusing);
    assert.deepEqual(limited.failed, []);
    assert.ok(chats >= 18 && chats % 9 === 0, `${chats} chat requests: each of the row's requests refused 8 times, then answered`);
  });

  it("after the rate-limit deadline, rows fail with the reason, and the embedding batch does not fan out into one request per row", async () => {
    const server = new FakeOpenAI();
    server.options.fault = (req) => (req.path.endsWith("/embeddings") ? { kind: "status", status: 429, headers: { "retry-after": "1" } } : undefined);
    const out = await scoreUnder(undefined, 12, { rateLimitWaitMs: 1_500 }, server);
    assert.equal(out.rows, 12);
    assert.equal(out.failed.length, 12);
    for (const reason of out.failed) assert.match(reason, /embedding failed: .*HTTP 429/);
    // One batch, retried until the deadline (about every second): a handful of requests, not one per row.
    assert.ok(out.embeddingRequests <= 4, `${out.embeddingRequests} embedding requests`);
  });

  it("treats a 503 with Retry-After as a rate limit, and a bare 503 as an error with its retry budget", async () => {
    let calls = 0;
    const server = new FakeOpenAI();
    server.options.fault = (req) => (req.path.endsWith("/chat/completions") && calls++ < 4 ? { kind: "status", status: 503, headers: { "retry-after-ms": "5" } } : undefined);
    const out = await scoreUnder(undefined, 1, { maxRetries: 1, concurrency: 1 }, server);
    assert.deepEqual(out.failed, [], "four 503s that say when to come back are waited out with maxRetries 1");
    calls = 0;
    const bare = new FakeOpenAI();
    bare.options.fault = (req) => (req.path.endsWith("/chat/completions") ? { kind: "status", status: 503 } : undefined);
    const failing = await scoreUnder(undefined, 1, { maxRetries: 1, concurrency: 1 }, bare);
    assert.equal(failing.failed.length, 1);
    assert.match(failing.failed[0]!, /HTTP 503/);
  });
  it("a server that keeps answering 429 with Retry-After 0 (or a date in the past) is not asked again at once, hundreds of times a second", async () => {
    for (const retryAfter of ["0", "Thu, 01 Jan 1970 00:00:00 GMT"]) {
      const server = new FakeOpenAI();
      server.options.fault = (req) => (req.path.endsWith("/chat/completions") ? { kind: "status", status: 429, headers: { "retry-after": retryAfter } } : undefined);
      const out = await scoreUnder(undefined, 1, { concurrency: 1, rateLimitWaitMs: 1_500, retryBaseDelayMs: 200, retryMaxDelayMs: 1_000 }, server);
      assert.equal(out.failed.length, 1, "the row fails once the rate-limit deadline is past");
      assert.match(out.failed[0]!, /429/);
      // Retries back off from the third 429 in a row: a handful of requests in 1.5 s, not hundreds.
      assert.ok(out.requests < 20, `Retry-After ${retryAfter}: ${out.requests} requests`);
    }
  });
});
