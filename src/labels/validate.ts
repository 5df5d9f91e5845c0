/**
 * Checks across label lines: one label per (id, model), and one list of
 * reference statements per question, word for word (docs/labelling.md).
 */
import { quote, textKey } from "./text";
import type { AnswerCorrectnessLabel, HandLabel, LabelProblem } from "./types";

function keyText(label: HandLabel): string {
  return label.id !== undefined
    ? `(id ${JSON.stringify(label.id)}, model ${JSON.stringify(label.model ?? "")})`
    : `(question ${quote(label.user_input, 60)}, model ${JSON.stringify(label.model ?? "")})`;
}

/**
 * Two labels of the same kind for the same row: the same (id, model), or,
 * for labels without an id, the same (question, model).
 */
export function duplicateProblems(labels: readonly HandLabel[]): LabelProblem[] {
  const problems: LabelProblem[] = [];
  const seen = new Map<string, HandLabel>();
  for (const label of labels) {
    const key = JSON.stringify([label.kind, label.id === undefined ? "q" : "id", label.id ?? textKey(label.user_input), label.model ?? ""]);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, label);
      continue;
    }
    problems.push({
      where: label.origin.where,
      field: label.id !== undefined ? "id" : "user_input",
      message: `a second label for ${keyText(label)}, already labelled at ${first.origin.where}; keep one line per row (model answer); ` +
        "for a second annotator, keep their labels in a file of their own and compare the two with calibrate (score with --judge labels on one file, calibrate against the other)",
    });
  }
  return problems;
}

/** The first place where two statement lists differ, in words. */
function firstDifference(a: readonly string[], b: readonly string[]): string {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      const there = a[i] === undefined ? "missing" : quote(a[i]!, 60);
      const here = b[i] === undefined ? "missing" : quote(b[i]!, 60);
      return `statement ${i + 1} is ${there} there and ${here} here`;
    }
  }
  return "they are the same";
}

/**
 * The reference statements of a question (same id; without ids, same
 * question and reference text) must be the same list, in the same order, on
 * every model's line: the reference is split once and shared.
 */
export function referenceProblems(labels: readonly AnswerCorrectnessLabel[]): LabelProblem[] {
  const problems: LabelProblem[] = [];
  const first = new Map<string, AnswerCorrectnessLabel>();
  for (const label of labels) {
    const key = label.id !== undefined ? `id\u0000${label.id}` : `q\u0000${textKey(label.user_input)}\u0000${textKey(label.reference)}`;
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, label);
      continue;
    }
    const question = label.id !== undefined ? `question ${JSON.stringify(label.id)}` : `question ${quote(label.user_input, 60)}`;
    if (textKey(seen.reference) !== textKey(label.reference)) {
      problems.push({ where: label.origin.where, field: "reference", message: `differs from the reference of ${question} at ${seen.origin.where}; copy the row's reference exactly` });
      continue;
    }
    const a = seen.reference_statements.map((s) => s.statement);
    const b = label.reference_statements.map((s) => s.statement);
    if (a.length !== b.length || a.some((s, i) => s !== b[i])) {
      problems.push({
        where: label.origin.where,
        field: "reference_statements",
        message:
          `differ from those of ${question} at ${seen.origin.where} (${firstDifference(a, b)}); ` +
          "a question's reference statements must be the same list, word for word and in order, on every model's line (only the verdicts differ)",
      });
    }
  }
  return problems;
}
