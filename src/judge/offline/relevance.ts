/**
 * Lexical relevance check for the offline judge: is a response grounded in
 * (the text of) its contexts?
 */

import type { RelevanceReply } from "../types";
import { analyzeText, quoteWords, writtenForms } from "./text";

/** Share of the response's content words that must appear in the contexts. */
export const RELEVANCE_THRESHOLD = 0.4;

/**
 * Judges whether a response is relevant to its text contexts: at least 40% of
 * the response's distinct content words must appear in the contexts, and no
 * number in the response may be missing from contexts that do state numbers.
 * An empty response, or no contexts, is not relevant. `question` is accepted
 * for parity with LLM judges; the lexical check does not need it.
 *
 * @example
 * judgeRelevanceText("When was penicillin discovered?", "Penicillin was discovered in 1928.",
 *   ["Alexander Fleming discovered penicillin in 1928 in London."]);
 * // → { relevant: true, reason: '3 of 3 response words appear in the contexts: "penicillin", "discovered", "1928"' }
 */
export function judgeRelevanceText(question: string, response: string, contexts: readonly string[]): RelevanceReply {
  void question;
  if (response.trim() === "") return { relevant: false, reason: "the response is empty" };
  if (contexts.length === 0) return { relevant: false, reason: "there are no contexts to check the response against" };
  const texts = contexts.filter((c) => c.trim() !== "");
  if (texts.length === 0) return { relevant: false, reason: "the contexts are empty" };

  const answer = analyzeText(response);
  if (answer.unique.length === 0) return { relevant: false, reason: "the response has no content words to check" };
  const context = analyzeText(texts.join("\n"));
  if (context.unique.length === 0) return { relevant: false, reason: "the contexts have no content words" };

  const known = new Set(context.unique);
  const shared = answer.unique.filter((w) => known.has(w));
  const missing = answer.unique.filter((w) => !known.has(w));
  const total = answer.unique.length;

  if (answer.numbers.length > 0 && context.numbers.length > 0) {
    const absent = answer.numbers.filter((n) => !known.has(n));
    if (absent.length > 0) {
      const verb = absent.length === 1 ? "does" : "do";
      return {
        relevant: false,
        reason: `${absent.length === 1 ? "number" : "numbers"} ${absent.join(", ")} ${verb} not appear in the contexts (they mention ${context.numbers.slice(0, 8).join(", ")}${context.numbers.length > 8 ? ", …" : ""})`,
      };
    }
  }
  const counts = `${shared.length} of ${total} response ${total === 1 ? "word" : "words"}`;
  if (shared.length > 0 && shared.length / total >= RELEVANCE_THRESHOLD) {
    return { relevant: true, reason: `${counts} appear in the contexts: ${quoteWords(writtenForms(answer, shared))}` };
  }
  return {
    relevant: false,
    reason: `only ${counts} appear in the contexts (needs ${Math.round(RELEVANCE_THRESHOLD * 100)}%); missing ${quoteWords(writtenForms(answer, missing))}`,
  };
}
