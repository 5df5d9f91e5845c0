/**
 * The OpenAI-compatible servers teams actually run (Azure OpenAI, Ollama,
 * vLLM, LM Studio, llama.cpp server), each imitated on the wire by a small
 * real HTTP server with that server's habits: where it serves the API, how it
 * wants the key, what its errors and odd replies look like. Each test is what
 * a user sees: a reply read correctly, or a failure that names the server's
 * problem and the setting that fixes it, with no retrying of what cannot
 * mend and no secret in what is shown or kept.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { createJudge, formatUsage, JudgeError, type Judge, type JudgeOptions } from "../src/index";
import { echoRequest } from "./support/requests";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

/** One request as the persona server received it. */
interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
  body: any;
}

/** What a persona answers: a status, headers and a body (an object is sent as JSON). */
interface Answer {
  /** 0: never answer (a server still loading its model). */
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A real HTTP server whose every answer comes from `persona`, recording each request. */
class PersonaServer {
  persona: (req: Seen) => Answer = () => ({ status: 500, body: { error: { message: "no persona" } } });
  readonly seen: Seen[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  origin = "";

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://x");
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          body = undefined;
        }
        const seen: Seen = { method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
        this.seen.push(seen);
        const answer = this.persona(seen);
        if (answer.status === 0) return;
        const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers, "content-length": String(Buffer.byteLength(text)) });
        res.end(text);
      });
    });
    this.server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const srv = new PersonaServer();
before(() => srv.start());
after(() => srv.stop());
beforeEach(() => {
  srv.seen.length = 0;
});

/** A chat completion with this content, as most servers send it. */
function completion(content: string | null, extra: { finish_reason?: string; usage?: unknown; noId?: boolean } = {}): Record<string, unknown> {
  return {
    ...(extra.noId ? {} : { id: "chatcmpl-1" }),
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: extra.finish_reason ?? "stop" }],
    ...(extra.usage === undefined ? { usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } } : extra.usage === null ? {} : { usage: extra.usage }),
  };
}

/** The echo reply to a recorded chat request. */
function echoOf(req: Seen): string {
  const user = (req.body?.messages as { role: string; content: unknown }[]).find((m) => m.role === "user");
  return JSON.stringify({ answer: `echo: ${String(user?.content)}` });
}

function judgeFor(options: JudgeOptions = {}): Judge {
  return createJudge({ judge: "openai", baseURL: `${srv.origin}/v1`, cache: false, retryBaseDelayMs: 1, retryMaxDelayMs: 5, ...options }, {});
}

