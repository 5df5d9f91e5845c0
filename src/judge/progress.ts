/**
 * Progress of a run: a tracker that reports done/total/errors/ETA, and the
 * two ways of showing it — a terminal bar, and one line updated in place in a
 * notebook.
 */
import { tslab } from "../display/tslab";
import { duration } from "../display/words";
import { cutToWidth, displayWidth } from "../display/width";

/** Calls of one stage of a run (e.g. "extracting statements"): done and planned. */
export interface StageProgress {
  stage: string;
  done: number;
  total: number;
}

/** Where a run stands. */
export interface ProgressEvent {
  /** Rows finished (each metric's row counts once). */
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  /** Estimated time left; undefined until something is done. */
  etaMs: number | undefined;
  /** Judge calls done and planned over the whole run, when the metrics plan their calls. */
  calls?: { done: number; total: number };
  /** The same per stage, in the order the metrics do them. */
  stages?: StageProgress[];
}

/** Receives progress events. */
export type ProgressCallback = (event: ProgressEvent) => void;

/** The calls a metric plans for some rows, per stage; `after` names the stage whose replies a stage waits for. */
export interface StagePlan {
  stage: string;
  calls: number;
  after?: string;
}

interface StageState {
  done: number;
  total: number;
  after: string | undefined;
}

