import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from "openai";
import { rejection, waitFor } from "./support/async";
import { FakeOpenAI, type Fault } from "./support/fake-openai";

const MODEL = "gpt-judge-test";


describe("FakeOpenAI with the real openai SDK", () => {
  const fake = new FakeOpenAI();
  let client: OpenAI;
  let baseURL: string;

  before(async () => {
    baseURL = await fake.start();
    client = new OpenAI({ apiKey: "sk-test", baseURL, maxRetries: 0 });
  });
  after(() => fake.stop());
  beforeEach(() => {
    fake.options = {};
    fake.reset();
  });
  afterEach(() => waitFor(() => fake.inFlight === 0));

  const ask = (
    content: string,
    extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {},
    requestOptions: OpenAI.RequestOptions = {},
  ) => client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content }], ...extra }, requestOptions);

  describe("chat completions", () => {
    it("listens on 127.0.0.1 and returns a base URL ending in /v1", () => {
      assert.match(baseURL, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    });

    it("returns the scripted content, model, id and usage", async () => {
      fake.options.chat = (ctx) => ({ verdict: "yes", model: ctx.model, n: ctx.messages.length });
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [
          { role: "system", content: "abcd" },
          { role: "user", content: "12345678" },
        ],
      });
      const expected = JSON.stringify({ verdict: "yes", model: MODEL, n: 2 });
      assert.equal(completion.object, "chat.completion");
      assert.equal(completion.id, `chatcmpl-${fake.requests[0]?.seq}`);
      assert.equal(completion.model, MODEL);
      assert.equal(typeof completion.created, "number");
      assert.equal(completion.choices.length, 1);
      assert.equal(completion.choices[0]?.index, 0);
      assert.equal(completion.choices[0]?.message.role, "assistant");
      assert.equal(completion.choices[0]?.message.content, expected);
      assert.equal(completion.choices[0]?.finish_reason, "stop");
      const completionTokens = Math.ceil(expected.length / 4);
      assert.deepEqual(completion.usage, {
        prompt_tokens: 3, // 12 characters
        completion_tokens: completionTokens,
        total_tokens: 3 + completionTokens,
      });
    });

    it("answers '{\"ok\": true}' by default and passes string content through unchanged", async () => {
      const first = await ask("hi");
      assert.equal(first.choices[0]?.message.content, '{"ok": true}');
      assert.deepEqual(first.usage, { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
      fake.options.chat = () => "";
      const empty = await ask("hi");
      assert.equal(empty.choices[0]?.message.content, "");
      assert.equal(empty.usage?.completion_tokens, 1, "at least one completion token");
    });

    it("counts only text parts plus 85 tokens per image_url part", async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "hello world!" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              { type: "text", text: "x" },
            ],
          },
        ],
      });
      assert.equal(completion.usage?.prompt_tokens, Math.ceil(13 / 4) + 85);
    });

    it("sends content-type, x-request-id and the extra headers", async () => {
      fake.options.headers = (req) => ({ "X-RateLimit-Remaining-Requests": String(99 - req.seq) });
      const { data, response } = await ask("hi").withResponse();
      const seq = fake.requests[0]?.seq ?? -1;
      assert.equal(data.id, `chatcmpl-${seq}`);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(response.headers.get("x-request-id"), `req_fake_${seq}`);
      assert.equal(response.headers.get("x-ratelimit-remaining-requests"), String(99 - seq));
    });

    it("answers a throwing chat script with a 500", async () => {
      fake.options.chat = () => {
        throw new Error("script broke");
      };
      const err = await rejection(ask("hi"));
      assert.ok(err instanceof InternalServerError);
      assert.equal(err.status, 500);
      assert.match(err.message, /script broke/);
    });
  });

  describe("embeddings", () => {
    it("keeps the order of an array input and counts tokens", async () => {
      const input = ["a", "abcde", "abcdefghi"];
      const result = await client.embeddings.create({ model: "embed-test", input });
      assert.equal(result.object, "list");
      assert.equal(result.model, "embed-test");
      assert.deepEqual(result.data.map((d) => d.index), [0, 1, 2]);
      assert.deepEqual(result.usage, { prompt_tokens: 1 + 2 + 3, total_tokens: 6 });
      for (const item of result.data) {
        assert.equal(item.object, "embedding");
        assert.equal(item.embedding.length, 8);
        assert.ok(item.embedding.some((x) => x !== 0), "not all zero");
      }
      // Deterministic: the same text gives the same vector, whatever its position or encoding.
      const again = await client.embeddings.create({ model: "embed-test", input: ["abcdefghi", "a"], encoding_format: "float" });
      assert.deepEqual(again.data[0]?.embedding, result.data[2]?.embedding);
      assert.deepEqual(again.data[1]?.embedding, result.data[0]?.embedding);
      assert.notDeepEqual(result.data[0]?.embedding, result.data[1]?.embedding);
    });

    it("uses the embed script for a single string input (base64 and float encodings)", async () => {
      fake.options.embed = (text, model) => [text.length, model.length, 0.5];
      const base64 = await client.embeddings.create({ model: "m1", input: "four" });
      assert.deepEqual(base64.data.map((d) => d.embedding), [[4, 2, 0.5]]);
      assert.equal(base64.usage.prompt_tokens, 1);
      const float = await client.embeddings.create({ model: "m1", input: ["four", "fivee"], encoding_format: "float" });
      assert.deepEqual(float.data.map((d) => d.embedding), [[4, 2, 0.5], [5, 2, 0.5]]);
      assert.equal(fake.embeddingRequests()[0]?.body.encoding_format, "base64", "the SDK asks for base64 by default");
    });

    it("rejects an input that is not a string or an array of strings with 400", async () => {
      const err = await rejection(client.embeddings.create({ model: "m1", input: [] }));
      assert.ok(err instanceof BadRequestError);
    });
  });

  describe("faults", () => {
    it("status 429 with retry-after arrives as an APIError with readable headers", async () => {
      fake.options.fault = () => ({ kind: "status", status: 429, headers: { "retry-after": "1" } });
      const err = await rejection(ask("hi"));
      assert.ok(err instanceof APIError);
      assert.ok(err instanceof RateLimitError);
      assert.equal(err.status, 429);
      assert.equal(err.headers?.get("retry-after"), "1");
      assert.equal(err.headers?.get("x-request-id"), `req_fake_${fake.requests[0]?.seq}`);
      assert.deepEqual(err.error, { message: "fake 429", type: "fake_error" });
      assert.equal(fake.requests.length, 1, "the faulted request is recorded");
    });

    it("maps other statuses to the matching SDK errors and sends a custom body", async () => {
      const cases: [number, new (...args: never[]) => APIError][] = [
        [500, InternalServerError],
        [503, InternalServerError],
        [400, BadRequestError],
        [401, AuthenticationError],
      ];
      for (const [status, errorClass] of cases) {
        fake.options.fault = () => ({ kind: "status", status });
        const err = await rejection(ask("hi"));
        assert.ok(err instanceof errorClass, `status ${status}`);
        assert.equal(err.status, status);
      }
      fake.options.fault = () => ({ kind: "status", status: 400, body: { error: { message: "custom", code: "bad" } } });
      const err = await rejection(ask("hi"));
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.code, "bad");
      assert.match(err.message, /custom/);
    });

    it("drop gives an APIConnectionError", async () => {
      fake.options.fault = () => ({ kind: "drop" });
      const err = await rejection(ask("hi"));
      assert.ok(err instanceof APIConnectionError);
      assert.ok(!(err instanceof APIConnectionTimeoutError));
    });

    it("hang with an SDK timeout of 200 ms gives an APIConnectionTimeoutError and frees the request", async () => {
      fake.options.fault = () => ({ kind: "hang" });
      const started = Date.now();
      const err = await rejection(ask("hi", {}, { timeout: 200 }));
      const elapsed = Date.now() - started;
      assert.ok(err instanceof APIConnectionTimeoutError);
      assert.ok(elapsed >= 190 && elapsed < 1000, `timed out after ${elapsed} ms`);
      assert.equal(fake.requests.length, 1);
      await waitFor(() => fake.inFlight === 0);
    });

    const contentFaults: [Fault["kind"], string, string][] = [
      ["invalid_json", "Sure! Here is the answer: {not json", "stop"],
      ["schema_invalid", '{"unexpected": true}', "stop"],
      ["truncated", '{"statements": ["The sky is', "length"],
    ];
    for (const [kind, content, finishReason] of contentFaults) {
      it(`${kind} answers 200 with the described content and finish_reason "${finishReason}"`, async () => {
        fake.options.chat = () => ({ statements: ["fine"] });
        fake.options.fault = () => ({ kind }) as Fault;
        const completion = await ask("hi", { response_format: { type: "json_object" } });
        assert.equal(completion.choices[0]?.message.content, content);
        assert.equal(completion.choices[0]?.finish_reason, finishReason);
        assert.equal(completion.model, MODEL);
        assert.equal(completion.usage?.completion_tokens, Math.ceil(content.length / 4));
      });
    }

    it("the fault function sees the parsed body and can pick requests", async () => {
      fake.options.fault = (req) =>
        req.body?.messages?.[0]?.content === "fail me" ? { kind: "status", status: 503 } : undefined;
      const ok = await ask("fine");
      assert.equal(ok.choices[0]?.message.content, '{"ok": true}');
      const err = await rejection(ask("fail me"));
      assert.ok(err instanceof InternalServerError);
      assert.equal(err.status, 503);
    });
  });

  describe("rejectJsonSchema", () => {
    it("gives 400 for response_format json_schema but answers json_object", async () => {
      fake.options.rejectJsonSchema = true;
      const schema = {
        type: "json_schema" as const,
        json_schema: { name: "verdict", strict: true, schema: { type: "object", properties: {}, additionalProperties: false } },
      };
      const err = await rejection(ask("hi", { response_format: schema }));
      assert.ok(err instanceof BadRequestError);
      assert.equal(err.status, 400);
      assert.equal(err.param, "response_format");
      assert.equal(err.type, "invalid_request_error");
      assert.match(err.message, /response_format json_schema is not supported by this server/);

      const completion = await ask("hi", { response_format: { type: "json_object" } });
      assert.equal(completion.choices[0]?.message.content, '{"ok": true}');

      fake.options.rejectJsonSchema = false;
      const accepted = await ask("hi", { response_format: schema });
      assert.equal(accepted.choices[0]?.finish_reason, "stop");
    });
  });

  describe("latency and concurrency", () => {
    it("runs 5 concurrent requests of 100 ms each in well under 500 ms, with maxInFlight 5", async () => {
      fake.options.latencyMs = 100;
      const started = Date.now();
      const results = await Promise.all([0, 1, 2, 3, 4].map((i) => ask(`question ${i}`)));
      const elapsed = Date.now() - started;
      assert.equal(results.length, 5);
      assert.ok(elapsed >= 95, `took ${elapsed} ms, expected the latency to apply`);
      assert.ok(elapsed < 350, `took ${elapsed} ms, expected the requests to overlap`);
      assert.equal(fake.maxInFlight, 5);
      await waitFor(() => fake.inFlight === 0);
      fake.reset();
      assert.equal(fake.maxInFlight, 0);
    });

    it("accepts a latency function per request", async () => {
      fake.options.latencyMs = (req) => (req.body?.messages?.[0]?.content === "slow" ? 150 : 0);
      let fastDone = 0;
      const slow = ask("slow").then(() => Date.now());
      const fast = ask("fast").then(() => (fastDone = Date.now()));
      const [slowDone] = await Promise.all([slow, fast]);
      assert.ok(fastDone < slowDone, "the fast request is not held up by the slow one");
    });

    it("cleans up when the client aborts during latency and keeps serving", async () => {
      fake.options.latencyMs = 300;
      const err = await rejection(ask("hi", {}, { timeout: 50 }));
      assert.ok(err instanceof APIConnectionTimeoutError);
      await waitFor(() => fake.inFlight === 0);
      const usageBefore = fake.totalUsage();
      // Outlive the cancelled timer: nothing may be written for the aborted request.
      await new Promise((resolve) => setTimeout(resolve, 350));
      assert.deepEqual(fake.totalUsage(), usageBefore);
      fake.options.latencyMs = 0;
      const completion = await ask("again");
      assert.equal(completion.choices[0]?.message.content, '{"ok": true}');
    });
  });

  describe("recording", () => {
    it("records method, path, lower-cased headers and bodies of every request", async () => {
      await ask("first");
      await client.embeddings.create({ model: "embed-test", input: ["x", "y"] });
      fake.options.fault = () => ({ kind: "status", status: 500 });
      await rejection(ask("second"));
      fake.options.fault = undefined;
      const models = await client.models.list();
      assert.deepEqual(
        models.data.map((m) => m.id),
        ["fake-model"],
      );
      const missing = await fetch(`${baseURL}/nope`, { headers: { "X-Custom": "abc" } });
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get("content-type") ?? "", /^application\/json/);
      assert.ok(missing.headers.get("x-request-id"));
      assert.ok(((await missing.json()) as { error?: unknown }).error);

      const { requests } = fake;
      assert.deepEqual(
        requests.map((r) => `${r.method} ${r.path}`),
        [
          "POST /v1/chat/completions",
          "POST /v1/embeddings",
          "POST /v1/chat/completions",
          "GET /v1/models",
          "GET /v1/nope",
        ],
      );
      const seqs = requests.map((r) => r.seq);
      assert.deepEqual(seqs, seqs.map((_, i) => (seqs[0] ?? 0) + i), "consecutive seq numbers");
      for (let i = 1; i < requests.length; i++) {
        assert.ok((requests[i]?.receivedAt ?? 0) >= (requests[i - 1]?.receivedAt ?? 0));
      }
      assert.equal(requests[0]?.headers["authorization"], "Bearer sk-test");
      assert.match(requests[0]?.headers["content-type"] ?? "", /application\/json/);
      assert.equal(requests[4]?.headers["x-custom"], "abc");
      assert.equal(requests[3]?.body, undefined);

      const chats = fake.chatRequests();
      assert.deepEqual(
        chats.map((r) => r.body.messages[0].content),
        ["first", "second"],
      );
      assert.equal(chats[0]?.body.model, MODEL);
      const embeds = fake.embeddingRequests();
      assert.equal(embeds.length, 1);
      assert.deepEqual(embeds[0]?.body.input, ["x", "y"]);
    });

    it("reset() clears the recorded requests in place", async () => {
      const list = fake.requests;
      await ask("hi");
      assert.equal(list.length, 1);
      fake.reset();
      assert.equal(fake.requests, list);
      assert.equal(list.length, 0);
      assert.deepEqual(fake.chatRequests(), []);
    });
  });
});