async function failureOf(work: Promise<unknown>): Promise<JudgeError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof JudgeError, `expected a JudgeError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the request to fail");
}

const chats = (): Seen[] => srv.seen.filter((r) => r.path.endsWith("/chat/completions"));
const embeds = (): Seen[] => srv.seen.filter((r) => r.path.endsWith("/embeddings"));

describe("llama.cpp server", () => {
  it("started without --embeddings (501): fails at the first request, not retried, and says how to serve embeddings", async () => {
    srv.persona = (req) =>
      req.path === "/v1/embeddings"
        ? { status: 501, body: { error: { code: 501, message: "This server does not support embeddings. Start it with `--embeddings`", type: "not_supported_error" } } }
        : { status: 200, body: completion(echoOf(req)) };
    const judge = judgeFor({ maxRetries: 3 });
    const error = await failureOf(judge.embed(["a", "b"]));
    assert.equal(embeds().length, 1, `a 501 cannot mend: sent ${embeds().length} times`);
    assert.match(error.message, /HTTP 501/);
    assert.match(error.message, /EVALFRAME_EMBEDDING_BASE_URL/, error.message);
    assert.equal(error.retryable, false, "a 501 is not retryable");
  });

  it("a reply with no id, and n and seed ignored, is read", async () => {
    srv.persona = (req) => ({ status: 200, body: completion(echoOf(req), { noId: true }) });
    const judge = judgeFor({ seed: 7 });
    const reply = await judge.complete(echoRequest("hi"));
    assert.deepEqual(reply, { answer: "echo: hi" });
  });
});

describe("replies in another wrapping", () => {
  it("a server-sent-event stream sent though no stream was asked for is read as the whole reply, at the first attempt", async () => {
    const parts = ['{"answer": ', '"echo: ', 'sse"}'];
    srv.persona = () => ({
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body:
        parts.map((p, i) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: i === 0 ? { role: "assistant", content: p } : { content: p }, finish_reason: null }] })}\n\n`).join("") +
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 } })}\n\n` +
        "data: [DONE]\n\n",
    });
    const judge = judgeFor();
    const usage = judge.newUsage();
    const reply = await judge.complete(echoRequest("sse"), usage);
    assert.deepEqual(reply, { answer: "echo: sse" });
    assert.equal(chats().length, 1, "read at the first attempt");
    assert.equal(usage.summary().promptTokens, 11);
  });

  it("HTTP 200 with an error object in the body: the server's own message is shown", async () => {
    srv.persona = () => ({ status: 200, body: { error: { message: "llama runner process has terminated: signal: killed", type: "api_error" } } });
    const judge = judgeFor({ maxRetries: 1 });
    const error = await failureOf(judge.complete(echoRequest("x")));
    assert.match(error.message, /llama runner process has terminated: signal: killed/);
    assert.match(error.message, /an error/i, error.message);
  });
});

describe("Azure OpenAI, the per-deployment API", () => {
  const KEY = "azure-key-0123456789abcdef0123";
  /** Azure: the deployment in the path, api-version in the query, the key in an api-key header. */
  const azure = (req: Seen): Answer => {
    if (req.headers["api-key"] !== KEY) return { status: 401, body: { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } } };
    if (req.query["api-version"] === undefined) return { status: 404, body: { error: { code: "404", message: "Resource not found" } } };
    const m = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(req.path);
    if (!m) return { status: 404, body: { error: { code: "404", message: "Resource not found" } } };
    if (m[2] === "embeddings") return { status: 200, body: { object: "list", data: (req.body.input as string[]).map((_, i) => ({ object: "embedding", index: i, embedding: [1, i + 1, m[1]!.length] })), usage: { prompt_tokens: 3, total_tokens: 3 } } };
    return { status: 200, body: completion(JSON.stringify({ answer: `from ${m[1]}` })) };
  };
  const options = (deployment: string, cacheDir: string | undefined): JudgeOptions => ({
    baseURL: `${srv.origin}/openai/deployments/${deployment}?api-version=2024-10-21`,
    embeddingBaseURL: `${srv.origin}/openai/deployments/embed-small?api-version=2024-10-21`,
    headers: { "api-key": KEY },
    ...(cacheDir === undefined ? { cache: false } : { cacheDir }),
  });

  it("sends chat to the chat deployment and embeddings to theirs, with the api-key header and api-version", async () => {
    srv.persona = azure;
    const judge = judgeFor(options("chat-prod", undefined));
    assert.deepEqual(await judge.complete(echoRequest("a")), { answer: "from chat-prod" });
    assert.equal((await judge.embed(["x"]))[0]!.length, 3);
    assert.deepEqual(
      srv.seen.map((r) => r.headers.authorization ?? "none"),
      ["none", "none"],
      "the api-key header is the only credential sent: no placeholder bearer token beside it",
    );
    assert.deepEqual(
      srv.seen.map((r) => `${r.path}?${r.query["api-version"]}`),
      ["/openai/deployments/chat-prod/chat/completions?2024-10-21", "/openai/deployments/embed-small/embeddings?2024-10-21"],
    );
  });

  it("two deployments under one model name never share cached answers, and the key is in no cache file", async () => {
    srv.persona = azure;
    const dir = mkdtempSync(join(tmpdir(), "srv-azure-"));
    try {
      assert.deepEqual(await judgeFor(options("chat-a", dir)).complete(echoRequest("same")), { answer: "from chat-a" });
      assert.deepEqual(await judgeFor(options("chat-b", dir)).complete(echoRequest("same")), { answer: "from chat-b" });
      const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)]));
      for (const f of files(dir)) assert.ok(!readFileSync(f, "utf8").includes(KEY), `the api-key is in ${f}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the judge's label names the deployment, so two deployments' results are told apart", () => {
    assert.equal(judgeFor(options("chat-a", undefined)).label, `gpt-4o-mini @ ${srv.origin.slice(7)}/openai/deployments/chat-a (embeddings: text-embedding-3-small @ ${srv.origin.slice(7)}/openai/deployments/embed-small)`);
    assert.equal(createJudge({ baseURL: "https://res.openai.azure.com/openai/v1", model: "chat-a" }, {}).label, "chat-a @ res.openai.azure.com");
    assert.equal(createJudge({ baseURL: "http://proxy:8080/team-a/llm/v1/", model: "m" }, {}).label, "m @ proxy:8080/team-a/llm");
  });

  it("a content-filter refusal (400, code content_filter) is not retried, says so, and shows no key", async () => {
    srv.persona = (req) =>
      req.headers["api-key"] === KEY
        ? { status: 400, body: { error: { code: "content_filter", status: 400, message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", innererror: { code: "ResponsibleAIPolicyViolation" } } } }
        : { status: 401, body: { error: { message: "no key" } } };
    const judge = judgeFor(options("chat-prod", undefined));
    const error = await failureOf(judge.complete(echoRequest("b")));
    assert.equal(chats().length, 1, `sent ${chats().length} times`);
    assert.match(error.message, /content management policy/);
    assert.ok(!error.message.includes(KEY), "no key in the error");
  });

  it("a content-filtered reply (finish_reason content_filter, no content) says the content filter withheld it, asked once", async () => {
    srv.persona = () => ({ status: 200, body: completion(null, { finish_reason: "content_filter" }) });
    const error = await failureOf(judgeFor({ ...options("chat-prod", undefined), maxInvalidReplies: 2 }).complete(echoRequest("c")));
    assert.match(error.message, /content filter/);
    assert.equal(chats().length, 1, `the same prompt is filtered again: asked ${chats().length} times`);
  });

  it("a reasoning-model deployment (o3-mini) that refuses temperature 0 and max_tokens: asked again without them, once, and remembered", async () => {
    srv.persona = (req) => {
      if (req.body.temperature !== undefined && req.body.temperature !== 1) {
        return { status: 400, body: { error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: "invalid_request_error", param: "temperature", code: "unsupported_value" } } };
      }
      if (req.body.max_tokens !== undefined) {
        return { status: 400, body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: "invalid_request_error", param: "max_tokens", code: "unsupported_parameter" } } };
      }
      return azure(req);
    };
    const judge = judgeFor({ ...options("o3-mini", undefined), maxTokens: 2000 });
    assert.deepEqual(await judge.complete(echoRequest("a")), { answer: "from o3-mini" });
    assert.deepEqual(await judge.complete(echoRequest("b")), { answer: "from o3-mini" });
    assert.equal(chats().length, 4, "two refusals, then each request once");
    assert.equal(chats()[3]!.body.max_completion_tokens, 2000);
  });

  it("a 429 with retry-after-ms is waited out, not failed", async () => {
    let n = 0;
    srv.persona = (req) => (n++ < 2 ? { status: 429, headers: { "retry-after-ms": "20" }, body: { error: { code: "429", message: "Requests to the ChatCompletions_Create Operation have exceeded call rate limit." } } } : azure(req));
    assert.deepEqual(await judgeFor({ ...options("chat-prod", undefined), maxRetries: 0 }).complete(echoRequest("d")), { answer: "from chat-prod" });
  });
});