/**
 * Counts finished rows and judge calls, and reports at most every
 * `minIntervalMs`, and always at the end.
 *
 * The time left comes from calls when the metrics plan them (the work is
 * calls, in stages, not rows): calls left at the pace of the later half of
 * the run so far, plus the time of one call when a stage must still wait for
 * another's replies. Rows are the measure only when no calls are planned.
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
  private readonly stages = new Map<string, StageState>();
  private callsDone = 0;
  private callsPlanned = 0;
  /** Rows whose calls are in the plan (a streamed run plans chunk by chunk). */
  private rowsPlanned = 0;
  /** The shortest call seen, start to reply: what one more call takes at least. */
  private shortestCallMs = Number.POSITIVE_INFINITY;
  /** Calls done at earlier reports, for the recent pace. */
  private readonly samples: { at: number; calls: number }[] = [{ at: 0, calls: 0 }];

  constructor(
    private readonly total: number,
    private readonly callback: ProgressCallback | undefined,
    private readonly minIntervalMs = 200,
  ) {}

  /** Adds the calls planned for `rows` more rows (see {@link StagePlan}). */
  plan(stages: readonly StagePlan[], rows: number): void {
    for (const { stage, calls, after } of stages) {
      const state = this.stages.get(stage) ?? { done: 0, total: 0, after };
      state.total += calls;
      this.stages.set(stage, state);
      this.callsPlanned += calls;
    }
    this.rowsPlanned += rows;
  }

  /**
   * Counts a judge call of `stage` when `work` settles (fulfilled or not) and
   * returns `work` unchanged.
   */
  track<T>(stage: string, work: Promise<T>): Promise<T> {
    const started = Date.now();
    const settle = () => {
      this.shortestCallMs = Math.min(this.shortestCallMs, Date.now() - started);
      this.count(stage);
    };
    work.then(settle, settle);
    return work;
  }

  /** A planned call of `stage` turned out not to be needed (e.g. no statements to classify). */
  skip(stage: string): void {
    this.count(stage);
  }

  private count(stage: string): void {
    const state = this.stages.get(stage);
    if (state) state.done++;
    this.callsDone++;
    this.maybeReport();
  }

  /** One row finished; `failed` when it ended with an error. */
  step(failed = false): void {
    this.done++;
    if (failed) this.errors++;
    this.maybeReport();
  }

  private maybeReport(): void {
    const now = Date.now();
    if (this.done >= this.total || now - this.lastReport >= this.minIntervalMs) {
      this.lastReport = now;
      this.report();
    }
  }

  /** Reports the current state now (call it once at the start, so that something shows at once). */
  report(): void {
    if (!this.callback) return;
    const elapsedMs = Date.now() - this.started;
    const event: ProgressEvent = { done: this.done, total: this.total, errors: this.errors, elapsedMs, etaMs: undefined };
    if (this.callsPlanned > 0) {
      // A streamed run has planned only the chunks it has read: the rest is assumed alike.
      const scale = this.rowsPlanned > 0 && this.rowsPlanned < this.total ? this.total / this.rowsPlanned : 1;
      const totalCalls = Math.max(this.callsDone, Math.round(this.callsPlanned * scale));
      event.calls = { done: this.callsDone, total: totalCalls };
      event.stages = [...this.stages].map(([stage, s]) => ({ stage, done: s.done, total: s.total }));
      event.etaMs = this.done >= this.total ? 0 : this.callEta(elapsedMs, totalCalls - this.callsDone);
    } else if (this.done > 0) {
      event.etaMs = (elapsedMs / this.done) * (this.total - this.done);
    }
    this.callback(event);
  }

  private callEta(elapsedMs: number, callsLeft: number): number | undefined {
    if (this.callsDone === 0) return undefined;
    if (callsLeft <= 0) return 0;
    // Stages still waiting for another stage's replies: each adds at least one call's time.
    const pending = (stage: string | undefined) => {
      const s = stage === undefined ? undefined : this.stages.get(stage);
      return s !== undefined && s.done < s.total;
    };
    let depth = 1;
    for (const [stage, s] of this.stages) if (pending(stage) && pending(s.after)) depth = 2;
    const oneCall = Number.isFinite(this.shortestCallMs) ? this.shortestCallMs : 0;
    return this.msPerCall(elapsedMs) * callsLeft + oneCall * (depth - 1);
  }

  /**
   * Time per call at the recent pace: over the later half of the run so far,
   * so that a slow start (connections opening, caches warming) or a change of
   * pace (a rate limit) is forgotten; over the whole run until that half holds calls.
   */
  private msPerCall(elapsedMs: number): number {
    this.samples.push({ at: elapsedMs, calls: this.callsDone });
    const half = elapsedMs / 2;
    let k = 0;
    while (k + 1 < this.samples.length && this.samples[k + 1]!.at <= half) k++;
    // Samples older than the half are no longer needed (keep the one at the boundary).
    if (k > 0) this.samples.splice(0, k);
    const from = this.samples[0]!;
    const calls = this.callsDone - from.calls;
    return calls > 0 && elapsedMs > from.at ? (elapsedMs - from.at) / calls : elapsedMs / this.callsDone;
  }
}

/** The share of the work done, by calls when they are counted, else by rows. */
function shareDone(e: ProgressEvent): number {
  if (e.calls && e.calls.total > 0) return e.done >= e.total ? 1 : Math.min(1, e.calls.done / e.calls.total);
  return e.total > 0 ? e.done / e.total : 1;
}

/**
 * One line for a progress event: a bar, calls done of planned with the
 * stages still under way, rows, errors, time and time left.
 *
 * @example
 * formatProgress({ done: 30, total: 120, errors: 1, elapsedMs: 9000, etaMs: 27000 })
 * // "[██████░░░░░░░░░░░░░░░░░░] 30/120 rows · 1 error · 9 s · about 27 s left"
 * formatProgress({ done: 40, total: 120, errors: 0, elapsedMs: 6000, etaMs: 12000,
 *   calls: { done: 100, total: 300 }, stages: [{ stage: "extracting statements", done: 100, total: 160 }, { stage: "classifying", done: 0, total: 140 }] })
 * // "[████████░░░░░░░░░░░░░░░░] 100/300 calls (extracting statements 100/160, classifying 0/140) · 40/120 rows · 6 s · about 12 s left"
 */
