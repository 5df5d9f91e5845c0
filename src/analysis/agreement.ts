/**
 * Agreement between two sets of scores or labels for the same items: two
 * judges, or a judge and human labels.
 */
import type { Series } from "danfojs-node";
import { cohenKappa, isMissingLabel, spearman, type Label } from "../stats/agreement";

/** Scores or labels for {@link agreement}: an array (numbers, text, booleans; NaN/null/"" missing) or a danfojs Series. */
export type AgreementInput = ArrayLike<Label> | Series;

/** Result of {@link agreement}. */
export interface AgreementResult {
  /** Cohen's kappa for 0/1 scores or categorical labels, Spearman's rho for continuous scores. */
  method: "cohen_kappa" | "spearman";
  /** The statistic; NaN when it is undefined (no pairs, a constant side, or kappa with chance agreement 1). */
  value: number;
  /** Pairs used (both sides present). */
  n: number;
  /** Pairs dropped because either side was missing (NaN, null, undefined or empty text). */
  n_dropped: number;
}

type Kind = "empty" | "binary" | "numeric" | "labels";

function valuesOf(input: AgreementInput, side: string): Label[] {
  if (Array.isArray(input) || ArrayBuffer.isView(input)) return Array.from(input as ArrayLike<Label>);
  if (typeof input === "object" && input !== null && "values" in input) {
    const values = (input as { values: unknown }).values;
    if (Array.isArray(values)) {
      return values.map((v, i) => {
        if (v === null || v === undefined || typeof v === "number" || typeof v === "string" || typeof v === "boolean") return v;
        throw new TypeError(`agreement: ${side}[${i}] is ${Array.isArray(v) ? "a list" : typeof v}; give a Series of scores or labels`);
      });
    }
  }
  if (typeof input === "object" && input !== null && typeof (input as ArrayLike<Label>).length === "number") {
    return Array.from(input as ArrayLike<Label>);
  }
  throw new TypeError(`agreement: ${side} must be an array of scores or labels, or a danfojs Series`);
}

function kindOf(values: readonly Label[]): Kind {
  let kind: Kind = "empty";
  for (const v of values) {
    if (typeof v === "number") {
      const k: Kind = v === 0 || v === 1 ? "binary" : "numeric";
      if (kind === "empty" || (kind === "binary" && k === "numeric")) kind = k;
      else if (kind === "labels") return "labels";
    } else if (typeof v === "string") {
      if (kind === "binary" || kind === "numeric") return "labels"; // mixed: decided by the caller's error
      kind = "labels";
    }
  }
  return kind;
}

function hasNumbersAndText(values: readonly Label[]): boolean {
  return values.some((v) => typeof v === "number") && values.some((v) => typeof v === "string");
}

/**
 * How well two sets of scores for the same items agree. Cohen's kappa when
 * both sides are 0/1 (booleans count as 0/1) or both are non-numeric labels;
 * Spearman's rank correlation (average ranks for ties) when the scores are
 * continuous. Items where either side is missing (NaN, null, undefined,
 * empty text) are dropped and counted in `n_dropped`.
 *
 * @example
 * // an LLM judge against human 0/1 labels
 * agreement(scored.column("multimodal_relevance"), humanLabels)
 * // { method: "cohen_kappa", value: 0.71, n: 40, n_dropped: 2 }
 * // two judges' continuous scores
 * agreement(judgeA.column("answer_correctness"), judgeB.column("answer_correctness"))
 * // { method: "spearman", value: 0.83, n: 126, n_dropped: 0 }
 *
 * @throws {RangeError} when the two sides differ in length.
 * @throws {TypeError} when one side holds numbers and the other text labels, or a side mixes both.
 */
export function agreement(a: AgreementInput, b: AgreementInput): AgreementResult {
  const xa = valuesOf(a, "a").map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));
  const xb = valuesOf(b, "b").map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));
  if (xa.length !== xb.length) {
    throw new RangeError(`agreement: a has ${xa.length} values and b has ${xb.length}; give one score per item on each side`);
  }
  const keptA: Label[] = [];
  const keptB: Label[] = [];
  for (let i = 0; i < xa.length; i++) {
    const x = xa[i];
    const y = xb[i];
    if (isMissingLabel(x) || isMissingLabel(y)) continue;
    keptA.push(x);
    keptB.push(y);
  }
  const n = keptA.length;
  const n_dropped = xa.length - n;
  for (const [side, values] of [["a", keptA], ["b", keptB]] as const) {
    if (hasNumbersAndText(values)) throw new TypeError(`agreement: ${side} mixes numbers and text labels; use one or the other`);
  }
  const ka = kindOf(keptA);
  const kb = kindOf(keptB);
  const labels = ka === "labels" || kb === "labels";
  const numeric = ka === "numeric" || ka === "binary" || kb === "numeric" || kb === "binary";
  if (labels && numeric) {
    throw new TypeError(
      `agreement: ${ka === "labels" ? "a" : "b"} holds text labels and ${ka === "labels" ? "b" : "a"} holds numbers; give both as numbers (e.g. 0/1) or both as labels`,
    );
  }
  if (labels || (ka !== "numeric" && kb !== "numeric")) {
    return { method: "cohen_kappa", value: cohenKappa(keptA, keptB), n, n_dropped };
  }
  return { method: "spearman", value: spearman(keptA as number[], keptB as number[]), n, n_dropped };
}