describe("vLLM", () => {
  it("prompt plus max_tokens over the context (400): not retried, and says to lower max tokens", async () => {
    srv.persona = () => ({
      status: 400,
      body: { object: "error", message: "This model's maximum context length is 8192 tokens. However, you requested 10000 tokens (2000 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.", type: "BadRequestError", param: null, code: 400 },
    });
    const judge = judgeFor({ model: "Qwen/Qwen2.5-7B-Instruct", maxTokens: 8000 });
    const error = await failureOf(judge.complete(echoRequest("x")));
    assert.equal(chats().length, 1);
    assert.match(error.message, /maximum context length/);
    assert.match(error.message, /--max-tokens|EVALFRAME_MAX_TOKENS/, error.message);
  });

  it("its flat error body ({object: 'error', message}) is read: a refusal of json_schema falls back to json_object", async () => {
    srv.persona = (req) =>
      req.body.response_format?.type === "json_schema"
        ? { status: 400, body: { object: "error", message: "response_format type json_schema is not supported for this model", type: "BadRequestError", param: null, code: 400 } }
        : { status: 200, body: completion(echoOf(req)) };
    assert.deepEqual(await judgeFor().complete(echoRequest("f")), { answer: "echo: f" });
    assert.deepEqual(chats().map((r) => r.body.response_format.type), ["json_schema", "json_object"]);
  });

  for (const [what, message] of [
    ["vLLM's grammar backend", "The provided JSON schema contains features not supported by xgrammar."],
    ["llama.cpp's schema conversion", "Failed to parse grammar: unsupported schema keyword"],
  ] as const) {
    it(`a schema ${what} cannot take (400): asked again with json_object, not failed`, async () => {
      srv.persona = (req) => (req.body.response_format?.type === "json_schema" ? { status: 400, body: { error: { message, type: "BadRequestError", code: 400 } } } : { status: 200, body: completion(echoOf(req)) });
      assert.deepEqual(await judgeFor().complete(echoRequest("g")), { answer: "echo: g" });
      assert.deepEqual(chats().map((r) => r.body.response_format.type), ["json_schema", "json_object"]);
    });
  }

  it("a reasoning model's reasoning_content beside the JSON content is not read as the reply", async () => {
    srv.persona = (req) => {
      const body = completion(echoOf(req));
      (body["choices"] as { message: Record<string, unknown> }[])[0]!.message["reasoning_content"] = "Let me think {not json";
      return { status: 200, body };
    };
    assert.deepEqual(await judgeFor({ model: "Qwen/QwQ-32B" }).complete(echoRequest("r")), { answer: "echo: r" });
    assert.equal(chats()[0]!.body.model, "Qwen/QwQ-32B", "a model name with a slash goes as it is");
  });
});

