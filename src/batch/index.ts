/**
 * `evalframe/batch`: scoring through the OpenAI Batch API (half price), or
 * through batch files run elsewhere (vLLM's batch runner).
 *
 * @example
 * import { scoreBatch } from "evalframe/batch";
 */
export { scoreBatch, exportBatchRequests, importBatchResults, batchStatus } from "./run";
export type { BatchOptions, BatchFileLimits, SubmittedBatch, BatchState } from "./run";
export type { BatchRequestLine, BatchResultLine, BatchEndpoint } from "./lines";
