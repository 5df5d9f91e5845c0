/**
 * Faults of a real server that a judge must name and bound (QA pass on the
 * OpenAI-compatible judge): a used-up quota, a refused key and an unknown
 * model stop the run after a few refusals instead of asking once per row (or
 * waiting out the rate-limit budget); a reply cut off mid-body, or a 200
 * whose body is not a JSON chat completion, is retried and then named; a
 * reasoning model's think block before its JSON is read past; a reply with
 * no choices or no content says so; a runaway reply is refused unread; and
 * `cacheDir: false` is a clear TypeError. Everything goes through the fake
 * OpenAI server, some of it through a front that cuts or swaps its replies.
 */
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { createJudge, frameRecords, JudgeError, scoreAnswerCorrectness, type Judge, type JudgeOptions } from "../src/index";
import { useFakeOpenAI, type Fault, type RecordedRequest } from "./support/fake-openai";
import { echoChat, echoRequest } from "./support/requests";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const API_KEY = "sk-test-FAULTS-0123456789abcdef";

const { server, url: serverURL } = useFakeOpenAI(() => ({ chat: echoChat }));

/** What the front does to one reply of the fake server. */
type Mangle =
  /** The status, headers and half the body, then the socket is destroyed. */
  | { kind: "cut" }
  /** The status, headers and half the body, then nothing more (until the client gives up). */
  | { kind: "stall" }
  /** 200 with this body and content type instead of the fake server's reply. */
  | { kind: "replace"; contentType: string; body: string };

/**
 * A front for the fake server: forwards each request to it (so the fake
 * records and answers it) and passes its reply back, or cuts, stalls or
 * swaps it as `mangle` says for the n-th request (0-based, over the test).
 */
