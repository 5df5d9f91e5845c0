/**
 * Judge options: what the user can set, the defaults (as in Ragas'
 * documentation), and the one order every setting is read in: the call's
 * options (a flag, on the command line), then `EVALFRAME_*` environment
 * variables, then `OPENAI_*` ones, then the default. Notebooks, the API and
 * the CLI all resolve through {@link resolveJudgeConfig}, which also records
 * where each value came from.
 */
import { wholeNumberText } from "../dataset/number-text";
import type { LabelSource } from "../labels/types";
import type { ModelPrice } from "./usage";
import { DEFAULT_PRICES } from "./usage";
import { timerDelay } from "../dataset/timer-limit";

/** Which judge answers: an OpenAI-compatible server, the offline (approximate) judge, or hand labels replayed. */
export type JudgeKind = "openai" | "offline" | "labels";

/** Options of `createJudge`. Every field is optional. */
export interface JudgeOptions {
  /**
   * `"openai"` for any OpenAI-compatible server (OpenAI, Azure, Ollama, vLLM,
   * LM Studio, llama.cpp server), `"offline"` for the deterministic lexical
   * judge, `"labels"` to replay hand labels (`labels` below). Default:
   * `"labels"` when `labels` is given, else `EVALFRAME_JUDGE` (`openai` or
   * `offline`), else `"openai"` when an API key or base URL is found (option,
   * `EVALFRAME_API_KEY` / `EVALFRAME_BASE_URL`, `OPENAI_API_KEY` /
   * `OPENAI_BASE_URL`), else `"offline"` (with a notice).
   */
  judge?: JudgeKind;
  /**
   * Hand labels for `judge: "labels"`: a label file (JSON Lines, see
   * docs/labelling.md), several files, label objects, or a `readLabels`
   * result.
   */
  labels?: LabelSource;
  /** API key; default `EVALFRAME_API_KEY`, else `OPENAI_API_KEY`. Never stored, logged or put in a cache key. */
  apiKey?: string;
  /** Server URL ending in /v1; default `EVALFRAME_BASE_URL`, else `OPENAI_BASE_URL`, else OpenAI's. */
  baseURL?: string;
  /** Chat model of the text metrics; default `EVALFRAME_MODEL`, else `gpt-4o-mini`. */
  model?: string;
  /** Chat model that reads images (multimodal relevance); default `EVALFRAME_VISION_MODEL`, else `gpt-4o`. */
  visionModel?: string;
  /** Embedding model; default `EVALFRAME_EMBEDDING_MODEL`, else `text-embedding-3-small`. */
  embeddingModel?: string;
  /**
   * A server of its own for embeddings (e.g. a second vLLM), ending in /v1;
   * default `EVALFRAME_EMBEDDING_BASE_URL`, else the chat server (`baseURL`).
   * `headers` and `query` go to both servers.
   */
  embeddingBaseURL?: string;
  /**
   * The key of the embeddings server; default `EVALFRAME_EMBEDDING_API_KEY`.
   * Without one, the chat key is sent to it only when it is on the same
   * host and port as the chat server: a key never goes to another host than
   * the one it was given for. Never stored, logged or put in a cache key.
   */
  embeddingApiKey?: string;
  /** Sampling temperature; default 0. */
  temperature?: number;
  /** Sampling seed, for servers that honour it. */
  seed?: number;
  /**
   * Largest reply, in tokens (`max_tokens`); default `EVALFRAME_MAX_TOKENS`,
   * else none (the server's own limit). Below 4,096, the fused layout puts
   * fewer answers in a batched call, so that its reply fits.
   */
  maxTokens?: number;
  /**
   * Time allowed for one HTTP request, in ms; default `EVALFRAME_TIMEOUT_MS`,
   * else 60 s (at most 24.8 days: a longer one is taken as that, no timeout
   * in practice). A local server that loads the model at the first request,
   * or queues requests behind a few slots, may need more.
   */
  timeoutMs?: number;
  /** Extra HTTP headers on every request (Azure `api-key`, gateway tokens). Never stored or logged. */
  headers?: Readonly<Record<string, string>>;
  /** Extra query parameters on every request (Azure `api-version`). */
  query?: Readonly<Record<string, string>>;
  /** Requests in flight at once, over the whole run (both servers together); default `EVALFRAME_CONCURRENCY`, else 16. */
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
  /** Cache folder; default `EVALFRAME_CACHE_DIR`, else `.evalframe-cache` in the working directory. */
  cacheDir?: string;
  /** USD per million tokens per model, merged over {@link DEFAULT_PRICES}. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Do not print the notice when the offline judge is chosen by default. */
  quiet?: boolean;
  /** Offline judge only: worker threads on large runs (default 2 on a machine with 2 or more processors; 0 = none). */
  threads?: number;
}

