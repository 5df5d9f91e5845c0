/**
 * Usage accounting: calls, cache hits, tokens, retries, wall time and an
 * estimated cost, per run and over a judge's life.
 */
import { setField } from "../dataset/table";
import { counted, duration } from "../display/words";

/** More tokens than one request can hold (the largest context windows are a few million). */
const MAX_TOKENS_A_REQUEST = 1e9;

/** Price of a model in US dollars per million tokens. */
export interface ModelPrice {
  /** Prompt (input) tokens; for embedding models, all tokens. */
  input: number;
  /** Completion (output) tokens. */
  output: number;
  /**
   * Prompt tokens the provider read from its prompt cache (a repeated prefix,
   * reported as `usage.prompt_tokens_details.cached_tokens`); when not set,
   * they cost as much as other prompt tokens.
   */
  cachedInput?: number;
}

/**
 * List prices (USD per 1M tokens) of common OpenAI models, used for the cost
 * estimate. Dated variants match by prefix (`gpt-4o-mini-2024-07-18` →
 * `gpt-4o-mini`). Override or extend with the judge's `prices` option; a
 * model with no price makes the cost unknown rather than zero.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "gpt-4o-mini": { input: 0.15, output: 0.6, cachedInput: 0.075 },
  "gpt-4o": { input: 2.5, output: 10, cachedInput: 1.25 },
  "gpt-4.1": { input: 2, output: 8, cachedInput: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cachedInput: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cachedInput: 0.025 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  "text-embedding-ada-002": { input: 0.1, output: 0 },
};

/** Finds a model's price: exact name first, then the longest name that prefixes it. */
export function priceOf(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  const exact = prices[model];
  if (exact) return exact;
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (model.startsWith(name) && (best === undefined || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : prices[best];
}

/** How batch-priced tokens are named per model. */
const BATCH_SUFFIX = " (batch)";

/** The Batch API's price as a share of the interactive price. */
export const BATCH_DISCOUNT = 0.5;

/** Token counts of one model. */
export interface ModelUsage {
  /** Requests answered by the server (not from the cache). */
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those the provider answered from its prompt cache (0 when it does not say). */
  cachedPromptTokens: number;
}

/** A run's (or a judge's) usage. */
export interface UsageSummary {
  /** Label of the judge, e.g. `offline (approximate)` or `gpt-4o-mini @ api.openai.com`. */
  judge: string;
  /** Rows scored, when the summary belongs to a scoring run. */
  rows: number | undefined;
  /** Chat requests the metrics made, answered from the cache or not. */
  chatCalls: number;
  /** Of those, answered from the cache. */
  chatCacheHits: number;
  /** Texts the metrics asked embeddings for. */
  embeddingTexts: number;
  /** Of those, answered from the cache. */
  embeddingCacheHits: number;
  /** HTTP requests sent for chat, retries included. */
  chatHttpRequests: number;
  /** HTTP requests sent for embeddings, retries included. */
  embeddingHttpRequests: number;
  /** Attempts that were repeated (rate limits, server errors, timeouts, invalid replies). */
  retries: number;
  /** Batch API lines answered (batch mode), priced at the batch discount. */
  batchLines: number;
  /** Requests that failed for good. */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the chat prompt tokens, those the provider read from its prompt cache (when its replies say so). */
  cachedPromptTokens: number;
  embeddingTokens: number;
  /**
   * Replies the server sent with no token counts (no `usage`, or all zeros:
   * some Ollama and llama.cpp versions, some gateways): their tokens are not
   * in the counts above, and the cost cannot be known.
   */
  repliesWithoutTokens: number;
  /** Estimated cost in USD; null when a model used has no known price, or replies came with no token counts (`repliesWithoutTokens`). */
  costUSD: number | null;
  /** Models without a price (why `costUSD` is null). */
  unpricedModels: string[];
  /** Per model, server-answered requests and tokens. */
  byModel: Record<string, ModelUsage>;
  /** Time from the recorder's start to the summary. */
  wallTimeMs: number;
}

/**
 * Collects usage events. A judge keeps one for its whole life and also
 * records into the recorder of each run it serves.
 *
 * @example
 * const usage = new UsageRecorder("gpt-4o-mini @ api.openai.com");
 * const scored = await score(df, [answerCorrectness()], { judge, usage });
 * console.log(formatUsage(usage.summary()));
 */
export class UsageRecorder {
  private readonly started = Date.now();
  private readonly models = new Map<string, ModelUsage & { embedding: boolean }>();
  private counts = {
    chatCalls: 0,
    chatCacheHits: 0,
    embeddingTexts: 0,
    embeddingCacheHits: 0,
    chatHttpRequests: 0,
    embeddingHttpRequests: 0,
    retries: 0,
    failures: 0,
    batchLines: 0,
    repliesWithoutTokens: 0,
  };
  /** Rows scored, set by the scoring run. */
  rows: number | undefined;
  private label: string;

  /** @param judge the judge label shown in summaries; @param prices USD per 1M tokens per model. */
  constructor(
    judge: string,
    private readonly prices: Readonly<Record<string, ModelPrice>> = DEFAULT_PRICES,
  ) {
    this.label = judge;
  }

  /** The label summaries show: the judge's, or what {@link UsageRecorder.answeredBy} set. */
  get judge(): string {
    return this.label;
  }

  /**
   * Names what answered the run in its summary and usage line, when that is
   * not the judge's own label: a metric that asks another model (multimodal
   * relevance asks the vision model) is answered by it.
   *
   * @example
   * usage.answeredBy("gpt-4o @ api.openai.com"); // a multimodal-relevance run
   */
  answeredBy(label: string): void {
    this.label = label;
  }

  /** A metric asked for one chat reply; `cached` when the cache answered it. */
  chatCall(cached: boolean): void {
    this.counts.chatCalls++;
    if (cached) this.counts.chatCacheHits++;
  }

  /** A metric asked for `texts` embeddings, `cached` of them answered by the cache. */
  embeddingCall(texts: number, cached: number): void {
    this.counts.embeddingTexts += texts;
    this.counts.embeddingCacheHits += cached;
  }

  /** One HTTP request was sent. */
  httpRequest(kind: "chat" | "embedding"): void {
    if (kind === "chat") this.counts.chatHttpRequests++;
    else this.counts.embeddingHttpRequests++;
  }

  /**
   * The server answered a request with these token counts. Batch API tokens
   * (`pricing: "batch"`) are kept apart, as `model (batch)`, and cost half.
   * `cachedPromptTokens` are the prompt tokens the provider says it read
   * from its prompt cache (part of `promptTokens`).
   */
  tokens(
    model: string,
    kind: "chat" | "embedding",
    promptTokens: number,
    completionTokens: number,
    pricing: "interactive" | "batch" = "interactive",
    cachedPromptTokens = 0,
  ): void {
    const name = pricing === "batch" ? `${model}${BATCH_SUFFIX}` : model;
    const entry = this.models.get(name) ?? { requests: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, embedding: kind === "embedding" };
    // A count a server got wrong (negative, not finite, beyond any real request) is counted as 0, never as a negative or infinite cost.
    const sane = (n: number): number => (Number.isFinite(n) && n > 0 && n <= MAX_TOKENS_A_REQUEST ? n : 0);
    const prompt = sane(promptTokens);
    entry.requests++;
    entry.promptTokens += prompt;
    entry.completionTokens += sane(completionTokens);
    entry.cachedPromptTokens += Math.min(sane(cachedPromptTokens), prompt);
    this.models.set(name, entry);
  }

  /** The server answered a request without saying how many tokens it used (see `UsageSummary.repliesWithoutTokens`). */
  tokensUnreported(): void {
    this.counts.repliesWithoutTokens++;
  }

  /** Adds another recorder's call and cache-hit counts to this one (not its tokens). */
  addCalls(other: UsageRecorder): void {
    for (const k of ["chatCalls", "chatCacheHits", "embeddingTexts", "embeddingCacheHits"] as const) this.counts[k] += other.counts[k];
  }

  /** One Batch API line was answered. */
  batchLine(): void {
    this.counts.batchLines++;
  }

  /** An attempt is repeated. */
  retry(): void {
    this.counts.retries++;
  }

  /** A request failed for good. */
  failure(): void {
    this.counts.failures++;
  }

  /** The usage so far. */
  summary(): UsageSummary {
    let promptTokens = 0;
    let completionTokens = 0;
    let cachedPromptTokens = 0;
    let embeddingTokens = 0;
    let cost = 0;
    const unpriced: string[] = [];
    const byModel: Record<string, ModelUsage> = {};
    for (const [model, u] of this.models) {
      setField(byModel, model, { requests: u.requests, promptTokens: u.promptTokens, completionTokens: u.completionTokens, cachedPromptTokens: u.cachedPromptTokens });
      if (u.embedding) embeddingTokens += u.promptTokens;
      else {
        promptTokens += u.promptTokens;
        completionTokens += u.completionTokens;
        cachedPromptTokens += u.cachedPromptTokens;
      }
      const batch = model.endsWith(BATCH_SUFFIX);
      const price = priceOf(batch ? model.slice(0, -BATCH_SUFFIX.length) : model, this.prices);
      if (price) {
        const input = (u.promptTokens - u.cachedPromptTokens) * price.input + u.cachedPromptTokens * (price.cachedInput ?? price.input);
        cost += ((input + u.completionTokens * price.output) / 1e6) * (batch ? BATCH_DISCOUNT : 1);
      }
      else if (u.promptTokens + u.completionTokens > 0) unpriced.push(model);
    }
    return {
      judge: this.judge,
      rows: this.rows,
      ...this.counts,
      promptTokens,
      completionTokens,
      cachedPromptTokens,
      embeddingTokens,
      costUSD: unpriced.length > 0 || this.counts.repliesWithoutTokens > 0 ? null : cost,
      unpricedModels: unpriced.sort(),
      byModel,
      wallTimeMs: Date.now() - this.started,
    };
  }
}

function compact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return n.toLocaleString("en-US");
}

/**
 * One line for the end of a run.
 *
 * @example
 * formatUsage(usage.summary())
 * // "412 rows · 1,031 chat calls (288 cached) · 19 embedding requests · 1.2M tokens · ~$0.19 · 48 s · gpt-4o-mini @ api.openai.com"
 */
export function formatUsage(summary: UsageSummary): string {
  const parts: string[] = [];
  if (summary.rows !== undefined) parts.push(counted(summary.rows, "row"));
  parts.push(`${counted(summary.chatCalls, "chat call")} (${summary.chatCacheHits.toLocaleString("en-US")} cached)`);
  parts.push(counted(summary.embeddingHttpRequests, "embedding request"));
  if (summary.batchLines > 0) parts.push(`${counted(summary.batchLines, "batch line")} (half price)`);
  const cached = summary.cachedPromptTokens > 0 ? ` (${compact(summary.cachedPromptTokens)} prompt tokens from the provider's cache)` : "";
  const total = summary.promptTokens + summary.completionTokens + summary.embeddingTokens;
  // Older summaries (a saved run's) have no repliesWithoutTokens: read as none.
  const unreported = summary.repliesWithoutTokens ?? 0;
  if (unreported > 0 && total === 0) parts.push("tokens not reported by the server");
  else parts.push(`${compact(total)} tokens${cached}${unreported > 0 ? ` (and ${counted(unreported, "reply", "replies")} with no token counts)` : ""}`);
  if (summary.retries > 0) parts.push(counted(summary.retries, "retry", "retries"));
  // Calls, not rows: one failed call can fail several rows (a batched call), or none (asked again answer by answer).
  if (summary.failures > 0) parts.push(`${counted(summary.failures, "call")} failed`);
  if (summary.costUSD === null && summary.unpricedModels.length > 0) parts.push(`cost unknown (no price for ${summary.unpricedModels.join(", ")})`);
  else if (summary.costUSD === null) parts.push("cost unknown (the server reported no token counts)");
  else parts.push(`~$${summary.costUSD < 0.01 && summary.costUSD > 0 ? summary.costUSD.toFixed(4) : summary.costUSD.toFixed(2)}`);
  parts.push(duration(summary.wallTimeMs));
  parts.push(summary.judge);
  return parts.join(" · ");
}
