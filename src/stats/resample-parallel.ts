/**
 * Large bootstraps on every core. The replicates are cut into chunks that
 * the calling thread and a few worker threads claim from shared memory;
 * since every chunk starts at its own known point of the seeded stream
 * (resample-kernel.ts), the means are the ones a single pass gives, bit for
 * bit, whoever computes which chunk. The call stays synchronous: the caller
 * computes chunks too, then waits for the rest. A worker that is slow to
 * start, or never does, costs nothing but its share: the caller takes the
 * chunks nobody has claimed, and recomputes any a worker claimed but has not
 * finished in good time.
 */
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { claimChunks, resampleChunk, resampleMeansInto, stateAfter, type SharedResample } from "./resample-kernel";

/** Below this many draws (about 0.1 s on one core) a bootstrap runs in the calling thread alone. */
export const PARALLEL_MIN_DRAWS = 16_000_000;

/** Chunks per thread: small enough that a late thread holds up little, large enough to cost nothing to claim. */
const CHUNKS_PER_THREAD = 8;

/** Worker threads at most, besides the caller's. */
const MAX_WORKERS = 3;

/** The pool, once asked for: its workers, or null where threads are not available. */
let pool: Worker[] | null | undefined;

/** What the parallel path has done in this process (for tests and benchmarks). */
export const resampleActivity = { parallelRuns: 0, chunks: 0, chunksByCaller: 0, chunksRecomputed: 0 };

function workers(): Worker[] | null {
  if (pool !== undefined) return pool;
  const count = Math.min(MAX_WORKERS, availableParallelism() - 1);
  if (count < 1 || typeof SharedArrayBuffer !== "function") return (pool = null);
  // Compiled JavaScript in dist/; from the TypeScript sources (tests, tsx) loaded through tsx, which a worker does not inherit.
  const file = path.join(__dirname, `resample-worker${path.extname(__filename)}`);
  const started: Worker[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const worker = file.endsWith(".ts") ? new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(file)});`, { eval: true }) : new Worker(file);
      worker.unref();
      // A worker that fails leaves its chunks to the caller (see resampleMeansParallel); it is not used again.
      worker.on("error", () => drop(worker));
      worker.on("exit", () => drop(worker));
      started.push(worker);
    }
  } catch {
    for (const worker of started) void worker.terminate();
    return (pool = null);
  }
  return (pool = started);
}

function drop(worker: Worker): void {
  if (pool) pool = pool.filter((w) => w !== worker);
}

/**
 * Means of the B replicates of the bootstrap of `x` from generator state
 * `state` into `means` (the numbers of `resampleMeansInto(x, 0, B, state,
 * means)`), on several threads when the bootstrap is large. Returns the
 * state after the last draw.
 */
export function resampleMeansParallel(x: Float64Array, B: number, state: number, means: Float64Array): number {
  const n = x.length;
  const threads = n * B >= PARALLEL_MIN_DRAWS ? workers() : null;
  if (threads === null || threads.length === 0) return resampleMeansInto(x, 0, B, state, means);
  const chunks = Math.min(B, (threads.length + 1) * CHUNKS_PER_THREAD);
  const job: SharedResample = {
    x: new SharedArrayBuffer(n * 8),
    means: new SharedArrayBuffer(B * 8),
    control: new SharedArrayBuffer(4 * (2 + chunks)),
    B,
    chunkSize: Math.ceil(B / chunks),
    chunks,
    state,
  };
  // chunkSize is rounded up: the last chunks may be empty, and count as done when computed.
  new Float64Array(job.x).set(x);
  for (const worker of threads) worker.postMessage(job);
  const started = performance.now();
  const mine = claimChunks(job);
  const perChunkMs = mine > 0 ? (performance.now() - started) / mine : 50;
  waitForChunks(job, perChunkMs);
  means.set(new Float64Array(job.means));
  resampleActivity.parallelRuns++;
  resampleActivity.chunks += chunks;
  resampleActivity.chunksByCaller += mine;
  return stateAfter(state, n * B);
}

/**
 * Waits until every chunk is done; a chunk a worker still holds after many
 * times what a chunk takes the caller is computed by the caller as well
 * (the same numbers, so whichever write lands last changes nothing).
 */
function waitForChunks(job: SharedResample, perChunkMs: number): void {
  const control = new Int32Array(job.control);
  const patienceMs = Math.max(1000, 20 * perChunkMs);
  for (;;) {
    const done = Atomics.load(control, 1);
    if (done >= job.chunks) return;
    if (Atomics.wait(control, 1, done, patienceMs) === "timed-out" && Atomics.load(control, 1) === done) break;
  }
  const x = new Float64Array(job.x);
  const means = new Float64Array(job.means);
  for (let chunk = 0; chunk < job.chunks; chunk++) {
    if (Atomics.load(control, 2 + chunk) === 0) {
      resampleChunk(job, chunk, x, means, control);
      resampleActivity.chunksRecomputed++;
    }
  }
}
