/**
 * A hand label's own answer-correctness score: the counts of its verdicts
 * and their F-beta, as this metric scores a judge's verdicts.
 */
import type { AnswerCorrectnessLabel } from "../../labels/types";
import { fbeta } from "../math";

/** TP and FP (response statements marked so) and FN (reference statements marked FN) of a label. */
export function labelCounts(label: AnswerCorrectnessLabel): { tp: number; fp: number; fn: number } {
  const tp = label.response_statements.filter((s) => s.verdict === "TP").length;
  return {
    tp,
    fp: label.response_statements.length - tp,
    fn: label.reference_statements.filter((s) => s.verdict === "FN").length,
  };
}

/**
 * A label's factual score: F-beta of its counts, and 1 when neither side has
 * a statement, exactly as the answer-correctness metric scores a judge's
 * verdicts.
 *
 * @example
 * // 2 TP, 1 FP, 1 FN: precision 2/3, recall 2/3
 * labelFactual(label)      // 0.6667
 * labelFactual(label, 2)   // recall weighed more
 */
export function labelFactual(label: AnswerCorrectnessLabel, beta = 1): number {
  if (label.response_statements.length === 0 && label.reference_statements.length === 0) return 1;
  const { tp, fp, fn } = labelCounts(label);
  return fbeta(tp, fp, fn, beta);
}