describe("Ollama", () => {
  it("replies with no usage: the tokens are said to be unreported, not 0, and the cost is not $0", async () => {
    srv.persona = (req) => ({ status: 200, body: completion(echoOf(req), { usage: null }) });
    const judge = judgeFor({ model: "llama3.1:8b", prices: { "llama3.1:8b": { input: 1, output: 1 } } });
    const usage = judge.newUsage();
    await judge.complete(echoRequest("u"), usage);
    const line = formatUsage(usage.summary());
    assert.ok(!/\b0 tokens\b/.test(line), `says 0 tokens: ${line}`);
    assert.ok(!line.includes("$0.00"), `says $0.00: ${line}`);
    assert.match(line, /not reported/, line);
  });

  it("a base URL without /v1: the 404 says the base URL usually ends in /v1", async () => {
    srv.persona = (req) => (req.path.startsWith("/v1/") ? { status: 200, body: completion(echoOf(req)) } : { status: 404, headers: { "content-type": "text/plain" }, body: "404 page not found" });
    const judge = createJudge({ judge: "openai", baseURL: srv.origin, model: "llama3.1", cache: false }, {});
    const error = await failureOf(judge.complete(echoRequest("v")));
    assert.match(error.message, /\/v1/, error.message);
  });

});

describe("JSON as local models write it, with no server enforcing the schema", () => {
  for (const [what, content] of [
    ["in a json fence", '```json\n{"answer": "echo: j"}\n```'],
    ["with trailing commas", '{"answer": "echo: j",}'],
    ["followed by prose", '{"answer": "echo: j"}\n\nI hope this helps! Let me know if {anything} else is needed.'],
    ["after prose, in a fence", 'Here is the JSON you asked for:\n```json\n{"answer": "echo: j",}\n```\nDone.'],
    ["after prose with braces of its own", 'Using the {answer} field: {"answer": "echo: j"}'],
  ] as const) {
    it(`${what}: read at the first attempt`, async () => {
      srv.persona = () => ({ status: 200, body: completion(content) });
      assert.deepEqual(await judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("j")), { answer: "echo: j" });
      assert.equal(chats().length, 1);
    });
  }

  it("a brace inside a string does not end the object, and an object cut off (finish_reason stop) is still refused", async () => {
    srv.persona = () => ({ status: 200, body: completion('Sure: {"answer": "echo: a } b \\" c"} ok') });
    assert.deepEqual(await judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("k")), { answer: 'echo: a } b " c' });
    srv.persona = () => ({ status: 200, body: completion('Sure: {"answer": "echo: cut') });
    const error = await failureOf(judgeFor({ maxInvalidReplies: 0 }).complete(echoRequest("k")));
    assert.match(error.message, /not valid JSON/);
  });
});

