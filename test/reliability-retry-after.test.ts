/**
 * A 429 whose Retry-After asks for longer than a request may wait on rate
 * limits (a daily quota: "Retry-After: 86400") fails its row at once with
 * what the server asked, and every later request fails without being sent
 * until then, instead of asking again every two minutes for half an hour.
 * An `x-ratelimit-reset-*` written as a Unix time (as many servers write
 * X-RateLimit-Reset) is read as the time of the reset, not as a wait of
 * 55 years that held every request for two minutes.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { createJudge, JudgeError } from "../src/index";
import { parseResetDuration, retryAfterMs, Scheduler } from "../src/judge/scheduler";
import { useFakeOpenAI } from "./support/fake-openai";
import { echoChat, echoRequest } from "./support/requests";

const { server, url } = useFakeOpenAI(() => ({ chat: echoChat }));

describe("a 429 that asks for a day's wait", () => {
  it("fails every row at once with the wait the server asked, the server asked no more than the requests already in flight", { timeout: 30_000 }, async () => {
    server.options.fault = (req) => (req.path.endsWith("/chat/completions") ? { kind: "status", status: 429, headers: { "retry-after": "86400" } } : undefined);
    const judge = createJudge({ baseURL: url(), apiKey: "sk-test-long-wait", model: "m", cache: false, concurrency: 4, rateLimitWaitMs: 10 * 60_000 });
    const settled = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => judge.complete(echoRequest(`row ${i}`))));
    assert.ok(settled.every((s) => s.status === "rejected"));
    for (const s of settled) {
      const error = (s as PromiseRejectedResult).reason as unknown;
      assert.ok(error instanceof JudgeError);
      assert.equal(error.status, 429, "kept a rate limit: the rows are not asked again one by one");
      assert.match(error.message, /asks to wait 24 h before the next request \(Retry-After\), longer than a request may wait on rate limits \(10 min, rateLimitWaitMs\)/);
      assert.ok(!error.message.includes("sk-test-long-wait"));
    }
    assert.ok(server.chatRequests().length <= 4, `${server.chatRequests().length} requests`);
  });
});

describe("scheduler under a Retry-After longer than rateLimitWaitMs", () => {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it("does not ask again every two minutes until the deadline, and asks again once the wait has passed", async () => {
    const scheduler = new Scheduler({ concurrency: 1, random: () => 0.5 });
    const limited = Object.assign(new Error("429 daily limit"), { status: 429 });
    let attempts = 0;
    let refuse = true;
    const job = () =>
      scheduler.run({
        classify: () => ({ retryable: true, retryAfterMs: 3 * 3_600_000, rateLimited: true }),
        attempt: () => (attempts++, refuse ? Promise.reject(limited) : Promise.resolve("ok")),
      });
    const first = job();
    let settled = false;
    void first.then(() => (settled = true), () => (settled = true));
    for (let ms = 0; ms < 40 * 60_000 && !settled; ms += 1000) {
      mock.timers.tick(1000);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    }
    await assert.rejects(first, /asks to wait 3 h before the next request/);
    assert.equal(attempts, 1);
    await assert.rejects(job(), /asks to wait 3 h/);
    assert.equal(attempts, 1, "a later request is not sent before the time the server gave");
    mock.timers.tick(3 * 3_600_000);
    refuse = false;
    assert.equal(await job(), "ok");
    assert.equal(attempts, 2);
  });
});

describe("x-ratelimit-reset-* written as a Unix time", () => {
  it("is read as the time of the reset (seconds or milliseconds), and a time past as no wait", () => {
    const now = 1_733_376_000_000;
    assert.equal(parseResetDuration("1733376060", now), 60_000);
    assert.equal(parseResetDuration("1733376000500", now), 500);
    assert.equal(parseResetDuration("1733375000", now), 0);
    assert.equal(parseResetDuration("20", now), 20_000, "a small bare number is still seconds");
    assert.equal(parseResetDuration("6m0s", now), 360_000);
  });

  it("does not hold each request for two minutes when the budget is spent", { timeout: 30_000 }, async () => {
    // Every response says the budget is spent and comes back at a Unix time one second on.
    server.options.headers = () => ({
      "x-ratelimit-limit-requests": "60",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": String(Math.floor(Date.now() / 1000) + 1),
    });
    const judge = createJudge({ baseURL: url(), apiKey: "sk-test-epoch", model: "m", cache: false, concurrency: 2 });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => judge.complete(echoRequest(`row ${i}`))));
    assert.deepEqual(replies.map((r) => r.answer), Array.from({ length: 6 }, (_, i) => `echo: row ${i}`));
    assert.equal(server.chatRequests().length, 6);
  });
});

describe("a Retry-After that is neither seconds nor a date", () => {
  it("is no wait the server asked for: the judge backs off on its own, instead of reading a stray number as a year", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    assert.equal(retryAfterMs({ "retry-after": "-5" }, now), undefined);
    assert.equal(retryAfterMs({ "retry-after": "2026" }, now), 2_026_000, "a bare number is seconds");
    assert.equal(retryAfterMs({ "retry-after": "5 minutes" }, now), undefined);
    assert.equal(retryAfterMs({ "Retry-After": " 1.5 " }, now), 1500);
    assert.equal(retryAfterMs({ "retry-after": "Wed, 21 Oct 2015 07:28:10 GMT" }, now), 10_000);
    assert.equal(retryAfterMs({ "retry-after": "Wed, 21 Oct 2015 07:27:00 GMT" }, now), 0, "a date already past is no wait");
    assert.equal(retryAfterMs({ "retry-after-ms": "250", "retry-after": "9" }, now), 250);
  });
});
