/**
 * The calls answer correctness makes, known before any is made: counted per
 * stage for progress, and built as requests for a cost estimate. A
 * classification request depends on the statements the judge will extract;
 * the plan uses the cached ones when a run before left them, and otherwise
 * predicts them from the text's sentences and clauses.
 */
import type { StagePlan } from "../../judge/progress";
import type { EvalRow, PlanContext, PlannedCall } from "../metric";
import { classifyRequest, cleanStatements, statementsRequest } from "./prompts";

/** The stages of answer correctness, as progress shows them. */
export const ANSWER_CORRECTNESS_STAGES = {
  statements: "extracting statements",
  classification: "classifying",
  embedding: "embedding",
} as const;

/** A reason of the length the classification prompt asks for (at most 8 words, naming what was compared). */
export const TYPICAL_REASON = "R1 says 1928";

/** What a plan depends on besides the rows. */
export interface PlanSettings {
  /** Whether the answers and references are embedded (semantic weight above 0). */
  semantic: boolean;
  /** Whether the judge writes a reason before each verdict. */
  reasons: boolean;
  /** The fused layout's answers per call (default 1). */
  answersPerCall?: number;
}

/**
 * A classification reply of typical length, for estimates: `answer` TP and
 * `reference` covered verdicts, each with a {@link TYPICAL_REASON} or, without
 * reasons, the verdict alone (as the reply gives it).
 */
export function typicalVerdicts(answer: number, reference: number, reasons: boolean): { response: unknown[]; reference: unknown[] } {
  const entry = (verdict: string) => (reasons ? { reason: TYPICAL_REASON, verdict } : verdict);
  return { response: Array.from({ length: answer }, () => entry("TP")), reference: Array.from({ length: reference }, () => entry("covered")) };
}

/** Extra tokens per extracted statement: statements restate their subject ("it" becomes a name). */
export const RESTATED_SUBJECT_TOKENS = 2;

/**
 * The statements a judge is likely to extract from a text, for estimates
 * only: its sentences, split again at semicolons and at clauses joined by
 * ", and", ", but", ", while", ", which" or ", whereas".
 *
 * @example
 * predictStatements("Paris is the capital of France, and it is on the Seine. It has 2 million people.")
 * // ["Paris is the capital of France", "it is on the Seine.", "It has 2 million people."]
 */
export function predictStatements(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=\S)/)
    .flatMap((sentence) => sentence.split(/;\s+|,\s+(?=(?:and|but|while|which|whereas)\s)/i))
    .map((s) => s.replace(/^(?:and|but|while|which|whereas)\s+/i, "").trim())
    .filter((s) => /\p{L}|\p{N}/u.test(s));
}

/** Text as it is embedded: empty text becomes a single space, as in Ragas. */
export function embeddingText(text: string): string {
  return text === "" ? " " : text;
}

/** The two texts a row embeds, as they are sent: its answer, then its reference. */
export function embeddingPair(row: EvalRow): readonly [response: string, reference: string] {
  return [embeddingText(row.response), embeddingText(row.reference ?? "")];
}

/** The distinct texts a run embeds: every answer and reference. */
export function embeddingTexts(rows: readonly EvalRow[]): string[] {
  return [...new Set(rows.flatMap(embeddingPair))];
}

/** The key of a reference's statements: one extraction per question and reference. */
export function referenceKey(row: EvalRow): string {
  return JSON.stringify([row.user_input, row.reference ?? ""]);
}

/**
 * The calls of answer correctness per stage: one extraction per answer and
 * per distinct question-and-reference, one classification per row with both
 * texts, and one embedding call for the run (the judge batches it) when the
 * semantic weight is above 0.
 */
export function answerCorrectnessCallCounts(rows: readonly EvalRow[], semantic: boolean): StagePlan[] {
  const references = new Set<string>();
  let statements = 0;
  let classification = 0;
  for (const row of rows) {
    const hasReference = (row.reference ?? "").trim() !== "";
    const hasResponse = row.response.trim() !== "";
    if (hasReference) references.add(referenceKey(row));
    if (hasResponse) statements++;
    if (hasResponse && hasReference) classification++;
  }
  const S = ANSWER_CORRECTNESS_STAGES;
  const plan: StagePlan[] = [
    { stage: S.statements, calls: statements + references.size },
    { stage: S.classification, calls: classification, after: S.statements },
  ];
  if (semantic && rows.length > 0) plan.push({ stage: S.embedding, calls: 1 });
  return plan;
}

function statementsReplyTokens(statements: readonly string[]): (tokens: (text: string) => number) => number {
  return (tokens) => tokens(JSON.stringify({ statements })) + RESTATED_SUBJECT_TOKENS * statements.length;
}

/**
 * Every call answer correctness would make for `rows`, in order: the
 * extractions (exact requests), the classifications (exact when both sides'
 * statements are cached, else predicted), and the embedding texts.
 */
export async function planAnswerCorrectness(rows: readonly EvalRow[], context: PlanContext, { semantic, reasons }: PlanSettings): Promise<PlannedCall[]> {
  const S = ANSWER_CORRECTNESS_STAGES;
  const calls: PlannedCall[] = [];
  const extract = async (question: string, text: string): Promise<{ statements: string[]; known: boolean }> => {
    if (text.trim() === "") return { statements: [], known: true };
    const request = statementsRequest(question, text);
    const cached = await context.cachedReply(request);
    const statements = cached ? cleanStatements(cached.statements) : predictStatements(text);
    calls.push({ kind: "chat", stage: S.statements, request, predicted: false, cached: cached !== undefined, replyTokens: statementsReplyTokens(cached ? cached.statements : statements) });
    return { statements, known: cached !== undefined };
  };
  const references = new Map<string, Promise<{ statements: string[]; known: boolean }>>();
  const classifications: PlannedCall[] = [];
  for (const row of rows) {
    const key = referenceKey(row);
    let reference = references.get(key);
    if (!reference) references.set(key, (reference = extract(row.user_input, row.reference ?? "")));
    const refs = await reference;
    const answer = await extract(row.user_input, row.response);
    if (answer.statements.length === 0 || refs.statements.length === 0) continue;
    const request = classifyRequest(row.user_input, answer.statements, refs.statements, { reasons });
    const known = answer.known && refs.known;
    classifications.push({
      kind: "chat",
      stage: S.classification,
      request,
      predicted: !known,
      cached: known && (await context.cachedReply(request)) !== undefined,
      replyTokens: (tokens) => tokens(JSON.stringify(typicalVerdicts(answer.statements.length, refs.statements.length, reasons))),
    });
  }
  for (const call of classifications) calls.push(call);
  if (semantic && rows.length > 0) {
    calls.push({ kind: "embedding", stage: S.embedding, texts: embeddingTexts(rows) });
  }
  return calls;
}
