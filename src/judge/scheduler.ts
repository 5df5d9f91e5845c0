/**
 * One scheduler per judge: a global concurrency limit, retries with
 * exponential backoff and full jitter for transient failures only, and pacing
 * from `Retry-After` and the `x-ratelimit-*` headers so that we slow down
 * before the server has to say 429.
 */

/** HTTP statuses worth another attempt: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Header lookup that works for fetch `Headers` and plain objects. */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | undefined>> | undefined;

/** Reads one header, case-insensitively. */
export function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/**
 * Parses the durations OpenAI puts in `x-ratelimit-reset-*`: "1s", "6m0s",
 * "20ms", "1h2m3.5s", or a bare number of seconds. Returns milliseconds.
 *
 * @example
 * parseResetDuration("6m0s") // 360000
 * parseResetDuration("250ms") // 250
 */
export function parseResetDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let matched = "";
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    const n = Number(m[1]);
    total += m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : m[2] === "m" ? n * 60_000 : n * 3_600_000;
    matched += m[0];
  }
  return matched === t && matched !== "" ? total : undefined;
}

/**
 * How long the server asks us to wait: `retry-after-ms`, else `retry-after`
 * in seconds or as an HTTP date. Undefined when it says nothing usable.
 */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const after = header(headers, "retry-after");
  if (after === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What an attempt's failure means to the scheduler. */
export interface FailureInfo {
  retryable: boolean;
  /** Wait the server asked for, if any. */
  retryAfterMs?: number | undefined;
  /** Whether it was a rate limit (429): then all new requests wait too. */
  rateLimited?: boolean;
}

/** Options of a {@link Scheduler}. */
export interface SchedulerOptions {
  /** Requests in flight at once; default 16. */
  concurrency?: number;
  /** Extra attempts for a transient failure; default 6. */
  maxRetries?: number;
  /** First backoff ceiling; default 500 ms, doubling per attempt. */
  baseDelayMs?: number;
  /** Largest backoff; default 30 s. */
  maxDelayMs?: number;
  /** Longest wait we accept from Retry-After; default 120 s. */
  maxRetryAfterMs?: number;
  /** Random source for jitter (tests make it fixed). */
  random?: () => number;
}

/** One request to run: `attempt` does the work; `classify` says whether a failure is worth another try. */
export interface ScheduledJob<T> {
  attempt: (n: number) => Promise<T>;
  classify: (error: unknown) => FailureInfo;
  /** Called before each repeated attempt. */
  onRetry?: (error: unknown, delayMs: number) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs jobs under one concurrency limit with one retry policy. A job waiting
 * for its backoff does not hold a slot.
 */
export class Scheduler {
  private readonly concurrency: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private pauseTimer: NodeJS.Timeout | undefined;
  private tokensPerRequest = 0;

  constructor(options: SchedulerOptions = {}) {
    this.concurrency = options.concurrency ?? 16;
    this.maxRetries = options.maxRetries ?? 6;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
    this.random = options.random ?? Math.random;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${options.concurrency}`);
    }
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new RangeError(`maxRetries must be a whole number of at least 0, got ${options.maxRetries}`);
    }
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Runs a job, retrying transient failures; rejects with the last error. */
  async run<T>(job: ScheduledJob<T>): Promise<T> {
    for (let n = 0; ; n++) {
      await this.acquire();
      let error: unknown;
      try {
        return await job.attempt(n);
      } catch (e) {
        error = e;
      } finally {
        this.release();
      }
      const info = job.classify(error);
      if (!info.retryable || n >= this.maxRetries) throw error;
      const backoff = this.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** n);
      const asked = info.retryAfterMs === undefined ? undefined : Math.min(info.retryAfterMs, this.maxRetryAfterMs);
      const delay = asked === undefined ? backoff : asked + this.random() * Math.min(250, asked * 0.1);
      if (info.rateLimited) this.pauseFor(asked ?? backoff);
      job.onRetry?.(error, delay);
      await sleep(delay);
    }
  }

  /**
   * Reads the rate-limit headers of a successful response and holds new
   * requests back until the window resets when the budget left would not
   * cover the requests already in flight.
   */
  observe(headers: HeaderSource, tokensUsed?: number): void {
    if (tokensUsed !== undefined && tokensUsed > 0) {
      this.tokensPerRequest = this.tokensPerRequest === 0 ? tokensUsed : 0.8 * this.tokensPerRequest + 0.2 * tokensUsed;
    }
    const remainingRequests = Number(header(headers, "x-ratelimit-remaining-requests") ?? Number.NaN);
    if (remainingRequests <= this.active) {
      const reset = parseResetDuration(header(headers, "x-ratelimit-reset-requests"));
      if (reset !== undefined) this.pauseFor(reset);
    }
    const remainingTokens = Number(header(headers, "x-ratelimit-remaining-tokens") ?? Number.NaN);
    if (this.tokensPerRequest > 0 && remainingTokens < this.tokensPerRequest * (this.active + 1)) {
      const reset = parseResetDuration(header(headers, "x-ratelimit-reset-tokens"));
      if (reset !== undefined) this.pauseFor(reset);
    }
  }

  private pauseFor(ms: number): void {
    const until = Date.now() + Math.min(ms, this.maxRetryAfterMs);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.armResumeTimer();
  }

  private armResumeTimer(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = undefined;
      if (Date.now() < this.pausedUntil) this.armResumeTimer();
      else this.drain();
    }, Math.max(1, this.pausedUntil - Date.now()));
  }

  private canStart(): boolean {
    return this.active < this.concurrency && Date.now() >= this.pausedUntil;
  }

  private acquire(): Promise<void> {
    if (this.waiting.length === 0 && this.canStart()) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    this.active--;
    this.drain();
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.canStart()) {
      this.active++;
      this.waiting.shift()!();
    }
  }
}
