/**
 * Judge options: what the user can set, the defaults (as in Ragas'
 * documentation), and how the environment chooses between an OpenAI-compatible
 * server and the offline judge.
 */
import type { LabelSource } from "../labels/types";
import type { ModelPrice } from "./usage";
import { DEFAULT_PRICES } from "./usage";

/** Which judge answers: an OpenAI-compatible server, the offline (approximate) judge, or hand labels replayed. */
export type JudgeKind = "openai" | "offline" | "labels";

/** Options of `createJudge`. Every field is optional. */
export interface JudgeOptions {
  /**
   * `"openai"` for any OpenAI-compatible server (OpenAI, Azure, Ollama, vLLM,
   * LM Studio, llama.cpp server), `"offline"` for the deterministic lexical
   * judge, `"labels"` to replay hand labels (`labels` below). Default:
   * `"labels"` when `labels` is given, else `"openai"` when an API key or base
   * URL is given or set in `OPENAI_API_KEY` / `OPENAI_BASE_URL`, else
   * `"offline"` (with a notice).
   */
  judge?: JudgeKind;
  /**
   * Hand labels for `judge: "labels"`: a label file (JSON Lines, see
   * docs/labelling.md), several files, label objects, or a `readLabels`
   * result.
   */
  labels?: LabelSource;
  /** API key; default `OPENAI_API_KEY`. Never stored, logged or put in a cache key. */
  apiKey?: string;
  /** Server URL ending in /v1; default `OPENAI_BASE_URL`, else OpenAI's. */
  baseURL?: string;
  /** Chat model of the text metrics; default `gpt-4o-mini`. */
  model?: string;
  /** Chat model that reads images (multimodal relevance); default `gpt-4o`. */
  visionModel?: string;
  /** Embedding model; default `text-embedding-3-small`. */
  embeddingModel?: string;
  /** Sampling temperature; default 0. */
  temperature?: number;
  /** Sampling seed, for servers that honour it. */
  seed?: number;
  /** Largest reply, in tokens (`max_tokens`). */
  maxTokens?: number;
  /** Time allowed for one HTTP request; default 60 s. */
  timeoutMs?: number;
  /** Extra HTTP headers on every request (Azure `api-key`, gateway tokens). Never stored or logged. */
  headers?: Readonly<Record<string, string>>;
  /** Extra query parameters on every request (Azure `api-version`). */
  query?: Readonly<Record<string, string>>;
  /** Requests in flight at once, over the whole run; default 16. */
  concurrency?: number;
  /** Extra attempts after a server error, dropped connection or timeout; default 6. Rate limits do not count: see `rateLimitWaitMs`. */
  maxRetries?: number;
  /**
   * Longest time one request waits on rate limits (429, or 503 with
   * Retry-After), over all its attempts, before its row fails; default
   * 30 min. Meanwhile the whole run slows to the server's pace.
   */
  rateLimitWaitMs?: number;
  /**
   * The window your provider states its rate limit in (default 60 s: RPM,
   * TPM). Used only with servers that send 429s but no x-ratelimit-*
   * headers: the run's pace is learned from the successes of one window.
   */
  rateLimitWindowMs?: number;
  /** Extra attempts after a reply that is not valid JSON of the right shape; default 2. */
  maxInvalidReplies?: number;
  /** Backoff ceiling of the first retry (doubling each time, full jitter); default 500 ms. */
  retryBaseDelayMs?: number;
  /** Largest backoff; default 30 s. */
  retryMaxDelayMs?: number;
  /** Texts per embeddings request; default 256. */
  embeddingBatchSize?: number;
  /** Keep replies on disk so reruns are free; default true. */
  cache?: boolean;
  /** Cache folder; default `.evalframe-cache` in the working directory. */
  cacheDir?: string;
  /** USD per million tokens per model, merged over {@link DEFAULT_PRICES}. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Do not print the notice when the offline judge is chosen by default. */
  quiet?: boolean;
  /** Offline judge only: worker threads on large runs (default 2 on a machine with 2 or more processors; 0 = none). */
  threads?: number;
}

/** Options after defaults, as the judges use them. */
export interface ResolvedJudgeConfig {
  kind: JudgeKind;
  /** The hand labels of the labels judge (not read yet); undefined for the others. */
  labels: LabelSource | undefined;
  apiKey: string | undefined;
  baseURL: string;
  model: string;
  visionModel: string;
  embeddingModel: string;
  temperature: number;
  seed: number | undefined;
  maxTokens: number | undefined;
  timeoutMs: number;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  concurrency: number;
  maxRetries: number;
  rateLimitWaitMs: number;
  rateLimitWindowMs: number;
  maxInvalidReplies: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  embeddingBatchSize: number;
  cacheDir: string | false;
  prices: Readonly<Record<string, ModelPrice>>;
  /** Offline judge only: worker threads on large runs; undefined = the judge's default. */
  threads: number | undefined;
  /** Why the offline judge was chosen without being asked for, if so. */
  offlineNotice: string | undefined;
}

/** Defaults as in Ragas' documentation. */
export const DEFAULT_MODELS = {
  model: "gpt-4o-mini",
  visionModel: "gpt-4o",
  embeddingModel: "text-embedding-3-small",
} as const;

/** OpenAI's own endpoint. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new RangeError(`judge option ${name} must be a whole number of at least ${min}, got ${value}`);
  return v;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Applies defaults and the environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`)
 * to judge options, and checks them.
 *
 * @throws {RangeError} for a value out of range, naming the option.
 */
