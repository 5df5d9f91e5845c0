/**
 * A worker thread of the offline judge: answers the batches of tasks posted
 * by {@link OfflineWorkers} with {@link answerTask}.
 */
import { parentPort } from "node:worker_threads";
import type { JudgeTask } from "../types";
import { answerTask } from "./answer";
import { errorText } from "../../display/words";

/** A task posted to a worker. */
export interface WorkerRequest {
  id: number;
  task: JudgeTask;
}

/** A worker's answer to one task: its value, or the message of the error it threw. */
export type WorkerAnswer = { id: number; value: unknown } | { id: number; error: string };

/** A worker's answers to one batch of tasks, as JSON text (one text is cheaper to pass and read than many objects). */
export interface WorkerReply {
  json: string;
}

parentPort?.on("message", (requests: WorkerRequest[]) => {
  const answers: WorkerAnswer[] = requests.map((request) => {
    try {
      return { id: request.id, value: answerTask(request.task) };
    } catch (error) {
      return { id: request.id, error: errorText(error) };
    }
  });
  parentPort?.postMessage({ json: JSON.stringify(answers) } satisfies WorkerReply);
});
