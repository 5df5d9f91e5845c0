import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import OpenAI, { RateLimitError } from "openai";
import { parseResetDuration } from "../src/judge/scheduler";
import { rejection, waitFor } from "./support/async";
import { FakeOpenAI, formatResetDuration } from "./support/fake-openai";

const MODEL = "gpt-judge-test";


describe("FakeOpenAI rate limit", () => {
  const fake = new FakeOpenAI();
  let client: OpenAI;

  before(async () => {
    client = new OpenAI({ apiKey: "sk-test", baseURL: await fake.start(), maxRetries: 0 });
  });
  after(() => fake.stop());
  beforeEach(() => {
    fake.options = {};
    fake.reset();
  });
  afterEach(() => waitFor(() => fake.inFlight === 0));

  /** A chat request whose prompt is `chars` characters (chars / 4 tokens). */
  const ask = (chars = 40) => client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x".repeat(chars) }] }).withResponse();

  it("sends no x-ratelimit-* headers without the option", async () => {
    const { response } = await ask();
    assert.equal(response.headers.get("x-ratelimit-limit-requests"), null);
    assert.equal(response.headers.get("x-ratelimit-remaining-tokens"), null);
  });

  it("sends the limit, what is left and the time to a full budget on every response", async () => {
    fake.options = { rateLimit: { requestsPerWindow: 100, tokensPerWindow: 10_000, windowMs: 60_000 } };
    const first = await ask(400);
    const h = first.response.headers;
    assert.equal(h.get("x-ratelimit-limit-requests"), "100");
    assert.equal(h.get("x-ratelimit-remaining-requests"), "99");
    assert.equal(h.get("x-ratelimit-limit-tokens"), "10000");
    // 100 prompt tokens on arrival, then the completion's on the reply.
    const completion = first.data.usage!.completion_tokens;
    assert.equal(h.get("x-ratelimit-remaining-tokens"), String(10_000 - 100 - completion));
    // One request of 100 refills in 600 ms; the header is a duration the scheduler reads.
    const reset = parseResetDuration(h.get("x-ratelimit-reset-requests") ?? undefined);
    assert.ok(reset !== undefined && reset > 500 && reset <= 600, `reset ${h.get("x-ratelimit-reset-requests")}`);
    const second = await ask(400);
    assert.equal(second.response.headers.get("x-ratelimit-remaining-requests"), "98");
    assert.deepEqual(fake.rateLimitStats(), { admitted: 2, limited: 0, tokens: 200 + 2 * completion });
  });

  it("answers 429 with retry-after-ms and retry-after at once when the request budget is spent, then admits again after the wait", async () => {
    fake.options = { latencyMs: 600, rateLimit: { requestsPerWindow: 2, tokensPerWindow: 1_000_000, windowMs: 400 } };
    const admitted = Promise.all([ask(), ask()]);
    await waitFor(() => fake.requests.length === 2);
    const err = await rejection(ask());
    assert.equal(fake.inFlight, 2, "the 429 came before the admitted requests' latency was over");
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.status, 429);
    assert.match(err.message, /Rate limit reached .* requests/);
    const waitMs = Number(err.headers?.get("retry-after-ms"));
    assert.ok(waitMs > 0 && waitMs <= 200, `retry-after-ms ${waitMs}`);
    assert.equal(err.headers?.get("retry-after"), "1");
    assert.equal(err.headers?.get("x-ratelimit-remaining-requests"), "0");
    assert.equal(fake.rateLimitStats().limited, 1);
    await admitted;
    const { response } = await ask();
    assert.equal(response.headers.get("x-ratelimit-limit-requests"), "2");
    assert.equal(fake.rateLimitStats().admitted, 3);
  });

  it("refuses a request whose prompt tokens exceed what is left, and charges embeddings by their input", async () => {
    fake.options = { rateLimit: { requestsPerWindow: 1000, tokensPerWindow: 300, windowMs: 60_000 } };
    const embedded = await client.embeddings.create({ model: "embed-test", input: ["a".repeat(400), "b".repeat(400)] }).withResponse();
    assert.equal(embedded.response.headers.get("x-ratelimit-remaining-tokens"), "100");
    const err = await rejection(ask(800));
    assert.ok(err instanceof RateLimitError);
    assert.match(err.message, /tokens/);
    // 200 tokens at 300 per minute: 100 are missing, 20 s of refill.
    const waitMs = Number(err.headers?.get("retry-after-ms"));
    assert.ok(waitMs > 19_000 && waitMs <= 20_000, `retry-after-ms ${waitMs}`);
    assert.equal(err.headers?.get("retry-after"), "20");
    assert.deepEqual(fake.rateLimitStats(), { admitted: 1, limited: 1, tokens: 200 });
  });

  it("puts the headers on fault statuses too, and starts a full budget when the option is replaced", async () => {
    fake.options = { rateLimit: { requestsPerWindow: 5, tokensPerWindow: 1_000_000, windowMs: 60_000 }, fault: () => ({ kind: "status", status: 500 }) };
    const err = await rejection(ask());
    assert.ok(err instanceof OpenAI.APIError);
    assert.equal(err.status, 500);
    assert.equal(err.headers?.get("x-ratelimit-remaining-requests"), "4");
    fake.options = { rateLimit: { requestsPerWindow: 5, tokensPerWindow: 1_000_000, windowMs: 60_000 } };
    const { response } = await ask();
    assert.equal(response.headers.get("x-ratelimit-remaining-requests"), "4");
  });
});

describe("formatResetDuration", () => {
  it("writes durations as OpenAI does", () => {
    assert.equal(formatResetDuration(20), "20ms");
    assert.equal(formatResetDuration(0.2), "1ms");
    assert.equal(formatResetDuration(0), "0ms");
    assert.equal(formatResetDuration(1000), "1s");
    assert.equal(formatResetDuration(1500), "1.5s");
    assert.equal(formatResetDuration(360_000), "6m0s");
    assert.equal(formatResetDuration(3_723_500), "1h2m3.5s");
    for (const ms of [20, 1000, 1500, 360_000, 3_723_500]) assert.equal(parseResetDuration(formatResetDuration(ms)), ms);
  });
});
