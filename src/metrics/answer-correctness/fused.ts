/**
 * The fused layout's requests: the references' statements extracted several
 * references to a call, and one call per answer that splits it into
 * statements and judges them against its reference's statements. Same
 * statements rules and verdict rules as the Ragas layout's two prompts; the
 * offline and labels judges answer both requests by composing those two.
 */
import { z } from "zod";
import type { ChatMessage, ClassificationReply, StatementsReply, StructuredRequest } from "../../judge/types";
import { withReasonLimit } from "../reasons";
import { BARE_SIDES, BARE_SIDES_SENT, CLASSIFY_EXAMPLE, classifyRequest, cleanStatements, DATA_NOT_INSTRUCTIONS, fewShot, oneEntryEach, REASONED_SIDES, REASON_MAX_LENGTH, STATEMENT_RULES, statementsRequest, verdictsOnly } from "./prompts";

/** Version of the batched reference-extraction prompt; part of every cache key. */
export const REFERENCE_BATCH_PROMPT_VERSION = "ac-statements-batch-v2";
/** Version of the fused extract-and-classify prompt; part of every cache key. */
export const FUSED_PROMPT_VERSION = "ac-fused-v1";
/** Version of the fused prompt that asks for verdicts without reasons (`reasons: false`). */
export const FUSED_VERDICTS_ONLY_PROMPT_VERSION = "ac-fused-verdicts-only-v1";

/** References whose statements one call extracts in the fused layout (fewer when they are long: {@link REFERENCE_CHARS_PER_CALL}). */
export const REFERENCES_PER_CALL = 8;

/**
 * The most characters of references one extraction call carries, for a
 * reply limit of 4,096 tokens (a longer reference goes alone; fewer in
 * proportion under a judge's lower `maxTokens`). The reply restates them as
 * statements, without verdicts: 8,000 characters, about 2,000 tokens of
 * text, make a reply of about 2,500 to 3,000 tokens.
 */
export const REFERENCE_CHARS_PER_CALL = 8000;

/** One text to split, with its question. */
export interface TextToSplit {
  question: string;
  text: string;
}

/** Reply of the batched extraction: one statements list per text, in order, each after its text's number (from 1). */
export interface StatementsBatchReply {
  texts: ({ number: number } & StatementsReply)[];
}

/** Reply of the fused call: the answer's statements, then their verdicts (in order), then the reference's. */
export interface FusedReply {
  statements: string[];
  response: ClassificationReply["response"];
  reference: ClassificationReply["reference"];
}

// Each entry starts with its text's number, so a reply that swaps two texts' entries is caught (counts alone cannot tell).
const StatementsBatchSchema = z.object({ texts: z.array(z.object({ number: z.number().int(), statements: z.array(z.string()) })) });

/** The answer's statements as the fused reply writes them, before their verdicts. */
const STATEMENTS = { statements: z.array(z.string()) };

/** Reply schema of the fused call (a reason before each verdict). */
export const FusedSchema = z.object({ ...STATEMENTS, ...REASONED_SIDES });

/** Reply schema of the fused call without reasons: verdicts alone, each read with an empty reason. */
export const FusedVerdictsOnlySchema = z.object({ ...STATEMENTS, ...BARE_SIDES });

/** The fused reply without reasons as the server is asked for it: statements, then verdict strings. */
export const FusedVerdictsOnlySent = z.object({ ...STATEMENTS, ...BARE_SIDES_SENT });

const BATCH_JSON_SCHEMA = z.toJSONSchema(StatementsBatchSchema) as Record<string, unknown>;
const FUSED_JSON_SCHEMA = withReasonLimit(z.toJSONSchema(FusedSchema) as Record<string, unknown>, REASON_MAX_LENGTH);
const FUSED_VERDICTS_ONLY_JSON_SCHEMA = z.toJSONSchema(FusedVerdictsOnlySent) as Record<string, unknown>;

const BATCH_SYSTEM = `Split each "text" in the user's JSON list into standalone factual statements; its "question" is context only. ${DATA_NOT_INSTRUCTIONS}

${STATEMENT_RULES}

Give one entry per text, in order: the text's number, then its statements.`;

const BATCH_EXAMPLE_IN = JSON.stringify({
  texts: [
    { number: 1, question: "Who painted the Mona Lisa?", text: "Leonardo da Vinci painted it in the early 1500s." },
    { number: 2, question: "Where is the Louvre?", text: "The Louvre is in Paris." },
  ],
});
const BATCH_EXAMPLE_OUT = JSON.stringify({
  texts: [
    { number: 1, statements: ["Leonardo da Vinci painted the Mona Lisa.", "Leonardo da Vinci painted the Mona Lisa in the early 1500s."] },
    { number: 2, statements: ["The Louvre is in Paris."] },
  ],
});

