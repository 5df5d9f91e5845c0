/**
 * The offline judge's verdicts on one question, for tests: the response and the reference split
 * into statements as the judge splits them, then classified.
 */
import { classifyStatements } from "../../src/judge/offline/classify";
import { splitStatements } from "../../src/judge/offline/statements";

/** Verdicts of one question, as "TP"/"FP" and "covered"/"FN" lists, with every reason (response's, then reference's). */
export function verdicts(question: string, response: string, reference: string): { response: string[]; reference: string[]; reasons: string[] } {
  const reply = classifyStatements(question, splitStatements(response, question), splitStatements(reference, question));
  return {
    response: reply.response.map((v) => v.verdict),
    reference: reply.reference.map((v) => v.verdict),
    reasons: [...reply.response, ...reply.reference].map((v) => v.reason),
  };
}

/** {@link verdicts} with every reason in one line, for assertion messages and matches. */
export function verdictsInLine(question: string, response: string, reference: string): { response: string[]; reference: string[]; reasons: string } {
  const v = verdicts(question, response, reference);
  return { ...v, reasons: v.reasons.join(" | ") };
}
