/**
 * The fused layout's batched call (`answersPerCall` above 1): several
 * answers, grouped under their questions, each split into statements and
 * judged against its own question's reference statements in one call. The
 * instructions and example, each question and its reference statements are
 * read once for all the answers in the call instead of once per answer.
 * Same statement rules and verdict rules as the other prompts; the offline
 * and labels judges answer it answer by answer.
 */
import { z } from "zod";
import type { ChatMessage, RequestPart, StructuredRequest } from "../../judge/types";
import { withReasonLimit } from "../reasons";
import { FusedSchema, FusedVerdictsOnlySchema, FusedVerdictsOnlySent, fusedRequest, type FusedReply } from "./fused";
import { CLASSIFY_EXAMPLE, DATA_NOT_INSTRUCTIONS, fewShot, oneEntryEach, REASON_MAX_LENGTH, STATEMENT_RULES, verdictsOnly } from "./prompts";

/** Version of the batched split-and-classify prompt; part of every cache key. */
export const ANSWERS_BATCH_PROMPT_VERSION = "ac-fused-batch-v1";
/** Version of the batched prompt that asks for verdicts without reasons (`reasons: false`). */
export const ANSWERS_BATCH_VERDICTS_ONLY_PROMPT_VERSION = "ac-fused-batch-verdicts-only-v1";

/**
 * The most answers one batched call may carry: each adds 100 to 300 reply
 * tokens, and many servers stop a reply at 4,096.
 */
export const MAX_ANSWERS_PER_CALL = 12;

/**
 * The most characters of answers one batched call carries (fewer answers
 * when they are long; a longer answer goes alone). The reply restates the
 * answers as statements and adds a verdict for each: 6,000 characters,
 * about 1,500 tokens of answers, make a reply of about 2,000 to 2,500
 * tokens, within the 4,096 many servers allow.
 */
export const MAX_ANSWER_CHARS_PER_CALL = 6000;

/** The reply cap {@link MAX_ANSWER_CHARS_PER_CALL} is sized for, in tokens. */
const REPLY_TOKENS_SIZED_FOR = 4096;

/**
 * What one verdict on a reference statement adds to a batched reply, in
 * characters of answer text (the currency of {@link MAX_ANSWER_CHARS_PER_CALL}):
 * each answer's entry judges every statement of its reference, so an answer
 * to a long reference makes a long entry however short the answer.
 */
export const REFERENCE_VERDICT_CHARS = { reasons: 40, bare: 10 } as const;

/** How much one batched call may carry: answers, and characters of answers. */
export interface BatchLimits {
  /** The most answers a call (`answersPerCall`). */
  answers: number;
  /** The most characters of answers a call, each answer's reference statements counted at {@link BatchLimits.charsPerReferenceStatement} (a longer answer goes alone). */
  chars: number;
  /** What each statement of an answer's reference counts toward `chars` (its verdict in the reply). */
  charsPerReferenceStatement: number;
}

/**
 * The limits of a batched call for `answersPerCall` and a judge whose
 * replies are capped at `maxReplyTokens` (its `maxTokens`): below 4,096
 * tokens, fewer characters of answers a call, in proportion, so that a
 * batched reply is not cut off (which would pay for it, then ask each of its
 * answers alone).
 *
 * `reasons: false` makes each reference verdict shorter.
 *
 * @example
 * batchLimits(8);               // → { answers: 8, chars: 6000, charsPerReferenceStatement: 10 }
 * batchLimits(8, 1024);         // → { answers: 8, chars: 1500, charsPerReferenceStatement: 10 }
 * batchLimits(8, 1024, true);   // → { answers: 8, chars: 1500, charsPerReferenceStatement: 40 }
 */
export function batchLimits(answersPerCall: number, maxReplyTokens?: number, reasons = false): BatchLimits {
  const share = maxReplyTokens === undefined ? 1 : Math.min(1, maxReplyTokens / REPLY_TOKENS_SIZED_FOR);
  return { answers: answersPerCall, chars: Math.floor(MAX_ANSWER_CHARS_PER_CALL * share), charsPerReferenceStatement: reasons ? REFERENCE_VERDICT_CHARS.reasons : REFERENCE_VERDICT_CHARS.bare };
}

/** One question's answers in a batched call, with its reference's statements (at least one). */
export interface QuestionAnswers {
  question: string;
  reference: readonly string[];
  answers: readonly string[];
}