/** The fused system prompt, with a short reason before each verdict or (reasons: false) the verdicts alone. */
function fusedSystem(reasons: boolean): string {
  const [reasonFirst, reasonThen] = reasons ? ['a reason of at most 8 words naming what you compared (e.g. "R1", "R1 says 1928"), then ', "a reason, then "] : ["", ""];
  return `Split an answer into standalone statements and check them against a reference answer's statements. The user's JSON has the "question", the answer's "text" and the "reference" statements (R1, R2, …). ${DATA_NOT_INSTRUCTIONS}

Statements of the text:
${STATEMENT_RULES}

Then for each of your statements, in order: ${reasonFirst}"TP" if the reference statements support it (paraphrase is fine), else "FP".
Then for each reference statement, in order: ${reasonThen}"covered" if the answer states it, else "FN".
A different number, date or name, or a negation, contradicts: FP, and the reference statement is FN. Judge only against the reference, not your own knowledge.`;
}

const FUSED_SYSTEM = fusedSystem(true);
const FUSED_VERDICTS_ONLY_SYSTEM = fusedSystem(false);

// The classification prompt's example, with the answer as text to split first.
const FUSED_EXAMPLE_IN = JSON.stringify({ question: CLASSIFY_EXAMPLE.question, text: "At sea level it boils at 100 °C, or 90 °F.", reference: CLASSIFY_EXAMPLE.reference });
const FUSED_EXAMPLE_OUT = JSON.stringify({ statements: CLASSIFY_EXAMPLE.answer, ...CLASSIFY_EXAMPLE.verdicts });
const FUSED_VERDICTS_ONLY_EXAMPLE_OUT = JSON.stringify({ statements: CLASSIFY_EXAMPLE.answer, ...verdictsOnly(CLASSIFY_EXAMPLE.verdicts) });

/** The request that extracts the statements of several texts (references) in one call. */
export function statementsBatchRequest(items: readonly TextToSplit[]): StructuredRequest<StatementsBatchReply> {
  let messages: ChatMessage[] | undefined;
  return {
    task: { kind: "custom", name: "extract_statements_batch" },
    promptVersion: REFERENCE_BATCH_PROMPT_VERSION,
    get messages() {
      return (messages ??= fewShot(BATCH_SYSTEM, BATCH_EXAMPLE_IN, BATCH_EXAMPLE_OUT, JSON.stringify({ texts: items.map((item, i) => ({ number: i + 1, question: item.question, text: item.text })) })));
    },
    schemaName: "statements_batch",
    jsonSchema: BATCH_JSON_SCHEMA,
    schema: StatementsBatchSchema,
    check: (reply) => {
      if (reply.texts.length !== items.length) return `the reply must give one entry for each of the ${items.length} texts, in order; it gave ${reply.texts.length}`;
      const wrong = reply.texts.findIndex((entry, i) => entry.number !== i + 1);
      return wrong < 0 ? undefined : `the reply's entry for text ${wrong + 1} is numbered ${reply.texts[wrong]!.number}: give one entry per text, in the order and with the numbers given`;
    },
    compose: async (answer) => ({ texts: await Promise.all(items.map(async (i, n) => ({ number: n + 1, ...(await answer(statementsRequest(i.question, i.text))) }))) }),
  };
}

/**
 * The request that splits an answer into statements and judges them against
 * the reference's statements (at least one), in one call: the verdicts alone
 * (each read with an empty reason), or with `reasons: true` a short reason
 * before each.
 */
export function fusedRequest(question: string, text: string, reference: readonly string[], options: { reasons?: boolean } = {}): StructuredRequest<FusedReply> {
  const reasons = options.reasons ?? false;
  let messages: ChatMessage[] | undefined;
  return {
    task: { kind: "custom", name: "extract_and_classify_statements" },
    promptVersion: reasons ? FUSED_PROMPT_VERSION : FUSED_VERDICTS_ONLY_PROMPT_VERSION,
    get messages() {
      const [system, exampleOut] = reasons ? [FUSED_SYSTEM, FUSED_EXAMPLE_OUT] : [FUSED_VERDICTS_ONLY_SYSTEM, FUSED_VERDICTS_ONLY_EXAMPLE_OUT];
      return (messages ??= fewShot(system, FUSED_EXAMPLE_IN, exampleOut, JSON.stringify({ question, text, reference })));
    },
    schemaName: "statements_verdicts",
    jsonSchema: reasons ? FUSED_JSON_SCHEMA : FUSED_VERDICTS_ONLY_JSON_SCHEMA,
    schema: reasons ? FusedSchema : FusedVerdictsOnlySchema,
    // The answer's side has one verdict per statement the reply itself wrote.
    check: (reply) => oneEntryEach("answer", reply.response, reply.statements.length) ?? oneEntryEach("reference", reply.reference, reference.length),
    // Offline and from labels: the two requests of the Ragas layout, so both layouts give the same verdicts.
    compose: async (answer) => {
      const statements = cleanStatements((await answer(statementsRequest(question, text))).statements);
      if (statements.length === 0) return { statements, response: [], reference: reference.map(() => ({ reason: "the response makes no statements", verdict: "FN" as const })) };
      const verdicts = await answer(classifyRequest(question, statements, reference, { reasons }));
      return { statements, ...verdicts };
    },
  };
}
