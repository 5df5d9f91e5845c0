/**
 * A real HTTP server (node:http, 127.0.0.1, random port) that speaks the OpenAI
 * chat-completions and embeddings wire format, for tests of the judge client.
 *
 * It records every request, can script assistant content and embeddings, add
 * latency without blocking other requests, inject faults (error statuses,
 * hanging or dropped connections, malformed model output), and enforce an
 * OpenAI-style rate limit with x-ratelimit-* headers and 429 + retry-after.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { after, before, beforeEach } from "node:test";
import { FakeBatchApi, type FakeBatchOptions } from "./fake-batches";

/** One request as the server received it. */
export interface RecordedRequest {
  /** 0-based order of arrival (of the complete request) over the server's life; not cleared by reset(). */
  seq: number;
  /** HTTP method, e.g. "POST". */
  method: string;
  /** URL path without the query string, e.g. "/v1/chat/completions". */
  path: string;
  /** The query string's parameters, e.g. { "api-version": "2024-06-01" }. */
  query: Record<string, string>;
  /** Request headers with lower-cased names; repeated values joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when there is none or it is not JSON). */
  body: any;
  /** The body as text (for uploads, which are not JSON). */
  raw?: string;
  /** Date.now() when the request started to arrive. */
  receivedAt: number;
}

/** A fault the server can inject instead of its normal answer. */
export type Fault =
  /** Answer with this status; default body {"error":{"message":"fake <status>","type":"fake_error"}}. A string body is sent as-is. */
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  /** Accept the request and never answer (until the client aborts or the server stops). */
  | { kind: "hang" }
  /** Destroy the socket without any response. */
  | { kind: "drop" }
  /** 200, finish_reason "stop", content "Sure! Here is the answer: {not json". */
  | { kind: "invalid_json" }
  /** 200, finish_reason "stop", content '{"unexpected": true}'. */
  | { kind: "schema_invalid" }
  /** 200, finish_reason "length", content '{"statements": ["The sky is'. */
  | { kind: "truncated" };

/** What the `chat` option sees for each chat-completions request. */
export interface ChatContext {
  /** body.model */
  model: string;
  /** body.messages */
  messages: any[];
  /** The whole parsed request body. */
  body: any;
  /** RecordedRequest.seq of this request. */
  seq: number;
}

/** Behaviour of a FakeOpenAI server; may be changed between calls through `FakeOpenAI.options`. */
export interface FakeOpenAIOptions {
  /** Delay in ms before answering each request, faults included (default 0). Uses timers, never blocks. */
  latencyMs?: number | ((req: RecordedRequest) => number);
  /** Assistant content; an object is JSON.stringified. Default: '{"ok": true}'. A throw gives a 500. */
  chat?: (ctx: ChatContext) => string | object;
  /** Embedding of one input. Default: deterministic, non-zero 8-dim vector from a SHA-256 of the text. */
  embed?: (text: string, model: string) => number[];
  /** Consulted (with the recorded request) for every request before normal handling and before latency. */
  fault?: (req: RecordedRequest) => Fault | undefined;
  /** When true, chat requests with response_format.type "json_schema" get a 400 invalid_request_error. */
  rejectJsonSchema?: boolean;
  /** When true, a json_schema whose schema has `maxLength` or `minLength` anywhere gets a 400, worded as OpenAI words it. */
  rejectLengthLimits?: boolean;
  /** Extra headers on every non-fault response, e.g. x-ratelimit-*. */
  headers?: (req: RecordedRequest) => Record<string, string> | undefined;
  /**
   * A server-side rate limit (off by default); see {@link RateLimitOptions}.
   * Replacing the object starts a new, full budget.
   */
  rateLimit?: RateLimitOptions;
  /** Behaviour of the fake Files and Batches APIs (/v1/files, /v1/batches); see fake-batches.ts. */
  batches?: FakeBatchOptions;
  /**
   * How the usage fields count tokens (default: ceil(characters / 4), 85 per image).
   * `text` counts one text; `chat` a whole chat request's prompt.
   */
  tokenizer?: { text(text: string): number; chat(messages: any[]): number };
  /**
   * A provider's prompt cache (off by default): a chat request whose leading
   * messages equal those of an earlier request reports their tokens as
   * `usage.prompt_tokens_details.cached_tokens`, rounded down to
   * `incrementTokens` and only from `minTokens` on (OpenAI: 1,024 and 128).
   */
  promptCache?: { minTokens: number; incrementTokens: number };
}

