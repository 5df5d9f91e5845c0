/**
 * The pure arithmetic of answer correctness (docs/architecture.md), kept apart from
 * prompts and I/O so it can be checked against hand-computed values.
 */

/**
 * F-beta of statement counts, as Ragas defines it for answer correctness:
 * precision = TP/(TP+FP) (0 when TP+FP = 0), recall = TP/(TP+FN) (0 when
 * TP+FN = 0), 0 when both are 0, else (1+β²)·p·r / (β²·p + r). No epsilons.
 *
 * @param beta weight of recall: β > 1 favours recall, β < 1 precision.
 * @example
 * fbeta(1, 1, 1)      // 0.5
 * fbeta(3, 1, 2, 0.5) // 0.7142857…
 * fbeta(0, 0, 0)      // 0
 */
export function fbeta(tp: number, fp: number, fn: number, beta = 1): number {
  assertBeta(beta);
  for (const [name, v] of [["tp", tp], ["fp", fp], ["fn", fn]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`fbeta: ${name} must be a count (a whole number ≥ 0), got ${v}`);
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  if (precision === 0 && recall === 0) return 0;
  const b2 = beta * beta;
  return ((1 + b2) * precision * recall) / (b2 * precision + recall);
}

/**
 * Cosine similarity of two vectors: raw, not clipped (it can be negative).
 * NaN when either vector has zero length.
 *
 * @throws {RangeError} when the vectors differ in length.
 * @example
 * cosineSimilarity([1, 0], [1, 1])  // 0.7071…
 * cosineSimilarity([1, 0], [-1, 0]) // -1
 * cosineSimilarity([0, 0], [1, 1])  // NaN
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`cosineSimilarity: vectors differ in length (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return Number.NaN;
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}

/**
 * The weighted blend of the factual and semantic parts:
 * (w0·factual + w1·semantic) / (w0 + w1). A zero weight drops its part,
 * so a NaN there does not matter.
 *
 * @example
 * blendScores(0.5, 0.9, [0.75, 0.25]) // 0.6
 * blendScores(0.5, NaN, [1, 0])       // 0.5
 */
export function blendScores(factual: number, semantic: number, weights: readonly [number, number]): number {
  assertWeights(weights);
  const [w0, w1] = weights;
  const f = w0 === 0 ? 0 : w0 * factual;
  const s = w1 === 0 ? 0 : w1 * semantic;
  return (f + s) / (w0 + w1);
}

/**
 * Checks answer-correctness weights as Ragas does: exactly two (factuality,
 * then semantic similarity), finite, none negative, not both zero.
 *
 * @throws {RangeError} saying which rule is broken.
 */
export function assertWeights(weights: readonly number[]): asserts weights is readonly [number, number] {
  if (!Array.isArray(weights) || weights.length !== 2) {
    throw new RangeError(
      `answer correctness expects a list of two weights, the first for factuality and the second for semantic similarity; got ${JSON.stringify(weights)}`,
    );
  }
  if (!weights.every((w) => typeof w === "number" && Number.isFinite(w))) {
    throw new RangeError(`answer correctness weights must be finite numbers; got ${JSON.stringify(weights)}`);
  }
  if (weights.some((w) => w < 0)) throw new RangeError(`answer correctness weights must be non-negative; got ${JSON.stringify(weights)}`);
  if (weights.every((w) => w === 0)) throw new RangeError(`at least one answer correctness weight must be non-zero; got ${JSON.stringify(weights)}`);
}

/**
 * Checks beta: a finite number > 0.
 *
 * @throws {RangeError} explaining what beta does.
 */
export function assertBeta(beta: number): void {
  if (typeof beta !== "number" || !Number.isFinite(beta) || beta <= 0) {
    throw new RangeError(
      `beta must be a positive finite number (beta > 1 gives more weight to recall, beta < 1 to precision); got ${String(beta)}`,
    );
  }
}
