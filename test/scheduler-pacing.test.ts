import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { estimateTokens, RateLimitStallError, Scheduler } from "../src/judge/scheduler";
import { formatResetDuration } from "./support/fake-openai";

/** A failure as the judge classifies a 429. */
class RateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super("429");
  }
}

interface Budgets {
  requests: number;
  tokens: number;
  windowMs: number;
}

/**
 * A server with an OpenAI-style budget in virtual time (the clock is node's
 * mock timers): buckets that refill continuously, a fixed latency, headers
 * on every response (limit, remaining, reset; with or without the limit),
 * and a 429 with the wait when a request does not fit.
 */
function simulatedServer(scheduler: Scheduler, budgets: Budgets, latencyMs: number, sendLimit = true) {
  const level = { requests: budgets.requests, tokens: budgets.tokens, at: Date.now() };
  const log = { admitted: [] as number[], limited: 0 };
  const refill = (): void => {
    const now = Date.now();
    const dt = now - level.at;
    level.requests = Math.min(budgets.requests, level.requests + (dt * budgets.requests) / budgets.windowMs);
    level.tokens = Math.min(budgets.tokens, level.tokens + (dt * budgets.tokens) / budgets.windowMs);
    level.at = now;
  };
  const headers = (): Record<string, string> => {
    refill();
    const h: Record<string, string> = {
      "x-ratelimit-remaining-requests": String(Math.floor(level.requests)),
      "x-ratelimit-reset-requests": formatResetDuration(((budgets.requests - level.requests) * budgets.windowMs) / budgets.requests),
      "x-ratelimit-remaining-tokens": String(Math.max(0, Math.floor(level.tokens))),
      "x-ratelimit-reset-tokens": formatResetDuration(((budgets.tokens - level.tokens) * budgets.windowMs) / budgets.tokens),
    };
    if (sendLimit) {
      h["x-ratelimit-limit-requests"] = String(budgets.requests);
      h["x-ratelimit-limit-tokens"] = String(budgets.tokens);
    }
    return h;
  };
  const call = (tokens: number, estimate = true): Promise<void> =>
    scheduler.run({
      tokens: estimate ? tokens : undefined,
      classify: (error) => (error instanceof RateLimited ? { retryable: true, retryAfterMs: error.retryAfterMs, rateLimited: true } : { retryable: false }),
      attempt: () => {
        refill();
        if (level.requests < 1 || level.tokens < tokens) {
          log.limited += 1;
          const wait = Math.max(((1 - level.requests) * budgets.windowMs) / budgets.requests, ((tokens - level.tokens) * budgets.windowMs) / budgets.tokens);
          return Promise.reject(new RateLimited(Math.ceil(wait)));
        }
        level.requests -= 1;
        level.tokens -= tokens;
        log.admitted.push(Date.now());
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            scheduler.observe(headers(), tokens);
            resolve();
          }, latencyMs),
        );
      },
    });
  return { call, log };
}

/** Advances the mocked clock 1 ms at a time (letting promises settle) until `work` ends; returns the virtual ms taken. */
async function runVirtually(work: Promise<unknown>, limitMs = 60_000): Promise<number> {
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  const start = Date.now();
  while (!done) {
    if (Date.now() - start > limitMs) throw new Error(`not finished after ${limitMs} virtual ms`);
    mock.timers.tick(1);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  await work;
  return Date.now() - start;
}

/** The most requests started in any `windowMs`-long stretch. */
function busiestWindow(times: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("scheduler pacing under x-ratelimit-* budgets", () => {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it("spreads requests over the refill of a request budget instead of waiting for the whole budget, with no 429", async () => {
    const scheduler = new Scheduler({ concurrency: 8, random: () => 0.5 });
    const server = simulatedServer(scheduler, { requests: 20, tokens: 1e9, windowMs: 1000 }, 50);
    const ms = await runVirtually(Promise.all(Array.from({ length: 100 }, () => server.call(10))));
    assert.equal(server.log.limited, 0, "no request was refused");
    assert.equal(server.log.admitted.length, 100);
    // 20 at once, then 80 more at 20 per second: 4 s is the least possible.
    assert.ok(ms >= 4000, `${ms} virtual ms`);
    assert.ok(ms <= 4400, `took ${ms} virtual ms; pacing to the refill takes about 4,050`);
    assert.ok(busiestWindow(server.log.admitted, 1000) <= 40, "never more than the budget plus its refill in a window");
  });

  it("lets a large request wait until the token budget covers its own estimate", async () => {
    const scheduler = new Scheduler({ concurrency: 8, random: () => 0.5 });
    const server = simulatedServer(scheduler, { requests: 1e6, tokens: 2000, windowMs: 1000 }, 20);
    const sizes = Array.from({ length: 60 }, (_, i) => (i === 30 ? 1500 : 100));
    const ms = await runVirtually(Promise.all(sizes.map((tokens) => server.call(tokens))));
    assert.equal(server.log.limited, 0, "no request was refused, the large one included");
    const total = sizes.reduce((a, b) => a + b, 0);
    const least = ((total - 2000) / 2000) * 1000;
    assert.ok(ms >= least, `${ms} virtual ms`);
    assert.ok(ms <= least * 1.15 + 100, `took ${ms} virtual ms; the budget allows ${least}`);
  });

  it("without an estimate, waits until the largest recent request would fit", async () => {
    const scheduler = new Scheduler({ concurrency: 4, random: () => 0.5 });
    const server = simulatedServer(scheduler, { requests: 1e6, tokens: 1000, windowMs: 1000 }, 20);
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 50 : 150));
    await runVirtually(Promise.all(sizes.map((tokens) => server.call(tokens, false))));
    assert.equal(server.log.limited, 0);
  });

  it("without x-ratelimit-limit-*, still holds new requests until the reset when the budget left is spent", async () => {
    const scheduler = new Scheduler({ concurrency: 2, random: () => 0.5 });
    const server = simulatedServer(scheduler, { requests: 4, tokens: 1e9, windowMs: 1000 }, 10, false);
    const ms = await runVirtually(Promise.all(Array.from({ length: 12 }, () => server.call(1))));
    assert.ok(ms >= 2000, `${ms} virtual ms: 8 requests beyond the first 4 need 2 s of refill`);
    assert.equal(server.log.admitted.length, 12);
  });
});

