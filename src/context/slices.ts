/**
 * Long work on the event loop done in slices: a generator does the work and
 * yields between slices; run it at once ({@link runAtOnce}), or with the
 * event loop served between slices ({@link runInSlices}), so that other
 * rows' downloads, requests and timers keep going while a large image is
 * converted.
 */

/** Work done in slices: yields between them, returns its result. */
export type Sliced<T> = Generator<void, T, void>;

/** Runs sliced work to its end without stopping. */
export function runAtOnce<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs sliced work, letting the event loop turn (setImmediate: I/O and timers run) after each slice. */
export async function runInSlices<T>(work: Sliced<T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
