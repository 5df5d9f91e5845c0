/**
 * Progress of a run: a tracker that reports done/total/errors/ETA, and the
 * two ways of showing it — a terminal bar, and one line updated in place in a
 * notebook.
 */
import { tslab } from "../display/tslab";

/** Where a run stands. */
export interface ProgressEvent {
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  /** Estimated time left; undefined until something is done. */
  etaMs: number | undefined;
}

/** Receives progress events. */
export type ProgressCallback = (event: ProgressEvent) => void;

/**
 * Counts finished units (rows) and reports at most every `minIntervalMs`,
 * and always at the end.
 *
 * @example
 * const progress = new ProgressTracker(rows.length, (e) => console.log(`${e.done}/${e.total}`));
 * for (const row of rows) { await scoreRow(row); progress.step(); }
 */
export class ProgressTracker {
  private done = 0;
  private errors = 0;
  private lastReport = 0;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly callback: ProgressCallback | undefined,
    private readonly minIntervalMs = 200,
  ) {}

  /** One unit finished; `failed` when it ended with an error. */
  step(failed = false): void {
    this.done++;
    if (failed) this.errors++;
    const now = Date.now();
    if (this.done >= this.total || now - this.lastReport >= this.minIntervalMs) {
      this.lastReport = now;
      this.report();
    }
  }

  /** Reports the current state now. */
  report(): void {
    if (!this.callback) return;
    const elapsedMs = Date.now() - this.started;
    const etaMs = this.done > 0 ? (elapsedMs / this.done) * (this.total - this.done) : undefined;
    this.callback({ done: this.done, total: this.total, errors: this.errors, elapsedMs, etaMs });
  }
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * One line for a progress event.
 *
 * @example
 * formatProgress({ done: 30, total: 120, errors: 1, elapsedMs: 9000, etaMs: 27000 })
 * // "[██████░░░░░░░░░░░░░░░░░░] 30/120 rows · 1 error · 9 s · about 27 s left"
 */
export function formatProgress(e: ProgressEvent, width = 24): string {
  const share = e.total > 0 ? e.done / e.total : 1;
  const filled = Math.round(share * width);
  const bar = `[${"█".repeat(filled)}${"░".repeat(width - filled)}]`;
  const parts = [`${bar} ${e.done}/${e.total} rows`];
  if (e.errors > 0) parts.push(`${e.errors} error${e.errors === 1 ? "" : "s"}`);
  parts.push(seconds(e.elapsedMs));
  if (e.done < e.total && e.etaMs !== undefined) parts.push(`about ${seconds(e.etaMs)} left`);
  return parts.join(" · ");
}

/**
 * A progress bar on a terminal: redrawn in place on a TTY; on a log (not a
 * TTY), a line at every tenth of the way.
 */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): ProgressCallback {
  let lastTenth = -1;
  return (e) => {
    if (stream.isTTY) {
      stream.write(`\r${formatProgress(e)}\x1b[K${e.done >= e.total ? "\n" : ""}`);
      return;
    }
    const tenth = e.total > 0 ? Math.floor((e.done / e.total) * 10) : 10;
    if (tenth > lastTenth) {
      lastTenth = tenth;
      stream.write(`${formatProgress(e)}\n`);
    }
  };
}

/** In a tslab notebook: one output line updated in place. Undefined outside a notebook. */
export function notebookProgress(): ProgressCallback | undefined {
  const module = tslab();
  if (!module) return undefined;
  const display = module.newDisplay();
  return (e) => display.text(formatProgress(e));
}

/** The notebook line inside tslab, else the terminal bar when stderr is a TTY, else nothing. */
export function autoProgress(): ProgressCallback | undefined {
  return notebookProgress() ?? (process.stderr.isTTY ? terminalProgress() : undefined);
}
