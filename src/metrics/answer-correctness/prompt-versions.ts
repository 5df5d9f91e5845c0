/**
 * The versions of the prompts a layout of answer correctness asks with,
 * recorded with each scored row: a new version of a prompt between two runs
 * (a newer evalframe) is a change of how they were scored, which
 * `evalframe diff` names, not a change of the answers.
 */
import type { AnswerCorrectnessLayout } from "./details";
import { ANSWERS_BATCH_PROMPT_VERSION, ANSWERS_BATCH_VERDICTS_ONLY_PROMPT_VERSION } from "./fused-batch";
import { FUSED_PROMPT_VERSION, FUSED_VERDICTS_ONLY_PROMPT_VERSION, REFERENCE_BATCH_PROMPT_VERSION } from "./fused";
import { CLASSIFY_PROMPT_VERSION, CLASSIFY_VERDICTS_ONLY_PROMPT_VERSION, STATEMENTS_PROMPT_VERSION } from "./prompts";

/**
 * The prompt versions of a layout, space-separated, in the order it asks
 * them: the Ragas layout's statements and classification; the fused
 * layout's reference batches, then its one-answer or several-answer prompt.
 * (A reply refused again and again is asked again in a smaller form, with
 * the one-text prompts; those are not listed.)
 *
 * @example
 * promptVersions("ragas", true, 1) // "ac-statements-v2 ac-classify-v2"
 */
export function promptVersions(layout: AnswerCorrectnessLayout, reasons: boolean, answersPerCall: number): string {
  if (layout === "ragas") return `${STATEMENTS_PROMPT_VERSION} ${reasons ? CLASSIFY_PROMPT_VERSION : CLASSIFY_VERDICTS_ONLY_PROMPT_VERSION}`;
  const answers =
    answersPerCall > 1 ? (reasons ? ANSWERS_BATCH_PROMPT_VERSION : ANSWERS_BATCH_VERDICTS_ONLY_PROMPT_VERSION) : reasons ? FUSED_PROMPT_VERSION : FUSED_VERDICTS_ONLY_PROMPT_VERSION;
  return `${REFERENCE_BATCH_PROMPT_VERSION} ${answers}`;
}
