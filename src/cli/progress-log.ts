/**
 * Progress of `evalframe score` when stderr is not a terminal (a CI log): a
 * line at every tenth of the way, as `terminalProgress` writes on a log, and
 * also a line once a minute while nothing else was written, so that a run
 * waiting on a slow server or on rate limits still shows it is alive (CI
 * services stop a job that prints nothing for some minutes, and a person
 * reading the log cannot tell waiting from hanging).
 */
import { formatProgress, terminalProgress, type ProgressCallback, type ProgressEvent, type ProgressStream } from "../judge/progress";

/** How often a line is written at the least while the run goes on, by default. */
export const LOG_PROGRESS_EVERY_MS = 60_000;

/** A timer as `setInterval` gives one (only `unref` is used, when present). */
interface Ticker {
  unref?: () => unknown;
}

/** Options of {@link logProgress}: the interval, and the clock and timer (for tests; default the real ones). */
export interface LogProgressOptions {
  /** At most this long without a line while the run goes on (default {@link LOG_PROGRESS_EVERY_MS}). */
  everyMs?: number;
  /** Milliseconds now (default `Date.now`). */
  now?: () => number;
  /** Starts the ticking (default `setInterval`). */
  every?: (tick: () => void, ms: number) => Ticker;
  /** Stops it (default `clearInterval`). */
  stop?: (ticker: Ticker) => void;
}

/** The progress callback of a logged run, and `stop` to call when the run ends (however it ends). */
export interface LogProgress {
  progress: ProgressCallback;
  stop: () => void;
}

/**
 * Progress as lines for a log, through `write` (one line each, with its line
 * break): those `terminalProgress` writes when its stream is no terminal,
 * and the last state again (its time brought up to date) whenever
 * `everyMs` passed without a line. Call `stop` when the run ends.
 *
 * @example
 * const log = logProgress((line) => io.err(line));
 * try { await scoreFileInChunks({ ..., progress: log.progress }); } finally { log.stop(); }
 */
export function logProgress(write: (line: string) => void, options: LogProgressOptions = {}): LogProgress {
  const everyMs = options.everyMs ?? LOG_PROGRESS_EVERY_MS;
  const now = options.now ?? Date.now;
  let lastLineAt = now();
  let last: { event: ProgressEvent; at: number } | undefined;
  let finished = false;
  const stream: ProgressStream = {
    isTTY: false,
    write: (text: string) => {
      lastLineAt = now();
      write(text);
    },
  };
  const tenths = terminalProgress(stream);
  const ticker = (options.every ?? ((tick, ms) => setInterval(tick, ms)))(() => {
    const t = now();
    if (finished || last === undefined || t - lastLineAt < everyMs) return;
    const waited = t - last.at;
    const e = last.event;
    stream.write(`${formatProgress({ ...e, elapsedMs: e.elapsedMs + waited, etaMs: e.etaMs === undefined ? undefined : Math.max(0, e.etaMs - waited) })}\n`);
  }, Math.max(1, Math.min(everyMs, 10_000)));
  ticker.unref?.();
  const stop = () => {
    if (finished) return;
    finished = true;
    (options.stop ?? ((t) => clearInterval(t as ReturnType<typeof setInterval>)))(ticker);
  };
  return {
    progress: (event) => {
      last = { event, at: now() };
      tenths(event);
      if (event.done >= event.total) stop();
    },
    stop,
  };
}