/**
 * An OpenAI-style rate limit: a budget of requests and one of tokens, each
 * replenished continuously (a token bucket that holds at most one window's
 * budget and refills it evenly over `windowMs`), as OpenAI describes its own.
 *
 * - A request is admitted when a whole request and its prompt tokens
 *   (estimated as for `usage`; an embedding request's input tokens) are left;
 *   both are charged on arrival, a chat reply's completion tokens when it is sent.
 * - Otherwise it is answered at once (no latency, before any fault) with 429,
 *   `retry-after-ms` (exact) and `retry-after` (whole seconds, rounded up):
 *   the time until enough budget is back. A request larger than the whole
 *   token budget waits for a full bucket.
 * - Every response, 429s and fault statuses included, carries
 *   `x-ratelimit-limit-requests`, `-remaining-requests`, `-reset-requests`
 *   and the same for `-tokens`: the budget per window, what is left when the
 *   response is sent, and the time until the budget is full again, written
 *   as OpenAI does ("20ms", "1.5s", "6m0s").
 */
export interface RateLimitOptions {
  /** Requests per window (the x-ratelimit-limit-requests value). */
  requestsPerWindow: number;
  /** Tokens per window (the x-ratelimit-limit-tokens value). */
  tokensPerWindow: number;
  /** The window in ms, e.g. 60,000 for per-minute limits. */
  windowMs: number;
  /**
   * How the budget comes back: "bucket" (default) refills continuously as
   * above; "window" gives the whole budget back at the start of each
   * window (a fixed-window counter, as many gateways keep).
   */
  refill?: "bucket" | "window";
  /**
   * Whether responses carry the x-ratelimit-* headers and 429s carry
   * retry-after-ms (default true). False: a 429 says only `retry-after` in
   * whole seconds, as many gateways do, and nothing else tells the budget.
   */
  headers?: boolean;
  /**
   * Whether a 429 carries the exact `retry-after-ms` beside `retry-after`
   * (default: as `headers`). True with `headers: false`: a limit that says
   * to the millisecond when its next request is let in, and nothing else.
   */
  retryAfterMs?: boolean;
}

/** Counters of the rate limit, as returned by FakeOpenAI.rateLimitStats(). */
export interface RateLimitStats {
  /** Requests admitted under the limit. */
  admitted: number;
  /** Requests answered 429 because the budget was spent. */
  limited: number;
  /** Tokens charged (prompt on arrival, completion on reply). */
  tokens: number;
}

/** Usage totals as returned by FakeOpenAI.totalUsage(). */
interface UsageTotals {
  chatPromptTokens: number;
  /** Of those, reported as read from the prompt cache (with the promptCache option). */
  chatCachedPromptTokens: number;
  chatCompletionTokens: number;
  embeddingTokens: number;
  chatResponses: number;
  /** Of those, replies cut at the request's max_tokens (finish_reason "length"). */
  chatRepliesCut: number;
  embeddingResponses: number;
}

/** State of one request being handled. */
interface Exchange {
  res: ServerResponse;
  requestId: string;
  timer: NodeJS.Timeout | undefined;
  closed: boolean;
}

const CHAT_PATH = "/v1/chat/completions";
const EMBEDDINGS_PATH = "/v1/embeddings";
const MODELS_PATH = "/v1/models";

const FAULT_CONTENT = {
  invalid_json: { content: "Sure! Here is the answer: {not json", finishReason: "stop" },
  schema_invalid: { content: '{"unexpected": true}', finishReason: "stop" },
  truncated: { content: '{"statements": ["The sky is', finishReason: "length" },
} as const;

function emptyUsage(): UsageTotals {
  return { chatPromptTokens: 0, chatCachedPromptTokens: 0, chatCompletionTokens: 0, embeddingTokens: 0, chatResponses: 0, chatRepliesCut: 0, embeddingResponses: 0 };
}

/** Default embedding: 8 values in (-1, 1), never zero, exactly representable as float32. */
function defaultEmbed(text: string): number[] {
  const digest = createHash("sha256").update(text, "utf8").digest();
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(((digest[i] ?? 0) - 127.5) / 128);
  return out;
}