export function formatProgress(e: ProgressEvent, width = 24): string {
  const filled = Math.round(shareDone(e) * width);
  const bar = `[${"█".repeat(filled)}${"░".repeat(width - filled)}]`;
  const parts: string[] = [];
  if (e.calls && e.calls.total > 0) {
    const under = (e.stages ?? []).filter((s) => s.done < s.total).map((s) => `${s.stage} ${s.done.toLocaleString("en-US")}/${s.total.toLocaleString("en-US")}`);
    const calls = `${e.calls.done.toLocaleString("en-US")}/${e.calls.total.toLocaleString("en-US")} calls`;
    parts.push(`${bar} ${calls}${under.length > 0 && e.done < e.total ? ` (${under.join(", ")})` : ""}`);
    parts.push(`${e.done.toLocaleString("en-US")}/${e.total.toLocaleString("en-US")} rows`);
  } else {
    parts.push(`${bar} ${e.done.toLocaleString("en-US")}/${e.total.toLocaleString("en-US")} rows`);
  }
  if (e.errors > 0) parts.push(`${e.errors.toLocaleString("en-US")} error${e.errors === 1 ? "" : "s"}`);
  parts.push(duration(e.elapsedMs, { wholeSeconds: true }));
  if (e.done < e.total && e.etaMs !== undefined) parts.push(`about ${duration(e.etaMs, { wholeSeconds: true })} left`);
  else if (e.done < e.total && e.calls) parts.push("waiting for the first reply");
  return parts.join(" · ");
}

/**
 * {@link formatProgress} in at most `columns` terminal columns, so that a line
 * redrawn in place never wraps: the stages under way go first, then the bar
 * narrows, then the line is cut with "…".
 *
 * @example
 * fitProgress(event, 40); // "[████░░░░░░] 1,044/5,257 calls · 500/2,…"
 */
export function fitProgress(e: ProgressEvent, columns: number): string {
  const tries = [formatProgress(e), formatProgress({ ...e, stages: [] }), formatProgress({ ...e, stages: [] }, 10)];
  const fits = tries.find((line) => displayWidth(line) <= columns);
  return fits ?? cutToWidth(tries.at(-1)!, Math.max(2, columns));
}

/** Where {@link terminalProgress} writes: a stream (`process.stderr`), or anything with its `write`, `isTTY` and `columns`. */
export interface ProgressStream {
  /** Whether it is a terminal: a bar redrawn in place; else a line at every tenth. */
  readonly isTTY?: boolean | undefined;
  /** Its width in columns (default 80). */
  readonly columns?: number | undefined;
  write(text: string): unknown;
}

/** Options of {@link terminalProgress}. */
export interface TerminalProgressOptions {
  /** The terminal type (default `TERM` of the environment): "dumb" gets no escape codes, the line is cleared with spaces. */
  term?: string | undefined;
}

/**
 * A progress bar on a terminal: redrawn in place on a TTY, fitted to its
 * width (`stream.columns`; one column is left free, so that the line never
 * wraps), with no escape codes when TERM is "dumb"; on a log (not a TTY), a
 * line at every tenth of the way.
 */
export function terminalProgress(stream: ProgressStream = process.stderr, options: TerminalProgressOptions = {}): ProgressCallback {
  let lastTenth = -1;
  let lastWidth = 0;
  const dumb = (Object.hasOwn(options, "term") ? options.term : process.env["TERM"]) === "dumb";
  return (e) => {
    if (stream.isTTY) {
      const columns = typeof stream.columns === "number" && stream.columns > 0 ? stream.columns : 80;
      const line = fitProgress(e, columns - 1);
      const width = displayWidth(line);
      // A dumb terminal knows no erase code: spaces cover what is left of the longer line before.
      const clear = dumb ? " ".repeat(Math.max(0, lastWidth - width)) : "\x1b[K";
      lastWidth = width;
      stream.write(`\r${line}${clear}${e.done >= e.total ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor(shareDone(e) * 10);
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
