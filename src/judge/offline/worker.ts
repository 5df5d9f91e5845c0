/**
 * A worker thread of the offline judge: answers tasks posted by
 * {@link OfflineWorkers} with {@link answerTask}.
 */
import { parentPort } from "node:worker_threads";
import type { JudgeTask } from "../types";
import { answerTask } from "./answer";

/** A task posted to a worker. */
export interface WorkerRequest {
  id: number;
  task: JudgeTask;
}

/** A worker's answer: the value as JSON text (cheaper to pass than an object), or the message of the error it threw. */
export type WorkerReply = { id: number; json: string } | { id: number; error: string };

parentPort?.on("message", (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: request.id, json: JSON.stringify(answerTask(request.task)) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