/** ceil(text characters / 4) + 85 per image_url part, over all messages. */
function promptTokens(messages: any[]): number {
  let chars = 0;
  let images = 0;
  for (const message of messages) {
    const content = message?.content;
    if (typeof content === "string") {
      chars += content.length;
    } else if (Array.isArray(content)) {
      for (const part of content) {
        if (part?.type === "text" && typeof part.text === "string") chars += part.text.length;
        else if (part?.type === "image_url") images += 1;
      }
    }
  }
  return Math.ceil(chars / 4) + 85 * images;
}

/** Tokens a request asks for before its reply: a chat's prompt tokens, an embedding request's input tokens. */
function requestTokens(record: RecordedRequest): number {
  const body = record.body;
  if (record.path === EMBEDDINGS_PATH) {
    const input: unknown = body?.input;
    const inputs = typeof input === "string" ? [input] : Array.isArray(input) ? input : [];
    return inputs.reduce((sum: number, text: unknown) => sum + (typeof text === "string" ? Math.ceil(text.length / 4) : 0), 0);
  }
  return Array.isArray(body?.messages) ? promptTokens(body.messages) : 0;
}

function completionTokens(content: string): number {
  return Math.max(1, Math.ceil(content.length / 4));
}

/** The longest start of `content` of at most `limit` tokens, as `count` counts them. */
function cutToTokens(content: string, limit: number, count: (text: string) => number): string {
  let [low, high] = [0, content.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (count(content.slice(0, mid)) <= limit) low = mid;
    else high = mid - 1;
  }
  return content.slice(0, low);
}

function errorBody(message: string, type: string, param: string | null = null): object {
  return { error: { message, type, param, code: null } };
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = String(value);
  return out;
}

/**
 * A duration as OpenAI writes it in x-ratelimit-reset-*: "20ms" below a
 * second, "1.5s" below a minute, "6m0s" or "1h2m3s" above (rounded up to the ms).
 */
