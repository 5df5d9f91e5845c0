/**
 * The offline judge: deterministic, no network, same interface as the others.
 * Statements are split into atomic claims and matched by lemmas, normalised
 * values (dates, numbers, units), names and their slots, negation and
 * opposite words, with wink-nlp's shipped English model for part-of-speech
 * tags and lemmas and Korean particle handling of our own (offline/); the
 * semantic part is a cosine of hashed feature vectors. Everything it
 * produces is labelled "offline (approximate)".
 */
import { availableParallelism } from "node:os";
import { answerTask } from "./offline/answer";
import { hashedEmbedding } from "./offline/embed";
import { OfflineWorkers } from "./offline/workers";
import type { Judge } from "./judge";
import { answerOrCompose, completeWithData, recordersOf } from "./answer-with-data";
import type { JudgeTask, StructuredRequest } from "./types";
import { UsageRecorder, type ModelPrice } from "./usage";

import { OFFLINE_LABEL, OFFLINE_RULES_VERSION } from "./offline-label";

export { OFFLINE_LABEL, OFFLINE_RULES_VERSION } from "./offline-label";

/** Dimensions of the offline judge's hashed embeddings. */
export const OFFLINE_EMBEDDING_DIMENSIONS = 512;

/** Texts embedded between two yields to the event loop. */
const EMBED_SLICE = 500;

/** Tasks answered in the main thread before worker threads start, by default: small runs never start them. */
const TASKS_BEFORE_THREADS = 2_000;

/** Options of the offline judge. */
export interface OfflineJudgeOptions {
  /** USD per million tokens per model (the offline judge costs nothing; kept for usage printouts). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /**
   * Worker threads for statements and verdicts on large runs (they start
   * after the first 2,000 tasks); default: 2 when the machine has 2 or more
   * processors, else 0. Answers are the same with or without them.
   */
  threads?: number;
  /** Statement tasks answered in the main thread before the worker threads start (default 2,000). */
  threadsAfter?: number;
}

/** A deterministic lexical judge that needs no model and no network. */
export class OfflineJudge implements Judge {
  readonly kind = "offline" as const;
  readonly seesImages = false;
  readonly label = OFFLINE_LABEL;
  readonly chatModel = "offline";
  readonly visionModel = "offline";
  readonly embeddingModel = `offline-hashed-${OFFLINE_EMBEDDING_DIMENSIONS}`;
  readonly rulesVersion = OFFLINE_RULES_VERSION;
  readonly usage: UsageRecorder;

  private readonly prices: Readonly<Record<string, ModelPrice>>;
  private readonly threads: number;
  private readonly threadsAfter: number;
  private answered = 0;
  private workers: OfflineWorkers | undefined;

  constructor(options: OfflineJudgeOptions = {}) {
    this.prices = options.prices ?? {};
    this.usage = new UsageRecorder(OFFLINE_LABEL, this.prices);
    const threads = options.threads ?? (availableParallelism() >= 2 ? 2 : 0);
    if (!Number.isInteger(threads) || threads < 0) throw new RangeError(`threads must be a whole number ≥ 0, got ${threads}`);
    this.threads = threads;
    this.threadsAfter = options.threadsAfter ?? TASKS_BEFORE_THREADS;
    if (!Number.isInteger(this.threadsAfter) || this.threadsAfter < 0) throw new RangeError(`threadsAfter must be a whole number ≥ 0, got ${this.threadsAfter}`);
  }

  /** Whether the worker threads have started (after `threadsAfter` statement tasks, when `threads` > 0). */
  get threadsStarted(): boolean {
    return this.workers !== undefined;
  }

  /** The answer to a task: in the main thread, or in a worker thread once the run is large. */
  private answer(task: JudgeTask): unknown {
    const heavy = task.kind === "extract_statements" || task.kind === "classify_statements";
    if (heavy && this.threads > 0 && ++this.answered > this.threadsAfter) {
      this.workers ??= new OfflineWorkers(this.threads);
      return this.workers.run(task);
    }
    return answerTask(task);
  }

  newUsage(): UsageRecorder {
    return new UsageRecorder(OFFLINE_LABEL, this.prices);
  }

  async complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T> {
    return completeWithData(request, recordersOf(this.usage, usage), () => answerOrCompose(request, (task) => this.answer(task), "offline judge"), "offline judge");
  }

  /**
   * Hashed bag-of-words vectors. A text with no words (such as the single
   * space an empty answer is embedded as) gets a fixed unit vector, so its
   * cosine with real text is about 0, as with a real embedding model.
   */
  async embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    for (const r of recordersOf(this.usage, usage)) r.embeddingCall(texts.length, 0);
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i++) {
      // A run embeds all its texts at once: let the rows' other work go on meanwhile.
      if (i > 0 && i % EMBED_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const v = hashedEmbedding(texts[i]!, OFFLINE_EMBEDDING_DIMENSIONS);
      if (v.some((x) => x !== 0)) {
        vectors.push(v);
        continue;
      }
      const unit = new Array<number>(OFFLINE_EMBEDDING_DIMENSIONS).fill(0);
      unit[0] = 1;
      vectors.push(unit);
    }
    return vectors;
  }
}
