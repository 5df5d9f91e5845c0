/**
 * The labels judge: replays hand-labelled statements, verdicts and relevance
 * (docs/labelling.md) through the ordinary judge interface, so that the
 * metrics score hand labels exactly as they score a model's replies. Its
 * embeddings are the offline judge's. No network, no disk cache.
 */
import { readLabelsIndexed } from "../labels/read";
import type { LabelIndex } from "../labels/lookup";
import { quote } from "../labels/text";
import type { LabelSource } from "../labels/types";
import type { Embedder, Judge } from "./judge";
import { OfflineJudge } from "./offline-judge";
import { answerOrCompose, completeWithData, recordersOf } from "./answer-with-data";
import { JudgeError, type JudgeTask, type StructuredRequest } from "./types";
import { UsageRecorder, type ModelPrice } from "./usage";

/** The label the labels judge puts on everything it produces. */
export const LABELS_JUDGE_LABEL = "hand-labelled";

/** Options of {@link LabelsJudge}. */
export interface LabelsJudgeOptions {
  /** Prices for the usage summary (the labels judge itself costs nothing). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Where embeddings come from (default: the offline judge's hashed embeddings). */
  embeddings?: Embedder;
}

/** A judge that answers from hand labels, and fails a text that has none. */
export class LabelsJudge implements Judge {
  readonly kind = "labels" as const;
  readonly seesImages = false;
  readonly label = LABELS_JUDGE_LABEL;
  readonly chatModel = LABELS_JUDGE_LABEL;
  readonly visionModel = LABELS_JUDGE_LABEL;
  readonly embeddingModel: string;
  readonly usage: UsageRecorder;
  private readonly index: LabelIndex;
  private readonly files: string;
  private readonly embedder: Embedder;

  /**
   * @param labels label file(s), label objects or a `readLabels` result; read and checked now.
   * @throws {LabelFileError} naming the file, line and field of every problem.
   */
  constructor(labels: LabelSource, private readonly options: LabelsJudgeOptions = {}) {
    const { set, index } = readLabelsIndexed(labels);
    this.index = index;
    this.files = set.files.length === 0 ? "your labels" : set.files.join(" or ");
    const offline = new OfflineJudge();
    this.embedder = options.embeddings ?? offline;
    const embeddings = options.embeddings;
    this.embeddingModel = embeddings === undefined ? offline.embeddingModel : "embeddingModel" in embeddings ? String(embeddings.embeddingModel) : embeddings.label;
    this.usage = new UsageRecorder(LABELS_JUDGE_LABEL, options.prices ?? {});
  }

  newUsage(): UsageRecorder {
    return new UsageRecorder(LABELS_JUDGE_LABEL, this.options.prices ?? {});
  }

  private missing(what: string, line: string): JudgeError {
    return new JudgeError(`no hand label for ${what}; add a label line ${line} to ${this.files} (see docs/labelling.md)`);
  }

  private answer(task: JudgeTask): unknown {
    switch (task.kind) {
      case "extract_statements": {
        const statements = this.index.statements(task.question, task.text);
        if (statements === undefined) {
          throw this.missing(
            `the text ${quote(task.text, 60)} of question ${quote(task.question)}${this.index.hasQuestion(task.question) ? " (the question has labels, but none with this response or reference)" : ""}`,
            'with this "user_input" and this text as its "response" (or "reference"), and its statements',
          );
        }
        return { statements };
      }
      case "classify_statements": {
        const verdicts = this.index.verdicts(task.question, task.response, task.reference);
        if (verdicts === undefined) {
          throw this.missing(
            `these ${task.response.length} response and ${task.reference.length} reference statements of question ${quote(task.question)}`,
            'whose "response_statements" and "reference_statements" are these statements, with their verdicts',
          );
        }
        return verdicts;
      }
      case "relevance": {
        const relevance = this.index.relevance(task.question, task.response);
        if (relevance === undefined) {
          throw this.missing(
            `the response ${quote(task.response, 60)} to question ${quote(task.question)}`,
            '{"id", "model", "user_input", "response", "relevant": true|false, "reason"} for this row',
          );
        }
        return relevance;
      }
      case "custom":
        throw new JudgeError(`the labels judge replays only evalframe's own tasks (and requests composed of them), not "${task.name}"`);
    }
  }

  /** The labelled reply to the request's task, checked like any judge's reply; a JudgeError when no label has it. */
  async complete<T>(request: StructuredRequest<T>, usage?: UsageRecorder): Promise<T> {
    const who = "labels judge: the labelled reply does not fit the request";
    return completeWithData(request, recordersOf(this.usage, usage), () => answerOrCompose(request, (task) => this.answer(task), who), who);
  }

  /** Embeds with the offline judge (a reader gives no embedding), or with `options.embeddings`. */
  async embed(texts: readonly string[], usage?: UsageRecorder): Promise<number[][]> {
    for (const r of recordersOf(this.usage, usage)) r.embeddingCall(texts.length, 0);
    return this.embedder.embed(texts);
  }
}