export function formatResetDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms));
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  const s = `${Number(seconds.toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

/** Token-bucket state of a rate limit. */
interface Bucket {
  config: RateLimitOptions;
  requests: number;
  tokens: number;
  at: number;
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A fake OpenAI-compatible HTTP server for tests; see the module comment. */
export class FakeOpenAI {
  /** Current behaviour; tests may replace or mutate it between calls. */
  options: FakeOpenAIOptions;
  /** Every recorded request, in arrival order. Cleared in place by reset(). */
  readonly requests: RecordedRequest[] = [];

  private server: Server | undefined;
  private baseUrl: string | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly exchanges = new Set<Exchange>();
  private nextSeq = 0;
  private inFlightCount = 0;
  private maxInFlightCount = 0;
  private usage: UsageTotals = emptyUsage();
  /** Leading-message lists seen so far (JSON), for the promptCache option. */
  private readonly seenPrefixes = new Set<string>();
  private bucket: Bucket | undefined;
  private limitStats: RateLimitStats = { admitted: 0, limited: 0, tokens: 0 };

  /** Creates a server (not yet listening) with the given behaviour. */
  /** The fake Files and Batches APIs; their lines run through this server's chat and embed scripts. */
  readonly batchApi: FakeBatchApi;

  constructor(options: FakeOpenAIOptions = {}) {
    this.options = options;
    this.batchApi = new FakeBatchApi(
      {},
      {
        chat: (body) => {
          const content = this.options.chat ? this.options.chat({ model: body.model, messages: body.messages, body, seq: -1 }) : '{"ok": true}';
          return typeof content === "string" ? content : JSON.stringify(content);
        },
        embed: (text, model) => (this.options.embed ? this.options.embed(text, model) : defaultEmbed(text)),
      },
    );
  }

  /** Only POST /v1/chat/completions requests. */
  chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === CHAT_PATH);
  }

  /** Only POST /v1/embeddings requests. */
  embeddingRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === EMBEDDINGS_PATH);
  }

  /** Highest number of requests handled at the same time since start or the last reset(). */
  get maxInFlight(): number {
    return this.maxInFlightCount;
  }

  /** Requests currently being handled (from arrival until the response finished or the socket closed). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Listens on 127.0.0.1 with a random port; resolves to the base URL including "/v1". */
  async start(): Promise<string> {
    if (this.server && this.baseUrl) return this.baseUrl;
    const server = createServer((req, res) => this.onRequest(req, res));
    server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.server = server;
    const { port } = server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
    return this.baseUrl;
  }

  /** Ends hanging and delayed requests (destroys their sockets), closes the server and every keep-alive connection. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.baseUrl = undefined;
    for (const exchange of this.exchanges) {
      if (exchange.timer) clearTimeout(exchange.timer);
      exchange.timer = undefined;
    }
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Clears the recorded requests, the usage totals, the prompt cache, the rate-limit counters, and maxInFlight (to the current in-flight count). */
  reset(): void {
    this.batchApi.clear();
    this.seenPrefixes.clear();
    this.requests.length = 0;
    this.usage = emptyUsage();
    this.limitStats = { admitted: 0, limited: 0, tokens: 0 };
    this.maxInFlightCount = this.inFlightCount;
  }

  /** Counters of the `rateLimit` option since start or the last reset(). */
  rateLimitStats(): RateLimitStats {
    return { ...this.limitStats };
  }

  /** The bucket of the current `rateLimit` option, refilled up to now; undefined when there is none. */
  private refilledBucket(now: number): Bucket | undefined {
    const config = this.options.rateLimit;
    if (!config) return undefined;
    if (!this.bucket || this.bucket.config !== config) {
      this.bucket = { config, requests: config.requestsPerWindow, tokens: config.tokensPerWindow, at: now };
    }
    const b = this.bucket;
    if (config.refill === "window") {
      // b.at is the start of the current window.
      if (now - b.at >= config.windowMs) {
        b.at += Math.floor((now - b.at) / config.windowMs) * config.windowMs;
        b.requests = config.requestsPerWindow;
        b.tokens = config.tokensPerWindow;
      }
      return b;
    }
    const elapsed = Math.max(0, now - b.at);
    b.requests = Math.min(config.requestsPerWindow, b.requests + (elapsed * config.requestsPerWindow) / config.windowMs);
    b.tokens = Math.min(config.tokensPerWindow, b.tokens + (elapsed * config.tokensPerWindow) / config.windowMs);
    b.at = now;
    return b;
  }

  /** The x-ratelimit-* headers now; none without a rate limit. */
  private rateLimitHeaders(): Record<string, string> {
    const b = this.refilledBucket(Date.now());
    if (!b || b.config.headers === false) return {};
    const { requestsPerWindow, tokensPerWindow, windowMs } = b.config;
    return {
      "x-ratelimit-limit-requests": String(requestsPerWindow),
      "x-ratelimit-remaining-requests": String(Math.max(0, Math.floor(b.requests))),
      "x-ratelimit-reset-requests": formatResetDuration(((requestsPerWindow - b.requests) * windowMs) / requestsPerWindow),
      "x-ratelimit-limit-tokens": String(tokensPerWindow),
      "x-ratelimit-remaining-tokens": String(Math.max(0, Math.floor(b.tokens))),
      "x-ratelimit-reset-tokens": formatResetDuration(((tokensPerWindow - b.tokens) * windowMs) / tokensPerWindow),
    };
  }

  /**
   * Charges a request against the rate limit; returns the 429 to send instead
   * when the budget is spent, or undefined when it is admitted (or there is no limit).
   */
  private admit(record: RecordedRequest): { wait: number; which: string; requested: number; left: number } | undefined {
    const b = this.refilledBucket(Date.now());
    if (!b) return undefined;
    const { requestsPerWindow, tokensPerWindow, windowMs } = b.config;
    const needed = Math.min(tokensPerWindow, requestTokens(record));
    if (b.requests >= 1 && b.tokens >= needed) {
      b.requests -= 1;
      b.tokens -= needed;
      this.limitStats.admitted += 1;
      this.limitStats.tokens += needed;
      return undefined;
    }
    this.limitStats.limited += 1;
    const nextWindow = b.at + windowMs - Date.now();
    const requestWait = b.requests >= 1 ? 0 : b.config.refill === "window" ? nextWindow : ((1 - b.requests) * windowMs) / requestsPerWindow;
    const tokenWait = b.tokens >= needed ? 0 : b.config.refill === "window" ? nextWindow : ((needed - b.tokens) * windowMs) / tokensPerWindow;
    return requestWait >= tokenWait
      ? { wait: requestWait, which: "requests", requested: 1, left: Math.floor(b.requests) }
      : { wait: tokenWait, which: "tokens", requested: needed, left: Math.floor(b.tokens) };
  }

  /** Charges a chat reply's completion tokens (the budget may go below zero). */
  private chargeCompletion(tokens: number): void {
    const b = this.refilledBucket(Date.now());
    if (!b) return;
    b.tokens -= tokens;
    this.limitStats.tokens += tokens;
  }

  /** Sums of the usage figures the server put in its successful (200) replies, fault 200s included. */
  totalUsage(): UsageTotals {
    return { ...this.usage };
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = Date.now();
    this.inFlightCount += 1;
    this.maxInFlightCount = Math.max(this.maxInFlightCount, this.inFlightCount);
    const exchange: Exchange = { res, requestId: "req_fake_pending", timer: undefined, closed: false };
    this.exchanges.add(exchange);
    const finish = (): void => {
      if (exchange.closed) return;
      exchange.closed = true;
      if (exchange.timer) clearTimeout(exchange.timer);
      exchange.timer = undefined;
      this.exchanges.delete(exchange);
      this.inFlightCount -= 1;
    };
    res.on("close", finish);
    res.on("error", () => undefined);
    req.on("error", () => undefined);

    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (exchange.closed) return;
      this.onBody(req, exchange, Buffer.concat(chunks).toString("utf8"), receivedAt);
    });
  }

  private onBody(req: IncomingMessage, exchange: Exchange, text: string, receivedAt: number): void {
    let body: any = undefined;
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    const record: RecordedRequest = {
      seq: this.nextSeq++,
      method: req.method ?? "GET",
      path: new URL(req.url ?? "/", "http://127.0.0.1").pathname,
      query: Object.fromEntries(new URL(req.url ?? "/", "http://127.0.0.1").searchParams),
      headers,
      body,
      raw: text,
      receivedAt,
    };
    exchange.requestId = `req_fake_${record.seq}`;
    this.requests.push(record);

    const limited = this.admit(record);
    if (limited) {
      const { wait, which, requested, left } = limited;
      const model = typeof body?.model === "string" ? body.model : "fake-model";
      const message =
        `Rate limit reached for ${model} on ${which} per window: Limit ${which === "requests" ? this.options.rateLimit?.requestsPerWindow : this.options.rateLimit?.tokensPerWindow}, ` +
        `Remaining ${Math.max(0, left)}, Requested ${requested}. Please try again in ${formatResetDuration(wait)}.`;
      const seconds = String(Math.max(1, Math.ceil(wait / 1000)));
      const retry: Record<string, string> =
        (this.options.rateLimit?.retryAfterMs ?? this.options.rateLimit?.headers !== false)
          ? { "retry-after-ms": String(Math.max(1, Math.ceil(wait))), "retry-after": seconds }
          : { "retry-after": seconds };
      this.sendJson(exchange, 429, { error: { message, type: which, param: null, code: "rate_limit_exceeded" } }, retry);
      return;
    }

    let fault: Fault | undefined;
    let delay = 0;
    try {
      fault = this.options.fault?.(record);
      const latency = this.options.latencyMs;
      delay = typeof latency === "function" ? latency(record) : (latency ?? 0);
    } catch (err) {
      this.sendJson(exchange, 500, errorBody(`fake server hook failed: ${describeError(err)}`, "server_error"));
      return;
    }
    const act = (): void => {
      exchange.timer = undefined;
      if (exchange.closed) return;
      try {
        if (fault) this.applyFault(exchange, record, fault);
        else this.route(exchange, record);
      } catch (err) {
        this.sendJson(exchange, 500, errorBody(`fake server hook failed: ${describeError(err)}`, "server_error"));
      }
    };
    if (Number.isFinite(delay) && delay > 0) exchange.timer = setTimeout(act, delay);
    else act();
  }

  private applyFault(exchange: Exchange, record: RecordedRequest, fault: Fault): void {
    switch (fault.kind) {
      case "status": {
        const body = fault.body ?? { error: { message: `fake ${fault.status}`, type: "fake_error" } };
        this.sendJson(exchange, fault.status, body, lowerKeys(fault.headers));
        return;
      }
      case "hang":
        return;
      case "drop":
        exchange.res.socket?.destroy();
        return;
      case "invalid_json":
      case "schema_invalid":
      case "truncated": {
        const { content, finishReason } = FAULT_CONTENT[fault.kind];
        this.sendChat(exchange, record, content, finishReason, {});
        return;
      }
    }
  }

  private route(exchange: Exchange, record: RecordedRequest): void {
    const extra = lowerKeys(this.options.headers?.(record));
    if (record.path.startsWith("/v1/files") || record.path.startsWith("/v1/batches")) {
      this.batchApi.options = this.options.batches ?? {};
      this.batchApi
        .handle(record.method, record.path, record.headers["content-type"] ?? "", record.raw ?? "")
        .then((reply) => {
          if (!reply) this.sendJson(exchange, 404, errorBody(`Unknown route: ${record.method} ${record.path}`, "invalid_request_error"), extra);
          else this.sendJson(exchange, reply.status, reply.text ?? reply.body, extra);
        })
        .catch((error: unknown) => this.sendJson(exchange, 500, errorBody(`fake batch API failed: ${describeError(error)}`, "server_error")));
      return;
    }
    if (record.method === "POST" && record.path === CHAT_PATH) this.chat(exchange, record, extra);
    else if (record.method === "POST" && record.path === EMBEDDINGS_PATH) this.embeddings(exchange, record, extra);
    else if (record.method === "GET" && record.path === MODELS_PATH) {
      this.sendJson(exchange, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] }, extra);
    } else {
      const message = `Unknown route: ${record.method} ${record.path}`;
      this.sendJson(exchange, 404, errorBody(message, "invalid_request_error"), extra);
    }
  }

  private chat(exchange: Exchange, record: RecordedRequest, extra: Record<string, string>): void {
    const body = record.body;
    if (body === null || typeof body !== "object" || typeof body.model !== "string" || !Array.isArray(body.messages)) {
      const message = "Request body must be JSON with a string 'model' and an array 'messages'";
      this.sendJson(exchange, 400, errorBody(message, "invalid_request_error"), extra);
      return;
    }
    if (body.stream === true) {
      this.sendJson(exchange, 400, errorBody("stream is not supported by this server", "invalid_request_error", "stream"), extra);
      return;
    }
    if (this.options.rejectJsonSchema && body.response_format?.type === "json_schema") {
      const error = {
        message: "response_format json_schema is not supported by this server",
        type: "invalid_request_error",
        param: "response_format",
      };
      this.sendJson(exchange, 400, { error }, extra);
      return;
    }
    if (this.options.rejectLengthLimits && body.response_format?.type === "json_schema" && /"(?:max|min)Length"/.test(JSON.stringify(body.response_format.json_schema?.schema ?? {}))) {
      const name = String(body.response_format.json_schema?.name ?? "");
      const error = {
        message: `Invalid schema for response_format '${name}': In context=('properties', 'reason'), 'maxLength' is not permitted.`,
        type: "invalid_request_error",
        param: "response_format",
      };
      this.sendJson(exchange, 400, { error }, extra);
      return;
    }
    const scripted = this.options.chat
      ? this.options.chat({ model: body.model, messages: body.messages, body, seq: record.seq })
      : '{"ok": true}';
    const content = typeof scripted === "string" ? scripted : JSON.stringify(scripted);
    // A reply longer than max_tokens is cut there, as a real server cuts it.
    const limit = typeof body.max_tokens === "number" ? body.max_tokens : undefined;
    if (limit !== undefined && this.completionTokensOf(content) > limit) {
      this.usage.chatRepliesCut += 1;
      this.sendChat(exchange, record, cutToTokens(content, limit, (text) => this.completionTokensOf(text)), "length", extra);
    } else this.sendChat(exchange, record, content, "stop", extra);
  }

  /** A reply's completion tokens: by the tokenizer option, else about 4 characters a token. */
  private completionTokensOf(content: string): number {
    return this.options.tokenizer ? this.options.tokenizer.text(content) : completionTokens(content);
  }

  private sendChat(
    exchange: Exchange,
    record: RecordedRequest,
    content: string,
    finishReason: string,
    extra: Record<string, string>,
  ): void {
    const messages: any[] = Array.isArray(record.body?.messages) ? record.body.messages : [];
    const prompt = this.options.tokenizer ? this.options.tokenizer.chat(messages) : promptTokens(messages);
    const completion = this.completionTokensOf(content);
    const cached = this.cachedPrefixTokens(messages);
    this.chargeCompletion(completion);
    const payload = {
      id: `chatcmpl-${record.seq}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: typeof record.body?.model === "string" ? record.body.model : "fake-model",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
      },
    };
    if (this.sendJson(exchange, 200, payload, extra)) {
      this.usage.chatPromptTokens += prompt;
      this.usage.chatCachedPromptTokens += cached ?? 0;
      this.usage.chatCompletionTokens += completion;
      this.usage.chatResponses += 1;
    }
  }

  /** With the promptCache option: tokens of the longest run of leading messages seen before (then remembered); else undefined. */
  private cachedPrefixTokens(messages: any[]): number | undefined {
    const cache = this.options.promptCache;
    if (!cache) return undefined;
    let longest = 0;
    for (let k = 1; k < messages.length; k++) {
      const key = JSON.stringify(messages.slice(0, k));
      if (this.seenPrefixes.has(key)) longest = k;
      else this.seenPrefixes.add(key);
    }
    if (longest === 0) return 0;
    const prefix = messages.slice(0, longest);
    // The prefix's own tokens (OpenAI's rule adds 3 per request that prime the reply: not the prefix's).
    const tokens = this.options.tokenizer ? this.options.tokenizer.chat(prefix) - 3 : promptTokens(prefix);
    const rounded = Math.floor(tokens / cache.incrementTokens) * cache.incrementTokens;
    return rounded >= cache.minTokens ? rounded : 0;
  }

  private embeddings(exchange: Exchange, record: RecordedRequest, extra: Record<string, string>): void {
    const body = record.body;
    const input: unknown = body?.input;
    const inputs =
      typeof input === "string"
        ? [input]
        : Array.isArray(input) && input.length > 0 && input.every((x) => typeof x === "string")
          ? (input as string[])
          : undefined;
    if (!inputs || typeof body.model !== "string") {
      const message = "Request body must be JSON with a string 'model' and 'input' as a string or a non-empty array of strings";
      this.sendJson(exchange, 400, errorBody(message, "invalid_request_error", "input"), extra);
      return;
    }
    const model: string = body.model;
    const base64 = body.encoding_format === "base64";
    const data = inputs.map((text, index) => {
      const vector = this.options.embed ? this.options.embed(text, model) : defaultEmbed(text);
      if (!Array.isArray(vector) || !vector.every((x) => typeof x === "number")) {
        throw new Error("embed() must return an array of numbers");
      }
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
      return { object: "embedding", index, embedding };
    });
    const tokenizer = this.options.tokenizer;
    const tokens = inputs.reduce((sum, text) => sum + (tokenizer ? tokenizer.text(text) : Math.ceil(text.length / 4)), 0);
    const payload = { object: "list", data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
    if (this.sendJson(exchange, 200, payload, extra)) {
      this.usage.embeddingTokens += tokens;
      this.usage.embeddingResponses += 1;
    }
  }

  /** Writes a JSON response unless the exchange is already over; returns whether it was written. */
  private sendJson(exchange: Exchange, status: number, payload: unknown, extra: Record<string, string> = {}): boolean {
    const { res } = exchange;
    if (exchange.closed || res.headersSent || res.writableEnded || res.destroyed) return false;
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    res.writeHead(status, {
      ...this.rateLimitHeaders(),
      ...extra,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
      "x-request-id": exchange.requestId,
    });
    res.end(text);
    return true;
  }
}

/**
 * One fake server for a test file: started before the tests, stopped after,
 * and before each test cleared and given fresh `defaults()` options.
 * `url()` is its base URL once started.
 */
export function useFakeOpenAI(defaults: () => FakeOpenAIOptions = () => ({})): { server: FakeOpenAI; url: () => string } {
  const server = new FakeOpenAI(defaults());
  let baseURL = "";
  before(async () => {
    baseURL = await server.start();
  });
  after(() => server.stop());
  beforeEach(() => {
    server.reset();
    server.options = defaults();
  });
  return { server, url: () => baseURL };
}