describe("FakeOpenAI usage totals", () => {
  it("totalUsage() matches the sum of usage the SDK saw in 200 replies", async () => {
    const fake = new FakeOpenAI({ chat: (ctx) => ({ echo: ctx.messages.map((m) => m.content).join(" ") }) });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: await fake.start(), maxRetries: 0 });
    try {
      const seen = { chatPromptTokens: 0, chatCachedPromptTokens: 0, chatCompletionTokens: 0, embeddingTokens: 0, chatResponses: 0, chatRepliesCut: 0, embeddingResponses: 0 };
      for (const content of ["short", "a somewhat longer question about the sky", "ß∂ƒ"]) {
        const c = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content }] });
        seen.chatPromptTokens += c.usage?.prompt_tokens ?? 0;
        seen.chatCompletionTokens += c.usage?.completion_tokens ?? 0;
        seen.chatResponses += 1;
      }
      for (const input of ["one", ["two", "three", "four four four"]]) {
        const e = await client.embeddings.create({ model: "embed-test", input });
        seen.embeddingTokens += e.usage.prompt_tokens;
        seen.embeddingResponses += 1;
      }
      // A reply longer than max_tokens is cut at max_tokens, as a real server cuts it.
      fake.options.fault = undefined;
      const capped = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "a question long enough that its echo runs past eight tokens" }], max_tokens: 8 });
      assert.equal(capped.choices[0]?.finish_reason, "length");
      assert.equal(capped.usage?.completion_tokens, 8);
      const whole = JSON.stringify({ echo: "a question long enough that its echo runs past eight tokens" });
      const cut = capped.choices[0]?.message.content ?? "";
      assert.ok(cut.length > 0 && cut.length < whole.length && whole.startsWith(cut), cut);
      seen.chatPromptTokens += capped.usage?.prompt_tokens ?? 0;
      seen.chatCompletionTokens += capped.usage?.completion_tokens ?? 0;
      seen.chatResponses += 1;
      seen.chatRepliesCut += 1;
      fake.options.fault = () => ({ kind: "truncated" });
      const t = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "cut" }] });
      seen.chatPromptTokens += t.usage?.prompt_tokens ?? 0;
      seen.chatCompletionTokens += t.usage?.completion_tokens ?? 0;
      seen.chatResponses += 1;
      fake.options.fault = () => ({ kind: "status", status: 429 });
      await rejection(client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "no" }] }));

      assert.deepEqual(fake.totalUsage(), seen);
      assert.ok(seen.chatPromptTokens > 0 && seen.embeddingTokens > 0);
    } finally {
      await fake.stop();
    }
  });

  it("reports a repeated prefix of messages as cached prompt tokens (promptCache), rounded down and from the minimum on", async () => {
    const fake = new FakeOpenAI({ chat: () => ({ ok: true }), promptCache: { minTokens: 8, incrementTokens: 4 } });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: await fake.start(), maxRetries: 0 });
    try {
      const system = { role: "system" as const, content: "You judge answers. ".repeat(10) };
      const cachedOf = async (messages: { role: "system" | "user"; content: string }[]) =>
        (await client.chat.completions.create({ model: MODEL, messages })).usage?.prompt_tokens_details?.cached_tokens;
      assert.equal(await cachedOf([system, { role: "user", content: "first" }]), 0, "nothing seen before");
      const second = await cachedOf([system, { role: "user", content: "second" }]);
      // The system message's 190 characters are about 48 tokens by the default counter: cached, in steps of 4.
      assert.ok(second !== undefined && second >= 8 && second % 4 === 0, String(second));
      assert.equal(await cachedOf([{ role: "system", content: "Another system prompt." }, { role: "user", content: "x" }]), 0, "another prefix");
      assert.equal(fake.totalUsage().chatCachedPromptTokens, second);
    } finally {
      await fake.stop();
    }
  });
});

