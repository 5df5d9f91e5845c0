import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { createJudge, formatUsage, frameRecords, JudgeError, resolveJudgeConfig, scoreAnswerCorrectness, type Judge, type JudgeOptions } from "../src/index";
import { Scheduler } from "../src/judge/scheduler";
import { FakeOpenAI, useFakeOpenAI, type Fault } from "./support/fake-openai";
import { filesUnder, tempDir } from "./support/files";
import { askedText, echoChat, echoRequest } from "./support/requests";
import { RUN_TS } from "./support/run-ts";

const API_KEY = "sk-test-SECRET-0123456789abcdef";
const HEADER_SECRET = "azure-header-secret-42";

const { server, url: serverURL } = useFakeOpenAI(() => ({ chat: echoChat }));

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", apiKey: API_KEY, baseURL: serverURL(), cache: false, retryBaseDelayMs: 5, retryMaxDelayMs: 50, ...options });
}

/** Faults for the first `n` chat requests, then normal answers. */
function firstFaults(...faults: Fault[]): (req: { path: string }) => Fault | undefined {
  let i = 0;
  return (req) => (req.path.endsWith("/chat/completions") ? faults[i++] : undefined);
}

describe("retries", () => {
  const transient: [string, Fault][] = [
    ["429", { kind: "status", status: 429 }],
    ["500", { kind: "status", status: 500 }],
    ["502", { kind: "status", status: 502 }],
    ["503", { kind: "status", status: 503 }],
    ["408", { kind: "status", status: 408 }],
    ["409", { kind: "status", status: 409 }],
    ["a dropped connection", { kind: "drop" }],
    ["a hang past the timeout", { kind: "hang" }],
  ];
  for (const [what, fault] of transient) {
    it(`retries after ${what} and then succeeds`, async () => {
      server.options.fault = firstFaults(fault, fault);
      // Only the hang needs a short timeout; a short one for the others fails a slow attempt on a busy machine.
      const judge = judgeFor({ timeoutMs: fault.kind === "hang" ? 750 : 30_000 });
      const reply = await judge.complete(echoRequest("hello"));
      assert.equal(reply.answer, "echo: hello");
      assert.equal(server.chatRequests().length, 3);
      assert.equal(judge.usage.summary().retries, 2);
    });
  }

  for (const status of [400, 401, 403, 404, 422]) {
    it(`does not retry HTTP ${status}, and fails with the status`, async () => {
      server.options.fault = () => ({ kind: "status", status });
      const judge = judgeFor();
      await assert.rejects(judge.complete(echoRequest("hello")), (error: unknown) => {
        assert.ok(error instanceof JudgeError);
        assert.equal(error.status, status);
        assert.match(error.message, new RegExp(`HTTP ${status} from http://127\\.0\\.0\\.1`));
        return true;
      });
      assert.equal(server.chatRequests().length, 1);
      assert.equal(judge.usage.summary().failures, 1);
      // Calls, said as calls (as the chat calls before them): a batched call's failure is not one row's, and its answers may be asked again alone.
      assert.match(formatUsage(judge.usage.summary()), / · 1 call failed · /);
    });
  }

  it("gives up after maxRetries and says why", async () => {
    server.options.fault = () => ({ kind: "status", status: 503 });
    const judge = judgeFor({ maxRetries: 3 });
    await assert.rejects(judge.complete(echoRequest("x")), /HTTP 503/);
    assert.equal(server.chatRequests().length, 4);
  });

  it("honours Retry-After in seconds", async () => {
    server.options.fault = firstFaults({ kind: "status", status: 429, headers: { "retry-after": "1" } });
    await judgeFor().complete(echoRequest("x"));
    const [first, second] = server.chatRequests();
    assert.ok(second!.receivedAt - first!.receivedAt >= 990, `waited ${second!.receivedAt - first!.receivedAt} ms`);
  });

  it("honours retry-after-ms", async () => {
    server.options.fault = firstFaults({ kind: "status", status: 503, headers: { "retry-after-ms": "400" } });
    await judgeFor({ retryBaseDelayMs: 0 }).complete(echoRequest("x"));
    const [first, second] = server.chatRequests();
    assert.ok(second!.receivedAt - first!.receivedAt >= 390, `waited ${second!.receivedAt - first!.receivedAt} ms`);
  });

  it("holds new requests back when x-ratelimit-remaining-requests runs out", async () => {
    let n = 0;
    server.options.headers = (): Record<string, string> => (n++ === 0 ? { "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "600ms" } : {});
    const judge = judgeFor({ concurrency: 1 });
    await judge.complete(echoRequest("a"));
    await judge.complete(echoRequest("b"));
    const [first, second] = server.chatRequests();
    assert.ok(second!.receivedAt - first!.receivedAt >= 550, `waited ${second!.receivedAt - first!.receivedAt} ms`);
  });

  it("backs off exponentially with full jitter", async () => {
    const delays: number[] = [];
    const scheduler = new Scheduler({ baseDelayMs: 10, maxDelayMs: 35, maxRetries: 4, random: () => 1 });
    let n = 0;
    await assert.rejects(
      scheduler.run({
        attempt: async () => {
          n++;
          throw new Error("boom");
        },
        classify: () => ({ retryable: true }),
        onRetry: (_e, d) => delays.push(d),
      }),
      /boom/,
    );
    assert.equal(n, 5);
    assert.deepEqual(delays, [10, 20, 35, 35]);
    const half: number[] = [];
    const jittered = new Scheduler({ baseDelayMs: 10, maxRetries: 2, random: () => 0.5 });
    await assert.rejects(
      jittered.run({ attempt: async () => Promise.reject(new Error("x")), classify: () => ({ retryable: true }), onRetry: (_e, d) => half.push(d) }),
    );
    assert.deepEqual(half, [5, 10]);
  });
});

describe("concurrency", () => {
  it("never has more requests in flight than the limit, over one judge", async () => {
    server.options.latencyMs = 40;
    const judge = judgeFor({ concurrency: 4 });
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => judge.complete(echoRequest(`c${i}`))));
    assert.equal(replies.length, 24);
    assert.equal(server.maxInFlight, 4);
  });

  it("does not hold a slot while backing off", async () => {
    server.options.latencyMs = 30;
    server.options.fault = firstFaults({ kind: "status", status: 429, headers: { "retry-after-ms": "200" } });
    const judge = judgeFor({ concurrency: 2 });
    const start = Date.now();
    await Promise.all(Array.from({ length: 6 }, (_, i) => judge.complete(echoRequest(`s${i}`))));
    assert.equal(server.maxInFlight <= 2, true);
    assert.ok(Date.now() - start < 2000);
  });
});

