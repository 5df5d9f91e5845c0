/**
 * The judge for any OpenAI-compatible server, through the `openai` SDK with
 * its own retries off: one policy, ours (see scheduler.ts).
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { cacheKey, DiskCache, NoCache, type ReplyCache } from "./cache";
import { redactSecrets, shownBaseURL, type ResolvedJudgeConfig } from "./config";
import type { Judge } from "./judge";
import { estimateTokens, isRetryableStatus, RateLimitWaitTooLongError, retryAfterMs, Scheduler, type FailureInfo } from "./scheduler";
import { correctionMessages, excerpt, messagesFor, missingContent, readReply, responseFormat, type StructuredMode } from "./structured";
import { JudgeError, type ChatMessage, type StructuredRequest } from "./types";
import { UsageRecorder, type ModelPrice } from "./usage";
import { errorText } from "../display/words";
import { withoutBom } from "../dataset/file-text";

/** Connections refused, or a host not found, before a server ever answers: then it is taken for absent. */
const REFUSALS_BEFORE_GIVING_UP = 3;

/**
 * Refusals of one kind in a row with no success between (the key not
 * accepted, the quota used up, a model not found) before the run stops
 * asking: each would refuse every request that follows.
 */
const FAILURES_BEFORE_STOPPING = 3;

/**
 * How long the run stops asking after such refusals. Then requests go again
 * (a quota topped up, a model pulled, in a notebook that keeps its judge),
 * and the first refusal stops it again at once.
 */
const STOP_LASTS_MS = 60_000;

/** Largest chat reply read (8 MB): a larger one is a runaway reply, and fails its request unread. */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** What each text adds to the largest embeddings reply read (a 4,096-dimension vector is about 90 kB of JSON). */
const MAX_EMBEDDING_BYTES_PER_TEXT = 256 * 1024;

/**
 * A 2xx reply that cannot be used: the connection closed or stalled while
 * it was read, or it is not the JSON expected, or it is too large.
 * `retryable` says whether another attempt may help.
 */
class ReplyBodyError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "ReplyBodyError";
  }
}

/** Thrown instead of sending a request once the run stopped asking (see `Endpoint.stopped`); never retried. */
class StoppedError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = "StoppedError";
  }
}

/** Whether an error says the account's quota is used up (OpenAI: 429 with code or type "insufficient_quota"): no wait will help. */
function isQuotaExhausted(error: APIError): boolean {
  return error.code === "insufficient_quota" || error.type === "insufficient_quota";
}

/** What a body that is not JSON looks like, for messages: an HTML page (with its title), cut-off JSON, text, or nothing. */
function describeBody(text: string, contentType: string | null): string {
  const trimmed = text.trim();
  if (trimmed === "") return "an empty body";
  if (trimmed.startsWith("<") || /html/i.test(contentType ?? "")) {
    const heading = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const title = heading?.replace(/<[^>]*>/g, " ").trim();
    return title ? `an HTML page: "${excerpt(title, 80)}"` : "an HTML page";
  }
  if (/^[{[]/.test(trimmed)) return `JSON cut off or malformed: "${excerpt(trimmed, 80)}"`;
  return `text: "${excerpt(trimmed, 80)}"`;
}

/** A number of bytes in whole megabytes, for messages. */
function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** A count from a reply's usage: a finite number, else 0. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The shape of a chat completion the judge reads (every field checked before use). */
interface ChatCompletionShape {
  choices: unknown[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } | null } | null;
}

/** The shape of a chat completion's choice the judge reads. */
type ChoiceShape = { message?: { content?: unknown; refusal?: unknown } | null; finish_reason?: unknown };

/** The shape of an embeddings reply the judge reads. */
interface EmbeddingsShape {
  data: unknown[];
  usage?: { prompt_tokens?: unknown } | null;
}

/**
 * The innermost cause of a connection failure: its code ("ECONNREFUSED",
 * "ENOTFOUND") and message ("connect ECONNREFUSED 127.0.0.1:8000"), not the
 * SDK's "Connection error.".
 */
function rootCause(error: Error): { code: string | undefined; message: string } {
  let code: string | undefined;
  let message = error.message;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const c = (e as NodeJS.ErrnoException).code;
    if (typeof c === "string") code = c;
    if (e.message) message = e.message;
  }
  return { code, message };
}

/**
 * The error a 2xx reply carries in its body instead of a result (some
 * servers and gateways answer 200 with `{"error": …}`): its message, or its
 * JSON when it has none; undefined when the reply has a result or no error.
 */
function serverError(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { error, choices, data: list } = data as { error?: unknown; choices?: unknown; data?: unknown };
  if (error === undefined || error === null || (Array.isArray(choices) && choices.length > 0) || (Array.isArray(list) && list.length > 0)) return undefined;
  if (typeof error === "string") return error;
  const message = typeof error === "object" ? (error as { message?: unknown }).message : undefined;
  return typeof message === "string" && message !== "" ? message : JSON.stringify(error);
}

/**
 * A chat completion put together from a server-sent-event stream of
 * `chat.completion.chunk`s (`data: {…}` lines, then `data: [DONE]`): the
 * first choice's content deltas joined, its last finish_reason, the last
 * usage sent. Undefined when the text is not such a stream.
 */