describe("FakeOpenAI.stop()", () => {
  it("resolves within 1 s while a request hangs and a keep-alive socket is open", async () => {
    const fake = new FakeOpenAI();
    const client = new OpenAI({ apiKey: "sk-test", baseURL: await fake.start(), maxRetries: 0 });
    await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "warm up" }] });
    fake.options.fault = () => ({ kind: "hang" });
    const hanging = rejection(client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hang" }] }));
    await waitFor(() => fake.requests.length === 2 && fake.inFlight === 1);

    const started = Date.now();
    await fake.stop();
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 1000, `stop() took ${elapsed} ms`);

    const err = await hanging;
    assert.ok(err instanceof APIConnectionError, "the hanging request fails once the server stops");
    await waitFor(() => fake.inFlight === 0);
    await fake.stop(); // a second stop() is harmless
  });

  it("resolves within 1 s while a request waits out a long latency", async () => {
    const fake = new FakeOpenAI({ latencyMs: 10_000 });
    const client = new OpenAI({ apiKey: "sk-test", baseURL: await fake.start(), maxRetries: 0 });
    const pending = rejection(client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "wait" }] }));
    await waitFor(() => fake.inFlight === 1 && fake.requests.length === 1);
    const started = Date.now();
    await fake.stop();
    assert.ok(Date.now() - started < 1000);
    assert.ok((await pending) instanceof APIConnectionError);
  });
});