describe("structured replies", () => {
  it("falls back to json_object with the schema in the prompt when json_schema is refused, and remembers", async () => {
    server.options.rejectJsonSchema = true;
    const judge = judgeFor();
    assert.equal((await judge.complete(echoRequest("one"))).answer, "echo: one");
    assert.equal((await judge.complete(echoRequest("two"))).answer, "echo: two");
    const formats = server.chatRequests().map((r) => r.body.response_format.type);
    assert.deepEqual(formats, ["json_schema", "json_object", "json_object"]);
    const system = server.chatRequests()[1]!.body.messages[0].content as string;
    assert.match(system, /JSON Schema/);
    assert.match(system, /"answer"/);
  });

  it("sends json_schema strict with the schema", async () => {
    await judgeFor().complete(echoRequest("one"));
    const format = server.chatRequests()[0]!.body.response_format;
    assert.equal(format.json_schema.strict, true);
    assert.equal(format.json_schema.name, "echo_answer");
    assert.deepEqual(format.json_schema.schema.required, ["answer"]);
    assert.equal(format.json_schema.schema.$schema, undefined);
  });

  for (const kind of ["invalid_json", "schema_invalid", "truncated"] as const) {
    it(`retries a reply that is ${kind}, telling the model what was wrong`, async () => {
      server.options.fault = firstFaults({ kind });
      const judge = judgeFor();
      assert.equal((await judge.complete(echoRequest("fix me"))).answer, "echo: fix me");
      const [, second] = server.chatRequests();
      const messages = second!.body.messages as { role: string; content: string }[];
      assert.equal(messages.at(-2)?.role, "assistant");
      assert.match(messages.at(-1)?.content ?? "", /cannot be used/);
    });
  }

  it("fails with an excerpt of the reply when it stays invalid", async () => {
    server.options.fault = () => ({ kind: "invalid_json" });
    const judge = judgeFor({ maxInvalidReplies: 2 });
    await assert.rejects(judge.complete(echoRequest("x")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /no valid reply after 3 attempts/);
      assert.match(error.message, /Sure! Here is the answer: \{not json/);
      return true;
    });
    assert.equal(server.chatRequests().length, 3);
  });

  it("says which limit to raise when every reply is cut off at the token limit", async () => {
    server.options.fault = () => ({ kind: "truncated" });
    await assert.rejects(judgeFor({ maxInvalidReplies: 1, maxTokens: 64 }).complete(echoRequest("x")), /cut off at the token limit.*maxTokens \(64\) is too small for this reply: raise it/);
    await assert.rejects(judgeFor({ maxInvalidReplies: 1 }).complete(echoRequest("y")), /cut off at the token limit.*server's reply limit is too small for this reply/);
  });

  it("runs the request's own check", async () => {
    const request = { ...echoRequest("x"), check: (v: { answer: string }) => (v.answer.includes("x") ? "answer must not repeat x" : undefined) };
    await assert.rejects(judgeFor({ maxInvalidReplies: 1 }).complete(request), /answer must not repeat x/);
  });
});

describe("cache", () => {
  it("answers a repeated request from disk, across judges, with no call", async () => {
    const dir = tempDir();
    const first = judgeFor({ cache: true, cacheDir: dir });
    await first.complete(echoRequest("cached"));
    const second = judgeFor({ cache: true, cacheDir: dir });
    assert.equal((await second.complete(echoRequest("cached"))).answer, "echo: cached");
    assert.equal(server.chatRequests().length, 1);
    assert.equal(second.usage.summary().chatCacheHits, 1);
  });

  it("pays once for identical requests made at the same moment, with the cache on or off", async () => {
    for (const options of [{ cache: true, cacheDir: tempDir() }, { cache: false }]) {
      server.reset();
      server.options.latencyMs = 30;
      const judge = judgeFor(options);
      const replies = await Promise.all([1, 2, 3].map(() => judge.complete(echoRequest("same"))));
      assert.deepEqual(replies.map((r) => r.answer), ["echo: same", "echo: same", "echo: same"]);
      assert.equal(server.chatRequests().length, 1, JSON.stringify(options));
      assert.equal(judge.usage.summary().chatCacheHits, 2);
    }
  });

  it("keys on model, base URL, temperature and prompt version, but not on the API key or headers", async () => {
    const dir = tempDir();
    const ask = (options: JudgeOptions, version = "test-1") =>
      judgeFor({ cache: true, cacheDir: dir, ...options }).complete(echoRequest("same text", version));
    await ask({});
    assert.equal(server.chatRequests().length, 1);
    await ask({ apiKey: "sk-another-key-9999999999", headers: { "x-gateway": "other" } });
    assert.equal(server.chatRequests().length, 1, "another API key or header is a cache hit");
    await ask({ model: "gpt-4o" });
    assert.equal(server.chatRequests().length, 2, "model");
    await ask({ temperature: 0.5 });
    assert.equal(server.chatRequests().length, 3, "temperature");
    await ask({}, "test-2");
    assert.equal(server.chatRequests().length, 4, "prompt version");
    await ask({ seed: 7 });
    assert.equal(server.chatRequests().length, 5, "seed");
    const other = new FakeOpenAI({ chat: echoChat });
    const otherURL = await other.start();
    try {
      await ask({ baseURL: otherURL });
      assert.equal(other.chatRequests().length, 1, "base URL");
    } finally {
      await other.stop();
    }
  });

  it("never writes the API key or header secrets into the cache, nor into error messages", async () => {
    const dir = tempDir();
    const judge = judgeFor({ cache: true, cacheDir: dir, headers: { "api-key": HEADER_SECRET } });
    await judge.complete(echoRequest("secret check"));
    await judge.embed(["a", "b"]);
    const files = filesUnder(dir);
    assert.ok(files.length >= 3);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      assert.ok(!text.includes(API_KEY) && !text.includes(HEADER_SECRET), file);
    }
    assert.equal(server.chatRequests()[0]!.headers["authorization"], `Bearer ${API_KEY}`, "the key is sent");
    server.options.fault = (req) => ({
      kind: "status",
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${req.headers["authorization"]} (api-key ${req.headers["api-key"]})` } },
    });
    await assert.rejects(judge.complete(echoRequest("now failing")), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.ok(!error.message.includes(API_KEY), error.message);
      assert.ok(!error.message.includes("SECRET"), error.message);
      assert.ok(!error.message.includes(HEADER_SECRET), error.message);
      assert.match(error.message, /HTTP 401/);
      return true;
    });
  });

  it("resumes a killed run without paying again for finished calls", async () => {
    const dir = tempDir();
    const n = 40;
    server.options.latencyMs = 60;
    const worker = path.join(__dirname, "support", "judge-worker.ts");
    const child = spawn(process.execPath, [...RUN_TS, worker, serverURL(), dir, String(n)], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (filesUnder(dir).filter((f) => f.endsWith(".json")).length < 12) {
        assert.ok(Date.now() < deadline, "the worker wrote no cache entries");
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const finished = filesUnder(dir).filter((f) => f.endsWith(".json")).length;
    assert.ok(finished >= 12 && finished < n, `${finished} finished before the kill`);
    const firstRun = server.chatRequests().map((r) => askedText(r.body));
    server.reset();

    const rerun = spawn(process.execPath, [...RUN_TS, worker, serverURL(), dir, String(n)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    rerun.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => rerun.on("exit", resolve));
    assert.equal(code, 0);
    const resumed = server.chatRequests().map((r) => askedText(r.body));
    assert.equal(resumed.length, n - finished, "only unfinished items are requested again");
    assert.equal(new Set(resumed).size, resumed.length, "no item twice");
    assert.ok(firstRun.length >= finished);
    assert.deepEqual(JSON.parse(out), { chatCalls: n, cached: finished, http: n - finished });
  });
});

describe("embeddings", () => {
  it("sends unique texts in batches and caches each text", async () => {
    const dir = tempDir();
    const judge = judgeFor({ cache: true, cacheDir: dir, embeddingBatchSize: 100 });
    const texts = Array.from({ length: 450 }, (_, i) => `text ${i % 250}`);
    const vectors = await judge.embed(texts);
    assert.equal(vectors.length, 450);
    assert.deepEqual(vectors[0], vectors[250], "same text, same vector");
    const batches = server.embeddingRequests().map((r) => (r.body.input as string[]).length);
    assert.deepEqual(batches.sort((a, b) => b - a), [100, 100, 50]);
    const sent = server.embeddingRequests().flatMap((r) => r.body.input as string[]);
    assert.equal(new Set(sent).size, sent.length, "no text sent twice");
    server.reset();
    await judge.embed(["text 1", "text 2", "brand new"]);
    assert.deepEqual(server.embeddingRequests().map((r) => r.body.input), [["brand new"]]);
    assert.equal(server.embeddingRequests()[0]!.body.encoding_format, "float");
  });

  it("answers and embeds with a cache folder it cannot write (the replies stay in memory)", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "file"), "not a folder");
    const judge = judgeFor({ cache: true, cacheDir: path.join(dir, "file", "cache") });
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (message: string) => void warnings.push(message);
    try {
      assert.ok(await judge.complete(echoRequest("kept")));
      assert.equal((await judge.embed(["kept"])).length, 1);
      server.reset();
      await judge.complete(echoRequest("kept"));
      assert.equal(server.chatRequests().length, 0, "the paid reply is answered from memory");
    } finally {
      console.warn = warn;
    }
    assert.equal(warnings.length, 1);
  });

  it("fetches again a cached vector that is damaged (strings, nulls, empty) and overwrites it", async () => {
    const dir = tempDir();
    await judgeFor({ cache: true, cacheDir: dir }).embed(["one", "two", "three"]);
    const files = filesUnder(dir).filter((f) => f.endsWith(".json"));
    const damaged = [["x", "y"], [null, 1], []];
    files.forEach((file, i) => {
      const entry = JSON.parse(readFileSync(file, "utf8")) as { key: string; value: unknown };
      writeFileSync(file, JSON.stringify({ key: entry.key, value: damaged[i] }));
    });
    server.reset();
    const vectors = await judgeFor({ cache: true, cacheDir: dir }).embed(["one", "two", "three"]);
    assert.deepEqual(server.embeddingRequests().map((r) => (r.body.input as string[]).length), [3]);
    assert.ok(vectors.every((v) => v.length > 0 && v.every((x) => typeof x === "number")));
    server.reset();
    assert.deepEqual(await judgeFor({ cache: true, cacheDir: dir }).embed(["one", "two", "three"]), vectors);
    assert.equal(server.embeddingRequests().length, 0, "the fetched vectors replaced the damaged entries");
  });

  it("keeps the order of the texts", async () => {
    server.options.embed = (text) => [text.length, 1];
    const vectors = await judgeFor().embed(["aaa", "a", "aa"]);
    assert.deepEqual(vectors, [[3, 1], [1, 1], [2, 1]]);
  });
});

describe("usage", () => {
  it("counts what the server recorded: requests, retries, tokens, cache hits, cost", async () => {
    const dir = tempDir();
    server.options.fault = firstFaults({ kind: "status", status: 500 }, { kind: "invalid_json" });
    const judge = judgeFor({ cache: true, cacheDir: dir });
    const run = judge.newUsage();
    await Promise.all(["a", "b", "c"].map((t) => judge.complete(echoRequest(t), run)));
    await judge.embed(["x", "y", "x"], run);
    await judge.complete(echoRequest("a"), run);
    run.rows = 3;
    const s = run.summary();
    const served = server.totalUsage();
    assert.equal(s.chatHttpRequests, server.chatRequests().length);
    assert.equal(s.embeddingHttpRequests, server.embeddingRequests().length);
    assert.equal(s.chatCalls, 4);
    assert.equal(s.chatCacheHits, 1);
    assert.equal(s.retries, 2);
    assert.equal(s.promptTokens, served.chatPromptTokens);
    assert.equal(s.completionTokens, served.chatCompletionTokens);
    assert.equal(s.embeddingTokens, served.embeddingTokens);
    const expectedCost = (served.chatPromptTokens * 0.15 + served.chatCompletionTokens * 0.6 + served.embeddingTokens * 0.02) / 1e6;
    assert.ok(Math.abs((s.costUSD ?? Number.NaN) - expectedCost) < 1e-12);
    const line = formatUsage(s);
    assert.match(line, /^3 rows · 4 chat calls \(1 cached\) · 1 embedding request · \d+ tokens · 2 retries · ~\$0\.\d+ · [\d.]+ s · gpt-4o-mini @ 127\.0\.0\.1:\d+$/);
    assert.ok(!line.includes(API_KEY));
  });

  it("says the cost is unknown for a model with no price, and takes user prices", async () => {
    const unknown = judgeFor({ model: "llama3.1:8b" });
    await unknown.complete(echoRequest("p"));
    assert.equal(unknown.usage.summary().costUSD, null);
    assert.match(formatUsage(unknown.usage.summary()), /cost unknown \(no price for llama3\.1:8b\)/);
    const priced = judgeFor({ model: "llama3.1:8b", prices: { "llama3.1": { input: 1_000_000, output: 0 } } });
    await priced.complete(echoRequest("p"));
    assert.equal(priced.usage.summary().costUSD, priced.usage.summary().promptTokens, "1,000,000 USD per 1M tokens: one dollar a token");
  });
});

describe("choosing a judge", () => {
  it("is offline, with a notice, when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set", () => {
    const config = resolveJudgeConfig({}, {});
    assert.equal(config.kind, "offline");
    assert.match(config.offlineNotice ?? "", /offline judge \(approximate/);
    assert.equal(resolveJudgeConfig({ quiet: true }, {}).offlineNotice, undefined);
  });

  it("talks to a server when either is set, with Ragas' default models", () => {
    const a = resolveJudgeConfig({}, { OPENAI_API_KEY: "sk-x" });
    assert.equal(a.kind, "openai");
    assert.equal(a.baseURL, "https://api.openai.com/v1");
    assert.deepEqual([a.model, a.visionModel, a.embeddingModel], ["gpt-4o-mini", "gpt-4o", "text-embedding-3-small"]);
    const b = resolveJudgeConfig({}, { OPENAI_BASE_URL: "http://localhost:11434/v1/" });
    assert.equal(b.kind, "openai");
    assert.equal(b.baseURL, "http://localhost:11434/v1");
    assert.equal(resolveJudgeConfig({ judge: "offline" }, { OPENAI_API_KEY: "sk-x" }).kind, "offline");
  });

  it("refuses options that cannot work, naming them", () => {
    assert.throws(() => resolveJudgeConfig({ judge: "openai" }, {}), /needs an API key/);
    assert.throws(() => resolveJudgeConfig({ concurrency: 0 }, {}), /concurrency must be a whole number of at least 1/);
    assert.throws(() => resolveJudgeConfig({ temperature: 3 }, {}), /temperature must be between 0 and 2/);
    assert.throws(() => resolveJudgeConfig({ baseURL: "ftp://x" }, {}), /base URL must be an http\(s\) URL/);
  });
});

describe("a server that is not there", () => {
  async function closedPort(): Promise<number> {
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  it("stops asking after 3 refused connections, and every row fails at once with a message that says what to check", async () => {
    const judge = createJudge({ judge: "openai", apiKey: API_KEY, baseURL: `http://127.0.0.1:${await closedPort()}/v1`, cache: false, retryBaseDelayMs: 50 });
    const rows = Array.from({ length: 30 }, (_, i) => ({ user_input: `Q${i}?`, response: "An answer.", reference: "A reference." }));
    const scored = await scoreAnswerCorrectness(rows, { judge, progress: false, quiet: true });
    const errors = frameRecords(scored).map((r) => String(r["answer_correctness_error"]));
    assert.equal(errors.filter((e) => /could not reach http:\/\/127\.0\.0\.1:\d+\/v1 \(connect ECONNREFUSED .*\): 3 connections failed so before the server ever answered/.test(e)).length, 30);
    assert.ok(errors.every((e) => /is the server running, and is the base URL/.test(e)));
    // Before: every row retried 6 times (180+ retries over about 30 s).
    assert.ok(judge.usage.summary().retries <= 20, `${judge.usage.summary().retries} retries`);
  });

  it("keeps retrying a server that answered before and then went away (its usual retry budget)", async () => {
    const fake = new FakeOpenAI();
    fake.options = { chat: echoChat };
    const url = await fake.start();
    const judge = createJudge({ judge: "openai", apiKey: API_KEY, baseURL: url, cache: false, maxRetries: 4, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
    await judge.complete(echoRequest("first"));
    await fake.stop();
    await assert.rejects(judge.complete(echoRequest("second")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /could not reach .*ECONNREFUSED/);
      assert.doesNotMatch(error.message, /stops asking/);
      return true;
    });
    assert.equal(judge.usage.summary().retries, 4);
  });
});
