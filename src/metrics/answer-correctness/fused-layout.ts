/**
 * Answer correctness in the fused layout: the references' statements are
 * extracted {@link REFERENCES_PER_CALL} to a call, all asked for when the
 * run starts; then one call per answer splits it and classifies its
 * statements against its reference's. The verdicts feed the same arithmetic
 * as the Ragas layout's (metric.ts).
 */
import type { Judge } from "../../judge/judge";
import type { StagePlan } from "../../judge/progress";
import { JudgeError } from "../../judge/types";
import type { UsageRecorder } from "../../judge/usage";
import type { CallTracker, EvalRow, PlanContext, PlannedCall, PlannedRequest } from "../metric";
import type { StatementVerdict } from "./details";
import { fusedRequest, REFERENCES_PER_CALL, statementsBatchRequest, type TextToSplit } from "./fused";
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

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
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
  for (const batch of chunks([...referencesToSplit(rows).values()], REFERENCES_PER_CALL)) {
    const reply = calls.track(FUSED_STAGES.references, judge.complete(statementsBatchRequest(batch), usage));
    batch.forEach((item, i) => {
      const statements = reply.then(
        (r) => cleanStatements(r.texts[i]!.statements),
        async (error: unknown) => {
          // Only a batch that failed for good is split; not a rate limit, nor a request still waiting (batch mode).
          if (!(error instanceof JudgeError) || error.status === 429 || error.status === 503) throw error;
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
  const noStatements = (reason: string) => refs.map((statement) => ({ statement, verdict: "FN" as const, reason }));
  if (!answered) return { response: [], reference: noStatements("the response makes no statements") };
  if (refs.length === 0) {
    try {
      const reply = await calls.track(FUSED_STAGES.answers, judge.complete(statementsRequest(row.user_input, row.response), usage));
      const response = cleanStatements(reply.statements).map((statement) => ({ statement, verdict: "FP" as const, reason: "the reference has no statements to support it" }));
      return { response, reference: [] };
    } catch (error) {
      return { error: `statement extraction of the response failed: ${errorText(error)}` };
    }
  }
  try {
    const reply = await calls.track(FUSED_STAGES.answers, judge.complete(fusedRequest(row.user_input, row.response, refs, { reasons }), usage));
    const response = reply.statements.map((s, i) => ({ statement: s.trim(), verdict: reply.response[i]!.verdict, reason: reply.response[i]!.reason })).filter((v) => v.statement !== "");
    if (response.length === 0) return { response: [], reference: noStatements("the response makes no statements") };
    return {
      response,
      reference: refs.map((statement, i) => ({ statement, verdict: reply.reference[i]!.verdict, reason: reply.reference[i]!.reason })),
    };
  } catch (error) {
    return { error: `splitting and classifying the response failed: ${errorText(error)}` };
  }
}

/** The fused layout's calls per stage: reference batches, one call per answer, one embedding call. */
export function fusedCallCounts(rows: readonly EvalRow[], semantic: boolean): StagePlan[] {
  const answers = rows.filter((r) => r.response.trim() !== "").length;
  const plan: StagePlan[] = [
    { stage: FUSED_STAGES.references, calls: Math.ceil(referencesToSplit(rows).size / REFERENCES_PER_CALL) },
    { stage: FUSED_STAGES.answers, calls: answers, after: FUSED_STAGES.references },
  ];
  if (semantic && rows.length > 0) plan.push({ stage: FUSED_STAGES.embedding, calls: 1 });
  return plan;
}

/**
 * Every call of the fused layout for `rows`, for a cost estimate: the
 * reference batches (exact requests), then one per answer (exact when its
 * reference's batch is cached, else with predicted reference statements).
 */
export async function planFused(rows: readonly EvalRow[], context: PlanContext, { semantic, reasons }: PlanSettings): Promise<PlannedCall[]> {
  const calls: PlannedCall[] = [];
  const known = new Map<string, { statements: string[]; known: boolean }>();
  for (const batch of chunks([...referencesToSplit(rows)], REFERENCES_PER_CALL)) {
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
      replyTokens: (tokens) => tokens(JSON.stringify({ texts: lists.map((statements) => ({ statements })) })) + RESTATED_SUBJECT_TOKENS * lists.flat().length,
    });
  }
  for (const row of rows) {
    if (row.response.trim() === "") continue;
    const reference = known.get(referenceKey(row)) ?? { statements: [], known: true };
    const answer = predictStatements(row.response);
    // A reference with no statements: the answer is only split (judgeFused does the same).
    let request: PlannedRequest;
    let hit: unknown;
    if (reference.statements.length > 0) {
      const fused = fusedRequest(row.user_input, row.response, reference.statements, { reasons });
      request = fused;
      hit = reference.known ? await context.cachedReply(fused) : undefined;
    } else {
      const split = statementsRequest(row.user_input, row.response);
      request = split;
      hit = reference.known ? await context.cachedReply(split) : undefined;
    }
    const cached = hit !== undefined;
    calls.push({
      kind: "chat",
      stage: FUSED_STAGES.answers,
      request,
      predicted: !reference.known,
      cached,
      replyTokens: (tokens) =>
        tokens(JSON.stringify({ statements: answer, ...typicalVerdicts(answer.length, reference.statements.length, reasons) })) + RESTATED_SUBJECT_TOKENS * answer.length,
    });
  }
  if (semantic && rows.length > 0) calls.push({ kind: "embedding", stage: FUSED_STAGES.embedding, texts: embeddingTexts(rows) });
  return calls;
}
