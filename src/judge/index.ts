/**
 * `evalframe/judge`: the judges and their parts — the OpenAI-compatible,
 * offline and labels judges, the scheduler, the cache, usage and prices,
 * progress, token counting, and the request types a metric builds.
 *
 * @example
 * import { OfflineJudge, tokenCounter } from "evalframe/judge";
 */
export { createJudge } from "./create";
export type { Judge, Embedder } from "./judge";
export { resolveJudgeConfig, redactSecrets, DEFAULT_MODELS, JUDGE_ENV_VARS, describeJudgeConfig, maskSecret, shownBaseURL } from "./config";
export type {
  JudgeOptions,
  JudgeKind,
  ResolvedJudgeConfig,
  EnvironmentVariables,
  JudgeSettingName,
  JudgeEnvVar,
  JudgeSettingSource,
  JudgeSettingRow,
} from "./config";
export { UsageRecorder, formatUsage, DEFAULT_PRICES, priceOf, BATCH_DISCOUNT } from "./usage";
export type { UsageSummary, ModelPrice, ModelUsage } from "./usage";
export { Scheduler, parseResetDuration, retryAfterMs, isRetryableStatus } from "./scheduler";
export type { SchedulerOptions, ScheduledJob, FailureInfo, HeaderSource } from "./scheduler";
export { cacheKey, stableJson, DiskCache } from "./cache";
export type { ReplyCache } from "./cache";
export { OfflineJudge, OFFLINE_LABEL, OFFLINE_RULES_VERSION } from "./offline-judge";
export type { OfflineJudgeOptions } from "./offline-judge";
export { OpenAIJudge } from "./openai-judge";
export type { StructuredMode } from "./structured";
export { LabelsJudge, LABELS_JUDGE_LABEL } from "./labels-judge";
export type { LabelsJudgeOptions } from "./labels-judge";
export { JudgeError } from "./types";
export type {
  ChatMessage,
  ChatRole,
  ChatContentPart,
  JudgeTask,
  StructuredRequest,
  ReplySchema,
  RequestPart,
  SchemaCheck,
  StatementsReply,
  ClassificationReply,
  ResponseVerdict,
  ReferenceVerdict,
  RelevanceReply,
  RelevanceContext,
} from "./types";
export { ProgressTracker, formatProgress, terminalProgress, notebookProgress, autoProgress } from "./progress";
export type { ProgressEvent, ProgressCallback, ProgressStream, StageProgress, StagePlan, TerminalProgressOptions } from "./progress";
export { tokenCounter, encodingForModel } from "./tokens";
export type { TokenCounter, EncodingName } from "./tokens";