describe("LM Studio", () => {
  /** LM Studio: json_object is refused whatever the model; this model cannot take a json_schema either. */
  const lmStudio = (req: Seen): Answer => {
    const type = req.body.response_format?.type as string | undefined;
    if (type === "json_object") return { status: 400, body: { error: "'response_format.type' must be 'json_schema' or 'text'" } };
    if (type === "json_schema") return { status: 400, body: { error: "json_schema response_format is not supported for this model" } };
    const user = (req.body.messages as { role: string; content: string }[]).find((m) => m.role === "user");
    return { status: 200, body: completion(`<think>The user wants JSON.</think>\n{"answer": "echo: ${user?.content}"}`) };
  };

  it("refusing both json_schema and json_object: the schema goes in the prompt alone, and the run goes on", async () => {
    srv.persona = lmStudio;
    const judge = judgeFor({ model: "qwen3-8b-mlx" });
    assert.deepEqual(await judge.complete(echoRequest("one")), { answer: "echo: one" });
    assert.deepEqual(await judge.complete(echoRequest("two")), { answer: "echo: two" });
    assert.deepEqual(
      chats().map((r) => r.body.response_format?.type ?? "none"),
      ["json_schema", "json_object", "none", "none"],
    );
    assert.match(JSON.stringify(chats()[2]!.body.messages), /JSON Schema/, "the schema is in the prompt");
  });
});

describe("a slow local server", () => {
  it("EVALFRAME_TIMEOUT_MS sets the request timeout, and a timeout names it and --concurrency", async () => {
    srv.persona = () => ({ status: 0, body: "" });
    const judge = createJudge({ cache: false, maxRetries: 0 }, { OPENAI_BASE_URL: `${srv.origin}/v1`, EVALFRAME_MODEL: "llama3.1:70b", EVALFRAME_TIMEOUT_MS: "150" });
    const error = await failureOf(judge.complete(echoRequest("slow")));
    assert.match(error.message, /no reply within 150 ms/);
    assert.match(error.message, /--timeout-ms, EVALFRAME_TIMEOUT_MS/);
    assert.match(error.message, /--concurrency/);
  });
});

describe("base URLs as users write them", () => {
  it("a whole endpoint URL pasted as the base URL is refused at start, naming the base URL to give", () => {
    assert.throws(
      () => createJudge({ baseURL: "http://gpu1:8000/v1/chat/completions?api-version=2024-10-21" }, {}),
      (e: Error) => /ends in the endpoint \/chat\/completions; give the base URL the endpoints go under, e\.g\. "http:\/\/gpu1:8000\/v1\?api-version=…"/.test(e.message),
    );
    assert.throws(() => createJudge({}, { OPENAI_BASE_URL: "http://h:1/v1", EVALFRAME_EMBEDDING_BASE_URL: "http://gpu2:8001/v1/embeddings/" }), /EVALFRAME_EMBEDDING_BASE_URL.*ends in the endpoint \/embeddings/);
  });

  it("Ollama's native /api URL: the 404 does not suggest /api/v1", async () => {
    srv.persona = () => ({ status: 404, headers: { "content-type": "text/plain" }, body: "404 page not found" });
    const error = await failureOf(createJudge({ judge: "openai", baseURL: `${srv.origin}/api`, model: "llama3.1", cache: false }, {}).complete(echoRequest("n")));
    assert.ok(!error.message.includes("/api/v1"), error.message);
    assert.match(error.message, /http:\/\/localhost:11434\/v1/);
  });

  for (const [what, path] of [
    ["a trailing slash", "/v1/"],
    ["a reverse proxy's path prefix over http", "/team/llm/v1"],
    ["a reverse proxy's path prefix with a trailing slash", "/team/llm/v1/"],
  ] as const) {
    it(`${what}: requests go to the path under it`, async () => {
      srv.persona = (req) => (req.path.replace(/^\/team\/llm/, "") === "/v1/chat/completions" ? { status: 200, body: completion(echoOf(req)) } : { status: 404, body: "nope" });
      const judge = createJudge({ judge: "openai", baseURL: `${srv.origin}${path}`, cache: false }, {});
      assert.deepEqual(await judge.complete(echoRequest("p")), { answer: "echo: p" });
      assert.equal(chats()[0]!.path, `${path.replace(/\/$/, "")}/chat/completions`);
    });
  }
});

