/**
 * Lexical statement classification for the offline judge (Ragas-style answer
 * correctness): response statements become TP/FP, reference statements become
 * covered/FN, each with a reason naming the words and clashes behind it.
 */

import type { ClassificationReply, ReferenceVerdict, ResponseVerdict } from "../types";
import { analyzeText, quoteWords, writtenForms, type TextAnalysis } from "./text";

/** Share of a statement's content words that must be found in the other statement. */
export const MATCH_THRESHOLD = 0.5;

interface Overlap {
  /** Distinct content words of the "from" statement found in the other one, in order. */
  shared: string[];
  /** Distinct content words of the "from" statement. */
  total: number;
  /** shared / total (0 when the statement has no content words). */
  share: number;
}

/** How much of `from`'s content words appear in `into`. */
function overlap(from: TextAnalysis, into: TextAnalysis): Overlap {
  const target = new Set(into.unique);
  const shared = from.unique.filter((w) => target.has(w));
  const total = from.unique.length;
  return { shared, total, share: total === 0 ? 0 : shared.length / total };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * Why a response statement contradicts a reference statement, or undefined:
 * (a) both hold numbers and they share none; (a') both name people or
 * places and they share no name;
 * (b) exactly one of them is negated.
 */
function findClash(response: TextAnalysis, reference: TextAnalysis): string | undefined {
  const problems: string[] = [];
  // A statement that combines several facts may carry numbers of other
  // reference statements too; it clashes only when it shares none.
  if (response.numbers.length > 0 && reference.numbers.length > 0 && !response.numbers.some((n) => reference.numbers.includes(n))) {
    const extra = response.numbers;
    problems.push(`${extra.length === 1 ? "number" : "numbers"} ${extra.join(", ")} where the reference says ${reference.numbers.join(", ")}`);
  }
  // Names: a swapped name ("Pasteur" for "Fleming") shares no name with the reference.
  // A capitalised first word counts as a name only when the other text lacks it.
  const namesOf = (a: TextAnalysis, other: TextAnalysis): string[] =>
    a.leading !== undefined && !other.unique.includes(a.leading) && !a.names.includes(a.leading) ? [a.leading, ...a.names] : a.names;
  const withLeading = (a: TextAnalysis): string[] => (a.leading === undefined ? a.names : [a.leading, ...a.names]);
  const responseNames = namesOf(response, reference);
  const referenceNames = namesOf(reference, response);
  const shared = withLeading(response).some((n) => withLeading(reference).includes(n));
  if (responseNames.length > 0 && referenceNames.length > 0 && !shared) {
    const show = (a: TextAnalysis, names: string[]) => names.map((n) => `"${a.forms.get(n) ?? n}"`).join(", ");
    problems.push(`${show(response, responseNames)} where the reference names ${show(reference, referenceNames)}`);
  }
  if (response.negations.length > 0 && reference.negations.length === 0) {
    problems.push(`the response negates (${quoteWords(response.negations)}) where the reference does not`);
  } else if (reference.negations.length > 0 && response.negations.length === 0) {
    problems.push(`the reference negates (${quoteWords(reference.negations)}) where the response does not`);
  }
  return problems.length > 0 ? problems.join("; ") : undefined;
}

/** Whether an overlap is big enough to count as a match (before clashes). */
function isEnough(o: Overlap): boolean {
  return o.shared.length > 0 && o.share >= MATCH_THRESHOLD;
}

/** Index of the highest share (ties → lower index), or -1 for an empty list. */
function bestIndex(overlaps: readonly Overlap[], allowed: (index: number) => boolean = () => true): number {
  let best = -1;
  overlaps.forEach((o, i) => {
    if (!allowed(i)) return;
    const current = best >= 0 ? overlaps[best] : undefined;
    if (!current || o.share > current.share) best = i;
  });
  return best;
}

/**
 * Classifies response statements as TP (supported by a reference statement)
 * or FP, and reference statements as covered or FN, by content-word overlap.
 *
 * A response statement's best reference is the one holding the largest share
 * of its content words (ties → lower index); it is TP when that share is at
 * least 0.5 and the two do not clash (a number the reference does not have,
 * or a negation on one side only). A reference statement is covered when a TP
 * was matched to it, or when some response statement holds at least half of
 * its content words without a clash; otherwise it is FN. Indices in verdicts
 * and reasons are 1-based. `question` is accepted for parity with LLM judges;
 * the lexical algorithm does not need it.
 *
 * @example
 * classifyStatements(
 *   "Who discovered penicillin, and when?",
 *   ["Fleming discovered penicillin in 1929."],
 *   ["Alexander Fleming discovered penicillin in 1928."],
 * );
 * // → { response: [{ statement: 1, verdict: "FP",
 * //       reason: "clashes with reference 1: number 1929 where the reference says 1928" }],
 * //     reference: [{ statement: 1, verdict: "FN",
 * //       reason: "not covered: clashes with response 1: number 1929 where the reference says 1928" }] }
 */
export function classifyStatements(
  question: string,
  response: readonly string[],
  reference: readonly string[],
): ClassificationReply {
  void question;
  const responses = response.map(analyzeText);
  const references = reference.map(analyzeText);

  const matchedBy = new Map<number, number>(); // reference index → first TP response index
  const responseVerdicts: ResponseVerdict[] = responses.map((res, i) => {
    const statement = i + 1;
    if (references.length === 0) {
      return { statement, verdict: "FP", reason: "there are no reference statements to match" };
    }
    if (res.unique.length === 0) {
      return { statement, verdict: "FP", reason: "no reference statement shares enough words (the statement has no content words)" };
    }
    const overlaps = references.map((ref) => overlap(res, ref));
    const j = bestIndex(overlaps);
    const best = overlaps[j];
    const ref = references[j];
    if (!best || !ref) {
      return { statement, verdict: "FP", reason: "there are no reference statements to match" };
    }
    if (!isEnough(best)) {
      return {
        statement,
        verdict: "FP",
        reason: `no reference statement shares enough words (best: reference ${j + 1}, ${best.shared.length} of ${plural(best.total, "word")})`,
      };
    }
    const clash = findClash(res, ref);
    if (clash) return { statement, verdict: "FP", reason: `clashes with reference ${j + 1}: ${clash}` };
    if (!matchedBy.has(j)) matchedBy.set(j, i);
    return { statement, verdict: "TP", reason: `matches reference ${j + 1} on ${quoteWords(writtenForms(res, best.shared))}` };
  });

  const mentioned = new Set(responses.flatMap((r) => r.unique));
  const referenceVerdicts: ReferenceVerdict[] = references.map((ref, i) => {
    const statement = i + 1;
    const tp = matchedBy.get(i);
    const tpResponse = tp === undefined ? undefined : responses[tp];
    if (tp !== undefined && tpResponse) {
      return { statement, verdict: "covered", reason: `covered by response ${tp + 1} on ${quoteWords(writtenForms(ref, overlap(ref, tpResponse).shared))}` };
    }
    if (responses.length === 0) return { statement, verdict: "FN", reason: "not covered: the response has no statements" };
    if (ref.unique.length === 0) return { statement, verdict: "FN", reason: "not covered: the statement has no content words" };

    const overlaps = responses.map((res) => overlap(ref, res));
    const clashes = responses.map((res) => findClash(res, ref));
    const k = bestIndex(overlaps, (index) => isEnough(overlaps[index]!) && clashes[index] === undefined);
    const covering = overlaps[k];
    if (covering) {
      return { statement, verdict: "covered", reason: `covered by response ${k + 1} on ${quoteWords(writtenForms(ref, covering.shared))}` };
    }
    const c = bestIndex(overlaps, (index) => isEnough(overlaps[index]!));
    const clash = clashes[c];
    if (c >= 0 && clash) return { statement, verdict: "FN", reason: `not covered: clashes with response ${c + 1}: ${clash}` };

    const b = bestIndex(overlaps);
    const best = overlaps[b];
    const bestText = best && best.shared.length > 0 ? `best: response ${b + 1}, ${best.shared.length} of ${plural(best.total, "word")}` : "";
    const missing = ref.unique.filter((w) => !mentioned.has(w));
    if (missing.length > 0) {
      return {
        statement,
        verdict: "FN",
        reason: `not covered: the response never mentions ${quoteWords(writtenForms(ref, missing))}${bestText ? ` (${bestText})` : ""}`,
      };
    }
    return { statement, verdict: "FN", reason: `not covered: no single response statement shares enough of its words (${bestText})` };
  });

  return { response: responseVerdicts, reference: referenceVerdicts };
}
