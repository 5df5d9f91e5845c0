/**
 * Cost before you pay: the calls a scoring run would make, their tokens
 * (counted with the model's tokenizer), what the cache already holds, the
 * price at list and batch rates, and the time — with no chat or embedding
 * call.
 */
import type { CanonicalColumn } from "../dataset/columns";
import { checkDataset, type DatasetSource, type LoadDatasetOptions } from "../dataset/load";
import { estimateOnlyOptions, type JudgeOptions } from "../judge/config";
import { createJudge } from "../judge/create";
import type { Judge, ReplyCacheReader } from "../judge/judge";
import { messagesFor, type StructuredMode } from "../judge/structured";
import { ASSUMED_IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS, tokenCounter, type EncodingName, type TokenCounter } from "../judge/tokens";
import { RELEVANCE_STAGE } from "../metrics/multimodal-relevance/plan";
import type { StructuredRequest } from "../judge/types";
import { BATCH_DISCOUNT, DEFAULT_PRICES, priceOf, type ModelPrice } from "../judge/usage";
import type { Metric, PlannedCall, PlanContext } from "../metrics/metric";
import { counted, dollars, duration } from "../display/words";
import { evalRows, isJudge, runJudgeLabel } from "./score";
import { rowAt } from "../dataset/table";

/** Options of {@link estimate}. */
export interface EstimateOptions {
  /** The judge a run would use, or options to create one (default: from the environment). No call is made. */
  judge?: Judge | JudgeOptions;
  /** How to read the input, as for `loadDataset`. */
  load?: LoadDatasetOptions;
  /** Requests in flight at once; default the judge's `concurrency` (16). */
  concurrency?: number;
  /** The server's request limit per minute (RPM), if any. */
  requestsPerMinute?: number;
  /** The server's token limit per minute (TPM), if any. */
  tokensPerMinute?: number;
  /** Time of one call before its reply starts; default 500 ms. */
  firstTokenMs?: number;
  /** Reply tokens the server writes per second; default 80. */
  tokensPerSecond?: number;
  /** USD per million tokens per model, over the judge's prices. */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** The calls and tokens of one stage of a run (e.g. "extracting statements"). */
export interface StageEstimate {
  stage: string;
  /** Calls the metrics make (chat calls; for embeddings, HTTP requests after batching). */
  calls: number;
  /** Of those, answered by the cache (or by an identical call of the same run): free. */
  cached: number;
  /** Of the paid calls, how many have a predicted prompt (it depends on replies not known yet). */
  predicted: number;
  promptTokens: number;
  /** Expected reply tokens (chat only), from the reply's schema and the text's size. */
  completionTokens: number;
}

/** What a scoring run would cost, before it is run. See {@link estimate}. */
export interface CostEstimate {
  /**
   * What answers the calls, e.g. `gpt-4o-mini @ api.openai.com`: the vision
   * model's label for multimodal relevance, each label with its metrics when
   * the metrics ask different models (see `runJudgeLabel`).
   */
  judge: string;
  /** Whether the judge calls a server (the offline and labels judges cost nothing). */
  paid: boolean;
  rows: number;
  /** Rows with bad input: not scored, no call. */
  badRows: number;
  /**
   * Rows a metric will fail before any call (an image the loader will
   * refuse, or any image for the offline judge), in row order: not counted
   * as calls or tokens. `row` names it as messages do ("row 4 (line 6)"),
   * `reason` says why ("context 1: images/x.png: no such file: …").
   */
  failingRows: { metric: string; row: string; reason: string }[];
  metrics: string[];
  stages: StageEstimate[];
  chatCalls: number;
  cachedChatCalls: number;
  embeddingTexts: number;
  cachedEmbeddingTexts: number;
  /** Embedding HTTP requests, after batching. */
  embeddingRequests: number;
  promptTokens: number;
  completionTokens: number;
  embeddingTokens: number;
  /** At list price; null when a model has no known price. */
  costUSD: number | null;
  /** At the Batch API's price (`--batch`): half. */
  batchCostUSD: number | null;
  unpricedModels: string[];
  /** Expected wall time. */
  timeMs: number;
  /** What the time is bound by. */
  timeBoundBy: "calls in flight" | "requests per minute" | "tokens per minute";
  concurrency: number;
  /** The tokenizer of each model; `exact` false for models that are not OpenAI's (an approximation). */
  tokenizers: { model: string; encoding: EncodingName; exact: boolean }[];
}

interface Tally {
  calls: number;
  cached: number;
  predicted: number;
  promptTokens: number;
  completionTokens: number;
}

/** What an OpenAI-compatible judge offers an estimate: its cache, its batch size, its concurrency, its structured mode. */
interface CacheAware extends ReplyCacheReader {
  cachedEmbedding(text: string): Promise<number[] | undefined>;
  readonly embeddingBatchSize?: number;
  readonly concurrency?: number;
  readonly structuredMode?: StructuredMode;
  readonly prices?: Readonly<Record<string, ModelPrice>>;
}

function cacheAware(judge: Judge): (Judge & CacheAware) | undefined {
  const j = judge as Judge & Partial<CacheAware>;
  return typeof j.cachedReply === "function" && typeof j.cachedEmbedding === "function" ? (j as Judge & CacheAware) : undefined;
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new RangeError(`estimate: ${name} must be a number above 0, got ${String(value)}`);
}

/**
 * Estimates a scoring run without making it: the calls per stage, prompt
 * and completion tokens counted with the model's tokenizer (js-tiktoken;
 * exact encodings for OpenAI models, an approximation for others), cache hits
 * (free), the cost at list and Batch API price, and the time at the judge's
 * concurrency and the server's rate limits. No chat or embedding call is
 * made; the cache is read.
 *
 * Prompts of statement extraction and of text-only relevance are exact.
 * Classification prompts depend on the statements the judge will extract:
 * they are exact when a run before left them in the cache, and otherwise
 * predicted from the texts' sentences and clauses. Reply sizes are predicted
 * from each reply's schema. Images are not loaded: each is priced as a
 * 1024-px image (765 tokens; 85 at detail "low"). A row a metric will fail
 * before any call (a local image the loader will refuse, found from its
 * path, size and first bytes; any image for the offline judge) is not
 * counted, and is named in `failingRows`. An OpenAI-compatible
 * judge asked for by options is priced even when no API key is set yet.
 *
 * @example
 * const e = await estimate(df, [answerCorrectness()], { judge: { judge: "openai", model: "gpt-4o-mini" } });
 * console.log(formatEstimate(e)); // calls, tokens, ~$0.05 (~$0.03 with --batch), ~40 s
 */
export async function estimate(data: DatasetSource, metrics: readonly Metric[], options: EstimateOptions = {}): Promise<CostEstimate> {
  if (metrics.length === 0) throw new Error("estimate: give at least one metric, e.g. estimate(df, [answerCorrectness()])");
  for (const [name, v] of [
    ["concurrency", options.concurrency],
    ["requestsPerMinute", options.requestsPerMinute],
    ["tokensPerMinute", options.tokensPerMinute],
    ["firstTokenMs", options.firstTokenMs],
    ["tokensPerSecond", options.tokensPerSecond],
  ] as const) {
    positive(name, v);
  }
  // An OpenAI-compatible judge asked for without a key can still be priced: nothing is sent.
  const judge = isJudge(options.judge) ? options.judge : createJudge({ ...estimateOnlyOptions(options.judge ?? {}), quiet: true });
  const required = [...new Set(metrics.flatMap((m) => m.requiredColumns))] as CanonicalColumn[];
  const checked = await checkDataset(data, { ...options.load, required });
  const rows = evalRows(checked.table, checked.errors);
  const paid = judge.kind === "openai";
  const server = paid ? cacheAware(judge) : undefined;
  const prices = { ...DEFAULT_PRICES, ...(server?.prices ?? {}), ...(options.prices ?? {}) };
  const mode: StructuredMode = server?.structuredMode ?? "json_schema";
  const concurrency = options.concurrency ?? server?.concurrency ?? 16;
  const batchSize = server?.embeddingBatchSize ?? 256;

  const counters = new Map<string, TokenCounter>();
  const counter = (model: string): TokenCounter => {
    let c = counters.get(model);
    if (!c) counters.set(model, (c = tokenCounter(model)));
    return c;
  };
  const stages = new Map<string, Tally>();
  const tally = (stage: string): Tally => {
    let t = stages.get(stage);
    if (!t) stages.set(stage, (t = { calls: 0, cached: 0, predicted: 0, promptTokens: 0, completionTokens: 0 }));
    return t;
  };
  const byModel = new Map<string, { prompt: number; completion: number }>();
  const charge = (model: string, prompt: number, completion: number) => {
    const m = byModel.get(model) ?? { prompt: 0, completion: 0 };
    m.prompt += prompt;
    m.completion += completion;
    byModel.set(model, m);
  };
  let chatCalls = 0;
  let cachedChatCalls = 0;
  let embeddingTexts = 0;
  let cachedEmbeddingTexts = 0;
  let embeddingRequests = 0;
  let embeddingTokens = 0;
  // Chat tokens (the embedding stage's are embeddingTokens).
  let promptTokens = 0;
  let completionTokens = 0;
  let latencyMs = 0;
  const firstTokenMs = options.firstTokenMs ?? 500;
  const tokensPerSecond = options.tokensPerSecond ?? 80;
  // Identical requests of one run are sent once (the judge shares the reply).
  const seen = new Set<string>();

  const failingRows: CostEstimate["failingRows"] = [];
  for (const metric of metrics) {
    if (!metric.plan) throw new Error(`estimate: the metric ${metric.name} cannot plan its calls (it has no plan method)`);
    const metricJudge = metric.judge ?? judge;
    const context: PlanContext = {
      judge: metricJudge,
      cachedReply: async (request) => (server ? server.cachedReply(request) : undefined),
      willFail: (row, reason) => failingRows.push({ metric: metric.name, row: rowAt(checked.table, row.index), reason }),
    };
    const planned: PlannedCall[] = await metric.plan(rows, context);
    for (const call of planned) {
      const t = tally(call.stage);
      if (call.kind === "embedding") {
        const model = metricJudge.embeddingModel;
        let uncached: string[] = [];
        for (const text of call.texts) {
          const hit = server ? (await server.cachedEmbedding(text)) !== undefined : false;
          if (!hit) uncached.push(text);
        }
        if (!paid) uncached = [];
        embeddingTexts += call.texts.length;
        cachedEmbeddingTexts += paid ? call.texts.length - uncached.length : 0;
        const requests = Math.ceil(uncached.length / batchSize);
        embeddingRequests += requests;
        t.calls += Math.max(1, Math.ceil(call.texts.length / batchSize));
        t.cached += Math.max(1, Math.ceil(call.texts.length / batchSize)) - requests;
        const tokens = uncached.reduce((sum, text) => sum + counter(model).text(text), 0);
        embeddingTokens += tokens;
        t.promptTokens += tokens;
        charge(model, tokens, 0);
        latencyMs += requests * firstTokenMs;
        continue;
      }
      const model = call.request.model ?? metricJudge.chatModel;
      chatCalls++;
      t.calls++;
      const messages = messagesFor(call.request as StructuredRequest<unknown>, mode);
      const key = JSON.stringify([model, call.request.promptVersion, messages]);
      if (!paid || call.cached || seen.has(key)) {
        cachedChatCalls++;
        t.cached++;
        continue;
      }
      seen.add(key);
      const tokens = counter(model);
      const prompt = tokens.chat(messages);
      const completion = call.replyTokens((text) => tokens.text(text));
      if (call.predicted) t.predicted++;
      t.promptTokens += prompt;
      t.completionTokens += completion;
      promptTokens += prompt;
      completionTokens += completion;
      charge(model, prompt, completion);
      latencyMs += firstTokenMs + (completion / tokensPerSecond) * 1000;
    }
  }

  let cost = 0;
  const unpriced: string[] = [];
  for (const [model, m] of byModel) {
    const price = priceOf(model, prices);
    if (price) cost += (m.prompt * price.input + m.completion * price.output) / 1e6;
    else if (m.prompt + m.completion > 0) unpriced.push(model);
  }
  const paidRequests = chatCalls - cachedChatCalls + embeddingRequests;
  const bounds: [CostEstimate["timeBoundBy"], number][] = [["calls in flight", latencyMs / concurrency]];
  if (options.requestsPerMinute) bounds.push(["requests per minute", (paidRequests / options.requestsPerMinute) * 60_000]);
  if (options.tokensPerMinute) bounds.push(["tokens per minute", ((promptTokens + completionTokens + embeddingTokens) / options.tokensPerMinute) * 60_000]);
  const [timeBoundBy, timeMs] = bounds.reduce((a, b) => (b[1] > a[1] ? b : a));
  const costUSD = unpriced.length > 0 ? null : cost;
  return {
    judge: runJudgeLabel(metrics, judge),
    paid,
    rows: checked.table.rowCount,
    badRows: checked.table.rowCount - rows.length,
    failingRows,
    metrics: metrics.map((m) => m.name),
    stages: [...stages].map(([stage, t]) => ({ stage, ...t })),
    chatCalls,
    cachedChatCalls,
    embeddingTexts,
    cachedEmbeddingTexts,
    embeddingRequests,
    promptTokens,
    completionTokens,
    embeddingTokens,
    costUSD,
    batchCostUSD: costUSD === null ? null : costUSD * BATCH_DISCOUNT,
    unpricedModels: unpriced.sort(),
    timeMs,
    timeBoundBy,
    concurrency,
    tokenizers: [...counters].map(([model, c]) => ({ model, encoding: c.encoding, exact: c.exact })),
  };
}

function n(value: number): string {
  return value.toLocaleString("en-US");
}

function usd(value: number | null): string {
  return value === null ? "unknown" : dollars(value);
}

/** Failing rows named in the estimate, per metric; the others are counted. */
const FAILING_NAMED = 3;

/** One line per metric with rows that will fail before any call, e.g. "3 rows will fail before any call: row 4 context 1: images/x.png: no such file …; and 1 more". */
function failingLines(e: CostEstimate): string[] {
  const metrics = [...new Set(e.failingRows.map((f) => f.metric))];
  return metrics.map((metric) => {
    const rows = e.failingRows.filter((f) => f.metric === metric);
    const named = rows.slice(0, FAILING_NAMED).map((f) => `${f.row} ${f.reason}`);
    const more = rows.length > FAILING_NAMED ? `; and ${n(rows.length - FAILING_NAMED)} more` : "";
    const of = e.metrics.length > 1 ? ` of ${metric}` : "";
    return `${counted(rows.length, "row")}${of} will fail before any call, and ${rows.length === 1 ? "is" : "are"} not counted below: ${named.join("; ")}${more}`;
  });
}

/**
 * The estimate as a few lines for a terminal or a notebook: a table of
 * stages, then cost, time and how the tokens were counted.
 *
 * @example
 * console.log(formatEstimate(await estimate(df, [answerCorrectness()])));
 */
export function formatEstimate(e: CostEstimate): string {
  const lines: string[] = [];
  lines.push(`Estimate for ${counted(e.rows, "row")} (${e.metrics.join(", ")}) with ${e.judge}; nothing was sent.`);
  if (e.badRows > 0) lines.push(`${n(e.badRows)} row${e.badRows === 1 ? " has" : "s have"} bad input and will not be scored.`);
  lines.push(...failingLines(e));
  if (!e.paid) {
    // A local judge has no cache, tokens or cost to show: its calls, by stage.
    const width = Math.max(...e.stages.map((s) => s.stage.length), "stage".length);
    lines.push(`${"stage".padEnd(width)}  calls`, ...e.stages.map((s) => `${s.stage.padEnd(width)}  ${n(s.calls).padStart(5)}`));
    lines.push(`The ${e.judge} judge answers locally: no tokens, no cost. To see what a model would cost, estimate with the openai judge (--judge openai, or judge: { judge: "openai" }); it needs no key.`);
    return lines.join("\n");
  }
  const header = ["stage", "calls", "cached", "prompt tokens", "reply tokens"];
  const body = e.stages.map((s) => [s.stage, n(s.calls), n(s.cached), n(s.promptTokens), s.stage === "embedding" ? "-" : n(s.completionTokens)]);
  const sum = (pick: (s: StageEstimate) => number) => e.stages.reduce((a, s) => a + pick(s), 0);
  body.push(["total", n(sum((s) => s.calls)), n(sum((s) => s.cached)), n(e.promptTokens + e.embeddingTokens), n(e.completionTokens)]);
  const widths = header.map((h, j) => Math.max(h.length, ...body.map((r) => r[j]!.length)));
  const row = (cells: string[]) => cells.map((c, j) => (j === 0 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join("  ");
  lines.push(row(header), ...body.map(row));
  const cost = e.costUSD === null ? `unknown (no price for ${e.unpricedModels.join(", ")}; give prices)` : `~${usd(e.costUSD)} at list price, ~${usd(e.batchCostUSD)} with --batch (half price)`;
  lines.push(`Cost: ${cost}.`);
  lines.push(`Time: ~${duration(e.timeMs, { wholeSeconds: true })} (bound by ${e.timeBoundBy}; ${e.concurrency} in flight).`);
  // A relevance prompt is predicted because its images are not loaded; the others because they hold statements not extracted yet.
  const withImages = e.stages.filter((s) => s.stage === RELEVANCE_STAGE).reduce((a, s) => a + s.predicted, 0);
  const predicted = e.stages.reduce((a, s) => a + s.predicted, 0) - withImages;
  const tokenizers = e.tokenizers.map((t) => `${t.model} ${t.encoding}${t.exact ? "" : " (approximate: not an OpenAI model)"}`).join(", ");
  const notes = [
    predicted > 0 ? `; ${counted(predicted, "prompt")} predicted (they hold statements not extracted yet)` : "",
    withImages > 0 ? `; ${counted(withImages, "prompt")} with images priced without loading them (${ASSUMED_IMAGE_TOKENS} tokens an image, ${LOW_DETAIL_IMAGE_TOKENS} at detail low)` : "",
  ];
  lines.push(`Tokens: ${tokenizers}${notes.join("")}; reply tokens predicted from the reply schemas.`);
  return lines.join("\n");
}