class MangleFront {
  mangle: (n: number, path: string) => Mangle | undefined = () => undefined;
  private seen = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private base = "";

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const target = new URL(serverURL());
        const mangle = this.mangle(this.seen++, req.url ?? "");
        const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
        const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (up) => {
          const body: Buffer[] = [];
          up.on("data", (c: Buffer) => body.push(c));
          up.on("end", () => {
            const whole = Buffer.concat(body);
            if (mangle?.kind === "replace") {
              res.writeHead(200, { "content-type": mangle.contentType, "content-length": String(Buffer.byteLength(mangle.body)) });
              res.end(mangle.body);
              return;
            }
            res.writeHead(up.statusCode ?? 500, up.headers);
            if (mangle === undefined) res.end(whole);
            else if (mangle.kind === "cut") res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
            else res.write(whole.subarray(0, whole.length >> 1));
          });
        });
        upstream.on("error", () => res.socket?.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  /** The front's base URL, ending in /v1. */
  url(): string {
    return this.base;
  }

  reset(): void {
    this.seen = 0;
    this.mangle = () => undefined;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const front = new MangleFront();
before(() => front.start());
after(() => front.stop());
beforeEach(() => front.reset());

function judgeFor(options: JudgeOptions = {}, env: Record<string, string> = {}): Judge {
  return createJudge({ judge: "openai", apiKey: API_KEY, baseURL: serverURL(), cache: false, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options }, env);
}

const onChat = (req: RecordedRequest): boolean => req.path.endsWith("/chat/completions");

/** Scores `n` answer-correctness rows; returns each row's error and the time it took. */
async function scoreRows(judge: Judge, n: number): Promise<{ errors: string[]; ms: number }> {
  const rows = Array.from({ length: n }, (_, i) => ({ user_input: `Question ${i}?`, response: `Answer ${i}. It is so.`, reference: `Reference ${i}. It is so.` }));
  const t = Date.now();
  const scored = await scoreAnswerCorrectness(rows, { judge, progress: false, quiet: true });
  return { errors: frameRecords(scored).map((r) => String(r["answer_correctness_error"] ?? "")), ms: Date.now() - t };
}

const QUOTA_BODY = {
  error: {
    message: "You exceeded your current quota, please check your plan and billing details.",
    type: "insufficient_quota",
    param: null,
    code: "insufficient_quota",
  },
};

// Before the fixes, these waited out the rate-limit budget or a stalled body for good: a timeout fails them instead.
describe("a used-up quota", { timeout: 10_000 }, () => {
  it("is not waited out as a rate limit: the run stops after a few refusals and every row fails with the reason", async () => {
    server.options = { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, fault: () => ({ kind: "status", status: 429, body: QUOTA_BODY }) };
    // Before: each request waited on "rate limits" until rateLimitWaitMs (30 min by default).
    const judge = judgeFor({ concurrency: 4, rateLimitWaitMs: 20_000 });
    const { errors, ms } = await scoreRows(judge, 27);
    assert.equal(errors.length, 27, "no row lost");
    for (const e of errors) {
      assert.match(e, /the API key's quota is used up \(insufficient_quota\) at http:\/\/127\.0\.0\.1:\d+\/v1: check the account's plan and billing/);
    }
    assert.ok(errors.some((e) => /so the run stops asking/.test(e)), errors[26]);
    assert.ok(server.requests.length <= 4 + 3, `${server.requests.length} requests`);
    assert.equal(judge.usage.summary().retries, 0);
    assert.ok(ms < 3_000, `took ${ms} ms`);
  });

  it("is known by its type alone, and fails its request without a retry", async () => {
    server.options.fault = () => ({ kind: "status", status: 429, body: { error: { message: "quota", type: "insufficient_quota" } } });
    await assert.rejects(judgeFor({ rateLimitWaitMs: 20_000 }).complete(echoRequest("q")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.equal(error.status, 429);
      assert.equal(error.retryable, false);
      assert.match(error.message, /quota is used up \(insufficient_quota\)/);
      return true;
    });
    assert.equal(server.chatRequests().length, 1);
  });
});

describe("a refused key or an unknown model", () => {
  it("401 on every request: the run stops after a few, and says which key to check", async () => {
    server.options = { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, fault: () => ({ kind: "status", status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } }) };
    // The key from the environment, as most runs have it.
    const judge = createJudge({ judge: "openai", baseURL: serverURL(), cache: false, concurrency: 4 }, { OPENAI_API_KEY: API_KEY });
    const { errors } = await scoreRows(judge, 27);
    assert.equal(errors.length, 27);
    for (const e of errors) {
      assert.match(e, /HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.match(e, /check EVALFRAME_API_KEY \/ OPENAI_API_KEY \(this key came from OPENAI_API_KEY\), or the key for this base URL/);
      assert.ok(!e.includes(API_KEY), e);
    }
    assert.ok(errors.some((e) => /so the run stops asking/.test(e)));
    // Before: 36 requests for 27 rows, one per row's call.
    assert.ok(server.requests.length <= 4 + 3, `${server.requests.length} requests`);
  });

  it("404 on every request: the run stops after a few, and says to check the model and the base URL", async () => {
    server.options = { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, fault: () => ({ kind: "status", status: 404, body: { error: { message: "The model `gpt-nope` does not exist", type: "invalid_request_error", code: "model_not_found" } } }) };
    const judge = judgeFor({ model: "gpt-nope", concurrency: 4 });
    const { errors } = await scoreRows(judge, 27);
    assert.equal(errors.length, 27);
    for (const e of errors) assert.match(e, /HTTP 404 from http:\/\/127\.0\.0\.1:\d+\/v1.*check (--model \/ EVALFRAME_MODEL|--embedding-model \/ EVALFRAME_EMBEDDING_MODEL) and the base URL/);
    assert.ok(errors.some((e) => /"gpt-nope".*so the run stops asking for it/.test(e)));
    assert.ok(server.chatRequests().length <= 4 + 3, `${server.chatRequests().length} chat requests`);
  });

  it("402 (payment required) on every request: the run stops after a few, and says to check credits and billing", async () => {
    server.options = { chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, fault: () => ({ kind: "status", status: 402, body: { error: { message: "Insufficient credits", code: 402 } } }) };
    const judge = judgeFor({ concurrency: 4 });
    const { errors } = await scoreRows(judge, 27);
    assert.equal(errors.length, 27);
    for (const e of errors) assert.match(e, /HTTP 402 from http:\/\/127\.0\.0\.1:\d+\/v1.*check the account's credits and billing/);
    assert.ok(errors.some((e) => /so the run stops asking/.test(e)));
    assert.ok(server.requests.length <= 4 + 3, `${server.requests.length} requests`);
  });

  it("403 for one model stops only that model's requests, and says to check the key's permissions for it", async () => {
    server.options.fault = (req) => (req.body?.model === "vision-denied" ? { kind: "status", status: 403, body: { error: { message: "You are not allowed to sample from this model", type: "invalid_request_error" } } } : undefined);
    const judge = judgeFor({ concurrency: 1, visionModel: "vision-denied" });
    for (let i = 0; i < 5; i++) {
      await assert.rejects(judge.complete({ ...echoRequest(`v${i}`), model: "vision-denied" }), /HTTP 403 .*permissions for this model \(--vision-model \/ EVALFRAME_VISION_MODEL\)/);
      assert.equal((await judge.complete(echoRequest(`t${i}`))).answer, `echo: t${i}`);
    }
    assert.equal(server.chatRequests().filter((r) => r.body.model === "vision-denied").length, 3);
    assert.equal(server.chatRequests().filter((r) => r.body.model !== "vision-denied").length, 5);
  });

  it("does not stop when successes come between the failures: each 404 fails only its own request", async () => {
    let chats = 0;
    // Two 404s, one success, two 404s, ...: never three in a row.
    server.options.fault = (req) => (onChat(req) && chats++ % 3 !== 2 ? { kind: "status", status: 404 } : undefined);
    const judge = judgeFor({ concurrency: 1 });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      outcomes.push(await judge.complete(echoRequest(`r${i}`)).then(
        () => "ok",
        (e: Error) => (/stops asking/.test(e.message) ? "stopped" : "404"),
      ));
    }
    assert.deepEqual(outcomes, ["404", "404", "ok", "404", "404", "ok", "404", "404", "ok", "404", "404", "ok"]);
    assert.equal(server.chatRequests().length, 12);
  });

  it("a model not found stops only the requests for that model", async () => {
    server.options.fault = (req) => (req.body?.model === "vision-nope" ? { kind: "status", status: 404 } : undefined);
    const judge = judgeFor({ concurrency: 1, visionModel: "vision-nope" });
    for (let i = 0; i < 5; i++) {
      await assert.rejects(judge.complete({ ...echoRequest(`v${i}`), model: "vision-nope" }), /check --vision-model \/ EVALFRAME_VISION_MODEL and the base URL/);
      assert.equal((await judge.complete(echoRequest(`t${i}`))).answer, `echo: t${i}`);
    }
    // Three 404s for the vision model (then it is not asked again); every text request answered.
    assert.equal(server.chatRequests().filter((r) => r.body.model === "vision-nope").length, 3);
    assert.equal(server.chatRequests().filter((r) => r.body.model !== "vision-nope").length, 5);
  });
});

describe("a reply cut off mid-body", { timeout: 10_000 }, () => {
  it("is retried like a dropped connection", async () => {
    front.mangle = (n) => (n < 2 ? { kind: "cut" } : undefined);
    const judge = judgeFor({ baseURL: front.url() });
    assert.equal((await judge.complete(echoRequest("cut"))).answer, "echo: cut");
    assert.equal(server.chatRequests().length, 3);
    assert.equal(judge.usage.summary().retries, 2);
  });

  it("says the connection closed while reading the reply when retries run out", async () => {
    front.mangle = () => ({ kind: "cut" });
    await assert.rejects(judgeFor({ baseURL: front.url(), maxRetries: 2 }).complete(echoRequest("cut")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /the connection closed while reading the reply from http:\/\/127\.0\.0\.1:\d+\/v1/);
      return true;
    });
    assert.equal(server.chatRequests().length, 3);
  });

  it("a reply that starts and then stalls times out, and is retried", async () => {
    front.mangle = (n) => (n < 1 ? { kind: "stall" } : undefined);
    const judge = judgeFor({ baseURL: front.url(), timeoutMs: 400 });
    assert.equal((await judge.complete(echoRequest("stall"))).answer, "echo: stall");
    assert.equal(server.chatRequests().length, 2);
    front.mangle = () => ({ kind: "stall" });
    await assert.rejects(judgeFor({ baseURL: front.url(), timeoutMs: 300, maxRetries: 0 }).complete(echoRequest("stalls")), /no complete reply within 300 ms from http:\/\/127\.0\.0\.1/);
  });
});

describe("a 200 whose body is not a JSON chat completion", () => {
  const truncated: Fault = { kind: "status", status: 200, body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"mess' };

  it("truncated JSON is retried, then succeeds", async () => {
    let chats = 0;
    server.options.fault = (req) => (onChat(req) && chats++ < 2 ? truncated : undefined);
    const judge = judgeFor();
    assert.equal((await judge.complete(echoRequest("t"))).answer, "echo: t");
    assert.equal(server.chatRequests().length, 3);
  });

  it("a byte-order mark before the JSON body, or before the model's JSON, is read past on the first try", async () => {
    const completion = { id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: '{"answer":"echo: bom"}' }, finish_reason: "stop" }] };
    front.mangle = () => ({ kind: "replace", contentType: "application/json; charset=utf-8", body: `\ufeff${JSON.stringify(completion)}` });
    assert.equal((await judgeFor({ baseURL: front.url() }).complete(echoRequest("bom"))).answer, "echo: bom");
    assert.equal(server.chatRequests().length, 1, "not asked again");
    front.mangle = () => undefined;
    server.reset();
    server.options.chat = () => '\ufeff{"answer": "echo: content"}';
    assert.equal((await judgeFor().complete(echoRequest("content"))).answer, "echo: content");
    assert.equal(server.chatRequests().length, 1, "not asked again with a correction");
  });

  it("token counts a server gets wrong (negative, absurdly large) count as 0, never as a negative or infinite cost", async () => {
    const completion = {
      id: "c",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: '{"answer":"echo: u"}' }, finish_reason: "stop" }],
      usage: { prompt_tokens: -5_000_000, completion_tokens: 1e300, prompt_tokens_details: { cached_tokens: -7 } },
    };
    front.mangle = () => ({ kind: "replace", contentType: "application/json", body: JSON.stringify(completion) });
    const judge = judgeFor({ baseURL: front.url(), prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } });
    await judge.complete(echoRequest("u"));
    await judge.complete(echoRequest("u2"));
    const usage = judge.usage.summary();
    assert.equal(usage.promptTokens, 0);
    assert.equal(usage.completionTokens, 0);
    assert.equal(usage.costUSD, 0);
  });

  it("a timeout longer than Node's timers hold (over 24.8 days, to mean 'none') is taken as that, not as no time at all", async () => {
    server.options.latencyMs = 30;
    const judge = judgeFor({ timeoutMs: 3_000_000_000, maxRetries: 0 });
    assert.equal((await judge.complete(echoRequest("patient"))).answer, "echo: patient");
    assert.equal((await judge.embed(["patient"]))[0]!.length > 0, true);
  });

  it("truncated JSON, when retries run out, is named without the parser's words", async () => {
    server.options.fault = () => truncated;
    await assert.rejects(judgeFor({ maxRetries: 1 }).complete(echoRequest("t")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /the server's reply was not a JSON chat completion \(JSON cut off or malformed: .*\) from http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.doesNotMatch(error.message, /Unexpected end of JSON input/);
      return true;
    });
    assert.equal(server.chatRequests().length, 2);
  });

  it("an HTML gateway page is retried, then named as one", async () => {
    const page = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>";
    front.mangle = () => ({ kind: "replace", contentType: "text/html", body: page });
    await assert.rejects(judgeFor({ baseURL: front.url(), maxRetries: 2 }).complete(echoRequest("h")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /the server's reply was not a JSON chat completion \(an HTML page: "502 Bad Gateway"\) from http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.doesNotMatch(error.message, /Cannot read properties/);
      return true;
    });
    assert.equal(server.chatRequests().length, 3);
    front.mangle = (n) => (n === 0 ? { kind: "replace", contentType: "text/html; charset=utf-8", body: page } : undefined);
    assert.equal((await judgeFor({ baseURL: front.url() }).complete(echoRequest("h2"))).answer, "echo: h2");
  });

  it("an embeddings reply is read the same way", async () => {
    front.mangle = (_n, path) => (path.endsWith("/embeddings") ? { kind: "replace", contentType: "text/html", body: "<html><body><h1>Service Unavailable</h1></body></html>" } : undefined);
    await assert.rejects(
      judgeFor({ baseURL: front.url(), maxRetries: 1 }).embed(["a", "b"]),
      /embeddings request to .*: the server's reply was not a JSON embeddings reply \(an HTML page: "Service Unavailable"\) from http:\/\/127\.0\.0\.1/,
    );
    assert.equal(server.embeddingRequests().length, 2);
    front.mangle = (n) => (n === 0 ? { kind: "cut" } : undefined);
    assert.equal((await judgeFor({ baseURL: front.url() }).embed(["c"])).length, 1);
  });

  it("JSON that is not a chat completion is named too", async () => {
    server.options.fault = () => ({ kind: "status", status: 200, body: { result: "upstream model crashed" } });
    await assert.rejects(judgeFor({ maxRetries: 0 }).complete(echoRequest("j")), /not a JSON chat completion \(JSON with no "choices" list: \{"result".*upstream model crashed.*\) from/);
    // A 200 that carries an error says it with the server's own words (test/srv-servers.test.ts has more).
    server.options.fault = () => ({ kind: "status", status: 200, body: { error: { message: "upstream model crashed" } } });
    await assert.rejects(judgeFor({ maxRetries: 0 }).complete(echoRequest("k")), /HTTP 200 with an error in the body: "upstream model crashed" from/);
  });
});

