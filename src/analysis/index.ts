/**
 * `evalframe/analysis`: summaries, model comparisons, run-to-run changes,
 * headlines, agreement, calibration against hand labels, and drill-down
 * tables (the statistics behind them: `evalframe/stats`).
 *
 * @example
 * import { loadDataset, scoreAnswerCorrectness, summarize, compareModels, showTable } from "evalframe";
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * showTable(summarize(scored, { by: "model" }));
 * showTable(compareModels(scored));
 */
export { summarize, DEFAULT_METRICS, SUMMARY_COLUMNS } from "./summarize";
export type { SummarizeOptions, FrameInput } from "./summarize";
export { compareModels, COMPARISON_COLUMNS, MEAN_DISAGREES } from "./compare";
export { headline } from "./headline";
export type { HeadlineOptions, RunChangeInput } from "./headline";
export type { CompareModelsOptions, ComparisonTest } from "./compare";
export { agreement } from "./agreement";
export type { AgreementInput, AgreementResult } from "./agreement";
export { calibrate } from "./calibrate";
export type { CalibrateOptions, CalibrationReport, CalibrationLabels, Unmatched, UnmatchedItem, UnmatchedList } from "./calibrate";
export { alignStatements, wordOverlap, statementWords, ALIGN_THRESHOLD } from "./align";
export { disagreements, worst } from "./drilldown";
export type { DisagreementsOptions, WorstOptions } from "./drilldown";
export { compareRuns, RUN_CHANGE_COLUMNS, ALL_MODELS, NONE_SCORED_AFTER } from "./compare-runs";
export type { CompareRunsOptions, RunComparison, AnswerChange, ScoringChange, UnscoredModel } from "./compare-runs";
/** `by` (the model column) and `pairBy` (the column that pairs answers), which the comparisons, drill-down tables and charts share. */
export type { PairOptions } from "../dataset/column-toolkit";
