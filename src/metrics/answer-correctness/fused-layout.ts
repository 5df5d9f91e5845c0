/**
 * Answer correctness in the fused layout: the references' statements are
 * extracted {@link REFERENCES_PER_CALL} to a call, all asked for when the
 * run starts; then each call splits answers and classifies their statements
 * against their references' — one answer per call, or with `answersPerCall`
 * above 1 several, grouped by question. The verdicts feed the same
 * arithmetic as the Ragas layout's (metric.ts).
 */
import { cachedReplyOf, type Judge } from "../../judge/judge";
import type { StagePlan } from "../../judge/progress";
import { JudgeError } from "../../judge/types";
import type { UsageRecorder } from "../../judge/usage";
import type { CallTracker, EvalRow, PlanContext, PlannedCall } from "../metric";
import type { StatementVerdict } from "./details";
import { answersBatchRequest, MAX_ANSWER_CHARS_PER_CALL, numberedAcross, batchLimits, type BatchLimits, type QuestionAnswers } from "./fused-batch";
import { fusedRequest, REFERENCE_CHARS_PER_CALL, REFERENCES_PER_CALL, statementsBatchRequest, type FusedReply, type TextToSplit } from "./fused";
import { embeddingTexts, predictStatements, referenceKey, RESTATED_SUBJECT_TOKENS, typicalVerdicts, type PlanSettings } from "./plan";
import { cleanStatements, statementsRequest } from "./prompts";
import { errorText } from "../../display/words";

/** The stages of the fused layout, as progress shows them. */
export const FUSED_STAGES = {
  references: "extracting reference statements",
  answers: "splitting and classifying answers",
  embedding: "embedding",
} as const;

/** The distinct (question, reference) pairs with a reference to split, in row order, by their {@link referenceKey}. */
function referencesToSplit(rows: readonly EvalRow[]): Map<string, TextToSplit> {
  const seen = new Map<string, TextToSplit>();
  for (const row of rows) {
    const text = row.reference ?? "";
    const key = referenceKey(row);
    if (text.trim() !== "" && !seen.has(key)) seen.set(key, { question: row.user_input, text });
  }
  return seen;
}

/** The reply cap {@link REFERENCE_CHARS_PER_CALL} is sized for, in tokens. */
const REFERENCE_REPLY_TOKENS_SIZED_FOR = 4096;

/**
 * The references' extraction calls: the distinct references in row order,
 * at most {@link REFERENCES_PER_CALL} and {@link REFERENCE_CHARS_PER_CALL}
 * characters a call (fewer in proportion under a judge's `maxReplyTokens`
 * below 4,096, so that no reply is cut off at the cap; a longer reference
 * goes alone). Each entry is the reference's {@link referenceKey} and text.
 */