describe("estimateTokens", () => {
  it("counts a quarter of the characters, and 765 per image part", () => {
    assert.equal(estimateTokens(["twelve chars"]), 3);
    assert.equal(estimateTokens(["abcd", "abcde"]), 3);
    assert.equal(
      estimateTokens([
        { content: "abcdefgh" },
        { content: [{ type: "text", text: "abcd" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
      ]),
      3 + 765,
    );
    assert.equal(estimateTokens([]), 0);
  });
});

describe("scheduler under 429s with no x-ratelimit-* headers", () => {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  const classify = (error: unknown) => (error instanceof RateLimited ? { retryable: true, retryAfterMs: error.retryAfterMs, rateLimited: true } : { retryable: false });

  it("learns no pace from one success and a burst of 429s: the run goes on at full speed once the burst clears", async () => {
    const scheduler = new Scheduler({ concurrency: 16, random: () => 0.5, rateLimitWindowMs: 60_000 });
    let attempts = 0;
    // One request gets through (an embedding batch, say), then 10 are refused, then the server takes every request.
    const job = () =>
      scheduler.run({
        classify,
        attempt: () => {
          attempts++;
          if (attempts >= 2 && attempts <= 11) return new Promise<void>((_, reject) => setTimeout(() => reject(new RateLimited(2000)), 50));
          // A success is seen as the judge sees it: a reply, with no x-ratelimit-* headers.
          return new Promise<void>((resolve) => setTimeout(() => (scheduler.observe({}, 1), resolve()), 100));
        },
      });
    const ms = await runVirtually(job().then(() => Promise.all(Array.from({ length: 59 }, job))));
    assert.equal(attempts, 70);
    // The 10 refused wait 2 s as asked. A pace learned from that one success (spread over a minute,
    // no slower than one request a second) dragged the other 49 out over most of a minute.
    assert.ok(ms < 8000, `${ms} virtual ms`);
  });

  it("fails every request at once when nothing got through for rateLimitWaitMs, instead of each waiting it in turn", async () => {
    const scheduler = new Scheduler({ concurrency: 4, random: () => 0.5, rateLimitWaitMs: 1000 });
    let attempts = 0;
    const job = () => scheduler.run({ classify, attempt: () => (attempts++, Promise.reject(new RateLimited(100))) });
    const outcomes = Promise.allSettled(Array.from({ length: 40 }, job));
    await runVirtually(outcomes);
    const settled = await outcomes;
    assert.ok(settled.every((o) => o.status === "rejected"));
    const stalled = settled.filter((o) => o.status === "rejected" && o.reason instanceof RateLimitStallError);
    assert.ok(stalled.length >= 30, `${stalled.length} of 40 failed at once`);
    assert.match(String((stalled[0] as PromiseRejectedResult).reason), /no request got through for 1 s, every one answered 429 \(rate limited\); the last 429 said: 429; try later, or allow a longer wait \(rateLimitWaitMs\)/);
    // About one budget of 429s in all; each request waiting its own budget in turn took hundreds.
    assert.ok(attempts <= 40, `${attempts} attempts`);
  });
});