/** Environment variables as `process.env` holds them (a plain object works too). */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/**
 * The judge settings that the environment can give, each with its variables
 * in the order they are read (an empty value counts as unset). A setting
 * given as an option (on the command line, a flag) wins over all of them.
 */
export const JUDGE_ENV_VARS = {
  judge: ["EVALFRAME_JUDGE"],
  model: ["EVALFRAME_MODEL"],
  visionModel: ["EVALFRAME_VISION_MODEL"],
  embeddingModel: ["EVALFRAME_EMBEDDING_MODEL"],
  baseURL: ["EVALFRAME_BASE_URL", "OPENAI_BASE_URL"],
  apiKey: ["EVALFRAME_API_KEY", "OPENAI_API_KEY"],
  embeddingBaseURL: ["EVALFRAME_EMBEDDING_BASE_URL"],
  embeddingApiKey: ["EVALFRAME_EMBEDDING_API_KEY"],
  concurrency: ["EVALFRAME_CONCURRENCY"],
  maxTokens: ["EVALFRAME_MAX_TOKENS"],
  timeoutMs: ["EVALFRAME_TIMEOUT_MS"],
  cacheDir: ["EVALFRAME_CACHE_DIR"],
} as const;

/** A judge setting whose source is recorded: the keys of {@link JUDGE_ENV_VARS}. */
export type JudgeSettingName = keyof typeof JUDGE_ENV_VARS;

/** An environment variable the judge reads. */
export type JudgeEnvVar = (typeof JUDGE_ENV_VARS)[JudgeSettingName][number];

/**
 * Where a resolved setting came from: the call's options (on the command
 * line, a flag), an environment variable, or the default. A setting that
 * follows another (the embeddings server's URL and key, when no separate one
 * is set) has the source of the value it took.
 */
export type JudgeSettingSource = "option" | JudgeEnvVar | "default";

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
  /** Where embeddings are sent: `baseURL` unless a separate server was set (`separateEmbeddings`). */
  embeddingBaseURL: string;
  /** The key sent to the embeddings server (see `JudgeOptions.embeddingApiKey`). */
  embeddingApiKey: string | undefined;
  /** Query parameters of embedding requests: its URL's own, then `query`'s. */
  embeddingQuery: Readonly<Record<string, string>>;
  /** Whether embeddings go to a server of their own (`embeddingBaseURL` was set). */
  separateEmbeddings: boolean;
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
  /** Where each setting that the environment can give came from. */
  sources: Readonly<Record<JudgeSettingName, JudgeSettingSource>>;
}

/** Defaults as in Ragas' documentation. */
export const DEFAULT_MODELS = {
  model: "gpt-4o-mini",
  visionModel: "gpt-4o",
  embeddingModel: "text-embedding-3-small",
} as const;

/** OpenAI's own endpoint. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Default of `concurrency`. */
const DEFAULT_CONCURRENCY = 16;

/** Default of `cacheDir`. */
const DEFAULT_CACHE_DIR = ".evalframe-cache";

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new RangeError(`judge option ${name} must be a whole number of at least ${min}, got ${value}`);
  return v;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/** A setting's value and where it came from. */
interface Found<T> {
  value: T | undefined;
  from: JudgeSettingSource;
}

/** Settings whose values are secrets: a wrong value is described by its type alone. */
const SECRET_SETTINGS: ReadonlySet<JudgeSettingName> = new Set(["apiKey", "embeddingApiKey"]);

/**
 * Refuses a text option given as something else (JavaScript callers, JSON
 * configs), which would otherwise fail deep inside as "value.trim is not a
 * function". A secret's value is never shown, only its type.
 */