export function resolveJudgeConfig(options: JudgeOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedJudgeConfig {
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env["OPENAI_API_KEY"]);
  const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env["OPENAI_BASE_URL"]);
  let kind = options.judge ?? (options.labels !== undefined ? "labels" : undefined);
  let offlineNotice: string | undefined;
  if (kind === undefined) {
    kind = apiKey !== undefined || baseURL !== undefined ? "openai" : "offline";
    if (kind === "offline") {
      offlineNotice =
        "evalframe: no OPENAI_API_KEY or OPENAI_BASE_URL is set, so scores come from the offline judge (approximate, lexical). " +
        "Set them (or pass { apiKey, baseURL }) to use a real model.";
    }
  }
  if (kind !== "openai" && kind !== "offline" && kind !== "labels") {
    throw new RangeError(`judge must be "openai", "offline" or "labels", got ${JSON.stringify(kind)}`);
  }
  if (kind === "labels" && options.labels === undefined) {
    throw new RangeError('judge "labels" needs labels: a label file, a list of files or label objects, e.g. createJudge({ judge: "labels", labels: "data/qa-models.labels.jsonl" })');
  }
  if (kind !== "labels" && options.labels !== undefined) {
    throw new RangeError(`labels are replayed only by judge "labels", and judge is ${JSON.stringify(kind)}; use { judge: "labels", labels } or leave labels out`);
  }
  if (kind === "openai" && apiKey === undefined && baseURL === undefined) {
    throw new RangeError(
      'judge "openai" needs an API key (OPENAI_API_KEY or { apiKey }) or the base URL of a server that needs none (OPENAI_BASE_URL or { baseURL })',
    );
  }
  const temperature = options.temperature ?? 0;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw new RangeError(`judge option temperature must be between 0 and 2, got ${options.temperature}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new RangeError(`judge option seed must be a whole number, got ${options.seed}`);
  if (options.maxTokens !== undefined) positiveInteger("maxTokens", options.maxTokens, 1);
  const { url, query: urlQuery } = splitBaseURL(baseURL ?? OPENAI_BASE_URL);
  return {
    kind,
    labels: kind === "labels" ? options.labels : undefined,
    apiKey,
    baseURL: url,
    model: nonEmpty(options.model) ?? DEFAULT_MODELS.model,
    visionModel: nonEmpty(options.visionModel) ?? DEFAULT_MODELS.visionModel,
    embeddingModel: nonEmpty(options.embeddingModel) ?? DEFAULT_MODELS.embeddingModel,
    temperature,
    seed: options.seed,
    maxTokens: options.maxTokens,
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, 60_000),
    headers: { ...(options.headers ?? {}) },
    query: { ...urlQuery, ...(options.query ?? {}) },
    concurrency: positiveInteger("concurrency", options.concurrency, 16),
    maxRetries: positiveInteger("maxRetries", options.maxRetries, 6, 0),
    rateLimitWaitMs: positiveInteger("rateLimitWaitMs", options.rateLimitWaitMs, 30 * 60_000, 0),
    rateLimitWindowMs: positiveInteger("rateLimitWindowMs", options.rateLimitWindowMs, 60_000),
    maxInvalidReplies: positiveInteger("maxInvalidReplies", options.maxInvalidReplies, 2, 0),
    retryBaseDelayMs: positiveInteger("retryBaseDelayMs", options.retryBaseDelayMs, 500, 0),
    retryMaxDelayMs: positiveInteger("retryMaxDelayMs", options.retryMaxDelayMs, 30_000, 0),
    embeddingBatchSize: positiveInteger("embeddingBatchSize", options.embeddingBatchSize, 256),
    cacheDir: options.cache === false ? false : (nonEmpty(options.cacheDir) ?? ".evalframe-cache"),
    prices: { ...DEFAULT_PRICES, ...(options.prices ?? {}) },
    threads: options.threads,
    offlineNotice: options.quiet ? undefined : offlineNotice,
  };
}

/** A base URL as it may be shown: no user name, password, query values or fragment. */
export function shownBaseURL(text: string): string {
  try {
    const url = new URL(text);
    url.username = "";
    url.password = "";
    for (const name of [...url.searchParams.keys()]) url.searchParams.set(name, "…");
    url.hash = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    // Not a URL: show only what cannot be a secret's place (up to the first "@", "?" or "#").
    return text.replace(/\/\/[^/@]*@/, "//…@").replace(/[?#].*$/s, "?…");
  }
}

/**
 * Checks a base URL and takes its query string apart: the SDK appends the
 * endpoint path to the base URL, so a query there would end up before the
 * path ("/v1?api-version=1/chat/completions"); its parameters go on every
 * request instead (the SDK's default query), as `{ query }` would. A user
 * name or password in the URL is refused: the SDK never sends it.
 */
function splitBaseURL(text: string): { url: string; query: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(text.trim());
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new RangeError(`judge base URL must be an http(s) URL like http://localhost:11434/v1, got ${JSON.stringify(shownBaseURL(text))}`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new RangeError(
      `judge base URL ${JSON.stringify(shownBaseURL(text))} has a user name or password in it ("user:password@host"), which the OpenAI SDK does not send; ` +
        "remove it, and put the key in OPENAI_API_KEY, or a gateway's credentials in the headers option (e.g. { headers: { Authorization: \"Basic …\" } })",
    );
  }
  const query: Record<string, string> = {};
  for (const [name, value] of parsed.searchParams) query[name] = value;
  parsed.search = "";
  parsed.hash = "";
  return { url: parsed.toString().replace(/\/+$/, ""), query };
}

/**
 * Removes secrets from text meant for a person (errors, logs): the given
 * values, bearer tokens and strings shaped like OpenAI keys.
 *
 * @example
 * redactSecrets("401: bad key sk-abc123def456ghi", []) // "401: bad key [redacted]"
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(/\bBearer\s+[^\s"',]+/gi, "Bearer [redacted]").replace(/\bsk-[A-Za-z0-9_-]{6,}/g, "[redacted]");
}