function completionFromEvents(text: string): ChatCompletionShape | undefined {
  let content: string | null = null;
  let finishReason: string | null = null;
  let usage: ChatCompletionShape["usage"];
  let chunks = 0;
  for (const line of text.split(/\r?\n/)) {
    const data = /^data:\s?(.*)$/.exec(line)?.[1]?.trim();
    if (data === undefined || data === "" || data === "[DONE]") continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return undefined;
    }
    if (typeof chunk !== "object" || chunk === null) return undefined;
    const { choices, usage: used, error } = chunk as { choices?: unknown; usage?: ChatCompletionShape["usage"]; error?: unknown };
    if (error !== undefined) return { choices: [], error } as ChatCompletionShape;
    if (!Array.isArray(choices)) return undefined;
    chunks++;
    if (used) usage = used;
    const first = choices.find((c: unknown) => typeof c === "object" && c !== null && ((c as { index?: unknown }).index ?? 0) === 0) as
      | { delta?: { content?: unknown } | null; message?: { content?: unknown } | null; finish_reason?: unknown }
      | undefined;
    const piece = first?.delta?.content ?? first?.message?.content;
    if (typeof piece === "string") content = (content ?? "") + piece;
    if (typeof first?.finish_reason === "string") finishReason = first.finish_reason;
  }
  if (chunks === 0) return undefined;
  return { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }], ...(usage ? { usage } : {}) };
}

/**
 * `fetch`, with an error reply's body put in the shape the SDK reads
 * (`{"error": {"message", …}}`) when it came in another: vLLM's flat
 * `{"object": "error", "message", …}`, or a FastAPI `{"detail": …}`. Else the
 * SDK says only "400 status code (no body)", and a server's refusal of
 * json_schema is not known for one.
 */
