/** The interface every judge implements, OpenAI-compatible or offline. */
import type { StructuredRequest } from "./types";
import type { UsageRecorder } from "./usage";

/**
 * Answers the metrics' structured requests and embeds texts. Create one with
 * `createJudge()`; pass it to every metric of a run so that they share one
 * scheduler (one concurrency limit, one retry policy) and one cache.
 */
export interface Judge {
  /** `openai` (any OpenAI-compatible server), `offline`, or `labels` (replays hand labels). */
  readonly kind: "openai" | "offline" | "labels";
  /** Shown in every output, e.g. `gpt-4o-mini @ api.openai.com`, `offline (approximate)` or `hand-labelled`. */
  readonly label: string;
  /**
   * The label of the requests sent to another of its models (the vision
   * model, say), e.g. `gpt-4o @ api.openai.com`; a judge without it labels
   * every request with {@link Judge.label}.
   */
  labelFor?(model: string): string;
  /** Default chat model. */
  readonly chatModel: string;
  /** Chat model for requests with images. */
  readonly visionModel: string;
  /** Embedding model. */
  readonly embeddingModel: string;
  /**
   * The version of the rules a judge without a model answers by (the
   * offline judge's), recorded with each score, so that two runs scored by
   * different rules are told apart (`diff` names it as a scoring change).
   */
  readonly rulesVersion?: string;
  /**
   * Whether the judge looks at images (default true). A judge that does not
   * (the offline and labels judges) is given each image context as its
   * source only: nothing is downloaded or read for it.
   */
  readonly seesImages?: boolean;
  /**
   * The largest reply it asks for, in tokens (`maxTokens`), when it caps
   * replies; a batched call carries less under a small cap.
   */
  readonly maxReplyTokens?: number | undefined;
  /** Requests it sends at once, when it sends any (an OpenAI-compatible judge's `concurrency`). */
  readonly concurrency?: number;
  /** Usage over the judge's whole life. */
  readonly usage: UsageRecorder;
  /** A fresh recorder for one run, with this judge's label and prices. */
  newUsage(): UsageRecorder;
  /**
   * Gets one JSON reply of the request's shape, from the cache when it holds
   * it. Rejects with a `JudgeError` when retries are exhausted or the reply
   * stays invalid; the caller fails that row only.
   */
  complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T>;
  /** Embeds texts (order kept), each text cached on its own; misses go out in batches. */
  embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]>;
}

/** Anything that embeds texts: a judge, or a second judge used only for embeddings (its `embeddingModel`, when it has one, is recorded with each score). */
export type Embedder = Pick<Judge, "embed" | "label"> & Partial<Pick<Judge, "embeddingModel">>;

/** A judge that can say what its cache holds without calling the server (the OpenAI-compatible one). */
export interface ReplyCacheReader {
  /** The cached reply of a request (validated again), or undefined. */
  cachedReply<T>(request: StructuredRequest<T>): Promise<T | undefined>;
}

/**
 * The judge's cached reply to `request`, without asking the server; undefined
 * when the cache has none, or when the judge keeps no cache (the offline and
 * labels judges answer at once anyway).
 */
export function cachedReplyOf<T>(judge: Judge, request: StructuredRequest<T>): Promise<T | undefined> {
  const reader = judge as Judge & Partial<ReplyCacheReader>;
  return typeof reader.cachedReply === "function" ? reader.cachedReply(request) : Promise.resolve(undefined);
}
