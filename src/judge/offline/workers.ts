/**
 * Worker threads for the offline judge on large runs. Answers are a pure
 * function of the task, so a worker gives the same answer as the main
 * thread; tasks of one question go to one worker, where its reference's
 * sentences are already read. Workers do not keep the process alive while
 * idle.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { JudgeError, type JudgeTask } from "../types";
import { answerTask } from "./answer";
import { fnv1a32 } from "./embed";
import type { WorkerReply, WorkerRequest } from "./worker";

interface Waiting {
  task: JudgeTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  worker: number;
}

/** A fixed set of worker threads answering offline-judge tasks. */
export class OfflineWorkers {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  /** Workers that failed: their questions are answered in the main thread from then on. */
  private readonly dead: boolean[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  constructor(count: number) {
    // The worker is this folder's worker module: compiled JavaScript in dist/; from the TypeScript
    // sources (tests, scripts run with tsx) it is loaded through tsx, which a worker does not inherit.
    const file = path.join(__dirname, `worker${path.extname(__filename)}`);
    const typescript = file.endsWith(".ts");
    for (let i = 0; i < count; i++) {
      const worker = typescript
        ? new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(file)});`, { eval: true })
        : new Worker(file);
      worker.unref();
      worker.on("message", (reply: WorkerReply) => this.settle(i, reply));
      worker.on("error", () => this.failAll(i));
      worker.on("exit", () => this.failAll(i));
      this.workers.push(worker);
      this.busy.push(0);
      this.dead.push(false);
    }
  }

  /** Answers a task in the worker that owns its question. */
  run(task: JudgeTask): Promise<unknown> {
    const question = "question" in task ? task.question : "";
    const index = fnv1a32(question) % this.workers.length;
    if (this.dead[index]) return Promise.resolve().then(() => answerTask(task));
    const worker = this.workers[index]!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { task, resolve, reject, worker: index });
      if (this.busy[index]!++ === 0) worker.ref();
      worker.postMessage({ id, task } satisfies WorkerRequest);
    });
  }

  private release(index: number): void {
    if (--this.busy[index]! === 0) this.workers[index]!.unref();
  }

  private settle(index: number, reply: WorkerReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    this.release(index);
    if ("error" in reply) waiting.reject(new JudgeError(reply.error));
    else waiting.resolve(JSON.parse(reply.json) as unknown);
  }

  /** A worker failed: what it was answering is answered in the main thread, and so is all it would have answered. */
  private failAll(index: number): void {
    if (this.dead[index]) return;
    this.dead[index] = true;
    for (const [id, waiting] of this.waiting) {
      if (waiting.worker !== index) continue;
      this.waiting.delete(id);
      this.release(index);
      try {
        waiting.resolve(answerTask(waiting.task));
      } catch (failure) {
        waiting.reject(failure instanceof Error ? failure : new JudgeError(String(failure)));
      }
    }
  }
}
