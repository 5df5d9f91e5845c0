/**
 * The columns multimodal relevance writes: the one place their names are spelt.
 */

/**
 * Multimodal relevance's output columns by role.
 *
 * @example
 * MULTIMODAL_RELEVANCE_COLUMNS.reason; // "multimodal_relevance_reason"
 */
export const MULTIMODAL_RELEVANCE_COLUMNS = {
  score: "multimodal_relevance",
  reason: "multimodal_relevance_reason",
  error: "multimodal_relevance_error",
  judge: "multimodal_relevance_judge",
} as const;
