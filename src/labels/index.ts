/**
 * Hand labels (docs/labelling.md): the label file format, reading and
 * checking it, replay lookups for the labels judge, and a label's own score.
 *
 * @example
 * import { readLabels, labelFactual } from "evalframe";
 * const labels = readLabels("data/qa-models.labels.jsonl");
 * labels.answerCorrectness.map((l) => labelFactual(l));
 */
export { readLabels, isLabelSet } from "./read";
export { buildLabelIndex, LabelIndex } from "./lookup";
export type { LabelledVerdicts } from "./lookup";
export { labelCounts, labelFactual } from "./scores";
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