describe("reasoning models' think blocks", () => {
  const cases: [string, string][] = [
    ["<think> before the JSON", '<think>\nThe user wants an echo. {"answer": "wrong"} is not it.\n</think>\n\n{"answer": "echo: x"}'],
    ["<reasoning> before a fenced block", '<reasoning>Echo it.</reasoning>\n```json\n{"answer": "echo: x"}\n```'],
    ["only the end of the block (the template opened it)", 'Okay, an echo.\n</think>\n{"answer": "echo: x"}'],
    ["<thinking> blocks, twice", '<thinking>a</thinking><thinking>b</thinking>{"answer": "echo: x"}'],
  ];
  for (const [what, content] of cases) {
    it(`reads the JSON after ${what}, at the first attempt`, async () => {
      server.options.chat = () => content;
      assert.equal((await judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("x"))).answer, "echo: x");
      assert.equal(server.chatRequests().length, 1);
    });
  }

  it("still refuses a think block with no JSON after it, quoting what followed", async () => {
    server.options.chat = () => "<think>hmm</think>I cannot answer that.";
    await assert.rejects(judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("x")), /not valid JSON: "I cannot answer that\."/);
  });
});

describe("a reply with nothing to read", () => {
  const completion = (choices: unknown[]): Fault => ({ kind: "status", status: 200, body: { id: "chatcmpl-x", object: "chat.completion", model: "m", choices } });

  it("no choices: says so", async () => {
    server.options.fault = () => completion([]);
    await assert.rejects(judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("x")), (error: unknown) => {
      assert.match((error as Error).message, /last problem: the reply had no choices/);
      assert.doesNotMatch((error as Error).message, /not valid JSON/);
      return true;
    });
  });

  it("content null: says so, with the finish reason", async () => {
    server.options.fault = () => completion([{ index: 0, message: { role: "assistant", content: null }, finish_reason: "content_filter" }]);
    await assert.rejects(judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("x")), /last problem: the reply's message had no content \(finish_reason "content_filter"/);
    server.options.fault = () => completion([{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }]);
    await assert.rejects(judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("x")), /last problem: the model refused: "I can't help with that\."/);
  });
});

describe("a runaway reply", () => {
  it("larger than 8 MB fails its request, unread and not sent again", async () => {
    const huge = "x".repeat(9 * 1024 * 1024);
    server.options.chat = () => ({ answer: huge });
    await assert.rejects(judgeFor().complete(echoRequest("big")), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, /the reply from http:\/\/127\.0\.0\.1:\d+\/v1 is larger than 8 MB, so it was not read/);
      assert.match(error.message, /maxTokens/);
      return true;
    });
    assert.equal(server.chatRequests().length, 1);
  });
});

describe("createJudge options", () => {
  it("cacheDir: false is a TypeError that says to use cache: false", () => {
    assert.throws(
      () => createJudge({ judge: "openai", apiKey: API_KEY, cacheDir: false as unknown as string }),
      (error: unknown) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /cacheDir must be the cache folder's path .*got false; to turn the cache off, use cache: false/);
        return true;
      },
    );
  });

  it("a key that is not a string is refused without showing it", () => {
    assert.throws(() => createJudge({ judge: "openai", apiKey: 12345678 as unknown as string }), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /apiKey must be a string, got a number/);
      assert.ok(!error.message.includes("12345678"));
      return true;
    });
  });
});
