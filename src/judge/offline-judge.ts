/**
 * The offline judge: deterministic, no network, same interface as the others.
 * Statements are split into atomic claims and matched by lemmas, normalised
 * values (dates, numbers, units), names and their slots, negation and
 * opposite words, with wink-nlp's shipped English model for part-of-speech
 * tags and lemmas and Korean particle handling of our own (offline/); the
 * semantic part is a cosine of hashed feature vectors. Everything it
 * produces is labelled "offline (approximate)".
 */
import { classifyStatements } from "./offline/classify";
import { hashedEmbedding } from "./offline/embed";
import { judgeRelevanceText } from "./offline/relevance";
import { splitStatements } from "./offline/statements";
import { describeSource } from "../context/items";
import type { Judge } from "./judge";
import { readReply } from "./structured";
import { JudgeError, type JudgeTask, type StructuredRequest } from "./types";
import { UsageRecorder, type ModelPrice } from "./usage";

/** The label the offline judge puts on everything it produces. */
export const OFFLINE_LABEL = "offline (approximate)";

/** Dimensions of the offline judge's hashed embeddings. */
export const OFFLINE_EMBEDDING_DIMENSIONS = 512;

function answer(task: JudgeTask): unknown {
  switch (task.kind) {
    case "extract_statements":
      return { statements: splitStatements(task.text, task.question) };
    case "classify_statements":
      return classifyStatements(task.question, task.response, task.reference);
    case "relevance": {
      const images = task.contexts.flatMap((c, i) => (c.type === "image" ? [`context ${i + 1} (${describeSource(c.source)})`] : []));
      if (images.length > 0) {
        throw new JudgeError(
          `the offline judge cannot see images, and this verdict depends on ${images.join(", ")}; ` +
            "set OPENAI_API_KEY or OPENAI_BASE_URL and a vision model to judge this row",
        );
      }
      const texts = task.contexts.flatMap((c) => (c.type === "text" ? [c.text] : []));
      return judgeRelevanceText(task.question, task.response, texts);
    }
    case "custom":
      throw new JudgeError(`the offline judge answers only evalframe's own tasks, not "${task.name}"`);
  }
}

/** A deterministic lexical judge that needs no model and no network. */
export class OfflineJudge implements Judge {
  readonly kind = "offline" as const;
  readonly seesImages = false;
  readonly label = OFFLINE_LABEL;
  readonly chatModel = "offline";
  readonly visionModel = "offline";
  readonly embeddingModel = `offline-hashed-${OFFLINE_EMBEDDING_DIMENSIONS}`;
  readonly usage: UsageRecorder;

  constructor(private readonly prices: Readonly<Record<string, ModelPrice>> = {}) {
    this.usage = new UsageRecorder(OFFLINE_LABEL, prices);
  }

  newUsage(): UsageRecorder {
    return new UsageRecorder(OFFLINE_LABEL, this.prices);
  }

  private recorders(usage: UsageRecorder | undefined): UsageRecorder[] {
    return usage && usage !== this.usage ? [this.usage, usage] : [this.usage];
  }

  async complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T> {
    const recorders = this.recorders(usage);
    for (const r of recorders) r.chatCall(false);
    try {
      const read = readReply(request, JSON.stringify(answer(request.task)), "stop");
      if (!read.ok) throw new JudgeError(`offline judge: ${read.problem}`);
      return read.value;
    } catch (error) {
      for (const r of recorders) r.failure();
      throw error;
    }
  }

  /**
   * Hashed bag-of-words vectors. A text with no words (such as the single
   * space an empty answer is embedded as) gets a fixed unit vector, so its
   * cosine with real text is about 0, as with a real embedding model.
   */
  async embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    for (const r of this.recorders(usage)) r.embeddingCall(texts.length, 0);
    return texts.map((text) => {
      const v = hashedEmbedding(text, OFFLINE_EMBEDDING_DIMENSIONS);
      if (v.some((x) => x !== 0)) return v;
      const unit = new Array<number>(OFFLINE_EMBEDDING_DIMENSIONS).fill(0);
      unit[0] = 1;
      return unit;
    });
  }
}
