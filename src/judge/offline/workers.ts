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
import type { WorkerAnswer, WorkerReply, WorkerRequest } from "./worker";

/** Tasks posted to a worker in one message. */
const BATCH_TASKS = 16;

/** How many more tasks than the least busy worker the owner of a question may have before a task goes elsewhere. */
const REBALANCE_AFTER = 32;

interface Waiting {
  task: JudgeTask;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  worker: number;
}

/**
 * Which worker a question goes to: a hash of its UTF-16 code units (FNV-1a).
 * Any stable spread will do; this one reads the text as it is, where the
 * embedding's hash encodes every non-ASCII character to UTF-8 first.
 */
function questionHash(question: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < question.length; i++) hash = Math.imul(hash ^ question.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A fixed set of worker threads answering offline-judge tasks. */
export class OfflineWorkers {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  /** Workers that failed: their questions are answered in the main thread from then on. */
  private readonly dead: boolean[] = [];
  private readonly waiting = new Map<number, Waiting>();
  /** Tasks not posted yet, per worker: they go as one message (posting each alone costs the main thread more than answering it). */
  private readonly queued: WorkerRequest[][] = [];
  private flushing = false;
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
      this.queued.push([]);
    }
  }

  /**
   * Answers a task in the worker that owns its question, or in the least busy
   * one when that worker is far behind (a table with few questions would
   * otherwise keep one worker busy and the other idle).
   */
  run(task: JudgeTask): Promise<unknown> {
    const question = "question" in task ? task.question : "";
    let index = questionHash(question) % this.workers.length;
    const least = this.leastBusy();
    if (this.busy[index]! - this.busy[least]! > REBALANCE_AFTER) index = least;
    if (this.dead[index]) return Promise.resolve().then(() => answerTask(task));
    const worker = this.workers[index]!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { task, resolve, reject, worker: index });
      if (this.busy[index]!++ === 0) worker.ref();
      this.queued[index]!.push({ id, task });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private leastBusy(): number {
    let least = 0;
    for (let i = 1; i < this.workers.length; i++) if (!this.dead[i] && (this.dead[least] || this.busy[i]! < this.busy[least]!)) least = i;
    return least;
  }

  /** Posts each worker's queued tasks as one message. */
  private flush(): void {
    this.flushing = false;
    this.queued.forEach((requests, index) => {
      if (requests.length === 0 || this.dead[index]) return;
      this.queued[index] = [];
      // In slices: a worker answers slice by slice, so the main thread gets answers (and posts new tasks) while it works.
      for (let at = 0; at < requests.length; at += BATCH_TASKS) this.workers[index]!.postMessage(requests.slice(at, at + BATCH_TASKS));
    });
  }

  private release(index: number): void {
    if (--this.busy[index]! === 0) this.workers[index]!.unref();
  }

  private settle(index: number, reply: WorkerReply): void {
    for (const answer of JSON.parse(reply.json) as WorkerAnswer[]) {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) continue;
      this.waiting.delete(answer.id);
      this.release(index);
      if ("error" in answer) waiting.reject(new JudgeError(answer.error));
      else waiting.resolve(answer.value);
    }
  }

  /** A worker failed: what it was answering is answered in the main thread, and so is all it would have answered. */
  private failAll(index: number): void {
    if (this.dead[index]) return;
    this.dead[index] = true;
    this.queued[index] = [];
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
