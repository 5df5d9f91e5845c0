/**
 * `evalframe/metrics`: what a metric is, the metric registry, the two metrics, their prompts'
 * versions, their arithmetic (F-beta, cosine, the blend) and the statement
 * details they keep.
 *
 * @example
 * import { fbeta, blendScores } from "evalframe/metrics";
 * fbeta(3, 1, 2); // 0.6667
 */
export { fbeta, cosineSimilarity, blendScores, assertWeights, assertBeta } from "./math";
export type { Metric, MetricColumn, MetricRunContext, EvalRow, CallTracker, PlannedCall, PlannedRequest, PlanContext } from "./metric";
export { answerCorrectness } from "./answer-correctness/metric";
export type { AnswerCorrectnessLayout, AnswerCorrectnessOptions, AnswerCorrectnessResult } from "./answer-correctness/metric";
export { FUSED_PROMPT_VERSION, FUSED_VERDICTS_ONLY_PROMPT_VERSION, REFERENCE_BATCH_PROMPT_VERSION, REFERENCES_PER_CALL } from "./answer-correctness/fused";
export { ANSWERS_BATCH_PROMPT_VERSION, ANSWERS_BATCH_VERDICTS_ONLY_PROMPT_VERSION, MAX_ANSWERS_PER_CALL, MAX_ANSWER_CHARS_PER_CALL } from "./answer-correctness/fused-batch";
export { parseDetails, DETAILS_COLUMN } from "./answer-correctness/details";
export type { AnswerCorrectnessDetails, StatementVerdict, Verdict } from "./answer-correctness/details";
export { STATEMENTS_PROMPT_VERSION, CLASSIFY_PROMPT_VERSION, CLASSIFY_VERDICTS_ONLY_PROMPT_VERSION } from "./answer-correctness/prompts";
export { labelCounts, labelFactual } from "./answer-correctness/label-score";
export { predictStatements } from "./answer-correctness/plan";
export { multimodalRelevance } from "./multimodal-relevance/metric";
export type { MultimodalRelevanceOptions, MultimodalRelevanceResult } from "./multimodal-relevance/metric";
export { RELEVANCE_PROMPT_VERSION } from "./multimodal-relevance/prompts";
export type { ImageDetail } from "./multimodal-relevance/prompts";
export { registerMetric, unregisterMetric, metricDefinition, metricDefinitions, metricNames, defaultScoreColumns, definitionOfColumn } from "./registry";
export type { MetricDefinition, MetricFlags, PreferredChart, ScoringRecord } from "./registry";
export { ANSWER_CORRECTNESS } from "./answer-correctness/definition";
export { ANSWER_CORRECTNESS_COLUMNS } from "./answer-correctness/columns";
export { MULTIMODAL_RELEVANCE } from "./multimodal-relevance/definition";
export { MULTIMODAL_RELEVANCE_COLUMNS } from "./multimodal-relevance/columns";