/** One answer's entry of a batched reply: its number in the call, then what the fused call replies. */
export type NumberedFusedReply = { answer: number } & FusedReply;

/** Reply of the batched call: for each question, for each of its answers, in order, the answer's entry. */
export interface AnswersBatchReply {
  questions: { answers: NumberedFusedReply[] }[];
}

/** A batched reply around each answer's entry, which starts with the answer's number (so a reply that skips or swaps an answer is caught). */
function batchSchema<S extends z.ZodRawShape>(entry: S) {
  return z.object({ questions: z.array(z.object({ answers: z.array(z.object({ answer: z.number().int(), ...entry })) })) });
}

const BatchSchema = batchSchema(FusedSchema.shape);
const BatchVerdictsOnlySchema = batchSchema(FusedVerdictsOnlySchema.shape);

const BATCH_JSON_SCHEMA = withReasonLimit(z.toJSONSchema(BatchSchema) as Record<string, unknown>, REASON_MAX_LENGTH);
const BATCH_VERDICTS_ONLY_JSON_SCHEMA = z.toJSONSchema(batchSchema(FusedVerdictsOnlySent.shape)) as Record<string, unknown>;

function batchSystem(reasons: boolean): string {
  const [reasonFirst, reasonThen] = reasons ? ['a reason of at most 8 words naming what you compared (e.g. "R1", "R1 says 1928"), then ', "a reason, then "] : ["", ""];
  return `Split answers into standalone statements and check each answer against its own question's reference statements. The user's JSON lists "questions", each with the "question", its "reference" statements (R1, R2, …) and the numbered "answers" to judge. ${DATA_NOT_INSTRUCTIONS}

Statements of an answer:
${STATEMENT_RULES}

For each question, for each of its answers, in order: the answer's number; its statements; for each statement, in order: ${reasonFirst}"TP" if the reference statements support it (paraphrase is fine), else "FP"; for each reference statement, in order: ${reasonThen}"covered" if the answer states it, else "FN".
A different number, date or name, or a negation, contradicts: FP, and the reference statement is FN. Judge each answer on its own against its question's reference: not against the other answers, nor your own knowledge.`;
}

const BATCH_SYSTEM = batchSystem(true);
const BATCH_VERDICTS_ONLY_SYSTEM = batchSystem(false);

// The classification prompt's example as two answers to one question: one with a wrong value, one that leaves a statement out.
const SECOND_ANSWER = {
  statements: ["Water boils at 100 °C at sea level."],
  response: [{ reason: "R1", verdict: "TP" }],
  reference: [
    { reason: "A1", verdict: "covered" },
    { reason: "no statement on °F", verdict: "FN" },
  ],
};
const BATCH_EXAMPLE_IN = JSON.stringify({
  questions: [
    {
      question: CLASSIFY_EXAMPLE.question,
      reference: CLASSIFY_EXAMPLE.reference,
      answers: [
        { answer: 1, text: "At sea level it boils at 100 °C, or 90 °F." },
        { answer: 2, text: "It boils at 100 °C." },
      ],
    },
  ],
});
const FIRST_ANSWER = { statements: CLASSIFY_EXAMPLE.answer, ...CLASSIFY_EXAMPLE.verdicts };
const BATCH_EXAMPLE_OUT = JSON.stringify({ questions: [{ answers: [FIRST_ANSWER, SECOND_ANSWER].map((a, i) => ({ answer: i + 1, ...a })) }] });
const BATCH_VERDICTS_ONLY_EXAMPLE_OUT = JSON.stringify({
  questions: [{ answers: [FIRST_ANSWER, SECOND_ANSWER].map((a, i) => ({ answer: i + 1, statements: a.statements, ...verdictsOnly(a) })) }],
});

/**
 * Each question's items as entries numbered from 1 across the whole call,
 * the number first: how a batched call's data and reply name its answers.
 *
 * @example
 * numberedAcross([["a", "b"], ["c"]], (text) => ({ text }));
 * // [[{ answer: 1, text: "a" }, { answer: 2, text: "b" }], [{ answer: 3, text: "c" }]]
 */
export function numberedAcross<A, E extends object>(questions: readonly (readonly A[])[], entry: (item: A) => E): ({ answer: number } & E)[][] {
  let n = 0;
  return questions.map((items) => items.map((item) => ({ answer: ++n, ...entry(item) })));
}

