/**
 * Answer correctness (docs/architecture.md, "The metrics' arithmetic"):
 * statements of answer and reference,
 * classified TP/FP/FN, F-beta of the counts blended with the cosine
 * similarity of their embeddings.
 */
import type { Cell } from "../../dataset/table";
import type { Embedder, Judge } from "../../judge/judge";
import type { UsageRecorder } from "../../judge/usage";
import { JudgeError } from "../../judge/types";
import { assertBeta, assertWeights, blendScores, fbeta } from "../math";
import type { StagePlan } from "../../judge/progress";
import type { CallTracker, EvalRow, Metric, MetricColumn, MetricRunContext, PlanContext, PlannedCall } from "../metric";
import { mapWithLimit, ROWS_IN_FLIGHT } from "../rows";
import { type AnswerCorrectnessDetails, type AnswerCorrectnessLayout, type StatementVerdict } from "./details";
import { ANSWER_CORRECTNESS_STAGES as STAGES, answerCorrectnessCallCounts, embeddingPair, planAnswerCorrectness } from "./plan";
import { classifyRequest, cleanStatements, statementsRequest } from "./prompts";
import { batchLimits, MAX_ANSWERS_PER_CALL } from "./fused-batch";
import { answerKey, extractReferencesInBatches, fusedCallCounts, judgeAnswersInBatches, judgeFused, planFused, type FusedVerdicts } from "./fused-layout";
import { ANSWER_CORRECTNESS_COLUMNS as COLUMNS } from "./columns";
import { promptVersions } from "./prompt-versions";
import { rowSimilarities, similarityOf, type RowSimilarity, type Similarity } from "./similarities";
import { errorText } from "../../display/words";

export type { Embedder } from "../../judge/judge";

/** Options of {@link answerCorrectness}. */
export interface AnswerCorrectnessOptions {
  /** [factuality, semantic similarity]; default [0.75, 0.25]. */
  weights?: [number, number];
  /** F-beta's beta; default 1. β > 1 favours recall, β < 1 precision. */
  beta?: number;
  /** When set, `answer_correctness` is 1 when the score ≥ threshold, else 0; the score stays in `answer_correctness_continuous`. */
  threshold?: number;
  /** When set, the semantic part is 1 when the cosine ≥ this, else 0 (as Ragas' code does). */
  similarityThreshold?: number;
  /** Judge for the statements (default: the run's judge). */
  judge?: Judge;
  /** Embeddings (default: the judge's); only used when weights[1] > 0. */
  embeddings?: Embedder;
  /**
   * How the judge is asked (docs/architecture.md, "Layouts"):
   * - `"ragas"` (default): as Ragas asks — one call splits each answer, one
   *   each distinct reference, one classifies each row's statements.
   * - `"fused"`: one call per answer splits it and classifies its statements
   *   against its reference's statements, which are split 8 references to a
   *   call: about 1 + 1/(8·M) chat calls per row with M models instead of
   *   2 + 1/M, and fewer tokens. Same rules and arithmetic; a model may
   *   split a little differently when it also judges in the same reply.
   */
  layout?: AnswerCorrectnessLayout;
  /**
   * Ask the judge for a short reason (at most 8 words) before each verdict,
   * as Ragas' classification does. Default `false`: the verdicts alone, about
   * half the completion tokens of a reason per verdict; the drill-down still
   * shows every statement and its verdict, and each `reason` reads "" (the
   * offline judge writes its reasons either way, at no cost). `true` when
   * you audit the judge and want it to say what it compared.
   *
   * @example
   * answerCorrectness({ reasons: true }); // a reason before each verdict (CLI: --reasons)
   */
  reasons?: boolean;
  /**
   * The fused layout's answers per call (default 1, at most 12). Above 1,
   * the answers are grouped by question and up to this many (fewer when
   * they or their references are long: at most 6,000 characters of answers,
   * each reference statement counted as 10, 40 with reasons) are split and
   * judged in one call, so the instructions, each question and its reference statements
   * are read once for all of them: fewer calls and prompt tokens per row,
   * but the model judges each answer with the others in view (told to judge
   * each on its own). An answer judged in a batch is cached by itself, so a
   * rerun with rows added or removed asks only for the new answers.
   *
   * @example
   * answerCorrectness({ layout: "fused", answersPerCall: 6 }); // about 1/6 + 1/(8·M) chat calls per row
   */
  answersPerCall?: number;
}

