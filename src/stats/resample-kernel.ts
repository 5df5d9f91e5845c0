/**
 * The bootstrap's inner loop: means of resamples drawn with mulberry32, any
 * range of replicates at a time. Alone in its module so that a resampling
 * worker thread (resample-worker.ts) loads nothing else.
 */

/** What mulberry32 adds to its state per draw (random.ts). */
const STEP = 0x6d2b79f5;

/**
 * The generator state after `draws` more draws from `state`. mulberry32's
 * state only ever grows by a constant, so a stream can be entered at any
 * draw: the replicates of one bootstrap can be computed apart, in any order,
 * and give the numbers one pass gives.
 *
 * @example
 * stateAfter(s, 0) === (s | 0); // true
 */
export function stateAfter(state: number, draws: number): number {
  // Math.imul takes both factors modulo 2^32, exactly for whole numbers below 2^53.
  return (state + Math.imul(draws % 4294967296, STEP)) | 0;
}

/**
 * Means of replicates `from` to `to` − 1 of the bootstrap of `x` into
 * `means[from…to)`, from the generator state at replicate `from`. Each
 * replicate draws x.length indices ⌊u·n⌋ from mulberry32 inlined (the
 * stream of `mulberry32(state)`), unrolled by two with two accumulators
 * (about twice as fast), nothing allocated. Returns the state after the last
 * draw.
 */
export function resampleMeansInto(x: Float64Array, from: number, to: number, state: number, means: Float64Array): number {
  const n = x.length;
  const scale = n / 4294967296; // u·n = (32-bit draw)·n/2^32, exactly as ⌊mulberry32()·n⌋
  const even = n - (n % 2);
  let s = state | 0;
  for (let b = from; b < to; b++) {
    let sum0 = 0;
    let sum1 = 0;
    let i = 0;
    let t = 0;
    for (; i < even; i += 2) {
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum0 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum1 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
    }
    if (i < n) {
      s = (s + 0x6d2b79f5) | 0;
      t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      sum0 += x[(((t ^ (t >>> 14)) >>> 0) * scale) | 0]!;
    }
    means[b] = (sum0 + sum1) / n;
  }
  return s;
}

/**
 * One bootstrap shared between threads: the data, the means being filled
 * and the chunk bookkeeping, all in shared memory. `control[0]` is the next
 * chunk to claim, `control[1]` the chunks done, `control[2 + c]` 1 once
 * chunk c is done.
 */
export interface SharedResample {
  x: SharedArrayBuffer;
  means: SharedArrayBuffer;
  control: SharedArrayBuffer;
  /** Replicates. */
  B: number;
  /** Replicates per chunk (the last may have fewer). */
  chunkSize: number;
  chunks: number;
  /** Generator state at replicate 0. */
  state: number;
}

/** Computes one chunk of a shared bootstrap and marks it done. */
export function resampleChunk(job: SharedResample, chunk: number, x: Float64Array, means: Float64Array, control: Int32Array): void {
  const from = chunk * job.chunkSize;
  const to = Math.min(job.B, from + job.chunkSize);
  resampleMeansInto(x, from, to, stateAfter(job.state, from * x.length), means);
  if (Atomics.exchange(control, 2 + chunk, 1) === 0) Atomics.add(control, 1, 1);
  Atomics.notify(control, 1);
}

/** Claims and computes chunks of a shared bootstrap until none is left; returns how many it computed. */
export function claimChunks(job: SharedResample): number {
  const x = new Float64Array(job.x);
  const means = new Float64Array(job.means);
  const control = new Int32Array(job.control);
  let done = 0;
  for (;;) {
    const chunk = Atomics.add(control, 0, 1);
    if (chunk >= job.chunks) return done;
    resampleChunk(job, chunk, x, means, control);
    done++;
  }
}
