/**
 * The columns answer correctness writes: the one place their names are spelt.
 */

/** The column holding each row's statements and verdicts, as JSON text. */
export const DETAILS_COLUMN = "answer_correctness_statements";

/**
 * Answer correctness's output columns by role.
 *
 * @example
 * ANSWER_CORRECTNESS_COLUMNS.continuous; // "answer_correctness_continuous"
 */
export const ANSWER_CORRECTNESS_COLUMNS = {
  score: "answer_correctness",
  continuous: "answer_correctness_continuous",
  factual: "answer_correctness_factual",
  semantic: "answer_correctness_semantic",
  tp: "answer_correctness_tp",
  fp: "answer_correctness_fp",
  fn: "answer_correctness_fn",
  error: "answer_correctness_error",
  details: DETAILS_COLUMN,
  judge: "answer_correctness_judge",
} as const;
