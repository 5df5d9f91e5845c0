/**
 * A judge that answers from the cache and writes down everything else: run
 * the metrics through it and it returns the requests a batch must carry.
 * Requests that failed for good are answered with their error, so their rows
 * fail (NaN and the reason) instead of being asked again forever.
 */
import type { Judge } from "../judge/judge";
import type { OpenAIJudge } from "../judge/openai-judge";
import { JudgeError, type StructuredRequest } from "../judge/types";
import type { UsageRecorder } from "../judge/usage";

/** Thrown for a request that is not answered yet; its row is finished in a later stage. */
export class PendingRequestError extends Error {
  constructor() {
    super("waiting for a batch");
    this.name = "PendingRequestError";
  }
}

/** A chat request waiting for a batch. */
export interface PendingChat {
  customId: string;
  request: StructuredRequest<unknown>;
  body: Record<string, unknown>;
}

/** Judge that answers from the cache and collects what is missing. */
export class CollectingJudge implements Judge {
  readonly kind = "openai" as const;
  readonly pendingChats = new Map<string, PendingChat>();
  readonly pendingTexts = new Set<string>();

  constructor(
    readonly inner: OpenAIJudge,
    /** custom_id → why it failed for good. */
    private readonly failed: ReadonlyMap<string, string>,
  ) {}

  get label(): string {
    return this.inner.label;
  }
  /** The inner judge's label of requests sent to `model` (the vision model's, for multimodal relevance). */
  labelFor(model: string): string {
    return this.inner.labelFor(model);
  }
  get chatModel(): string {
    return this.inner.chatModel;
  }
  get visionModel(): string {
    return this.inner.visionModel;
  }
  get embeddingModel(): string {
    return this.inner.embeddingModel;
  }
  get usage(): UsageRecorder {
    return this.inner.usage;
  }
  newUsage(): UsageRecorder {
    return this.inner.newUsage();
  }

  /** The custom_id of a chat request in a batch file: its cache key. */
  static chatId(key: string): string {
    return `chat-${key}`;
  }

  /** The custom_id of one text's embedding line. */
  static embeddingId(key: string): string {
    return `emb-${key}`;
  }

  async complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T> {
    const hit = await this.inner.cachedReply(request);
    if (hit !== undefined) {
      usage?.chatCall(true);
      return hit;
    }
    const customId = CollectingJudge.chatId(this.inner.chatKey(request));
    const failure = this.failed.get(customId);
    if (failure !== undefined) throw new JudgeError(failure);
    if (!this.pendingChats.has(customId)) {
      const model = request.model ?? this.inner.chatModel;
      this.pendingChats.set(customId, {
        customId,
        request: request as StructuredRequest<unknown>,
        body: this.inner.chatBody(request, model, "json_schema"),
      });
    }
    throw new PendingRequestError();
  }

  private readonly lookups: Promise<unknown>[] = [];

  /**
   * Waits for lookups still running: a metric may stop waiting for an
   * embedding call once its rows are pending, but every text must be noted.
   */
  async settled(): Promise<void> {
    await Promise.allSettled(this.lookups);
  }

  /**
   * Embeddings from the cache, the others noted for the batch; with a
   * separate embeddings server (which the chat server's Batch API cannot
   * reach), asked of that server at once instead.
   */
  embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    const work = this.inner.separateEmbeddings ? this.inner.embed(texts, usage) : this.lookUpTexts(texts, usage);
    this.lookups.push(work);
    return work;
  }

  private async lookUpTexts(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    const vectors: number[][] = [];
    let missing = false;
    for (const text of texts) {
      const hit = await this.inner.cachedEmbedding(text);
      if (hit) {
        vectors.push(hit);
        continue;
      }
      const failure = this.failed.get(CollectingJudge.embeddingId(this.inner.embeddingKey(text)));
      if (failure !== undefined) throw new JudgeError(failure);
      this.pendingTexts.add(text);
      missing = true;
    }
    usage?.embeddingCall(texts.length, missing ? 0 : texts.length);
    if (missing) throw new PendingRequestError();
    return vectors;
  }
}