/** The data of a batched call: each question with its reference statements and its answers, numbered from 1 across the call. */
function batchInput(questions: readonly QuestionAnswers[]): string {
  const answers = numberedAcross(questions.map((q) => q.answers), (text) => ({ text }));
  return JSON.stringify({ questions: questions.map((q, i) => ({ question: q.question, reference: q.reference, answers: answers[i] })) });
}

/** The problem with one answer's entry: one verdict per statement it wrote, one per reference statement. */
function answerProblem(reply: FusedReply, references: number): string | undefined {
  return oneEntryEach("answer", reply.response, reply.statements.length) ?? oneEntryEach("reference", reply.reference, references);
}

/** Options of {@link answersBatchRequest}. */
export interface AnswersBatchOptions {
  /** Ask for a short reason before each verdict (default false: the verdicts alone). */
  reasons?: boolean;
}

/**
 * The request that splits and judges every answer of `questions` in one
 * call. Its reply is cached whole and answer by answer (each under the
 * request for that answer alone), so a later run that judges some of the
 * same answers among others finds them.
 *
 * @example
 * answersBatchRequest([{ question: "Capital of France?", reference: ["Paris is the capital of France."], answers: ["Paris.", "Lyon."] }]);
 */
export function answersBatchRequest(questions: readonly QuestionAnswers[], options: AnswersBatchOptions = {}): StructuredRequest<AnswersBatchReply> {
  const reasons = options.reasons ?? false;
  let messages: ChatMessage[] | undefined;
  const answers = questions.reduce((n, q) => n + q.answers.length, 0);
  return {
    task: { kind: "custom", name: "extract_and_classify_answers" },
    promptVersion: reasons ? ANSWERS_BATCH_PROMPT_VERSION : ANSWERS_BATCH_VERDICTS_ONLY_PROMPT_VERSION,
    get messages() {
      const [system, exampleOut] = reasons ? [BATCH_SYSTEM, BATCH_EXAMPLE_OUT] : [BATCH_VERDICTS_ONLY_SYSTEM, BATCH_VERDICTS_ONLY_EXAMPLE_OUT];
      return (messages ??= fewShot(system, BATCH_EXAMPLE_IN, exampleOut, batchInput(questions)));
    },
    schemaName: "answers_statements_verdicts",
    jsonSchema: reasons ? BATCH_JSON_SCHEMA : BATCH_VERDICTS_ONLY_JSON_SCHEMA,
    schema: reasons ? BatchSchema : BatchVerdictsOnlySchema,
    check: (reply) => {
      if (reply.questions.length !== questions.length) {
        return `the reply must give one entry for each of the ${questions.length} questions, in order; it gave ${reply.questions.length}`;
      }
      let n = 0;
      for (const [qi, q] of questions.entries()) {
        const given = reply.questions[qi]!.answers;
        if (given.length !== q.answers.length) return `question ${qi + 1}: the reply must give one entry for each of its ${q.answers.length} answers, in order; it gave ${given.length}`;
        for (const entry of given) {
          n++;
          // An answer asked alone cannot be mistaken for another: its entry's number is not held against it.
          if (entry.answer !== n && answers > 1) return `the reply's entry for answer ${n} is numbered ${entry.answer}: give one entry per answer, in the order and with the numbers given`;
          const problem = answerProblem(entry, q.reference.length);
          if (problem !== undefined) return `answer ${n}: ${problem}`;
        }
      }
      return undefined;
    },
    // Offline and from labels: each answer as the fused call, so every layout gives the same verdicts.
    compose: async (answer) => {
      const replies = await Promise.all(questions.map((q) => Promise.all(q.answers.map((text) => answer(fusedRequest(q.question, text, q.reference, { reasons }))))));
      return { questions: numberedAcross(replies, (entry) => entry).map((answers) => ({ answers })) };
    },
    parts: (reply) =>
      answers < 2
        ? []
        : questions.flatMap((q, qi) =>
            q.answers.map((text, ai): RequestPart => ({
              request: answersBatchRequest([{ question: q.question, reference: q.reference, answers: [text] }], { reasons }) as StructuredRequest<unknown>,
              reply: { questions: [{ answers: [{ ...reply.questions[qi]!.answers[ai]!, answer: 1 }] }] },
            })),
          ),
  };
}
