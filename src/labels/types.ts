/**
 * Hand labels (docs/labelling.md): the statements and verdicts a careful
 * reader gives an answer (answer correctness), or whether an answer is in
 * line with its contexts (multimodal relevance). Plain data, no zod, so that
 * the public `.d.ts` stays readable in a notebook.
 */

/** A labelled statement of the response, with its verdict against the reference. */
export interface ResponseStatementLabel {
  statement: string;
  verdict: "TP" | "FP";
  reason: string;
}

/** A labelled statement of the reference, with whether the response covers it. */
export interface ReferenceStatementLabel {
  statement: string;
  verdict: "covered" | "FN";
  reason: string;
}

/** Where a label came from, for messages: its file and 1-based line (or its place in an array). */
export interface LabelOrigin {
  /** The file, or `"labels"` for label objects given in code. */
  file: string;
  /** 1-based line in the file (or 1-based position in the array). */
  line: number;
  /** `"data/x.labels.jsonl, line 4"` or `"labels[3]"`. */
  where: string;
}

/** One answer-correctness label: one line of `data/qa-models.labels.jsonl`. */
export interface AnswerCorrectnessLabel {
  kind: "answer_correctness";
  /** Question id (numbers are read as text); undefined when the line has none. */
  id: string | undefined;
  /** The model that answered; undefined when the line has none. */
  model: string | undefined;
  user_input: string;
  response: string;
  reference: string;
  /** Statements of the response, in order, each TP or FP. */
  response_statements: ResponseStatementLabel[];
  /** Statements of the reference, in order, each covered or FN (the same list for every model of a question). */
  reference_statements: ReferenceStatementLabel[];
  origin: LabelOrigin;
}

/** One multimodal-relevance label: one line of `data/multimodal.labels.jsonl`. */
export interface MultimodalLabel {
  kind: "multimodal_relevance";
  id: string | undefined;
  model: string | undefined;
  user_input: string;
  response: string;
  /** True when the response is in line with the retrieved contexts. */
  relevant: boolean;
  reason: string;
  origin: LabelOrigin;
}

/** Either kind of hand label. */
export type HandLabel = AnswerCorrectnessLabel | MultimodalLabel;

/** Labels read and checked by `readLabels`: both kinds, in the order of their lines. */
export interface LabelSet {
  answerCorrectness: AnswerCorrectnessLabel[];
  multimodal: MultimodalLabel[];
  /** The files read (empty for labels given as objects). */
  files: string[];
}

/**
 * A label line as written in a label file (or given in code): an
 * answer-correctness line has `response_statements` and
 * `reference_statements`, a multimodal line `relevant`. `reason`s may be left
 * out; other fields are ignored.
 */
export interface LabelLine {
  id?: string | number;
  model?: string;
  user_input: string;
  response: string;
  reference?: string;
  response_statements?: readonly { statement: string; verdict: string; reason?: string }[];
  reference_statements?: readonly { statement: string; verdict: string; reason?: string }[];
  relevant?: boolean;
  reason?: string;
}

/**
 * Where labels come from: a label file (JSON Lines), several files (an array
 * of paths), label lines as objects, or a {@link LabelSet} that `readLabels`
 * returned.
 */
export type LabelSource = string | readonly string[] | readonly LabelLine[] | LabelSet;

/** One problem found in label files: where, which field, and what is wrong. */
export interface LabelProblem {
  /** `"file, line N"` or `"labels[i]"`. */
  where: string;
  /** The field, e.g. `response_statements[2].verdict`; `""` for the whole line. */
  field: string;
  message: string;
}

/** Label files that cannot be used; `problems` lists every problem found, the message the first few. */
export class LabelFileError extends Error {
  readonly problems: readonly LabelProblem[];

  constructor(problems: readonly LabelProblem[]) {
    const shown = problems.slice(0, 8).map((p) => `${p.where}${p.field ? `, field ${p.field}` : ""}: ${p.message}`);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : "";
    super(
      problems.length === 1
        ? `bad label: ${shown[0]}`
        : `${problems.length} problems in the labels:\n  ${shown.join("\n  ")}${more}`,
    );
    this.name = "LabelFileError";
    this.problems = problems;
  }
}