async function withReadableErrors(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status < 400) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  let out = text;
  if (typeof body === "object" && body !== null && !Array.isArray(body) && !("error" in body)) {
    const flat = body as { message?: unknown; detail?: unknown; type?: unknown; code?: unknown; param?: unknown };
    const message = typeof flat.message === "string" ? flat.message : typeof flat.detail === "string" ? flat.detail : flat.detail !== undefined ? JSON.stringify(flat.detail) : undefined;
    if (message !== undefined) out = JSON.stringify({ error: { message, type: flat.type ?? null, code: flat.code ?? null, param: flat.param ?? null } });
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(out, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Where a server is, for labels: its host, and the path before `/v1` when
 * there is one (a reverse proxy's prefix, an Azure deployment), so that two
 * servers behind one host are told apart as their cache entries are.
 *
 * @example
 * serverPlace("http://localhost:11434/v1") // "localhost:11434"
 * serverPlace("http://proxy:8080/team-a/llm/v1") // "proxy:8080/team-a/llm"
 */
function serverPlace(baseURL: string): string {
  const url = new URL(baseURL);
  const path = url.pathname.replace(/\/+$/, "").replace(/(?:\/openai)?\/v1$/, "");
  return `${url.host}${path}`;
}

/** How a chat attempt was sent: its structured mode and the parameters a model may refuse. */
interface SentAs {
  mode: StructuredMode;
  temperature: boolean;
  maxTokensField: "max_tokens" | "max_completion_tokens";
}

/** Records into several recorders at once (the judge's own and the run's). */
class UsageFanout {
  constructor(private readonly recorders: UsageRecorder[]) {}
  each(f: (r: UsageRecorder) => void): void {
    for (const r of this.recorders) f(r);
  }
}

interface ChatAttemptResult {
  content: string | null;
  finishReason: string | null;
  /** Why there is nothing to read (no choices, a refusal, no content), if so. */
  missing: string | undefined;
}

/** A refusal of the requested JSON format or of the schema itself (OpenAI, vLLM's grammar backends, llama.cpp's schema-to-grammar conversion). */
const SCHEMA_UNSUPPORTED = /response_format|json[_ ]schema|structured output|grammar/i;
/** A refusal of string-length limits in a schema (e.g. "'maxLength' is not permitted"). */
const LENGTH_LIMIT_UNSUPPORTED = /max_?length|min_?length/i;

/** Whether a value is an embedding: a non-empty list of finite numbers. */
function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === "number" && Number.isFinite(x));
}

/**
 * The vectors of an embeddings reply's `data`, each at the place its `index`
 * names: undefined unless it numbers the `count` texts 0…count−1 once each,
 * each with a vector of numbers (vectors taken in the order given could go
 * to the wrong texts, silently).
 *
 * @example
 * vectorsInOrder([{ index: 1, embedding: [0.2] }, { index: 0, embedding: [0.1] }], 2) // [[0.1], [0.2]]
 */
export function vectorsInOrder(data: readonly unknown[], count: number): number[][] | undefined {
  // An entry with no index (or none at all) sorts first, and fails the check below.
  const at = (r: { index?: unknown }): number => (typeof r.index === "number" ? r.index : -1);
  const rows = data.map((r) => (typeof r === "object" && r !== null ? (r as { index?: unknown; embedding?: unknown }) : {})).sort((a, b) => at(a) - at(b));
  if (rows.length !== count || rows.some((r, i) => r.index !== i || !isVector(r.embedding))) return undefined;
  return rows.map((r) => r.embedding as number[]);
}

/** One server the judge talks to (chat, or embeddings when they have a server of their own): its client and whether it answered. */
class Endpoint {
  readonly client: OpenAI;
  /** The base URL as shown to people (see shownBaseURL). */
  readonly shownURL: string;
  /** Whether the server has answered at all (any HTTP status). */
  answered = false;
  /** Connections refused (or hosts not found) before the server ever answered. */
  refusals = 0;
  /** Set once the server is taken for absent: every request to it fails at once with this. */
  unreachable: string | undefined;
  /** Refusals in a row since the last success, by what they would stop: "key", "quota" or "model:<name>". */
  private readonly streaks = new Map<string, number>();
  /** Why the run stopped asking, by the same keys: every request they cover fails at once with it. */
  private readonly stops = new Map<string, { message: string; status: number; at: number }>();

  constructor(
    config: ResolvedJudgeConfig,
    baseURL: string,
    apiKey: string | undefined,
    query: Readonly<Record<string, string>>,
    /** What to check when it cannot be reached, e.g. "is the server running, and is the base URL (…) right?". */
    readonly check: string,
    /** What to check when its key is not accepted, e.g. "EVALFRAME_API_KEY / OPENAI_API_KEY (this key came from …)". */
    readonly keyCheck: string,
    /** Where its base URL is set, e.g. "--base-url, EVALFRAME_BASE_URL or OPENAI_BASE_URL". */
    readonly urlSetting: string,
  ) {
    this.shownURL = shownBaseURL(baseURL);
    this.client = new OpenAI({
      apiKey: apiKey ?? "no-key-needed",
      baseURL,
      maxRetries: 0,
      timeout: config.timeoutMs,
      // With no key but an api-key header (Azure's per-deployment API), that header is the credential: no placeholder bearer beside it.
      defaultHeaders: apiKey === undefined && Object.keys(config.headers).some((h) => h.toLowerCase() === "api-key") ? { Authorization: null, ...config.headers } : config.headers,
      defaultQuery: query,
      fetch: withReadableErrors,
    });
  }

  /** Why a request for `model` is not sent, or undefined: the server is absent, or the run stopped asking it (or for this model). */
  stopped(model: string): StoppedError | undefined {
    if (this.unreachable) return new StoppedError(this.unreachable, undefined);
    for (const what of ["key", "quota", `model:${model}`]) {
      const stop = this.stops.get(what);
      if (stop && Date.now() - stop.at > STOP_LASTS_MS) this.stops.delete(what);
      else if (stop) return new StoppedError(stop.message, stop.status);
    }
    return undefined;
  }

  /** A 2xx for `model`: the server answers, the key is accepted, the quota is not used up, the model exists. */
  succeeded(model: string): void {
    this.answered = true;
    this.streaks.delete("key");
    this.streaks.delete("quota");
    this.streaks.delete(`model:${model}`);
  }

  /**
   * Counts a refusal of one kind (`what`: "key", "quota", "model:<name>");
   * at {@link FAILURES_BEFORE_STOPPING} in a row the run stops asking (for
   * {@link STOP_LASTS_MS}), with the message `stop` makes of the count.
   */
  refused(what: string, status: number, stop: (refusals: number) => string): void {
    const refusals = (this.streaks.get(what) ?? 0) + 1;
    this.streaks.set(what, refusals);
    if (refusals >= FAILURES_BEFORE_STOPPING && !this.stops.has(what)) this.stops.set(what, { message: stop(refusals), status, at: Date.now() });
  }
}

/** Where a key came from, for messages: "this key came from OPENAI_API_KEY", or "no key is set". */
function keySource(key: string | undefined, from: ResolvedJudgeConfig["sources"]["apiKey"]): string {
  if (key === undefined) return "no key is set";
  return `this key came from ${from === "option" ? "the options of createJudge" : from}`;
}

/** A judge backed by an OpenAI-compatible HTTP server (and, optionally, a second one for embeddings). */
export class OpenAIJudge implements Judge {
  readonly kind = "openai" as const;
  readonly label: string;
  readonly chatModel: string;
  readonly visionModel: string;
  readonly embeddingModel: string;
  readonly maxReplyTokens: number | undefined;
  readonly usage: UsageRecorder;
  /** The chat server (also the embeddings server unless embeddings have one of their own). */
  private readonly chat: Endpoint;
  /** Where embeddings go: `chat`, or a server of their own. */
  private readonly embeddings: Endpoint;
  /** The chat server's scheduler: its concurrency limit, retries and rate-limit pace. */
  private readonly scheduler: Scheduler;
  /** The embeddings server's: the chat server's own when they are one server, else its own, so that one server's 429s do not slow the other. */
  private readonly embeddingScheduler: Scheduler;
  private readonly cache: ReplyCache;
  private readonly inflight = new Map<string, Promise<unknown>>();
  private mode: StructuredMode = "json_schema";
  /** Whether chat requests carry `temperature`: not after a model refused any but its default (reasoning models: o1, o3, …). */
  private sendsTemperature = true;
  /** The field the reply limit goes in: `max_completion_tokens` after a model refused `max_tokens`. */
  private maxTokensField: "max_tokens" | "max_completion_tokens" = "max_tokens";

  /** Whether replies are kept in a cache (not with `cache: false`): batch mode reads its results back from it. */
  get keepsReplies(): boolean {
    return !(this.cache instanceof NoCache);
  }

  constructor(private readonly config: ResolvedJudgeConfig) {
    const chatHost = serverPlace(config.baseURL);
    const embeddingHost = serverPlace(config.embeddingBaseURL);
    this.label = `${this.labelFor(config.model)}${embeddingHost !== chatHost ? ` (embeddings: ${config.embeddingModel} @ ${embeddingHost})` : ""}`;
    this.chatModel = config.model;
    this.visionModel = config.visionModel;
    this.embeddingModel = config.embeddingModel;
    this.maxReplyTokens = config.maxTokens;
    this.usage = new UsageRecorder(this.label, config.prices);
    this.chat = new Endpoint(
      config,
      config.baseURL,
      config.apiKey,
      config.query,
      "is the server running, and is the base URL (--base-url, EVALFRAME_BASE_URL or OPENAI_BASE_URL) right?",
      `EVALFRAME_API_KEY / OPENAI_API_KEY (${keySource(config.apiKey, config.sources.apiKey)})`,
      "--base-url, EVALFRAME_BASE_URL or OPENAI_BASE_URL",
    );
    this.embeddings = config.separateEmbeddings
      ? new Endpoint(
          config,
          config.embeddingBaseURL,
          config.embeddingApiKey,
          config.embeddingQuery,
          "is the embeddings server running, and is its base URL (--embedding-base-url or EVALFRAME_EMBEDDING_BASE_URL) right?",
          `EVALFRAME_EMBEDDING_API_KEY (${keySource(config.embeddingApiKey, config.sources.embeddingApiKey)})`,
          "--embedding-base-url or EVALFRAME_EMBEDDING_BASE_URL",
        )
      : this.chat;
    const scheduler = (): Scheduler =>
      new Scheduler({
        concurrency: config.concurrency,
        maxRetries: config.maxRetries,
        rateLimitWaitMs: config.rateLimitWaitMs,
        rateLimitWindowMs: config.rateLimitWindowMs,
        baseDelayMs: config.retryBaseDelayMs,
        maxDelayMs: config.retryMaxDelayMs,
      });
    this.scheduler = scheduler();
    this.embeddingScheduler = config.separateEmbeddings ? scheduler() : this.scheduler;
    this.cache = config.cacheDir === false ? new NoCache() : new DiskCache(config.cacheDir);
  }

  /** Texts per embeddings request (batch mode puts as many in one batch line). */
  get embeddingBatchSize(): number {
    return this.config.embeddingBatchSize;
  }

  /** Requests in flight at once, over the run. */
  get concurrency(): number {
    return this.config.concurrency;
  }

  /** USD per million tokens per model, for cost estimates. */
  get prices(): Readonly<Record<string, ModelPrice>> {
    return this.config.prices;
  }

  /** How replies are requested now: json_schema until the server refuses its length limits, then the schema itself. */
  get structuredMode(): StructuredMode {
    return this.mode;
  }

  /** `model @ host` of the chat server (with its path before /v1, if any: see serverPlace): the label of requests sent to `model` (the vision model, say). */
  labelFor(model: string): string {
    return `${model} @ ${serverPlace(this.config.baseURL)}`;
  }

  /** Whether embeddings go to a server of their own (`embeddingBaseURL` another than the chat server's). */
  get separateEmbeddings(): boolean {
    return this.config.separateEmbeddings;
  }

  newUsage(): UsageRecorder {
    return new UsageRecorder(this.label, this.config.prices);
  }

  private fanout(usage: UsageRecorder | undefined): UsageFanout {
    return new UsageFanout(usage && usage !== this.usage ? [this.usage, usage] : [this.usage]);
  }

  /** Values never shown: both keys, header values, and query values (a gateway's token may travel there). */
  private secrets(): (string | undefined)[] {
    const { apiKey, embeddingApiKey, headers, query, embeddingQuery } = this.config;
    return [apiKey, embeddingApiKey, ...Object.values(headers), ...Object.values(query), ...Object.values(embeddingQuery)];
  }

  /** Builds the `JudgeError` a caller sees, with no secret in it; `model` is the model the request was for. */
  private failure(error: unknown, what: string, server: Endpoint, model: string): JudgeError {
    if (error instanceof JudgeError) return error;
    let message: string;
    let status: number | undefined;
    let retryable: boolean | undefined;
    if (error instanceof StoppedError) {
      message = `${what}: ${error.message}`;
      status = error.status;
      retryable = false;
    } else if (error instanceof RateLimitWaitTooLongError) {
      // Kept a 429 (not retried row by row), and its server named.
      message = `${what}: ${error.message.replace(/^the server/, `the server at ${server.shownURL}`)}`;
      status = error.status;
      retryable = false;
    } else if (error instanceof ReplyBodyError) {
      message = `${what}: ${error.message}`;
      retryable = error.retryable;
    } else if (error instanceof APIConnectionTimeoutError) {
      message =
        `${what}: no reply within ${this.config.timeoutMs} ms from ${server.shownURL}: a server that loads its model at the first request, ` +
        `or answers a few requests at a time (Ollama, LM Studio, llama.cpp), may need a longer timeout (--timeout-ms, EVALFRAME_TIMEOUT_MS or { timeoutMs }) or a lower --concurrency`;
    } else if (error instanceof APIConnectionError) {
      message = server.unreachable ? `${what}: ${server.unreachable}` : `${what}: could not reach ${server.shownURL} (${rootCause(error).message})`;
    } else if (error instanceof APIError && error.status !== undefined) {
      status = error.status;
      if (isQuotaExhausted(error)) {
        // The SDK's message starts with the status ("429 You exceeded your current quota, …").
        message = `${what}: ${this.quotaUsedUp(server)} (HTTP ${error.status}: ${error.message.replace(/^\d{3} /, "")})`;
        retryable = false;
      } else {
        message = `${what}: HTTP ${error.status} from ${server.shownURL}: ${error.message}${this.statusHint(error.status, server, model, error.message)}`;
      }
    } else {
      message = `${what}: ${errorText(error)}`;
    }
    const options: { status?: number; retryable?: boolean } = { retryable: retryable ?? (status === undefined || isRetryableStatus(status)) };
    if (status !== undefined) options.status = status;
    return new JudgeError(redactSecrets(message, this.secrets()), options);
  }

  /** What a used-up quota means, and what to do. */
  private quotaUsedUp(server: Endpoint): string {
    return `the API key's quota is used up (insufficient_quota) at ${server.shownURL}: check the account's plan and billing`;
  }

  /** What to check after a 401, 402, 403, 404, 501, or a 400 over the model's context (`; …`), else "". */
  private statusHint(status: number, server: Endpoint, model: string, message = ""): string {
    if (status === 401) return `; the API key was not accepted: check ${server.keyCheck}, or the key for this base URL`;
    if (status === 402) return `; the server wants payment: check the account's credits and billing at ${server.shownURL}`;
    if (status === 403) return `; the key may not use the model "${model}" here: check the key's project, organisation and permissions for this model (${this.modelSetting(model)}), and the base URL (${server.urlSetting})`;
    if (status === 404) {
      const path = new URL(server === this.chat ? this.config.baseURL : this.config.embeddingBaseURL).pathname.replace(/\/+$/, "");
      const v1 = /\/v1$|\/openai\/deployments\/[^/]+$/.test(path)
        ? ""
        : ` (OpenAI-compatible servers serve it under /v1: ${path === "" ? `try ${server.shownURL}/v1` : "e.g. http://localhost:11434/v1 for Ollama"})`;
      return `; the model "${model}" or the endpoint was not found: check ${this.modelSetting(model)} and the base URL (${server.urlSetting})${v1}`;
    }
    if (status === 400 && !/unsupported parameter|not supported/i.test(message) && /context length|context window|maximum context|max_tokens|max_completion_tokens|too many tokens|exceeds? the (?:available )?context/i.test(message)) {
      return this.config.maxTokens !== undefined
        ? `; the prompt and the reply's ${this.config.maxTokens} tokens (--max-tokens or EVALFRAME_MAX_TOKENS) do not fit the model's context: lower the max tokens, or leave them out (the server's own limit)`
        : "; the prompt does not fit the model's context: serve the model with a longer context (vLLM: --max-model-len; Ollama: num_ctx; llama.cpp: --ctx-size), or bound the reply with --max-tokens / EVALFRAME_MAX_TOKENS if the server reserves a long one";
    }
    if (status === 501) {
      return model === this.config.embeddingModel && model !== this.config.model
        ? `; the server does not serve embeddings (llama.cpp's llama-server: start it with --embeddings), or send them to a server that does: --embedding-base-url or EVALFRAME_EMBEDDING_BASE_URL`
        : `; the server does not implement this endpoint: check the base URL (${server.urlSetting})`;
    }
    return "";
  }

  /** Where `model` is set: "--model / EVALFRAME_MODEL" for the chat model, and so on. */
  private modelSetting(model: string): string {
    if (model === this.config.model) return "--model / EVALFRAME_MODEL";
    if (model === this.config.visionModel) return "--vision-model / EVALFRAME_VISION_MODEL";
    if (model === this.config.embeddingModel) return "--embedding-model / EVALFRAME_EMBEDDING_MODEL";
    return "the model's name";
  }

  /**
   * Counts a refusal that would refuse every request after it (a used-up
   * quota or unpaid account, a key not accepted, a model not found or not
   * allowed to this key): after a few in a row, with no success between, the
   * run stops asking (see {@link Endpoint.refused}). A 402 or 401 stops every
   * request to the server; a 403, 404 or 501 (an endpoint the server does not
   * have) stops only the requests for its model, since another model on the
   * same key may be answered.
   */
  private noteRefusal(error: APIError, status: number, server: Endpoint, model: string): void {
    const stops = (refusals: number, forIt = ""): string => `${refusals} requests${forIt} in a row got this answer, so the run stops asking${forIt}`;
    if (isQuotaExhausted(error)) {
      server.refused("quota", status, (n) => `${this.quotaUsedUp(server)}; ${stops(n)}`);
    } else if (status === 401 || status === 402) {
      server.refused(status === 401 ? "key" : "quota", status, (n) => `HTTP ${status} from ${server.shownURL} (${error.message}): ${stops(n)}${this.statusHint(status, server, model)}`);
    } else if (status === 403 || status === 404 || status === 501) {
      server.refused(`model:${model}`, status, (n) => `HTTP ${status} from ${server.shownURL} for model "${model}" (${error.message}): ${stops(n, " for it")}${this.statusHint(status, server, model)}`);
    }
  }

  /**
   * How to go on after a failed attempt for `model`; `sent` is how a chat
   * attempt asked for JSON (the mode may have changed since).
   */
  private classify(error: unknown, server: Endpoint, model: string, sentAs?: SentAs): FailureInfo {
    const sent = sentAs?.mode;
    if (error instanceof APIUserAbortError || error instanceof StoppedError) return { retryable: false };
    if (error instanceof ReplyBodyError) return { retryable: error.retryable };
    if (error instanceof APIConnectionError && !(error instanceof APIConnectionTimeoutError)) {
      const cause = rootCause(error);
      if (!server.answered && (cause.code === "ECONNREFUSED" || cause.code === "ENOTFOUND") && ++server.refusals >= REFUSALS_BEFORE_GIVING_UP) {
        server.unreachable =
          `could not reach ${server.shownURL} (${cause.message}): ${REFUSALS_BEFORE_GIVING_UP} connections failed so before the server ever answered, ` +
          `so the run stops asking; ${server.check}`;
        return { retryable: false };
      }
    }
    if (error instanceof APIConnectionError) return { retryable: true };
    if (error instanceof APIError) server.answered = true;
    if (error instanceof APIError && error.status !== undefined) {
      this.noteRefusal(error, error.status, server, model);
      // A used-up quota comes as a 429, but waiting for it would take the whole rate-limit budget of every request.
      if (isQuotaExhausted(error)) return { retryable: false };
      if ((error.status === 400 || error.status === 422) && sentAs !== undefined) {
        // A reasoning model takes only its default temperature, and its reply limit as max_completion_tokens: asked again without.
        if (sentAs.temperature && /temperature/i.test(error.message) && /unsupported|not supported|does not support|only the default/i.test(error.message)) {
          this.sendsTemperature = false;
          return { retryable: true, retryAfterMs: 0 };
        }
        if (sentAs.maxTokensField === "max_tokens" && this.config.maxTokens !== undefined && /max_tokens/.test(error.message) && /max_completion_tokens/.test(error.message)) {
          this.maxTokensField = "max_completion_tokens";
          return { retryable: true, retryAfterMs: 0 };
        }
      }
      if ((error.status === 400 || error.status === 422) && sent === "json_object" && SCHEMA_UNSUPPORTED.test(error.message)) {
        // json_object refused too (LM Studio takes only json_schema or text): the schema goes in the prompt alone.
        this.mode = "prompt";
        return { retryable: true, retryAfterMs: 0 };
      }
      if ((error.status === 400 || error.status === 422) && sent !== undefined && sent !== "json_object" && sent !== "prompt") {
        // First drop what the server refuses in the schema (length limits), then the schema itself.
        // Judged by what this attempt sent: requests in flight when the mode changed are refused too.
        if (sent === "json_schema" && LENGTH_LIMIT_UNSUPPORTED.test(error.message)) {
          if (this.mode === "json_schema") this.mode = "json_schema_no_length";
          return { retryable: true, retryAfterMs: 0 };
        }
        if (SCHEMA_UNSUPPORTED.test(error.message)) {
          this.mode = "json_object";
          return { retryable: true, retryAfterMs: 0 };
        }
      }
      if (!isRetryableStatus(error.status)) return { retryable: false };
      const asked = retryAfterMs(error.headers);
      // A 503 that says when to come back is a rate limit too (gateways and overloaded servers send it).
      return { retryable: true, retryAfterMs: asked, rateLimited: error.status === 429 || (error.status === 503 && asked !== undefined) };
    }
    return { retryable: false };
  }

  private async sendChat(
    request: StructuredRequest<unknown>,
    model: string,
    extra: ChatMessage[],
    usage: UsageFanout,
    mode: StructuredMode,
  ): Promise<ChatAttemptResult> {
    const stopped = this.chat.stopped(model);
    if (stopped) throw stopped;
    const body = this.chatBody(request, model, mode, extra);
    usage.each((u) => u.httpRequest("chat"));
    const started = Date.now();
    const response = await this.chat.client.chat.completions
      .create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { maxRetries: 0, timeout: this.config.timeoutMs })
      .asResponse();
    this.chat.succeeded(model);
    const data = await this.readJSON(response, this.chat, started, "chat completion", MAX_REPLY_BYTES, "a runaway reply? bound replies with maxTokens (--max-tokens or EVALFRAME_MAX_TOKENS)");
    const carried = serverError(data);
    if (carried !== undefined) throw new ReplyBodyError(`the server answered HTTP ${response.status} with an error in the body: "${excerpt(carried, 200)}" from ${this.chat.shownURL}`, true);
    if (typeof data !== "object" || data === null || !Array.isArray((data as { choices?: unknown }).choices)) {
      throw new ReplyBodyError(`the server's reply was not a JSON chat completion (JSON with no "choices" list: ${excerpt(JSON.stringify(data), 120)}) from ${this.chat.shownURL}`, true);
    }
    const completionData = data as ChatCompletionShape;
    const prompt = count(completionData.usage?.prompt_tokens);
    const completion = count(completionData.usage?.completion_tokens);
    const cached = count(completionData.usage?.prompt_tokens_details?.cached_tokens);
    usage.each((u) => u.tokens(model, "chat", prompt, completion, "interactive", cached));
    // No usage, or zeros (a reply always reads its prompt): not "0 tokens, $0", but unknown.
    if (prompt === 0 && completion === 0) usage.each((u) => u.tokensUnreported());
    this.scheduler.observe(response.headers, prompt + completion);
    const first = completionData.choices[0];
    const choice = typeof first === "object" && first !== null ? (first as ChoiceShape) : undefined;
    const content = choice?.message?.content;
    const finishReason = choice?.finish_reason;
    return { content: typeof content === "string" ? content : null, finishReason: typeof finishReason === "string" ? finishReason : null, missing: missingContent(choice) };
  }

  /**
   * Reads a 2xx reply's body as JSON (`expected`: "chat completion", for
   * messages), within what is left of the request's time (the SDK's timeout
   * ends when the headers arrive) and at most `limit` bytes. A body cut off,
   * stalled or not JSON is a transient fault (retried); a body over the limit
   * is not read, and not retried (`tooLarge` says what to do).
   */
  private async readJSON(response: Response, server: Endpoint, started: number, expected: string, limit: number, tooLarge: string): Promise<unknown> {
    const refuse = (): ReplyBodyError => new ReplyBodyError(`the reply from ${server.shownURL} is larger than ${megabytes(limit)}, so it was not read: ${tooLarge}`, false);
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    if (reader) {
      if (Number(response.headers.get("content-length") ?? Number.NaN) > limit) {
        await reader.cancel().catch(() => undefined);
        throw refuse();
      }
      let stalled = false;
      const stall = (): ReplyBodyError =>
        new ReplyBodyError(`no complete reply within ${this.config.timeoutMs} ms from ${server.shownURL} (the reply began, then stalled)`, true);
      const timer = setTimeout(
        () => {
          stalled = true;
          void reader.cancel().catch(() => undefined);
        },
        Math.max(1, started + this.config.timeoutMs - Date.now()),
      );
      try {
        let size = 0;
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            if (stalled) throw stall();
            const cause = error instanceof Error ? rootCause(error).message : String(error);
            throw new ReplyBodyError(`the connection closed while reading the reply from ${server.shownURL} (${cause})`, true);
          }
          if (stalled) throw stall();
          if (next.done) break;
          size += next.value.byteLength;
          if (size > limit) {
            await reader.cancel().catch(() => undefined);
            throw refuse();
          }
          chunks.push(next.value);
        }
      } finally {
        clearTimeout(timer);
      }
    }
    // A byte-order mark before the JSON (some gateways add one) is not part of it, as fetch's own json() reads it.
    const text = withoutBom(Buffer.concat(chunks).toString("utf8"));
    // A stream of chunks though none was asked for (a proxy that always streams): the whole reply, put together.
    const streamed = expected === "chat completion" && /^\s*(?:data|event|id|:)[^\n]*\n/.test(text) ? completionFromEvents(text) : undefined;
    if (streamed !== undefined) return streamed;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ReplyBodyError(`the server's reply was not a JSON ${expected} (${describeBody(text, response.headers.get("content-type"))}) from ${server.shownURL}`, true);
    }
  }

  /** The cache key of a chat request: provider, base URL, model, sampling, prompt version, schema and messages; never secrets. */
  chatKey<T>(request: StructuredRequest<T>, model: string = request.model ?? this.config.model): string {
    return cacheKey({
      v: 1,
      kind: "chat",
      provider: "openai-compatible",
      baseURL: this.config.baseURL,
      model,
      temperature: this.config.temperature,
      seed: this.config.seed ?? null,
      maxTokens: this.config.maxTokens ?? null,
      promptVersion: request.promptVersion,
      schemaName: request.schemaName,
      schema: request.jsonSchema,
      messages: request.messages,
    });
  }

  /** The cache key of one text's embedding: the embeddings server's base URL, the model and the text; never secrets. */
  embeddingKey(text: string): string {
    return cacheKey({ v: 1, kind: "embedding", provider: "openai-compatible", baseURL: this.config.embeddingBaseURL, model: this.config.embeddingModel, text });
  }

  /** The chat-completions body of a request. */
  chatBody<T>(request: StructuredRequest<T>, model: string, mode: StructuredMode = this.mode, extra: ChatMessage[] = []): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model,
      messages: [...messagesFor(request, mode), ...extra],
    };
    if (this.sendsTemperature) body["temperature"] = this.config.temperature;
    const format = responseFormat(request, mode);
    if (format !== undefined) body["response_format"] = format;
    if (this.config.seed !== undefined) body["seed"] = this.config.seed;
    if (this.config.maxTokens !== undefined) body[this.maxTokensField] = this.config.maxTokens;
    return body;
  }

  /** The cached reply of a request (validated again), or undefined. */
  async cachedReply<T>(request: StructuredRequest<T>): Promise<T | undefined> {
    const cached = await this.cache.get(this.chatKey(request));
    if (cached === undefined) return undefined;
    const checked = request.schema.safeParse(cached);
    return checked.success && request.check?.(checked.data) === undefined ? checked.data : undefined;
  }

  /** The cached embedding of a text, or undefined. */
  async cachedEmbedding(text: string): Promise<number[] | undefined> {
    const hit = await this.cache.get(this.embeddingKey(text));
    return Array.isArray(hit) ? (hit as number[]) : undefined;
  }

  /**
   * Reads a reply that arrived another way (a batch's output file) as if the
   * server had just sent it: validated, then cached. Returns the problem when
   * it is not usable.
   */
  async acceptReply<T>(request: StructuredRequest<T>, content: string | null, finishReason: string | null): Promise<string | undefined> {
    const read = readReply(request, content, finishReason);
    if (!read.ok) return redactSecrets(read.problem, this.secrets());
    await this.store(request, this.chatKey(request), read.value, request.model ?? this.config.model);
    return undefined;
  }

  /**
   * Caches a reply, and each part of it under its own request's key (see
   * `StructuredRequest.parts`); the parts first, since a later run looks
   * them up before the whole.
   */
  private async store<T>(request: StructuredRequest<T>, key: string, reply: T, model: string): Promise<void> {
    for (const part of request.parts?.(reply) ?? []) await this.cache.set(this.chatKey(part.request, model), part.reply);
    await this.cache.set(key, reply);
  }

  /** Caches an embedding that arrived another way (a batch's output file). */
  async acceptEmbedding(text: string, vector: number[]): Promise<void> {
    await this.cache.set(this.embeddingKey(text), vector);
  }

  /**
   * The `openai` SDK client of the chat server, for the Files and Batches
   * APIs (same base URL, headers and key). Typed `unknown` so that the public
   * typings do not pull in the SDK's; batch mode casts it to the calls it uses.
   */
  get sdk(): unknown {
    return this.chat.client;
  }

  /** The reply cache's folder (undefined with the cache off): batch mode records next to it which batch folders use it. */
  get cacheFolder(): string | undefined {
    return this.config.cacheDir === false ? undefined : this.config.cacheDir;
  }

  /** Messages safe to show: no secret. */
  scrub(text: string): string {
    return redactSecrets(text, this.secrets());
  }

  async complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T> {
    const sinks = this.fanout(usage);
    const model = request.model ?? this.config.model;
    const key = this.chatKey(request, model);
    // Marked in flight before the cache lookup, so identical requests made at the same
    // moment (two models giving the same answer) share one lookup and at most one call.
    const pending = this.inflight.get(key);
    if (pending) {
      sinks.each((u) => u.chatCall(true));
      return (await pending) as T;
    }
    const work = this.lookUpOrFetch(request, model, key, sinks);
    this.inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async lookUpOrFetch<T>(request: StructuredRequest<T>, model: string, key: string, sinks: UsageFanout): Promise<T> {
    const cached = await this.cache.get(key);
    if (cached !== undefined) {
      const checked = request.schema.safeParse(cached);
      if (checked.success && request.check?.(checked.data) === undefined) {
        sinks.each((u) => u.chatCall(true));
        return checked.data;
      }
    }
    sinks.each((u) => u.chatCall(false));
    return this.fetchReply(request, model, key, sinks);
  }

  private async fetchReply<T>(request: StructuredRequest<T>, model: string, key: string, sinks: UsageFanout): Promise<T> {
    let extra: ChatMessage[] = [];
    for (let attempt = 0; ; attempt++) {
      let reply: ChatAttemptResult;
      let sent: SentAs = { mode: this.mode, temperature: this.sendsTemperature, maxTokensField: this.maxTokensField };
      try {
        reply = await this.scheduler.run({
          attempt: () => {
            sent = { mode: this.mode, temperature: this.sendsTemperature, maxTokensField: this.maxTokensField };
            return this.sendChat(request as StructuredRequest<unknown>, model, extra, sinks, sent.mode);
          },
          classify: (error) => this.classify(error, this.chat, model, sent),
          tokens: estimateTokens([...request.messages, ...extra]),
          onRetry: () => sinks.each((u) => u.retry()),
        });
      } catch (error) {
        sinks.each((u) => u.failure());
        throw this.failure(error, `${request.schemaName} request to ${model}`, this.chat, model);
      }
      const read = reply.missing !== undefined ? { ok: false as const, problem: reply.missing } : readReply(request, reply.content, reply.finishReason);
      if (read.ok) {
        await this.store(request, key, read.value, model);
        return read.value;
      }
      // A reply the server's content filter withheld (Azure) is withheld again for the same prompt: asking again only pays again.
      if (attempt >= this.config.maxInvalidReplies || reply.finishReason === "content_filter") {
        sinks.each((u) => u.failure());
        const hint = reply.finishReason === "length" ? `; ${this.replyLimitHint()}` : "";
        throw new JudgeError(
          redactSecrets(`${request.schemaName} request to ${model}: no valid reply after ${attempt + 1} attempts; last problem: ${read.problem}${hint}`, this.secrets()),
        );
      }
      sinks.each((u) => u.retry());
      extra = correctionMessages(reply.content ?? "", read.problem);
    }
  }

  /** How to lift the limit a reply was cut off at: the judge's maxTokens, or else the server's own. */
  private replyLimitHint(): string {
    return this.config.maxTokens !== undefined
      ? `the judge's maxTokens (${this.config.maxTokens}) is too small for this reply: raise it, or leave it out`
      : "the server's reply limit is too small for this reply: raise it (Ollama: num_predict; llama.cpp: --n-predict), or use a model with a longer output";
  }

  async embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    const sinks = this.fanout(usage);
    const keyOf = (text: string): string => this.embeddingKey(text);
    const unique = [...new Set(texts)];
    const vectors = new Map<string, number[]>();
    const missing: string[] = [];
    for (const text of unique) {
      const hit = await this.cache.get(keyOf(text));
      // A damaged entry (not a list of finite numbers) is a miss: fetched again and overwritten.
      if (isVector(hit)) vectors.set(text, hit);
      else missing.push(text);
    }
    const missed = new Set(missing);
    const hits = texts.filter((t) => !missed.has(t)).length;
    sinks.each((u) => u.embeddingCall(texts.length, hits));
    const batches: string[][] = [];
    for (let i = 0; i < missing.length; i += this.config.embeddingBatchSize) batches.push(missing.slice(i, i + this.config.embeddingBatchSize));
    await Promise.all(
      batches.map(async (batch) => {
        let result: number[][];
        try {
          result = await this.embeddingScheduler.run({
            attempt: () => this.sendEmbeddings(batch, sinks),
            classify: (error) => this.classify(error, this.embeddings, this.config.embeddingModel),
            tokens: estimateTokens(batch),
            onRetry: () => sinks.each((u) => u.retry()),
          });
        } catch (error) {
          sinks.each((u) => u.failure());
          throw this.failure(error, `embeddings request to ${this.config.embeddingModel}`, this.embeddings, this.config.embeddingModel);
        }
        await Promise.all(
          batch.map(async (text, i) => {
            const vector = result[i]!;
            vectors.set(text, vector);
            await this.cache.set(keyOf(text), vector);
          }),
        );
      }),
    );
    return texts.map((t) => vectors.get(t)!);
  }

  private async sendEmbeddings(batch: string[], usage: UsageFanout): Promise<number[][]> {
    const server = this.embeddings;
    const model = this.config.embeddingModel;
    const stopped = server.stopped(model);
    if (stopped) throw stopped;
    usage.each((u) => u.httpRequest("embedding"));
    const started = Date.now();
    const response = await server.client.embeddings
      .create({ model, input: batch, encoding_format: "float" }, { maxRetries: 0, timeout: this.config.timeoutMs })
      .asResponse();
    server.succeeded(model);
    const limit = MAX_REPLY_BYTES + MAX_EMBEDDING_BYTES_PER_TEXT * batch.length;
    const data = await this.readJSON(response, server, started, "embeddings reply", limit, "send fewer texts a request (embeddingBatchSize)");
    const carried = serverError(data);
    if (carried !== undefined) throw new ReplyBodyError(`the server answered HTTP ${response.status} with an error in the body: "${excerpt(carried, 200)}" from ${server.shownURL}`, true);
    if (typeof data !== "object" || data === null || !Array.isArray((data as { data?: unknown }).data)) {
      throw new ReplyBodyError(`the server's reply was not a JSON embeddings reply (JSON with no "data" list: ${excerpt(JSON.stringify(data), 120)}) from ${server.shownURL}`, true);
    }
    const reply = data as EmbeddingsShape;
    const tokens = count(reply.usage?.prompt_tokens);
    usage.each((u) => u.tokens(model, "embedding", tokens, 0));
    if (tokens === 0) usage.each((u) => u.tokensUnreported());
    this.embeddingScheduler.observe(response.headers, tokens);
    const vectors = vectorsInOrder(reply.data, batch.length);
    if (vectors === undefined) {
      throw new JudgeError(`embeddings reply from ${server.shownURL} is not ${batch.length} vectors of numbers, one per text (it has ${reply.data.length} entries)`);
    }
    return vectors;
  }
}
