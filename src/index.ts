/**
 * evalframe: judge LLM answers inside Jupyter notebooks.
 *
 * The package root holds what the README teaches: load, score, estimate,
 * analyse, chart, report, write CSV. The parts underneath are subpaths:
 * `evalframe/dataset`, `evalframe/judge`, `evalframe/metrics`,
 * `evalframe/images`, `evalframe/labels`, `evalframe/analysis`,
 * `evalframe/stats`, `evalframe/charts`, `evalframe/display`,
 * `evalframe/batch`, `evalframe/cli`.
 *
 * @example
 * import { loadDataset, scoreAnswerCorrectness, summarize, compareModels, headline, toCSV } from "evalframe";
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * console.log(headline(summarize(scored, { by: "model" }), compareModels(scored)).join("\n"));
 * await toCSV(scored, "out/scored.csv");
 */
import { installDataFrameDisplay } from "./display/frame-display";

// A DataFrame printed, or left as a notebook cell's last value, shows as a table.
installDataFrameDisplay();

// Data in and out.
// The frames every function here takes and returns. Exported so that a notebook can name them
// (`const scored: DataFrame`), and so that tslab, which type-checks each cell, can name a
// variable's inferred type when evalframe is installed from a folder (`npm install ../evalframe`
// or `npm link`: a symlink, whose danfojs-node the notebook cannot reach by itself).
export type { DataFrame } from "danfojs-node";
export { loadDataset } from "./frame/load";
export { loadTable } from "./dataset/load";
export type { DatasetSource, DatasetFormat, LoadDatasetOptions } from "./dataset/load";
export { toCSV } from "./dataset/export";
export type { CsvSource, ToCsvOptions } from "./dataset/export";
export { toDataFrame } from "./frame/dataframe";
export type { ToDataFrameOptions } from "./frame/dataframe";
export type { Records, ColumnData } from "./dataset/raw";
export type { Cell, Table, TableColumn } from "./dataset/table";

// The judge.
export { createJudge } from "./judge/create";
export type { Judge } from "./judge/judge";
export { resolveJudgeConfig, describeJudgeConfig } from "./judge/config";
export type { JudgeOptions, JudgeKind, ResolvedJudgeConfig, JudgeSettingRow } from "./judge/config";
export { formatUsage } from "./judge/usage";
export type { UsageSummary, ModelPrice } from "./judge/usage";
export { JudgeError } from "./judge/types";
export { notebookProgress, terminalProgress } from "./judge/progress";
export type { ProgressEvent, ProgressCallback, StageProgress, TerminalProgressOptions } from "./judge/progress";

// Metrics and scoring.
export { answerCorrectness } from "./metrics/answer-correctness/metric";
export type { AnswerCorrectnessLayout, AnswerCorrectnessOptions } from "./metrics/answer-correctness/metric";
export { multimodalRelevance } from "./metrics/multimodal-relevance/metric";
export type { MultimodalRelevanceOptions } from "./metrics/multimodal-relevance/metric";
export type { Metric } from "./metrics/metric";
export { score, scoreAnswerCorrectness, scoreMultimodalRelevance, scoreRun } from "./frame/score";
export type { ScoreOptions, ScoreRun } from "./frame/score";
export { estimate, formatEstimate } from "./frame/estimate";
export type { CostEstimate, EstimateOptions, StageEstimate } from "./frame/estimate";
export { statements, explanation, explain } from "./frame/statements";
export type { Explanation, ExplanationOptions } from "./frame/statements";
export { ImageLoader, classifyContext } from "./context/index";
export type { ImageLoadOptions, ImageDetailName } from "./context/index";

// Analysis.
export { summarize } from "./analysis/summarize";
export type { SummarizeOptions, FrameInput } from "./analysis/summarize";
export { compareModels } from "./analysis/compare";
export type { CompareModelsOptions } from "./analysis/compare";
export { compareRuns } from "./analysis/compare-runs";
export type { CompareRunsOptions, RunComparison, ScoringChange } from "./analysis/compare-runs";
export { headline } from "./analysis/headline";
export type { HeadlineOptions, RunChangeInput } from "./analysis/headline";
export { agreement } from "./analysis/agreement";
export type { AgreementInput, AgreementResult } from "./analysis/agreement";
export { calibrate } from "./analysis/calibrate";
export type { CalibrateOptions, CalibrationReport, CalibrationLabels, Unmatched, UnmatchedItem, UnmatchedList } from "./analysis/calibrate";
export { disagreements, worst } from "./analysis/drilldown";
export type { DisagreementsOptions, WorstOptions } from "./analysis/drilldown";
export { readLabels } from "./labels/read";
export type { LabelSource, LabelSet } from "./labels/types";
export { labelFactual } from "./metrics/answer-correctness/label-score";

// Charts.
export {
  scoreHistogram,
  scoreBox,
  meanWithCI,
  relevanceRate,
  pairedDifferences,
  winTieLoss,
  thresholdSweep,
  factualVsSemantic,
  questionHeatmap,
  verdictBars,
  changeWithCI,
  show,
  saveChart,
  toSVG,
  toPNG,
} from "./charts/index";
export type { VegaLiteSpec, ChartInput, HandWrittenSpec } from "./charts/index";

// Tables, the report.
export { showTable } from "./display/table";
export type { TableHTMLOptions } from "./display/table";
export { formatTable } from "./display/text-table";
export { frameRecords } from "./dataset/frame-like";
export { escapeHtml } from "./display/html";
export { buildReport, writeReport } from "./report/html";
export type { ReportOptions } from "./report/html";
export type { PreviousRunProblem } from "./report/changes";

// Batch API.
export { scoreBatch, exportBatchRequests, importBatchResults, batchStatus } from "./batch/run";
export type { BatchOptions } from "./batch/run";