export type { AnswerCorrectnessLayout } from "./details";

/** One row's answer correctness. */
export interface AnswerCorrectnessResult {
  index: number;
  /** The score, or 0/1 with a threshold. NaN when the row failed. */
  score: number;
  /** The score before the threshold. */
  continuous: number;
  factual: number;
  semantic: number;
  tp: number;
  fp: number;
  fn: number;
  /** Statements and verdicts; undefined when the row failed before them. */
  details: AnswerCorrectnessDetails | undefined;
  /** "" when fine, else why the score is NaN. */
  error: string;
  judge: string;
}

/** Counts nothing: a run nobody watches. */
const UNTRACKED: CallTracker = { track: (_stage, work) => work, skip: () => undefined };

class AnswerCorrectness implements Metric<AnswerCorrectnessResult> {
  readonly name = COLUMNS.score;
  readonly requiredColumns = ["user_input", "response", "reference"] as const;
  readonly judge: Judge | undefined;
  private readonly weights: [number, number];
  private readonly beta: number;
  private readonly threshold: number | undefined;
  private readonly similarityThreshold: number | undefined;
  private readonly embeddings: Embedder | undefined;
  private readonly layout: AnswerCorrectnessLayout;
  private readonly reasons: boolean;
  private readonly answersPerCall: number;