describe("keys and the servers they go to", () => {
  it("OPENAI_API_KEY sent to a server set by EVALFRAME_BASE_URL or --base-url is warned of, without showing the key; not beside OPENAI_BASE_URL or EVALFRAME_API_KEY", async () => {
    const KEY = "sk-live-0123456789abcdefghijklmn";
    for (const [env, args, warned] of [
      [{ OPENAI_API_KEY: KEY, EVALFRAME_BASE_URL: "http://gpu1:8000/v1" }, [], /OPENAI_API_KEY is sent to gpu1:8000 \(the base URL from EVALFRAME_BASE_URL\), which is not OpenAI's; .*set EVALFRAME_API_KEY/],
      [{ OPENAI_API_KEY: KEY }, ["--base-url", "http://gpu1:8000/v1"], /OPENAI_API_KEY is sent to gpu1:8000 \(the base URL from --base-url\)/],
      [{ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "http://gpu1:8000/v1" }, [], undefined],
      [{ OPENAI_API_KEY: KEY, EVALFRAME_API_KEY: "token-chat", EVALFRAME_BASE_URL: "http://gpu1:8000/v1" }, [], undefined],
      [{ OPENAI_API_KEY: KEY }, [], undefined],
      [{ OPENAI_API_KEY: KEY }, ["--base-url", "http://localhost:11434/v1"], undefined],
    ] as const) {
      const run = await runCliCaptured(["config", ...args], env);
      assert.equal(run.code, 0, run.err);
      if (warned) assert.match(run.err, warned);
      else assert.ok(!run.err.includes("OPENAI_API_KEY is sent"), run.err);
      assert.ok(!(run.out + run.err).includes(KEY), "the key is not shown");
    }
  });
});

describe("a scoring run through the command line", () => {
  it("Ollama behind a reverse proxy's prefix, model with a tag, replies fenced with no usage: every row scored, tokens said to be unreported, no key anywhere", async () => {
    const KEY = "proxy-token-0123456789abcdefXYZ";
    srv.persona = (req) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) return { status: 401, body: { error: { message: "unauthorized" } } };
      if (req.path === "/llm/v1/embeddings") {
        return { status: 200, body: { object: "list", data: (req.body.input as string[]).map((t, i) => ({ object: "embedding", index: i, embedding: scriptedEmbedding(t) })) } };
      }
      if (req.path !== "/llm/v1/chat/completions") return { status: 404, headers: { "content-type": "text/plain" }, body: "404 page not found" };
      const reply = JSON.stringify(scriptedAnswerCorrectness({ model: req.body.model, messages: req.body.messages, body: req.body, seq: 0 }));
      return { status: 200, body: completion("```json\n" + reply + "\n```", { usage: null }) };
    };
    const dir = tempDir();
    const input = join(dir, "qa.csv");
    writeFileSync(input, "id,user_input,response,reference\na,Where is Paris?,Paris is in France.,Paris is in France.\nb,Who wrote Hamlet?,Marlowe wrote it.,Shakespeare wrote Hamlet.\n");
    const out = join(dir, "scored.csv");
    const env = { OPENAI_BASE_URL: `${srv.origin}/llm/v1/`, OPENAI_API_KEY: KEY, EVALFRAME_MODEL: "llama3.1:8b", EVALFRAME_EMBEDDING_MODEL: "nomic-embed-text:latest", EVALFRAME_CACHE_DIR: join(dir, "cache") };
    const config = await runCliCaptured(["config"], env);
    assert.match(config.out, new RegExp(`^base URL\\s+${srv.origin.replace(/[.]/g, "\\.")}/llm/v1\\s+OPENAI_BASE_URL$`, "m"), config.out);
    const run = await runCliCaptured(["score", input, "--out", out, "--no-progress"], env);
    assert.equal(run.code, 0, run.err);
    const csv = readFileSync(out, "utf8");
    assert.match(csv, /^a,.*,1,/m, csv);
    assert.match(run.out + run.err, /0 of 2 rows failed/);
    assert.match(run.out + run.err, /tokens not reported by the server · cost unknown/);
    assert.match(run.out + run.err, /llama3\.1:8b @ 127\.0\.0\.1/);
    const everything = [run.out, run.err, config.out, config.err, csv, ...filesOf(dir).map((f) => readFileSync(f, "utf8"))].join("\n");
    assert.ok(!everything.includes(KEY), "the key is in an output or a file");
    rmSync(dir, { recursive: true, force: true });
  });
});

function filesOf(d: string): string[] {
  return readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? filesOf(join(d, f)) : [join(d, f)]));
}
