/**
 * Lookup indexes over hand labels, for replaying them as a judge: the
 * statements of a text, the verdicts of a pair of statement lists, the
 * relevance of an answer. A judge's task carries no id or model, only texts,
 * so the same text must always be labelled the same way; where two labels
 * disagree on that, building the index reports it.
 */
import { quote, textKey } from "./text";
import type { AnswerCorrectnessLabel, LabelProblem, LabelSet, MultimodalLabel } from "./types";

/** The labelled verdicts of one (question, response statements, reference statements). */
export interface LabelledVerdicts {
  response: { reason: string; verdict: "TP" | "FP" }[];
  reference: { reason: string; verdict: "covered" | "FN" }[];
}

interface Entry<T> {
  value: T;
  where: string;
  field: string;
}

function put<T>(map: Map<string, Entry<T>>, key: string, entry: Entry<T>, same: (a: T, b: T) => boolean, problems: LabelProblem[], conflict: string): void {
  const seen = map.get(key);
  if (seen === undefined) {
    map.set(key, entry);
    return;
  }
  if (!same(seen.value, entry.value)) {
    problems.push({ where: entry.where, field: entry.field, message: `${conflict} at ${seen.where} (${seen.field}); label the same text the same way` });
  }
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);
const sameVerdicts = (a: LabelledVerdicts, b: LabelledVerdicts): boolean =>
  sameList(a.response.map((v) => v.verdict), b.response.map((v) => v.verdict)) && sameList(a.reference.map((v) => v.verdict), b.reference.map((v) => v.verdict));

/** Replays hand labels by text. Build one with {@link buildLabelIndex}. */
export class LabelIndex {
  /** @internal */
  constructor(
    private readonly statementsByText: ReadonlyMap<string, Entry<string[]>>,
    private readonly verdictsByStatements: ReadonlyMap<string, Entry<LabelledVerdicts>>,
    private readonly relevanceByAnswer: ReadonlyMap<string, Entry<{ relevant: boolean; reason: string }>>,
    /** Questions that have at least one label, by kind (for messages). */
    private readonly questions: ReadonlySet<string>,
  ) {}

  /** The labelled statements of `text` (a response or a reference) for `question`, or undefined. */
  statements(question: string, text: string): string[] | undefined {
    return this.statementsByText.get(JSON.stringify([textKey(question), textKey(text)]))?.value.slice();
  }

  /** The labelled verdicts for these statement lists (1-based numbers, in order), or undefined. */
  verdicts(question: string, response: readonly string[], reference: readonly string[]): LabelledVerdicts | undefined {
    const v = this.verdictsByStatements.get(statementsKey(question, response, reference))?.value;
    return v === undefined ? undefined : { response: v.response.map((x) => ({ ...x })), reference: v.reference.map((x) => ({ ...x })) };
  }

  /** The labelled relevance of `response` to `question`, or undefined. */
  relevance(question: string, response: string): { relevant: boolean; reason: string } | undefined {
    const v = this.relevanceByAnswer.get(JSON.stringify([textKey(question), textKey(response)]))?.value;
    return v === undefined ? undefined : { ...v };
  }

  /** Whether any label has this question (to say "no label for this question" or "no label for this answer"). */
  hasQuestion(question: string): boolean {
    return this.questions.has(textKey(question));
  }
}

function statementsKey(question: string, response: readonly string[], reference: readonly string[]): string {
  return JSON.stringify([textKey(question), response.map(textKey), reference.map(textKey)]);
}

function addAnswerCorrectness(label: AnswerCorrectnessLabel, maps: Maps, problems: LabelProblem[]): void {
  const q = textKey(label.user_input);
  const where = label.origin.where;
  const responseStatements = label.response_statements.map((s) => s.statement);
  const referenceStatements = label.reference_statements.map((s) => s.statement);
  if (textKey(label.response) !== "") {
    put(maps.statements, JSON.stringify([q, textKey(label.response)]), { value: responseStatements, where, field: "response_statements" }, sameList, problems,
      `the same text (question ${quote(label.user_input, 50)}, text ${quote(label.response, 50)}) is split into other statements`);
  }
  put(maps.statements, JSON.stringify([q, textKey(label.reference)]), { value: referenceStatements, where, field: "reference_statements" }, sameList, problems,
    `the same text (question ${quote(label.user_input, 50)}, text ${quote(label.reference, 50)}) is split into other statements`);
  if (responseStatements.length > 0 && referenceStatements.length > 0) {
    const verdicts: LabelledVerdicts = {
      response: label.response_statements.map((s) => ({ reason: s.reason, verdict: s.verdict })),
      reference: label.reference_statements.map((s) => ({ reason: s.reason, verdict: s.verdict })),
    };
    put(maps.verdicts, statementsKey(label.user_input, responseStatements, referenceStatements), { value: verdicts, where, field: "response_statements" }, sameVerdicts, problems,
      "the same statements get other verdicts");
  }
}

function addMultimodal(label: MultimodalLabel, maps: Maps, problems: LabelProblem[]): void {
  put(maps.relevance, JSON.stringify([textKey(label.user_input), textKey(label.response)]), { value: { relevant: label.relevant, reason: label.reason }, where: label.origin.where, field: "relevant" },
    (a, b) => a.relevant === b.relevant, problems, `the same answer to the same question is labelled ${label.relevant ? "not relevant" : "relevant"}`);
}

interface Maps {
  statements: Map<string, Entry<string[]>>;
  verdicts: Map<string, Entry<LabelledVerdicts>>;
  relevance: Map<string, Entry<{ relevant: boolean; reason: string }>>;
}

/**
 * Builds the replay indexes of a label set, with the problems that make a
 * text's label ambiguous (the same text split two ways, the same statements
 * with other verdicts, the same answer both relevant and not).
 */
export function buildLabelIndex(labels: LabelSet): { index: LabelIndex; problems: LabelProblem[] } {
  const problems: LabelProblem[] = [];
  const maps: Maps = { statements: new Map(), verdicts: new Map(), relevance: new Map() };
  const questions = new Set<string>();
  for (const label of labels.answerCorrectness) {
    questions.add(textKey(label.user_input));
    addAnswerCorrectness(label, maps, problems);
  }
  for (const label of labels.multimodal) {
    questions.add(textKey(label.user_input));
    addMultimodal(label, maps, problems);
  }
  return { index: new LabelIndex(maps.statements, maps.verdicts, maps.relevance, questions), problems };
}
