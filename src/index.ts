/**
 * evalframe: judge LLM answers inside Jupyter notebooks.
 *
 * @example
 * import { loadDataset, toCSV } from "evalframe";
 * const df = await loadDataset("data/qa-models.csv");
 * await toCSV(df, "out/copy.csv");
 */
import { installDataFrameDisplay } from "./display/frame-display";

// A DataFrame printed, or left as a notebook cell's last value, shows as a table.
installDataFrameDisplay();

export { loadDataset } from "./frame/load";
export { checkDataset, loadTable, rowLabel } from "./dataset/load";
export type { DatasetSource, DatasetFormat, LoadDatasetOptions, CheckedDataset } from "./dataset/load";
export { toCSV, formatCsv } from "./dataset/export";
export type { CsvSource, ToCsvOptions } from "./dataset/export";
export { parseCsv, escapeFormula, unescapeFormula, MalformedFileError } from "./dataset/csv";
export type { CsvRecord, ParseCsvOptions, CsvWriteOptions } from "./dataset/csv";
export { parseJsonl } from "./dataset/jsonl";
export {
  CANONICAL_COLUMNS,
  COLUMN_ALIASES,
  KNOWN_COLUMN_TYPES,
  INPUT_ERROR_COLUMN,
  canonicalName,
} from "./dataset/columns";
export type { CanonicalColumn, ColumnType } from "./dataset/columns";
export { MissingColumnError, parseContexts } from "./dataset/validate";
export { toDataFrame, isDataFrame } from "./frame/dataframe";
export type { ToDataFrameOptions } from "./frame/dataframe";
export type { Records, ColumnData } from "./dataset/raw";
export type { Cell, Table, TableColumn } from "./dataset/table";
export { createJudge } from "./judge/create";
export type { Judge } from "./judge/judge";
export { resolveJudgeConfig, redactSecrets, DEFAULT_MODELS, JUDGE_ENV_VARS, describeJudgeConfig, maskSecret } from "./judge/config";
export type {
  JudgeOptions,
  JudgeKind,
  ResolvedJudgeConfig,
  EnvironmentVariables,
  JudgeSettingName,
  JudgeEnvVar,
  JudgeSettingSource,
  JudgeSettingRow,
} from "./judge/config";
export { UsageRecorder, formatUsage, DEFAULT_PRICES, priceOf } from "./judge/usage";
export type { UsageSummary, ModelPrice, ModelUsage } from "./judge/usage";
export { Scheduler, parseResetDuration, retryAfterMs, isRetryableStatus } from "./judge/scheduler";
export type { SchedulerOptions, ScheduledJob, FailureInfo } from "./judge/scheduler";
export { cacheKey, stableJson, DiskCache } from "./judge/cache";
export { OfflineJudge, OFFLINE_LABEL } from "./judge/offline-judge";
export type { OfflineJudgeOptions } from "./judge/offline-judge";
export { OpenAIJudge } from "./judge/openai-judge";
export { LabelsJudge, LABELS_JUDGE_LABEL } from "./judge/labels-judge";
export type { LabelsJudgeOptions } from "./judge/labels-judge";
export * from "./labels/index";
export { labelCounts, labelFactual } from "./metrics/answer-correctness/label-score";
export { JudgeError } from "./judge/types";
export type {
  ChatMessage,
  ChatRole,
  ChatContentPart,
  JudgeTask,
  StructuredRequest,
  ReplySchema,
  SchemaCheck,
  StatementsReply,
  ClassificationReply,
  ResponseVerdict,
  ReferenceVerdict,
  RelevanceReply,
  RelevanceContext,
} from "./judge/types";
export { ProgressTracker, formatProgress, terminalProgress, notebookProgress, autoProgress } from "./judge/progress";
export type { ProgressEvent, ProgressCallback, StageProgress, StagePlan } from "./judge/progress";
export { tokenCounter, encodingForModel } from "./judge/tokens";
export type { TokenCounter, EncodingName } from "./judge/tokens";
export { inNotebook } from "./display/tslab";
export { installDataFrameDisplay } from "./display/frame-display";
export { formatTable } from "./display/text-table";
export type { TextTableOptions } from "./display/text-table";
export type { NotebookDisplay } from "./display/tslab";
export { fbeta, cosineSimilarity, blendScores, assertWeights, assertBeta } from "./metrics/math";
export type { Metric, MetricColumn, MetricRunContext, EvalRow, CallTracker, PlannedCall, PlannedRequest, PlanContext } from "./metrics/metric";
export { answerCorrectness } from "./metrics/answer-correctness/metric";
export type { AnswerCorrectnessOptions, AnswerCorrectnessResult, Embedder } from "./metrics/answer-correctness/metric";
export { parseDetails, DETAILS_COLUMN } from "./metrics/answer-correctness/details";
export type { AnswerCorrectnessDetails, StatementVerdict, Verdict } from "./metrics/answer-correctness/details";
export { STATEMENTS_PROMPT_VERSION, CLASSIFY_PROMPT_VERSION } from "./metrics/answer-correctness/prompts";
export { score, scoreAnswerCorrectness, scoreRun } from "./frame/score";
export type { ScoreOptions, ScoreRun } from "./frame/score";
export { estimate, formatEstimate } from "./frame/estimate";
export type { CostEstimate, EstimateOptions, StageEstimate } from "./frame/estimate";
export { statements, explanation, explain } from "./frame/statements";
export type { Explanation } from "./frame/statements";
export { escapeHtml } from "./display/html";
export { multimodalRelevance } from "./metrics/multimodal-relevance/metric";
export type { MultimodalRelevanceOptions, MultimodalRelevanceResult } from "./metrics/multimodal-relevance/metric";
export { RELEVANCE_PROMPT_VERSION } from "./metrics/multimodal-relevance/prompts";
export type { ImageDetail } from "./metrics/multimodal-relevance/prompts";
export { scoreMultimodalRelevance } from "./frame/score";
export { classifyContext, IMAGE_EXTENSIONS } from "./context/items";
export type { ContextItem } from "./context/items";
export { ImageLoader, DEFAULT_MAX_IMAGE_BYTES, DEFAULT_DOWNLOAD_TIMEOUT_MS } from "./context/loader";
export type { ImageLoadOptions, LoadedImage } from "./context/loader";
export { ImageRefusedError } from "./context/download";
export type { ResolvedAddress } from "./context/download";
export { refusedAddressReason } from "./context/address";
export { sniffImageType } from "./context/image-type";
export type { ImageType } from "./context/image-type";
export { bmpToPng } from "./context/bmp";
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
  toSVG,
  toPNG,
  saveChart,
  compileChart,
  show,
  VEGA_LITE_MIME,
  modelColor,
  setModelColors,
  VEGA_LITE_SCHEMA,
  MAX_INLINE_ROWS,
} from "./charts/index";
export type {
  HistogramOptions,
  BoxOptions,
  MeanChartOptions,
  PairedDifferencesOptions,
  WinTieLossOptions,
  ThresholdSweepOptions,
  HeatmapOptions,
  PngOptions,
  CompiledChart,
  ShowOptions,
  VegaLiteSpec,
  ChartInput,
} from "./charts/index";
export * from "./analysis/index";
export { compareRuns, RUN_CHANGE_COLUMNS, ALL_MODELS } from "./analysis/compare-runs";
export type { CompareRunsOptions, RunComparison, AnswerChange } from "./analysis/compare-runs";
export { changeWithCI } from "./charts/runs";
export type { ChangeChartOptions } from "./charts/runs";
export { scoreBatch, exportBatchRequests, importBatchResults, batchStatus } from "./batch/run";
export type { BatchOptions, SubmittedBatch, BatchState } from "./batch/run";
export type { BatchRequestLine, BatchResultLine, BatchEndpoint } from "./batch/lines";
export { BATCH_DISCOUNT } from "./judge/usage";
export { buildReport, writeReport } from "./report/html";
export type { ReportOptions } from "./report/html";
export { frameRecords } from "./cli/table";
export { runCli } from "./cli/main";
export type { CliIO } from "./cli/main";