function checkTextOption(setting: JudgeSettingName, option: unknown): void {
  if (option === undefined || typeof option === "string") return;
  const kind = typeof option;
  const shown = option === null ? "null" : SECRET_SETTINGS.has(setting) || kind === "object" || kind === "function" ? `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}` : String(option);
  if (setting === "cacheDir") {
    throw new TypeError(
      `judge option cacheDir must be the cache folder's path (a string, e.g. ".evalframe-cache"; default EVALFRAME_CACHE_DIR, else .evalframe-cache), got ${shown}; to turn the cache off, use cache: false`,
    );
  }
  throw new TypeError(`judge option ${setting} must be a string, got ${shown}`);
}

/** A text setting: the option, else the first of its environment variables that is set, else nothing (from "default"). */
function lookUp(setting: JudgeSettingName, option: string | undefined, env: EnvironmentVariables): Found<string> {
  checkTextOption(setting, option);
  const given = nonEmpty(option);
  if (given !== undefined) return { value: given, from: "option" };
  for (const name of JUDGE_ENV_VARS[setting]) {
    const value = nonEmpty(env[name]);
    if (value !== undefined) return { value, from: name };
  }
  return { value: undefined, from: "default" };
}

/** The API key of a judge made only to price a run: an estimate never calls the server. */
export const ESTIMATE_ONLY_API_KEY = "no-key-set-estimate-only";

/**
 * Options for a judge that only prices a run (`estimate`, `--dry-run`):
 * when an OpenAI-compatible judge is asked for (`judge: "openai"` or
 * EVALFRAME_JUDGE=openai) and no API key or base URL is set anywhere, it
 * gets {@link ESTIMATE_ONLY_API_KEY}, so a run can be priced before a key
 * exists. Other options are returned as they are.
 *
 * @example
 * estimateOnlyOptions({ judge: "openai", model: "gpt-4o-mini" }, {});
 * // { judge: "openai", model: "gpt-4o-mini", apiKey: "no-key-set-estimate-only" }
 */
export function estimateOnlyOptions(options: JudgeOptions, env: EnvironmentVariables = process.env): JudgeOptions {
  return openAIWithoutAccess(options, env) ? { ...options, apiKey: ESTIMATE_ONLY_API_KEY } : options;
}

/**
 * Whether these options ask for an OpenAI-compatible judge (`judge:
 * "openai"`, or EVALFRAME_JUDGE=openai when no labels are given) while no
 * API key and no base URL is set, in the options or the environment: a run
 * could not reach a server.
 *
 * @example
 * openAIWithoutAccess({ judge: "openai" }, {}); // true
 * openAIWithoutAccess({ judge: "openai" }, { OPENAI_API_KEY: "sk-…" }); // false
 */
export function openAIWithoutAccess(options: JudgeOptions, env: EnvironmentVariables = process.env): boolean {
  const asked = options.judge ?? (options.labels === undefined ? nonEmpty(env[JUDGE_ENV_VARS.judge[0]]) : undefined);
  return asked === "openai" && lookUp("apiKey", options.apiKey, env).value === undefined && lookUp("baseURL", options.baseURL, env).value === undefined;
}

/** The judge kind an environment variable asks for. */
function envJudgeKind(found: Found<string>): JudgeKind | undefined {
  if (found.value === undefined) return undefined;
  if (found.value === "openai" || found.value === "offline") return found.value;
  if (found.value === "labels") {
    throw new RangeError(`${found.from}=labels cannot be used: the labels judge needs label files (--labels FILE, or { labels } in code)`);
  }
  throw new RangeError(`${found.from} must be openai or offline, got ${JSON.stringify(found.value)}`);
}

/**
 * A whole-number setting: the option as given, else its environment
 * variable read as a whole number of at least 1 by the flags' own rule
 * (digits only: not " 8" or "+8"); the message names the variable.
 */
function lookUpWholeNumber(setting: JudgeSettingName, option: number | undefined, env: EnvironmentVariables): Found<number> {
  if (option !== undefined) return { value: option, from: "option" };
  for (const name of JUDGE_ENV_VARS[setting]) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") continue; // an empty value counts as unset, as for every setting
    const value = wholeNumberText(raw, 1);
    if (value === undefined) {
      throw new RangeError(`${name} must be a whole number of at least 1, in digits only (e.g. ${name}=8, not " 8" or "+8"); got ${JSON.stringify(raw)}`);
    }
    return { value, from: name };
  }
  return { value: undefined, from: "default" };
}