  constructor(options: AnswerCorrectnessOptions) {
    this.layout = options.layout ?? "ragas";
    this.reasons = options.reasons ?? false;
    if (typeof this.reasons !== "boolean") throw new RangeError(`answer correctness reasons must be true or false; got ${JSON.stringify(options.reasons)}`);
    if (this.layout !== "ragas" && this.layout !== "fused") {
      throw new RangeError(`answer correctness layout must be "ragas" or "fused"; got ${JSON.stringify(options.layout)}`);
    }
    this.answersPerCall = options.answersPerCall ?? 1;
    if (!Number.isInteger(this.answersPerCall) || this.answersPerCall < 1 || this.answersPerCall > MAX_ANSWERS_PER_CALL) {
      throw new RangeError(`answer correctness answersPerCall must be a whole number from 1 to ${MAX_ANSWERS_PER_CALL}; got ${String(options.answersPerCall)}`);
    }
    if (this.answersPerCall > 1 && this.layout !== "fused") {
      throw new RangeError(`answer correctness answersPerCall applies to the fused layout only (the Ragas layout asks one call per answer); add layout: "fused", or leave answersPerCall out`);
    }
    const weights = options.weights ?? [0.75, 0.25];
    assertWeights(weights);
    this.weights = [weights[0], weights[1]];
    this.beta = options.beta ?? 1;
    assertBeta(this.beta);
    for (const [name, v] of [["threshold", options.threshold], ["similarityThreshold", options.similarityThreshold]] as const) {
      // Scores and similarities are between 0 and 1: a threshold outside would make every row 0 (or 1).
      if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1)) {
        throw new RangeError(`answer correctness ${name} must be a number from 0 to 1 (scores are between 0 and 1); got ${String(v)}`);
      }
    }
    this.threshold = options.threshold;
    this.similarityThreshold = options.similarityThreshold;
    this.judge = options.judge;
    this.embeddings = options.embeddings;
  }

  columns(): MetricColumn[] {
    const columns: MetricColumn[] = [{ name: COLUMNS.score, type: "number" }];
    if (this.threshold !== undefined) columns.push({ name: COLUMNS.continuous, type: "number" });
    columns.push(
      { name: COLUMNS.factual, type: "number" },
      { name: COLUMNS.semantic, type: "number" },
      { name: COLUMNS.tp, type: "number" },
      { name: COLUMNS.fp, type: "number" },
      { name: COLUMNS.fn, type: "number" },
      { name: COLUMNS.error, type: "string" },
      { name: COLUMNS.details, type: "string" },
      { name: COLUMNS.judge, type: "string" },
    );
    return columns;
  }

  cells(r: AnswerCorrectnessResult): Record<string, Cell> {
    const out: Record<string, Cell> = {
      [COLUMNS.score]: r.score,
      [COLUMNS.factual]: r.factual,
      [COLUMNS.semantic]: r.semantic,
      [COLUMNS.tp]: r.tp,
      [COLUMNS.fp]: r.fp,
      [COLUMNS.fn]: r.fn,
      [COLUMNS.error]: r.error,
      [COLUMNS.details]: r.details ? JSON.stringify(r.details) : "",
      [COLUMNS.judge]: r.judge,
    };
    if (this.threshold !== undefined) out[COLUMNS.continuous] = r.continuous;
    return out;
  }

  failedCells(reason: string, judgeLabel: string): Record<string, Cell> {
    return this.cells(this.failed(-1, reason, judgeLabel));
  }

  private failed(index: number, error: string, judge: string, partial: Partial<AnswerCorrectnessResult> = {}): AnswerCorrectnessResult {
    return {
      index,
      score: Number.NaN,
      continuous: Number.NaN,
      factual: Number.NaN,
      semantic: Number.NaN,
      tp: Number.NaN,
      fp: Number.NaN,
      fn: Number.NaN,
      details: undefined,
      ...partial,
      error,
      judge,
    };
  }

  planCalls(rows: readonly EvalRow[], judge?: Judge): StagePlan[] {
    const maxReplyTokens = (this.judge ?? judge)?.maxReplyTokens;
    return this.layout === "fused"
      ? fusedCallCounts(rows, this.weights[1] > 0, batchLimits(this.answersPerCall, maxReplyTokens, this.reasons), maxReplyTokens)
      : answerCorrectnessCallCounts(rows, this.weights[1] > 0);
  }

  plan(rows: readonly EvalRow[], context: PlanContext): Promise<PlannedCall[]> {
    const planned = { ...context, judge: this.judge ?? context.judge };
    const settings = { semantic: this.weights[1] > 0, reasons: this.reasons, answersPerCall: this.answersPerCall };
    return this.layout === "fused" ? planFused(rows, planned, settings) : planAnswerCorrectness(rows, planned, settings);
  }

  async scoreRows(rows: readonly EvalRow[], context: MetricRunContext): Promise<AnswerCorrectnessResult[]> {
    const judge = context.judge; // this.judge when given, as the run holds it
    const embedder = this.embeddings === undefined ? judge : (context.hold?.(this.embeddings) ?? this.embeddings);
    const calls = context.calls ?? UNTRACKED;
    // A reference's statements, by question and reference: extracted once for all the answers to it
    // (in the fused layout, several references to a call, all asked for at the start).
    const referenceStatements = new Map<string, Map<string, Promise<string[]>>>();
    if (this.layout === "fused") extractReferencesInBatches(rows, judge, context.usage, calls, referenceStatements);
    // With answersPerCall above 1, the answers' calls are planned for the whole run at once (rows judged alone are left out).
    const fusedAnswers =
      this.layout === "fused" && this.answersPerCall > 1
        ? judgeAnswersInBatches(rows, judge, context.usage, calls, referenceStatements, { reasons: this.reasons, limits: batchLimits(this.answersPerCall, judge.maxReplyTokens, this.reasons) })
        : undefined;
    const similarities = this.weights[1] > 0 && rows.length > 0 ? calls.track(STAGES.embedding, rowSimilarities(rows, embedder, context.usage)) : undefined;
    const results = await mapWithLimit(rows, ROWS_IN_FLIGHT, async (row) => {
      const result = await this.scoreRow(row, judge, embedder, context.usage, referenceStatements, fusedAnswers, similarities, calls);
      context.rowDone(result.error !== "");
      return result;
    });
    // Rows that failed early did not wait for the embeddings, whose groups go out one after another:
    // wait for the last, so that every text has been asked for when the run returns (batch mode notes
    // each text missing from the cache for its next batch while it is asked).
    await similarities?.catch(() => undefined);
    return results;
  }

  private async statements(judge: Judge, usage: UsageRecorder, question: string, text: string, calls: CallTracker): Promise<string[]> {
    if (text.trim() === "") return [];
    const reply = await calls.track(STAGES.statements, judge.complete(statementsRequest(question, text), usage));
    return cleanStatements(reply.statements);
  }

  private async scoreRow(
    row: EvalRow,
    judge: Judge,
    embedder: Embedder,
    usage: UsageRecorder,
    referenceStatements: Map<string, Map<string, Promise<string[]>>>,
    fusedAnswers: Map<string, Promise<FusedVerdicts>> | undefined,
    similarities: Promise<Map<number, RowSimilarity>> | undefined,
    calls: CallTracker,
  ): Promise<AnswerCorrectnessResult> {
    const label = judge.label;
    const reference = row.reference ?? "";
    let byReference = referenceStatements.get(row.user_input);
    if (!byReference) referenceStatements.set(row.user_input, (byReference = new Map()));
    let refPromise = byReference.get(reference);
    if (!refPromise) {
      refPromise = this.statements(judge, usage, row.user_input, reference, calls);
      byReference.set(reference, refPromise);
    }
    if (this.layout === "fused") {
      const judged = await (fusedAnswers?.get(answerKey(row)) ?? judgeFused(row, judge, usage, refPromise, calls, this.reasons));
      if ("error" in judged) return this.failed(row.index, judged.error, label);
      return this.finish(row, judge, judged.response, judged.reference, embedder, usage, similarities);
    }
    const [a, b] = await Promise.allSettled([this.statements(judge, usage, row.user_input, row.response, calls), refPromise]);
    // The classification planned for a row with both texts is not made when a side failed or has no statements.
    const classificationPlanned = row.response.trim() !== "" && reference.trim() !== "";
    if (a.status === "rejected" || b.status === "rejected") {
      if (classificationPlanned) calls.skip(STAGES.classification);
      if (a.status === "rejected") return this.failed(row.index, `statement extraction of the response failed: ${errorText(a.reason)}`, label);
      return this.failed(row.index, `statement extraction of the reference failed: ${errorText((b as PromiseRejectedResult).reason)}`, label);
    }
    const response = a.value;
    const refs = b.value;

    let responseVerdicts: StatementVerdict[];
    let referenceVerdicts: StatementVerdict[];
    if (response.length === 0 || refs.length === 0) {
      if (classificationPlanned) calls.skip(STAGES.classification);
      responseVerdicts = response.map((statement) => ({ statement, verdict: "FP" as const, reason: "the reference has no statements to support it" }));
      referenceVerdicts = refs.map((statement) => ({ statement, verdict: "FN" as const, reason: "the response makes no statements" }));
    } else {
      try {
        const reply = await calls.track(STAGES.classification, judge.complete(classifyRequest(row.user_input, response, refs, { reasons: this.reasons }), usage));
        responseVerdicts = response.map((statement, i) => ({ statement, verdict: reply.response[i]!.verdict, reason: reply.response[i]!.reason }));
        referenceVerdicts = refs.map((statement, i) => ({ statement, verdict: reply.reference[i]!.verdict, reason: reply.reference[i]!.reason }));
      } catch (error) {
        return this.failed(row.index, `classification of the statements failed: ${errorText(error)}`, label);
      }
    }
    return this.finish(row, judge, responseVerdicts, referenceVerdicts, embedder, usage, similarities);
  }

  /** A row's score from its verdicts: F-beta of the counts, blended with the embeddings' cosine. */
  private async finish(
    row: EvalRow,
    judge: Pick<Judge, "label" | "rulesVersion">,
    responseVerdicts: StatementVerdict[],
    referenceVerdicts: StatementVerdict[],
    embedder: Embedder,
    usage: UsageRecorder,
    similarities: Promise<Map<number, RowSimilarity>> | undefined,
  ): Promise<AnswerCorrectnessResult> {
    const tp = responseVerdicts.filter((v) => v.verdict === "TP").length;
    const fp = responseVerdicts.length - tp;
    const fn = referenceVerdicts.filter((v) => v.verdict === "FN").length;
    // Neither side makes a statement: nothing to get wrong.
    const factual = responseVerdicts.length === 0 && referenceVerdicts.length === 0 ? 1 : fbeta(tp, fp, fn, this.beta);
    const label = judge.label;
    const details: AnswerCorrectnessDetails = {
      judge: label,
      ...(judge.rulesVersion !== undefined ? { judgeRules: judge.rulesVersion } : {}),
      layout: this.layout,
      reasons: this.reasons,
      answersPerCall: this.answersPerCall,
      prompts: promptVersions(this.layout, this.reasons, this.answersPerCall),
      ...(similarities ? { embeddingModel: embedder.embeddingModel ?? embedder.label } : {}),
      weights: this.weights,
      beta: this.beta,
      threshold: this.threshold ?? null,
      similarityThreshold: this.similarityThreshold ?? null,
      response: responseVerdicts,
      reference: referenceVerdicts,
    };
    const counted = { factual, tp, fp, fn, details };

    let semantic = Number.NaN;
    if (similarities) {
      const known = await similarities.then((all) => all.get(row.index) ?? { batchError: undefined }, (batchError: unknown) => ({ batchError }));
      let similarity: Similarity;
      if ("batchError" in known) {
        // The batched request with this row's texts failed: try its two texts alone, so
        // that one bad batch (a text the server refuses or fails on) fails only
        // the rows it could not embed. Not when the server said it has no room
        // (429 or 503 until the rate-limit deadline): rows asking one by one
        // would only add to the load it refused.
        const batchError = known.batchError;
        if (batchError instanceof JudgeError && (batchError.status === 429 || batchError.status === 503)) {
          return this.failed(row.index, `embedding failed: ${errorText(batchError)}`, label, counted);
        }
        try {
          const [responseVector, referenceVector] = await embedder.embed(embeddingPair(row), usage);
          similarity = similarityOf(referenceVector!, responseVector!);
        } catch (error) {
          return this.failed(row.index, `embedding failed: ${errorText(error)}`, label, counted);
        }
      } else similarity = known;
      // Vectors of different lengths (a damaged cache entry, another model's vectors): this row fails, not the run.
      if ("problem" in similarity) return this.failed(row.index, `semantic similarity failed: ${similarity.problem}`, label, counted);
      const cosine = similarity.cosine;
      if (Number.isNaN(cosine)) {
        return this.failed(row.index, "semantic similarity is undefined: an embedding of the response or the reference has zero length", label, counted);
      }
      semantic = this.similarityThreshold === undefined ? cosine : cosine >= this.similarityThreshold ? 1 : 0;
    }
    const continuous = blendScores(factual, semantic, this.weights);
    const score = this.threshold === undefined ? continuous : continuous >= this.threshold ? 1 : 0;
    return { index: row.index, score, continuous, semantic, ...counted, error: "", judge: label };
  }
}

/**
 * The answer-correctness metric, as Ragas defines it: the judge splits the
 * answer and the reference into statements and classifies them TP/FP/FN;
 * the F-beta of those counts is blended with the cosine similarity of the
 * answer's and the reference's embeddings.
 *
 * score = (w0·fbeta(TP, FP, FN, β) + w1·cos(embed(reference), embed(response))) / (w0 + w1)
 *
 * @throws {RangeError} on invalid weights, beta or thresholds (at construction).
 * @example
 * const scored = await score(df, [answerCorrectness()]);                       // defaults: [0.75, 0.25], β = 1
 * const strict = await score(df, [answerCorrectness({ weights: [1, 0], beta: 0.5, threshold: 0.7 })]);
 */
export function answerCorrectness(options: AnswerCorrectnessOptions = {}): Metric<AnswerCorrectnessResult> {
  return new AnswerCorrectness(options);
}
