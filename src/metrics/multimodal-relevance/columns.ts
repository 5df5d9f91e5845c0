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
  /** The image detail every image was sent with (low, high or auto): a setting that changes scores, compared by `diff`. */
  imageDetail: "multimodal_relevance_image_detail",
} as const;

/** The image detail of a row scored before it was recorded (or with none asked for): the default, "auto". */
export const DEFAULT_IMAGE_DETAIL = "auto";