function referenceBatches(rows: readonly EvalRow[], maxReplyTokens: number | undefined): [string, TextToSplit][][] {
  const share = maxReplyTokens === undefined ? 1 : Math.min(1, maxReplyTokens / REFERENCE_REPLY_TOKENS_SIZED_FOR);
  const maxChars = Math.floor(REFERENCE_CHARS_PER_CALL * share);
  const out: [string, TextToSplit][][] = [];
  let current: [string, TextToSplit][] = [];
  let chars = 0;
  for (const entry of referencesToSplit(rows)) {
    const length = entry[1].text.length;
    if (current.length > 0 && (current.length === REFERENCES_PER_CALL || chars + length > maxChars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(entry);
    chars += length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Starts the extraction of every reference's statements, several to a call,
 * and files each reference's promise under its question and text. When a
 * batch keeps failing (not for a rate limit), its references are extracted
 * one at a time, so one bad reply fails only the rows it must.
 */
export function extractReferencesInBatches(
  rows: readonly EvalRow[],
  judge: Judge,
  usage: UsageRecorder,
  calls: CallTracker,
  into: Map<string, Map<string, Promise<string[]>>>,
): void {
  for (const batch of referenceBatches(rows, judge.maxReplyTokens).map((entries) => entries.map(([, item]) => item))) {
    const reply = calls.track(FUSED_STAGES.references, judge.complete(statementsBatchRequest(batch), usage));
    batch.forEach((item, i) => {
      const statements = reply.then(
        (r) => cleanStatements(r.texts[i]!.statements),
        async (error: unknown) => {
          if (!worthSplitting(error)) throw error;
          return cleanStatements((await judge.complete(statementsRequest(item.question, item.text), usage)).statements);
        },
      );
      // A rejection is reported by each row that waits on it; keep Node from calling it unhandled meanwhile.
      statements.catch(() => undefined);
      let byReference = into.get(item.question);
      if (!byReference) into.set(item.question, (byReference = new Map()));
      byReference.set(item.text, statements);
    });
  }
}

/** A row's verdicts, or why they could not be had. */
export type FusedVerdicts = { response: StatementVerdict[]; reference: StatementVerdict[] } | { error: string };

/** Every reference statement missed, for `reason`. */
function allMissed(refs: readonly string[], reason: string): StatementVerdict[] {
  return refs.map((statement) => ({ statement, verdict: "FN" as const, reason }));
}

/** An answer's verdicts from its entry of a fused reply: its statements with their verdicts, and the reference's. */
function verdictsFromReply(reply: FusedReply, refs: readonly string[]): FusedVerdicts {
  const response = reply.statements.map((s, i) => ({ statement: s.trim(), verdict: reply.response[i]!.verdict, reason: reply.response[i]!.reason })).filter((v) => v.statement !== "");
  if (response.length === 0) return { response: [], reference: allMissed(refs, "the response makes no statements") };
  return { response, reference: refs.map((statement, i) => ({ statement, verdict: reply.reference[i]!.verdict, reason: reply.reference[i]!.reason })) };
}

/** An answer whose reference has no statements: only split, every statement FP. Never rejects. */
async function splitAlone(question: string, response: string, judge: Judge, usage: UsageRecorder): Promise<FusedVerdicts> {
  try {
    const reply = await judge.complete(statementsRequest(question, response), usage);
    return { response: cleanStatements(reply.statements).map((statement) => ({ statement, verdict: "FP" as const, reason: "the reference has no statements to support it" })), reference: [] };
  } catch (error) {
    return { error: `statement extraction of the response failed: ${errorText(error)}` };
  }
}

/**
 * Whether a batched call that failed is worth asking again in smaller
 * calls: it failed for good (an invalid reply, a server error), not for a
 * rate limit, and not because it waits for a batch (batch mode).
 */
function worthSplitting(error: unknown): boolean {
  return error instanceof JudgeError && error.status !== 429 && error.status !== 503;
}

/** One row in the fused layout: its answer split and judged against its reference's statements in one call. */
export async function judgeFused(row: EvalRow, judge: Judge, usage: UsageRecorder, referenceStatements: Promise<string[]>, calls: CallTracker, reasons: boolean): Promise<FusedVerdicts> {
  const answered = row.response.trim() !== "";
  let refs: string[];
  try {
    refs = await referenceStatements;
  } catch (error) {
    if (answered) calls.skip(FUSED_STAGES.answers);
    return { error: `statement extraction of the reference failed: ${errorText(error)}` };
  }
  if (!answered) return { response: [], reference: allMissed(refs, "the response makes no statements") };
  if (refs.length === 0) return calls.track(FUSED_STAGES.answers, splitAlone(row.user_input, row.response, judge, usage));
  try {
    const reply = await calls.track(FUSED_STAGES.answers, judge.complete(fusedRequest(row.user_input, row.response, refs, { reasons }), usage));
    return verdictsFromReply(reply, refs);
  } catch (error) {
    return { error: `splitting and classifying the response failed: ${errorText(error)}` };
  }
}

/** One distinct answer of the fused layout's batched calls; rows with the same question, reference and answer share it. */
export interface FusedAnswer {
  /** {@link answerKey} of its rows. */
  key: string;
  /** {@link referenceKey} of its rows. */
  referenceKey: string;
  question: string;
  /** The reference's text (its statements are extracted apart, once per question and reference). */
  reference: string;
  response: string;
}

/** The key of a row's answer in the batched calls: its question, reference and answer. */
export function answerKey(row: EvalRow): string {
  return JSON.stringify([row.user_input, row.reference ?? "", row.response]);
}

/**
 * The distinct answers the batched calls judge, grouped by question and
 * reference in the order the rows first name them (so that a question's
 * answers are neighbours). Rows without an answer or without a reference
 * are left out: they are judged alone ({@link judgeFused}).
 */
export function distinctAnswers(rows: readonly EvalRow[]): FusedAnswer[] {
  const groups = new Map<string, Map<string, FusedAnswer>>();
  for (const row of rows) {
    const reference = row.reference ?? "";
    if (row.response.trim() === "" || reference.trim() === "") continue;
    const refKey = referenceKey(row);
    let group = groups.get(refKey);
    if (!group) groups.set(refKey, (group = new Map()));
    const key = answerKey(row);
    if (!group.has(key)) group.set(key, { key, referenceKey: refKey, question: row.user_input, reference, response: row.response });
  }
  return [...groups.values()].flatMap((group) => [...group.values()]);
}

/** A call's answers under their questions: consecutive answers to one question and reference share an entry. */
function questionsOf(answers: readonly { answer: FusedAnswer; refs: readonly string[] }[]): QuestionAnswers[] {
  const questions: { question: string; referenceText: string; reference: readonly string[]; answers: string[] }[] = [];
  for (const { answer, refs } of answers) {
    const last = questions[questions.length - 1];
    if (last && last.question === answer.question && last.referenceText === answer.reference) last.answers.push(answer.response);
    else questions.push({ question: answer.question, referenceText: answer.reference, reference: refs, answers: [answer.response] });
  }
  return questions.map(({ question, reference, answers }) => ({ question, reference, answers }));
}

/** The request that judges one answer alone in the batched prompt: the key its part of a batch is cached under. */
function aloneRequest(answer: FusedAnswer, refs: readonly string[], reasons: boolean) {
  return answersBatchRequest([{ question: answer.question, reference: refs, answers: [answer.response] }], { reasons });
}

/** The request for answers to ask together: the batched call, or the answer alone. */
function requestFor(asked: readonly { answer: FusedAnswer; refs: readonly string[] }[], reasons: boolean) {
  return asked.length === 1 ? aloneRequest(asked[0]!.answer, asked[0]!.refs, reasons) : answersBatchRequest(questionsOf(asked), { reasons });
}

/** An answer to ask, with its reference's statements. */
interface AnswerToAsk {
  answer: FusedAnswer;
  refs: string[];
}

/**
 * Cuts answers, in order, into calls of at most `limits.answers` answers and
 * at most `limits.chars` characters of answers ({@link MAX_ANSWER_CHARS_PER_CALL},
 * or fewer under a small reply cap), each answer's reference statements
 * counted too ({@link replyWeight}), so that long answers, and answers to
 * long references, go fewer to a call (an answer heavier than that goes alone).
 * Fed one answer at a time, it hands each call over as soon as it is full.
 */
class CallCutter<T extends { answer: { response: string; reference: string } }> {
  private current: T[] = [];
  private chars = 0;

  constructor(private readonly limits: BatchLimits) {}

  /** Adds the next answer; returns the calls it completed (none, or one or two). */
  add(item: T): T[][] {
    const done: T[][] = [];
    const length = replyWeight(item.answer, this.limits);
    if (this.current.length > 0 && this.chars + length > this.limits.chars) done.push(this.take());
    this.current.push(item);
    this.chars += length;
    if (this.current.length === this.limits.answers) done.push(this.take());
    return done;
  }

  /** The last call, not full; undefined when nothing is left. */
  rest(): T[] | undefined {
    return this.current.length > 0 ? this.take() : undefined;
  }

  private take(): T[] {
    const call = this.current;
    this.current = [];
    this.chars = 0;
    return call;
  }
}

/**
 * What an answer adds to a batched call's size, in characters: its text,
 * and a verdict for each statement of its reference (counted from the
 * reference's sentences, so that a plan made before the references are
 * split cuts the same calls).
 */
function replyWeight(answer: { response: string; reference: string }, limits: BatchLimits): number {
  return answer.response.length + predictStatements(answer.reference).length * limits.charsPerReferenceStatement;
}

/** All the calls of `answers`, cut as {@link CallCutter} cuts them. */
function cutIntoCalls<T extends { answer: { response: string; reference: string } }>(answers: readonly T[], limits: BatchLimits): T[][] {
  const cutter = new CallCutter<T>(limits);
  const calls = answers.flatMap((a) => cutter.add(a));
  const rest = cutter.rest();
  return rest ? [...calls, rest] : calls;
}

/** The batched calls progress plans for these answers: as if none were cached. */
function plannedCalls(answers: readonly FusedAnswer[], limits: BatchLimits): number {
  return cutIntoCalls(answers.map((answer) => ({ answer })), limits).length;
}

/**
 * Asks one batched call; when it fails for good, asks each of its answers
 * alone, so one bad reply fails only the answers it must. Never rejects.
 */
async function askTogether(asked: readonly AnswerToAsk[], judge: Judge, usage: UsageRecorder, reasons: boolean): Promise<FusedVerdicts[]> {
  const ask = async (some: readonly AnswerToAsk[]): Promise<FusedVerdicts[]> => {
    const reply = await judge.complete(requestFor(some, reasons), usage);
    const entries = reply.questions.flatMap((q) => q.answers);
    return some.map((a, n) => verdictsFromReply(entries[n]!, a.refs));
  };
  const failed = (error: unknown): FusedVerdicts => ({ error: `splitting and classifying the response failed: ${errorText(error)}` });
  try {
    return await ask(asked);
  } catch (error) {
    if (asked.length === 1 || !worthSplitting(error)) return asked.map(() => failed(error));
    return Promise.all(asked.map((a) => ask([a]).then((v) => v[0]!, failed)));
  }
}

/**
 * Judges the distinct answers of `rows` several to a call, each once the
 * statements of its reference are in (`refsOf`; {@link extractReferencesInBatches}
 * asks for them first): answers a run before judged come from the cache
 * (each answer of a batched reply is cached by itself); the others are cut
 * into calls in question order ({@link CallCutter}), so a question's answers
 * share a call, and each call goes out as soon as it is full, while later
 * references may still be being split. Progress counts the calls planned for
 * all the answers, and skips those not needed.
 */
async function judgeDistinctAnswers(
  answers: readonly FusedAnswer[],
  judge: Judge,
  usage: UsageRecorder,
  calls: CallTracker,
  refsOf: (answer: FusedAnswer) => Promise<string[]>,
  { reasons, limits }: { reasons: boolean; limits: BatchLimits },
): Promise<FusedVerdicts[]> {
  const out: (FusedVerdicts | undefined)[] = new Array(answers.length);
  const work: Promise<unknown>[] = [];
  // Every answer's reference and cache lookup at once; what is left to ask, in answer order.
  const toAsk = answers.map(async (answer, i): Promise<(AnswerToAsk & { i: number }) | undefined> => {
    let refs: string[];
    try {
      refs = await refsOf(answer);
    } catch (error) {
      out[i] = { error: `statement extraction of the reference failed: ${errorText(error)}` };
      return undefined;
    }
    if (refs.length === 0) {
      work.push(splitAlone(answer.question, answer.response, judge, usage).then((v) => (out[i] = v)));
      return undefined;
    }
    const cached = await cachedReplyOf(judge, aloneRequest(answer, refs, reasons));
    if (cached) out[i] = verdictsFromReply(cached.questions[0]!.answers[0]!, refs);
    return cached ? undefined : { answer, refs, i };
  });
  let sent = 0;
  const send = (batch: readonly (AnswerToAsk & { i: number })[]) => {
    sent++;
    work.push(calls.track(FUSED_STAGES.answers, askTogether(batch, judge, usage, reasons)).then((verdicts) => batch.forEach((a, n) => (out[a.i] = verdicts[n]))));
  };
  const cutter = new CallCutter<AnswerToAsk & { i: number }>(limits);
  for (const next of toAsk) {
    const item = await next;
    if (item) cutter.add(item).forEach(send);
  }
  const rest = cutter.rest();
  if (rest) send(rest);
  for (let unused = plannedCalls(answers, limits) - sent; unused > 0; unused--) calls.skip(FUSED_STAGES.answers);
  await Promise.all(work);
  return out.map((v) => v ?? { error: "splitting and classifying the response failed: no reply" });
}

/**
 * Starts judging the rows' answers `answersPerCall` to a call (above 1; see
 * {@link judgeDistinctAnswers}). Returns each answer's verdicts by
 * {@link answerKey}; the promises never reject.
 */
export function judgeAnswersInBatches(
  rows: readonly EvalRow[],
  judge: Judge,
  usage: UsageRecorder,
  calls: CallTracker,
  referenceStatements: ReadonlyMap<string, ReadonlyMap<string, Promise<string[]>>>,
  options: { reasons: boolean; limits: BatchLimits },
): Map<string, Promise<FusedVerdicts>> {
  const answers = distinctAnswers(rows);
  const refsOf = (answer: FusedAnswer) => referenceStatements.get(answer.question)?.get(answer.reference) ?? Promise.reject(new Error("its statements were never asked for"));
  const judged = judgeDistinctAnswers(answers, judge, usage, calls, refsOf, options).catch((error: unknown) =>
    answers.map((): FusedVerdicts => ({ error: `splitting and classifying the response failed: ${errorText(error)}` })),
  );
  return new Map(answers.map((answer, i) => [answer.key, judged.then((all) => all[i]!)]));
}

/** Whether a row is judged alone in the batched layout: it has an answer but no reference text (its answer is only split). */
function splitOnlyRow(row: EvalRow): boolean {
  return row.response.trim() !== "" && (row.reference ?? "").trim() === "";
}

/**
 * The fused layout's calls per stage: reference batches; one call per
 * answer, or with `answersPerCall` above 1 one per batched call (and one per
 * answer without a reference); one embedding call.
 */
export function fusedCallCounts(rows: readonly EvalRow[], semantic: boolean, limits: BatchLimits = batchLimits(1), maxReplyTokens?: number): StagePlan[] {
  const answers =
    limits.answers === 1 ? rows.filter((r) => r.response.trim() !== "").length : plannedCalls(distinctAnswers(rows), limits) + rows.filter(splitOnlyRow).length;
  const plan: StagePlan[] = [
    { stage: FUSED_STAGES.references, calls: referenceBatches(rows, maxReplyTokens).length },
    { stage: FUSED_STAGES.answers, calls: answers, after: FUSED_STAGES.references },
  ];
  if (semantic && rows.length > 0) plan.push({ stage: FUSED_STAGES.embedding, calls: 1 });
  return plan;
}

/** A reference's statements as a plan knows them: cached, or predicted from its sentences. */
interface PlannedStatements {
  statements: string[];
  known: boolean;
}

/** The answer's statements and verdicts of typical length, for estimates: what a fused reply gives for one answer. */
function typicalFusedEntry(text: string, references: number, reasons: boolean): { statements: string[] } {
  const statements = predictStatements(text);
  return { statements, ...typicalVerdicts(statements.length, references, reasons) };
}

/** Reply tokens of a typical fused entry or batch: the JSON, plus the subjects statements restate. */
function fusedReplyTokens(reply: unknown, statements: number): (tokens: (text: string) => number) => number {
  return (tokens) => tokens(JSON.stringify(reply)) + RESTATED_SUBJECT_TOKENS * statements;
}

/** The split-only call of an answer whose reference has no statements, as a plan sees it. */
async function plannedSplit(question: string, text: string, reference: PlannedStatements, context: PlanContext): Promise<PlannedCall> {
  const request = statementsRequest(question, text);
  const cached = reference.known && (await context.cachedReply(request)) !== undefined;
  const answer = predictStatements(text);
  return { kind: "chat", stage: FUSED_STAGES.answers, request, predicted: !reference.known, cached, replyTokens: fusedReplyTokens({ statements: answer }, answer.length) };
}

/** One call per answer (`answersPerCall` 1). */
async function planAnswersAlone(rows: readonly EvalRow[], known: ReadonlyMap<string, PlannedStatements>, context: PlanContext, reasons: boolean): Promise<PlannedCall[]> {
  const calls: PlannedCall[] = [];
  for (const row of rows) {
    if (row.response.trim() === "") continue;
    const reference = known.get(referenceKey(row)) ?? { statements: [], known: true };
    // A reference with no statements: the answer is only split (judgeFused does the same).
    if (reference.statements.length === 0) {
      calls.push(await plannedSplit(row.user_input, row.response, reference, context));
      continue;
    }
    const request = fusedRequest(row.user_input, row.response, reference.statements, { reasons });
    const entry = typicalFusedEntry(row.response, reference.statements.length, reasons);
    calls.push({
      kind: "chat",
      stage: FUSED_STAGES.answers,
      request,
      predicted: !reference.known,
      cached: reference.known && (await context.cachedReply(request)) !== undefined,
      replyTokens: fusedReplyTokens(entry, entry.statements.length),
    });
  }
  return calls;
}

/** Batched calls (`answersPerCall` above 1), as judgeDistinctAnswers makes them: answers a run before judged left out. */
async function planAnswerBatches(rows: readonly EvalRow[], known: ReadonlyMap<string, PlannedStatements>, context: PlanContext, reasons: boolean, limits: BatchLimits): Promise<PlannedCall[]> {
  const calls: PlannedCall[] = [];
  for (const row of rows) if (splitOnlyRow(row)) calls.push(await plannedSplit(row.user_input, row.response, { statements: [], known: true }, context));
  const toAsk: (AnswerToAsk & { known: boolean })[] = [];
  for (const answer of distinctAnswers(rows)) {
    const reference = known.get(answer.referenceKey) ?? { statements: [], known: true };
    if (reference.statements.length === 0) calls.push(await plannedSplit(answer.question, answer.response, reference, context));
    else if (!(reference.known && (await context.cachedReply(aloneRequest(answer, reference.statements, reasons))) !== undefined)) toAsk.push({ answer, refs: reference.statements, known: reference.known });
  }
  for (const batch of cutIntoCalls(toAsk, limits)) {
    const predicted = batch.some((a) => !a.known);
    const request = requestFor(batch, reasons);
    const entries = questionsOf(batch).map((q) => q.answers.map((text) => typicalFusedEntry(text, q.reference.length, reasons)));
    const reply = { questions: numberedAcross(entries, (entry) => entry).map((answers) => ({ answers })) };
    const statements = entries.flat().reduce((n, a) => n + a.statements.length, 0);
    calls.push({ kind: "chat", stage: FUSED_STAGES.answers, request, predicted, cached: !predicted && (await context.cachedReply(request)) !== undefined, replyTokens: fusedReplyTokens(reply, statements) });
  }
  return calls;
}

/**
 * Every call of the fused layout for `rows`, for a cost estimate: the
 * reference batches (exact requests), then the answers' calls (exact when
 * their references' batches are cached, else with predicted reference
 * statements).
 */
export async function planFused(rows: readonly EvalRow[], context: PlanContext, { semantic, reasons, answersPerCall = 1 }: PlanSettings): Promise<PlannedCall[]> {
  const calls: PlannedCall[] = [];
  const known = new Map<string, PlannedStatements>();
  for (const batch of referenceBatches(rows, context.judge.maxReplyTokens)) {
    const request = statementsBatchRequest(batch.map(([, item]) => item));
    const cached = await context.cachedReply(request);
    const lists = batch.map(([, item], i) => (cached ? cleanStatements(cached.texts[i]!.statements) : predictStatements(item.text)));
    batch.forEach(([key], i) => known.set(key, { statements: lists[i]!, known: cached !== undefined }));
    calls.push({
      kind: "chat",
      stage: FUSED_STAGES.references,
      request,
      predicted: false,
      cached: cached !== undefined,
      replyTokens: (tokens) => tokens(JSON.stringify({ texts: lists.map((statements, i) => ({ number: i + 1, statements })) })) + RESTATED_SUBJECT_TOKENS * lists.flat().length,
    });
  }
  const answerCalls =
    answersPerCall === 1
      ? await planAnswersAlone(rows, known, context, reasons)
      : await planAnswerBatches(rows, known, context, reasons, batchLimits(answersPerCall, context.judge.maxReplyTokens, reasons));
  for (const call of answerCalls) calls.push(call);
  if (semantic && rows.length > 0) calls.push({ kind: "embedding", stage: FUSED_STAGES.embedding, texts: embeddingTexts(rows) });
  return calls;
}
