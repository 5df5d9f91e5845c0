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
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { createJudge, formatUsage, JudgeError, type Judge, type JudgeOptions } from "../src/index";
import { echoRequest } from "./support/requests";

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
