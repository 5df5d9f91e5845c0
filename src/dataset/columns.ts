/**
 * Column names: the canonical (Ragas) names, the aliases we accept for them,
 * and the types of the columns evalframe itself writes.
 */

/** The canonical input columns, named as in Ragas. */
export type CanonicalColumn = "user_input" | "response" | "reference" | "retrieved_contexts" | "model" | "id";

/** Every canonical column, in the order evalframe documents them. */
export const CANONICAL_COLUMNS: readonly CanonicalColumn[] = [
  "user_input",
  "response",
  "reference",
  "retrieved_contexts",
  "model",
  "id",
];

/**
 * Accepted aliases (compared case-insensitively, ignoring surrounding spaces).
 * A canonical name is always accepted for itself.
 */
export const COLUMN_ALIASES: Readonly<Record<CanonicalColumn, readonly string[]>> = {
  user_input: ["question", "query", "prompt"],
  response: ["answer", "output", "prediction"],
  reference: ["ground_truth", "expected", "reference_answer"],
  retrieved_contexts: ["contexts", "context"],
  model: ["system", "variant"],
  id: ["question_id", "qid"],
};

/** The type a column's cells have in our tables and DataFrames. */
export type ColumnType = "string" | "number" | "boolean";

/** Name of the column that `loadDataset` adds when some rows have bad input. */
export const INPUT_ERROR_COLUMN = "input_error";

/**
 * Types of the columns evalframe reads and writes, so that a scored CSV read
 * back gets them right even when a column is all empty (all NaN, or no errors).
 * Canonical text columns are strings (an `id` of "007" stays "007");
 * `retrieved_contexts` is held as JSON text in tables. (No prototype: a
 * column called "constructor" is not a known one.)
 */
export const KNOWN_COLUMN_TYPES: Readonly<Record<string, ColumnType>> = Object.assign(Object.create(null) as Record<string, ColumnType>, {
  user_input: "string",
  response: "string",
  reference: "string",
  retrieved_contexts: "string",
  model: "string",
  id: "string",
  [INPUT_ERROR_COLUMN]: "string",
  answer_correctness: "number",
  answer_correctness_continuous: "number",
  answer_correctness_factual: "number",
  answer_correctness_semantic: "number",
  answer_correctness_tp: "number",
  answer_correctness_fp: "number",
  answer_correctness_fn: "number",
  answer_correctness_error: "string",
  multimodal_relevance: "number",
  multimodal_relevance_reason: "string",
  multimodal_relevance_error: "string",
});

const ALIAS_LOOKUP: ReadonlyMap<string, CanonicalColumn> = new Map(
  CANONICAL_COLUMNS.flatMap((canonical) =>
    [canonical, ...COLUMN_ALIASES[canonical]].map((name): [string, CanonicalColumn] => [name, canonical]),
  ),
);

/**
 * The canonical name a column name stands for, or undefined when it is not one
 * of ours. `extraAliases` (keys compared case-insensitively) come first.
 *
 * @example
 * canonicalName("Question") // "user_input"
 * canonicalName("gold", { gold: "reference" }) // "reference"
 * canonicalName("domain") // undefined
 */
export function canonicalName(
  name: string,
  extraAliases: Readonly<Record<string, CanonicalColumn>> = {},
): CanonicalColumn | undefined {
  const key = name.trim().toLowerCase();
  for (const [alias, canonical] of Object.entries(extraAliases)) {
    if (alias.trim().toLowerCase() === key) return canonical;
  }
  return ALIAS_LOOKUP.get(key);
}
