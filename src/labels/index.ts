/**
 * Hand labels (docs/labelling.md): the label file format, reading and
 * checking it, and replay lookups for the labels judge (a label's own score
 * is the metric's: metrics/answer-correctness/label-score.ts).
 *
 * @example
 * import { readLabels, labelFactual } from "evalframe";
 * const labels = readLabels("data/qa-models.labels.jsonl");
 * labels.answerCorrectness.map((l) => labelFactual(l));
 */
export { readLabels, isLabelSet } from "./read";
export { buildLabelIndex, LabelIndex } from "./lookup";
export type { LabelledVerdicts } from "./lookup";
export { textKey } from "./text";
export { LabelFileError } from "./types";
export type {
  AnswerCorrectnessLabel,
  MultimodalLabel,
  HandLabel,
  LabelSet,
  LabelLine,
  LabelSource,
  LabelOrigin,
  LabelProblem,
  ResponseStatementLabel,
  ReferenceStatementLabel,
} from "./types";