/** Whether two http(s) URLs are on the same scheme, host and port. */
function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

/**
 * Resolves judge options: each setting from the options, else its
 * `EVALFRAME_*` variable, else its `OPENAI_*` one (API key and base URL),
 * else the default (see {@link JUDGE_ENV_VARS}); then checks every value and
 * records where each came from (`sources`). An empty value counts as unset.
 *
 * @param env where the variables are read (default `process.env`).
 * @throws {RangeError} for a value out of range, naming the option or the variable.
 *
 * @example
 * resolveJudgeConfig({}, { EVALFRAME_MODEL: "llama3.1", OPENAI_BASE_URL: "http://localhost:11434/v1" }).sources.model // "EVALFRAME_MODEL"
 */
export function resolveJudgeConfig(options: JudgeOptions = {}, env: EnvironmentVariables = process.env): ResolvedJudgeConfig {
  const apiKey = lookUp("apiKey", options.apiKey, env);
  const baseURL = lookUp("baseURL", options.baseURL, env);
  const envJudge = lookUp("judge", undefined, env);
  let kind: JudgeKind | undefined = options.judge ?? (options.labels !== undefined ? "labels" : undefined);
  const judgeFrom: JudgeSettingSource = kind !== undefined ? "option" : envJudge.from;
  kind ??= envJudgeKind(envJudge);
  let offlineNotice: string | undefined;
  if (kind === undefined) {
    kind = apiKey.value !== undefined || baseURL.value !== undefined ? "openai" : "offline";
    if (kind === "offline") {
      offlineNotice =
        "evalframe: no OPENAI_API_KEY or OPENAI_BASE_URL is set (nor EVALFRAME_API_KEY or EVALFRAME_BASE_URL), so scores come from the offline judge (approximate, lexical). " +
        "Set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server) to use a real model.";
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
  if (kind === "openai" && apiKey.value === undefined && baseURL.value === undefined) {
    throw new RangeError(
      'judge "openai" needs an API key (EVALFRAME_API_KEY or OPENAI_API_KEY, or { apiKey }) or the base URL of a server that needs none (EVALFRAME_BASE_URL or OPENAI_BASE_URL, or { baseURL })',
    );
  }
  const temperature = options.temperature ?? 0;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw new RangeError(`judge option temperature must be between 0 and 2, got ${options.temperature}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) throw new RangeError(`judge option seed must be a whole number, got ${options.seed}`);
  // A URL from the environment is named with its variable: the one to fix may not be on the command line.
  const fromVariable = (found: { from: string }) => (found.from === "option" || found.from === "default" ? "" : ` (from ${found.from})`);
  const chat = splitBaseURL(baseURL.value ?? OPENAI_BASE_URL, `judge base URL${fromVariable(baseURL)}`, "OPENAI_API_KEY (or EVALFRAME_API_KEY)");

  // Embeddings: the chat server unless a server of their own is set; its key only from its own setting, or the chat key on the same host.
  const embeddingURL = lookUp("embeddingBaseURL", options.embeddingBaseURL, env);
  const embedding = embeddingURL.value === undefined ? undefined : splitBaseURL(embeddingURL.value, `embedding base URL${fromVariable(embeddingURL)}`, "EVALFRAME_EMBEDDING_API_KEY");
  const ownEmbeddingKey = lookUp("embeddingApiKey", options.embeddingApiKey, env);
  const embeddingKey: Found<string> =
    ownEmbeddingKey.value !== undefined || (embedding !== undefined && !sameOrigin(embedding.url, chat.url)) ? ownEmbeddingKey : apiKey;

  const model = lookUp("model", options.model, env);
  const visionModel = lookUp("visionModel", options.visionModel, env);
  const embeddingModel = lookUp("embeddingModel", options.embeddingModel, env);
  const concurrency = lookUpWholeNumber("concurrency", options.concurrency, env);
  const maxTokens = lookUpWholeNumber("maxTokens", options.maxTokens, env);
  const timeoutMs = lookUpWholeNumber("timeoutMs", options.timeoutMs, env);
  if (maxTokens.value !== undefined) positiveInteger("maxTokens", maxTokens.value, 1);
  const cacheDir: Found<string | false> = options.cache === false ? { value: false, from: "option" } : lookUp("cacheDir", options.cacheDir, env);
  const query = { ...chat.query, ...(options.query ?? {}) };
  return {
    kind,
    labels: kind === "labels" ? options.labels : undefined,
    apiKey: apiKey.value,
    baseURL: chat.url,
    model: model.value ?? DEFAULT_MODELS.model,
    visionModel: visionModel.value ?? DEFAULT_MODELS.visionModel,
    embeddingModel: embeddingModel.value ?? DEFAULT_MODELS.embeddingModel,
    embeddingBaseURL: embedding?.url ?? chat.url,
    embeddingApiKey: embeddingKey.value,
    embeddingQuery: embedding ? { ...embedding.query, ...(options.query ?? {}) } : query,
    separateEmbeddings: embedding !== undefined,
    temperature,
    seed: options.seed,
    maxTokens: maxTokens.value,
    // Node's timers hold at most 2^31 - 1 ms (24.8 days); a longer one fires at once, and every request would time out.
    timeoutMs: timerDelay(positiveInteger("timeoutMs", timeoutMs.value, 60_000)),
    headers: { ...(options.headers ?? {}) },
    query,
    concurrency: positiveInteger("concurrency", concurrency.value, DEFAULT_CONCURRENCY),
    maxRetries: positiveInteger("maxRetries", options.maxRetries, 6, 0),
    rateLimitWaitMs: positiveInteger("rateLimitWaitMs", options.rateLimitWaitMs, 30 * 60_000, 0),
    rateLimitWindowMs: positiveInteger("rateLimitWindowMs", options.rateLimitWindowMs, 60_000),
    maxInvalidReplies: positiveInteger("maxInvalidReplies", options.maxInvalidReplies, 2, 0),
    retryBaseDelayMs: positiveInteger("retryBaseDelayMs", options.retryBaseDelayMs, 500, 0),
    retryMaxDelayMs: positiveInteger("retryMaxDelayMs", options.retryMaxDelayMs, 30_000, 0),
    embeddingBatchSize: positiveInteger("embeddingBatchSize", options.embeddingBatchSize, 256),
    cacheDir: cacheDir.value ?? DEFAULT_CACHE_DIR,
    prices: { ...DEFAULT_PRICES, ...(options.prices ?? {}) },
    threads: options.threads,
    offlineNotice: options.quiet ? undefined : offlineNotice,
    sources: {
      judge: judgeFrom,
      model: model.from,
      visionModel: visionModel.from,
      embeddingModel: embeddingModel.from,
      baseURL: baseURL.from,
      apiKey: apiKey.from,
      embeddingBaseURL: embedding ? embeddingURL.from : baseURL.from,
      embeddingApiKey: embeddingKey.from,
      concurrency: concurrency.from,
      maxTokens: maxTokens.from,
      timeoutMs: timeoutMs.from,
      cacheDir: cacheDir.from,
    },
  };
}

/** One line of {@link describeJudgeConfig}: a setting, its value as it may be shown, and where it came from. */
export interface JudgeSettingRow {
  /** The setting, named as the option of `createJudge` (`model`, `baseURL`, …). */
  setting: JudgeSettingName;
  /** Its name for people ("embedding base URL"). */
  name: string;
  /** The value as it may be shown: keys masked, base URLs without query values or credentials. */
  value: string;
  /** Where it came from: an environment variable's name, "default", or the option (a flag's name when `flags` names it). */
  from: string;
}

/** Names for people of the settings, in the order {@link describeJudgeConfig} lists them. */
const SETTING_NAMES: Readonly<Record<JudgeSettingName, string>> = {
  judge: "judge",
  model: "model",
  visionModel: "vision model",
  embeddingModel: "embedding model",
  baseURL: "base URL",
  apiKey: "API key",
  embeddingBaseURL: "embedding base URL",
  embeddingApiKey: "embedding API key",
  concurrency: "concurrency",
  maxTokens: "max tokens a reply",
  timeoutMs: "request timeout, ms",
  cacheDir: "cache",
};

/**
 * A secret as it may be shown: "not set", or "set (…x9Q2)" with its last 4
 * characters when it is 20 characters or longer (enough to tell two keys
 * apart, too little to matter), else "set (hidden)".
 */
export function maskSecret(secret: string | undefined): string {
  if (secret === undefined) return "not set";
  return secret.length >= 20 ? `set (…${secret.slice(-4)})` : "set (hidden)";
}

/** A base URL and its query parameters as they may be shown (see {@link shownBaseURL}). */
function shownURLWithQuery(url: string, query: Readonly<Record<string, string>>): string {
  const names = Object.keys(query);
  return shownBaseURL(names.length === 0 ? url : `${url}?${names.map((n) => `${encodeURIComponent(n)}=x`).join("&")}`);
}

/**
 * The settings of a resolved configuration that the environment can give,
 * with where each came from, ready to print: keys masked (see
 * {@link maskSecret}), base URLs through {@link shownBaseURL}.
 *
 * @param flags the command-line flag that sets each setting, shown instead of "option" (the CLI passes them).
 *
 * @example
 * for (const row of describeJudgeConfig(resolveJudgeConfig())) console.log(`${row.name}: ${row.value} (${row.from})`);
 * // model: llama3.1 (EVALFRAME_MODEL)
 * // API key: set (…x9Q2) (OPENAI_API_KEY)
 */
export function describeJudgeConfig(config: ResolvedJudgeConfig, flags: Readonly<Partial<Record<JudgeSettingName, string>>> = {}): JudgeSettingRow[] {
  const values: Record<JudgeSettingName, string> = {
    judge: config.kind,
    model: config.model,
    visionModel: config.visionModel,
    embeddingModel: config.embeddingModel,
    baseURL: shownURLWithQuery(config.baseURL, config.query),
    apiKey: maskSecret(config.apiKey),
    embeddingBaseURL: shownURLWithQuery(config.embeddingBaseURL, config.embeddingQuery),
    embeddingApiKey: maskSecret(config.embeddingApiKey),
    concurrency: String(config.concurrency),
    maxTokens: config.maxTokens === undefined ? "the server's limit" : String(config.maxTokens),
    timeoutMs: String(config.timeoutMs),
    cacheDir: config.cacheDir === false ? "off" : config.cacheDir,
  };
  return (Object.keys(SETTING_NAMES) as JudgeSettingName[]).map((setting) => {
    const from = config.sources[setting];
    // The embeddings go where the chat goes unless told otherwise: their base URL comes from the same place.
    const flag = flags[setting] ?? (setting === "embeddingBaseURL" && !config.separateEmbeddings ? flags.baseURL : undefined);
    return { setting, name: SETTING_NAMES[setting], value: values[setting], from: from === "option" ? (flag ?? "option") : from };
  });
}

/** A base URL as it may be shown: no user name, password, query values or fragment. */
export function shownBaseURL(text: string): string {
  try {
    const url = new URL(text);
    url.username = "";
    url.password = "";
    for (const name of [...url.searchParams.keys()]) url.searchParams.set(name, "…");
    url.hash = "";
    return url.toString().replace(/\/+$/, "").replace(/%E2%80%A6/g, "…");
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
function splitBaseURL(text: string, what: string, keyPlace: string): { url: string; query: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(text.trim());
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new RangeError(`${what} must be an http(s) URL like http://localhost:11434/v1, got ${JSON.stringify(shownBaseURL(text))}`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new RangeError(
      `${what} ${JSON.stringify(shownBaseURL(text))} has a user name or password in it ("user:password@host"), which the OpenAI SDK does not send; ` +
        `remove it, and put the key in ${keyPlace}, or a gateway's credentials in the headers option (e.g. { headers: { Authorization: "Basic …" } })`,
    );
  }
  const endpoint = /\/(chat\/completions|completions|embeddings|responses)\/*$/.exec(parsed.pathname);
  if (endpoint) {
    const base = new URL(parsed.toString());
    base.pathname = parsed.pathname.slice(0, endpoint.index);
    throw new RangeError(
      `${what} ${JSON.stringify(shownBaseURL(text))} ends in the endpoint /${endpoint[1]}; give the base URL the endpoints go under, e.g. ${JSON.stringify(shownBaseURL(base.toString()))}`,
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
