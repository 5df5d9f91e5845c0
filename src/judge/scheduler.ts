/**
 * One scheduler per server a judge talks to: a concurrency limit, retries with
 * exponential backoff and full jitter for transient failures only, and pacing
 * from `Retry-After` and the `x-ratelimit-*` headers so that we slow down
 * before the server has to say 429. A rate limit is never a reason to give up
 * early: a rate-limited request waits as long as the server asks, within a
 * generous deadline, and when the server sends no `x-ratelimit-*` headers the
 * pace is learned from its 429s when they show a limit (many in a row), not
 * from a server that refuses a share of requests whatever the rate.
 */
import { retryAfterValueMs } from "../dataset/retry-after";
import { timerDelay } from "../dataset/timer-limit";

/** HTTP statuses worth another attempt: timeout, conflict, rate limit, server errors (not 501 or 505). */
export function isRetryableStatus(status: number): boolean {
  // 501 (not implemented: llama.cpp's embeddings without --embeddings) and 505 say what the server cannot do, not a passing fault.
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
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

/** A bare reset of this many seconds or more is a time, not a duration (September 2001 on; no window lasts 31 years). */
const EPOCH_SECONDS = 1e9;

/**
 * Parses the durations OpenAI puts in `x-ratelimit-reset-*`: "1s", "6m0s",
 * "20ms", "1h2m3.5s", or a bare number of seconds. Returns milliseconds from
 * `now`. A bare number too large to be a duration is read as the time of the
 * reset, as many servers write `X-RateLimit-Reset`: Unix seconds, or
 * milliseconds (a time already past is 0).
 *
 * @example
 * parseResetDuration("6m0s") // 360000
 * parseResetDuration("250ms") // 250
 * parseResetDuration("1733376060", 1733376000000) // 60000 (a Unix time a minute on)
 */
export function parseResetDuration(text: string | undefined, now: number = Date.now()): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) {
    const n = Number(t);
    if (n < EPOCH_SECONDS) return n * 1000;
    return Math.max(0, (n < EPOCH_SECONDS * 1000 ? n * 1000 : n) - now);
  }
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
 * in seconds or as an HTTP date (see {@link retryAfterValueMs}). Undefined
 * when it says nothing usable: the scheduler then backs off on its own.
 */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | undefined {
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  return retryAfterValueMs(header(headers, "retry-after"), now);
}

/**
 * A rough token count for pacing, before the server counts: a quarter of the
 * characters of the texts (message contents' text parts, or embedding
 * inputs) and 765 per image part (a 1024×1024 image at high detail).
 *
 * @example
 * estimateTokens(["twelve chars"]) // 3
 */
export function estimateTokens(items: readonly (string | { content?: unknown })[]): number {
  let chars = 0;
  let images = 0;
  for (const item of items) {
    const content = typeof item === "string" ? item : item.content;
    if (typeof content === "string") chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content as { type?: unknown; text?: unknown }[]) {
        if (typeof part?.text === "string") chars += part.text.length;
        else if (part?.type === "image_url") images += 1;
      }
    }
  }
  return Math.ceil(chars / 4) + 765 * images;
}

/** What an attempt's failure means to the scheduler. */
export interface FailureInfo {
  retryable: boolean;
  /** Wait the server asked for, if any. */
  retryAfterMs?: number | undefined;
  /**
   * Whether it was a rate limit (429, or 503 with Retry-After): then all new
   * requests wait too, the pace slows, and the attempt does not count against
   * `maxRetries` (only against `rateLimitWaitMs`).
   */
  rateLimited?: boolean;
}

/** Options of a {@link Scheduler}. */
export interface SchedulerOptions {
  /** Requests in flight at once; default 16. */
  concurrency?: number;
  /** Extra attempts for a transient failure other than a rate limit; default 6. */
  maxRetries?: number;
  /**
   * Longest time one request spends waiting on rate limits, over all its
   * 429s, before it fails; default 30 min. Rate limits are not counted in
   * `maxRetries`.
   */
  rateLimitWaitMs?: number;
  /**
   * The window the server states its limit in, for a pace learned from 429s
   * when it sends no x-ratelimit-* headers; default 60 s (limits are stated
   * per minute: RPM, TPM).
   */
  rateLimitWindowMs?: number;
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
  /**
   * Estimated tokens of the request (its prompt, or an embedding request's
   * input), for pacing under a token budget. Without it the request is
   * taken to be as large as the largest of the last few.
   */
  tokens?: number;
  /** Called before each repeated attempt. */
  onRetry?: (error: unknown, delayMs: number) => void;
}

/** How many recent requests size the token budget of a request without an estimate. */
const RECENT_REQUESTS = 32;

/** A pace is learned from at least this many successes in the window (see `slowDown`). */
const MIN_SUCCESSES_TO_LEARN = 4;

/** A learned pace starts no slower than one request a second (then slows at each further 429). */
const SLOWEST_FIRST_PACE = 1 / 1000;
/**
 * A pace is learned only when this many 429s come in a row (see
 * `limitLooksSpent`): a limit refuses every request once its budget is
 * spent, while a server that refuses a few requests whatever the rate (a
 * busy gateway) is only waited out, request by request, since slowing down
 * would not stop it.
 */
const SPENT_LIMIT_REFUSALS = 6;
/** ... or, while requests go one at a time, all but one of this many latest requests were refused. */
const SPENT_LIMIT_SPAN = 8;
/** Refusals are frequent when at least this share of the latest outcomes were 429s. */
const FREQUENT_REFUSED_SHARE = 1 / 3;
/**
 * Outcomes after a cut of the learned pace that show it held: a 429 that
 * comes sooner cuts the pace again only when refusals are frequent. At a
 * limit, a cut is followed by a run of successes (the 1% raises take 29 to
 * undo it); a refusal that comes sooner while most requests get through is
 * one that slowing down did not prevent.
 */
const CUT_HELD_OUTCOMES = 20;
/** A learned pace is cut to this share at a 429 (once for all the requests that were already under way) ... */
const PACE_CUT = 0.75;
/** ... and raised by this factor at each success, to find the limit again. */
const PACE_RAISE = 1.01;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, timerDelay(ms)));

/** A duration for messages: "90 s", "30 min", "24 h". */
function duration(ms: number): string {
  if (ms >= 7_200_000) return `${Math.round(ms / 3_600_000)} h`;
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * A request not sent because nothing got through for `rateLimitWaitMs`, every
 * answer a 429 (see `Scheduler.run`); its message says so, with the last
 * refusal's.
 */
export class RateLimitStallError extends Error {
  constructor(waitMs: number, last: unknown) {
    const said = last instanceof Error ? `; the last 429 said: ${last.message}` : "";
    super(`no request got through for ${duration(waitMs)}, every one answered 429 (rate limited)${said}; try later, or allow a longer wait (rateLimitWaitMs)`);
    this.name = "RateLimitStallError";
  }
}

/**
 * A request refused by a 429 whose `Retry-After` asks for longer than
 * `rateLimitWaitMs` (a daily or monthly limit, a blocked account): waiting
 * cannot help within the run, so it fails at once, and so does every request
 * after it until that time has passed, without being sent.
 */
export class RateLimitWaitTooLongError extends Error {
  /** The HTTP status of the refusal (429, or 503 with Retry-After). */
  readonly status: number | undefined;
  constructor(askedMs: number, waitMs: number, last: unknown) {
    const said = last instanceof Error ? `; the 429 said: ${last.message}` : "";
    super(
      `the server asks to wait ${duration(askedMs)} before the next request (Retry-After), longer than a request may wait on rate limits (${duration(waitMs)}, rateLimitWaitMs), ` +
        `so no request is sent until then${said}; try later (a daily or monthly limit?), or allow a longer wait (rateLimitWaitMs)`,
    );
    this.name = "RateLimitWaitTooLongError";
    const status = (last as { status?: unknown } | undefined)?.status;
    this.status = typeof status === "number" ? status : undefined;
  }
}

/**
 * What the scheduler believes about one server-side budget (requests or
 * tokens): `credit` left at time `at`, refilled at `rate` per ms up to `limit`.
 */
interface Budget {
  limit: number;
  /** Refill per ms; undefined until a response shows part of the budget spent. */
  rate: number | undefined;
  credit: number;
  at: number;
}

/** A request waiting for a slot, and its estimated tokens. */
interface Waiter {
  /** Starts the request, given its number in the order of starts. */
  start: (startNumber: number) => void;
  tokens: number | undefined;
}

/**
 * Runs jobs under one concurrency limit with one retry policy. A job waiting
 * for its backoff does not hold a slot. Jobs start in the order they asked.
 */
export class Scheduler {
  private readonly concurrency: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly random: () => number;
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private pausedUntil = 0;
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = 0;
  /** Average tokens of a request (prompt and completion), from the responses. */
  private tokensPerRequest = 0;
  /** Tokens of the last few requests. */
  private readonly recentTokens: number[] = [];
  private requestBudget: Budget | undefined;
  private tokenBudget: Budget | undefined;
  /** Whether requestBudget was learned from 429s (no x-ratelimit-limit-requests header seen). */
  private learnedPace = false;
  /** Requests started so far, in order: a request's number tells whether it started after a cut. */
  private started = 0;
  /** How many requests had started when the learned pace was last cut: 429s of those do not cut it again. */
  private startedAtCut = 0;
  /** End times of recent successes (the last minute), to learn a pace from. */
  private readonly successes: number[] = [];
  /** Whether each of the latest attempts (successes and 429s) was refused, oldest first. */
  private readonly outcomes: boolean[] = [];
  /**
   * After a 429 with no pace to slow: one request at a time (the probe)
   * until one gets through or the refusals show a spent limit.
   */
  private probing = false;
  /** The probe in flight, by its start number. */
  private probeNumber: number | undefined;
  /** Start numbers of the latest refused attempts, to see refusals in a row. */
  private readonly refusedStarts = new Set<number>();
  /** Outcomes recorded since the learned pace was set or last cut. */
  private outcomesSinceCut = 0;
  /** Since when every answer has been a 429 (undefined after a success), and the last of them. */
  private limitedSince: number | undefined;
  private lastLimitError: unknown;
  /** Until when the server asked for more than `rateLimitWaitMs` of waiting, and the error that says so. */
  private refusedUntil = 0;
  private refusal: RateLimitWaitTooLongError | undefined;
  private readonly rateLimitWaitMs: number;
  private readonly rateLimitWindowMs: number;

  constructor(options: SchedulerOptions = {}) {
    this.concurrency = options.concurrency ?? 16;
    this.maxRetries = options.maxRetries ?? 6;
    this.rateLimitWaitMs = options.rateLimitWaitMs ?? 30 * 60_000;
    this.rateLimitWindowMs = options.rateLimitWindowMs ?? 60_000;
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

  /**
   * Runs a job, retrying transient failures; rejects with the last error.
   * Other failures get `maxRetries` more attempts; rate limits get as many as
   * fit in `rateLimitWaitMs` of waiting.
   */
  async run<T>(job: ScheduledJob<T>): Promise<T> {
    const tokens = job.tokens !== undefined && Number.isFinite(job.tokens) && job.tokens > 0 ? job.tokens : undefined;
    let failures = 0;
    let waitedOnLimits = 0;
    /** 429s of this request since its last other outcome. */
    let limitedInRow = 0;
    for (let n = 0; ; n++) {
      this.throwIfStalled();
      const startNumber = await this.acquire(tokens);
      let error: unknown;
      let succeeded = false;
      try {
        this.throwIfStalled();
        const result = await job.attempt(n);
        succeeded = true;
        this.noteOutcome(startNumber, false);
        this.limitedSince = undefined;
        return result;
      } catch (e) {
        error = e;
      } finally {
        this.settleProbe(startNumber, succeeded);
        this.release();
      }
      const info = job.classify(error);
      if (!info.retryable) throw error;
      const limited = info.rateLimited === true;
      limitedInRow = limited ? limitedInRow + 1 : 0;
      if (!limited && failures++ >= this.maxRetries) throw error;
      const backoff = this.random() * Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (limited ? Math.min(n, 6) : failures - 1));
      const asked = info.retryAfterMs === undefined ? undefined : Math.min(info.retryAfterMs, this.maxRetryAfterMs);
      const delay = Math.max(asked === undefined ? backoff : asked + this.random() * Math.min(250, asked * 0.1), this.limitedFloor(limitedInRow));
      if (limited && info.retryAfterMs !== undefined && info.retryAfterMs > this.rateLimitWaitMs) {
        // Asking again before then is refused for sure: this request and every one after it fail now.
        this.refusal = new RateLimitWaitTooLongError(info.retryAfterMs, this.rateLimitWaitMs, error);
        this.refusedUntil = Math.max(this.refusedUntil, Date.now() + info.retryAfterMs);
        throw this.refusal;
      }
      if (limited) {
        this.noteOutcome(startNumber, true);
        this.limitedSince ??= Date.now();
        this.lastLimitError = error;
        waitedOnLimits += delay;
        if (waitedOnLimits > this.rateLimitWaitMs) throw error;
        this.slowDown(startNumber, asked);
        // A limit makes every new request wait. Without a pace, until the refusals say whether a limit is
        // spent, requests go one at a time: a 429 now and then (a busy gateway) then costs one request's time.
        if (this.requestBudget || this.refusalsAreFrequent()) this.pauseFor(asked ?? backoff);
        else this.probing = true;
      }
      job.onRetry?.(error, delay);
      await sleep(delay);
    }
  }

  /**
   * The least wait before another attempt of a request refused with 429
   * `inRow` times in a row: none for the first two (the server's word is
   * taken, to the millisecond), then from half the first backoff ceiling,
   * doubling, up to `maxDelayMs`. A server that keeps saying `Retry-After: 0`
   * (or a date in the past) is otherwise asked again at once, hundreds of
   * times a second, until the rate-limit deadline.
   */
  private limitedFloor(inRow: number): number {
    if (inRow < 3) return 0;
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.min(inRow - 3, 16));
    return ceiling * (0.5 + 0.5 * this.random());
  }

  /**
   * Fails a request at once while the server's last long `Retry-After` (see
   * {@link RateLimitWaitTooLongError}) has not passed, and when nothing has got through for `rateLimitWaitMs`
   * while every answer was a 429: each request's own wait is bounded, but
   * requests that take turns would each wait it again, so a server that
   * never lets one through would hold a large run for its rows times the wait.
   */
  private throwIfStalled(): void {
    if (this.refusal !== undefined && Date.now() < this.refusedUntil) throw this.refusal;
    if (this.limitedSince === undefined || Date.now() - this.limitedSince <= this.rateLimitWaitMs) return;
    throw new RateLimitStallError(this.rateLimitWaitMs, this.lastLimitError);
  }

  /**
   * The request that was the `startNumber`-th to start was rate-limited. Unless the
   * server's x-ratelimit-* headers pace us, learn a pace, but only from a
   * limit: once {@link SPENT_LIMIT_REFUSALS} requests in a row were refused
   * (before that, a 429 is waited out by its own request, and the others go
   * one at a time until one gets through). The pace starts at the successes
   * of the last window (`rateLimitWindowMs`, a minute) spread over the
   * window, at least one request a second (no pace before
   * {@link MIN_SUCCESSES_TO_LEARN} successes in the window). A later 429 of a request started after the last cut makes it
   * a quarter slower, but never slower than one request a second or per
   * wait the server asked for, whichever is slower; and only when the last
   * cut held ({@link CUT_HELD_OUTCOMES} outcomes since) or refusals are
   * frequent: a quick 429 while most requests get through is one a slower
   * pace did not prevent. Each success raises the pace by 1% (see
   * {@link observe}), so a pace set too low finds the limit again.
   */
  private slowDown(startNumber: number, askedMs: number | undefined): void {
    const now = Date.now();
    if (this.requestBudget && !this.learnedPace) return;
    if (!this.requestBudget) {
      if (!this.limitLooksSpent(startNumber)) return;
      this.forgetOldSuccesses(now);
      const perWindow = this.successes.length;
      // Too few got through to tell a limit's pace (one success, then 429s: a burst that clears, which
      // a pace of one a second would drag out): the refused requests wait as asked, one at a time.
      if (perWindow < MIN_SUCCESSES_TO_LEARN) return;
      const rate = Math.max(perWindow / this.rateLimitWindowMs, SLOWEST_FIRST_PACE);
      this.requestBudget = { limit: Math.max(1, perWindow), rate, credit: 0, at: now };
      this.learnedPace = true;
      this.probing = false;
      this.startedAtCut = this.started;
      this.outcomesSinceCut = 0;
      return;
    }
    if (startNumber <= this.startedAtCut) return;
    if (this.outcomesSinceCut < CUT_HELD_OUTCOMES && !this.refusalsAreFrequent()) return;
    const budget = this.requestBudget;
    // Never slower than one request per wait the server asked for (it said a request would be let in by
    // then), nor held above one a second by a short wait: a limit counted to the millisecond asks for
    // only the few ms until its next request, which says nothing about how many it lets through.
    const floor = 1 / Math.max(1000, askedMs ?? 1000);
    budget.rate = Math.max(floor, (budget.rate ?? SLOWEST_FIRST_PACE) * PACE_CUT);
    budget.credit = Math.min(0, budget.credit);
    budget.at = now;
    this.startedAtCut = this.started;
    this.outcomesSinceCut = 0;
  }

  /**
   * Records whether the `startNumber`-th request was refused with a 429: in
   * the order of answers (the latest {@link outcomeSpan}) and, for a refusal,
   * by its number in the order of starts (the latest few hundred).
   */
  private noteOutcome(startNumber: number, refused: boolean): void {
    this.outcomesSinceCut++;
    this.outcomes.push(refused);
    if (this.outcomes.length > this.outcomeSpan) this.outcomes.shift();
    if (!refused) return;
    this.refusedStarts.add(startNumber);
    if (this.refusedStarts.size > 256) {
      for (const n of this.refusedStarts) if (n <= startNumber - 256) this.refusedStarts.delete(n);
    }
  }

  /** How many latest outcomes say whether refusals are frequent: two per request in flight, at least 16. */
  private get outcomeSpan(): number {
    return Math.max(16, 2 * this.concurrency);
  }

  /** Whether at least {@link FREQUENT_REFUSED_SHARE} of the latest outcomes were 429s. */
  private refusalsAreFrequent(): boolean {
    const refused = this.outcomes.reduce((n, r) => n + (r ? 1 : 0), 0);
    return refused >= FREQUENT_REFUSED_SHARE * Math.max(this.outcomes.length, this.outcomeSpan / 2);
  }

  /** How many of the requests numbered `from` to `to` (in the order of starts) were refused. */
  private refusedAmong(from: number, to: number): number {
    let refused = 0;
    for (let n = from; n <= to; n++) if (this.refusedStarts.has(n)) refused++;
    return refused;
  }

  /**
   * Whether a limit looks spent: {@link SPENT_LIMIT_REFUSALS} requests that
   * started one after another, the `startNumber`-th among them, were all
   * refused, as every request is once a budget runs out (a refused request
   * holds no slot, so the next one is tried at once); or, while requests go
   * one at a time after a 429, all but one of the latest
   * {@link SPENT_LIMIT_SPAN} (a limit at its edge lets one in now and then).
   * Refusals that come whatever the rate seldom line up so: at one in ten,
   * about one in a million; at one in five, about one in 7,000. Order of
   * start, not of answer, since a 429 comes back before the successes of
   * requests that started before it.
   */
  private limitLooksSpent(startNumber: number): boolean {
    // The run of refused requests around this one, in the order of starts.
    let first = startNumber;
    let last = startNumber;
    while (this.refusedStarts.has(first - 1)) first--;
    while (this.refusedStarts.has(last + 1)) last++;
    if (last - first + 1 >= SPENT_LIMIT_REFUSALS) return true;
    return this.probing && this.refusedAmong(startNumber - SPENT_LIMIT_SPAN + 1, startNumber) >= SPENT_LIMIT_SPAN - 1;
  }

  private forgetOldSuccesses(now: number): void {
    let old = 0;
    while (old < this.successes.length && this.successes[old]! < now - this.rateLimitWindowMs) old++;
    if (old > 0) this.successes.splice(0, old);
  }

  /**
   * Reads the rate-limit headers of a successful response and paces new
   * requests so that they fit the server's budget.
   *
   * With `x-ratelimit-limit-*`, `-remaining-*` and `-reset-*` (as OpenAI
   * sends them) the budget is taken to refill continuously, as OpenAI's does,
   * at (limit − remaining) / reset. What is left is counted down as requests
   * start (one request; a request's estimated tokens, or the average), not
   * counting on the requests still in flight, and when it runs out a request
   * starts as soon as the refill covers it (a whole request, and its tokens or
   * the largest of the last few), instead of waiting for the whole budget to
   * come back. Without a limit header, new requests are held back until the
   * reset when what is left would not cover the requests already in flight.
   */
  observe(headers: HeaderSource, tokensUsed?: number): void {
    if (tokensUsed !== undefined && tokensUsed > 0) {
      this.tokensPerRequest = this.tokensPerRequest === 0 ? tokensUsed : 0.8 * this.tokensPerRequest + 0.2 * tokensUsed;
      this.recentTokens.push(tokensUsed);
      if (this.recentTokens.length > RECENT_REQUESTS) this.recentTokens.shift();
    }
    const now = Date.now();
    this.successes.push(now);
    if (this.successes.length > 4096) this.forgetOldSuccesses(now);
    // The response being observed still holds its slot; the others may not be charged yet.
    const others = Math.max(0, this.active - 1);
    const requests = this.readBudget(headers, "requests", this.learnedPace ? undefined : this.requestBudget, others, now);
    if (requests === undefined && this.learnedPace && this.requestBudget?.rate !== undefined) {
      this.requestBudget.rate *= PACE_RAISE;
    }
    if (requests === "no limit") {
      const remaining = Number(header(headers, "x-ratelimit-remaining-requests") ?? Number.NaN);
      if (remaining <= this.active) {
        const reset = parseResetDuration(header(headers, "x-ratelimit-reset-requests"));
        if (reset !== undefined) this.pauseFor(reset);
      }
    } else if (requests !== undefined) {
      this.requestBudget = requests;
      this.learnedPace = false;
    }
    const tokens = this.readBudget(headers, "tokens", this.tokenBudget, others * this.tokensPerRequest, now);
    if (tokens === "no limit") {
      const remaining = Number(header(headers, "x-ratelimit-remaining-tokens") ?? Number.NaN);
      if (this.tokensPerRequest > 0 && remaining < this.tokensPerRequest * (this.active + 1)) {
        const reset = parseResetDuration(header(headers, "x-ratelimit-reset-tokens"));
        if (reset !== undefined) this.pauseFor(reset);
      }
    } else if (tokens !== undefined) {
      this.tokenBudget = tokens;
    }
    this.drain();
  }

  /**
   * The budget a response's headers describe: "no limit" when they give what
   * is left but no limit (then the reset rule applies), undefined when they
   * say nothing.
   */
  private readBudget(
    headers: HeaderSource,
    kind: "requests" | "tokens",
    previous: Budget | undefined,
    pending: number,
    now: number,
  ): Budget | "no limit" | undefined {
    const remaining = Number(header(headers, `x-ratelimit-remaining-${kind}`) ?? Number.NaN);
    if (!Number.isFinite(remaining)) return undefined;
    const limit = Number(header(headers, `x-ratelimit-limit-${kind}`) ?? Number.NaN);
    if (!(Number.isFinite(limit) && limit > 0)) return "no limit";
    const reset = parseResetDuration(header(headers, `x-ratelimit-reset-${kind}`));
    let rate = previous?.limit === limit ? previous.rate : undefined;
    if (reset !== undefined && reset > 0 && remaining < limit) rate = (limit - Math.max(0, remaining)) / reset;
    return { limit, rate, credit: Math.min(limit, remaining) - pending, at: now };
  }

  /** What a request needs left before it starts, and what it is counted as, per budget. */
  private costs(tokens: number | undefined): [Budget | undefined, number, number][] {
    const largest = Math.max(this.tokensPerRequest, ...this.recentTokens);
    return [
      [this.requestBudget, 1, 1],
      [this.tokenBudget, tokens ?? largest, tokens === undefined ? this.tokensPerRequest : Math.max(tokens, this.tokensPerRequest)],
    ];
  }

  /** Milliseconds until a request of `tokens` may start under the paced budgets (0: now). */
  private paceDelay(now: number, tokens: number | undefined): number {
    let wait = 0;
    for (const [budget, need] of this.costs(tokens)) {
      if (!budget || budget.rate === undefined || !(budget.rate > 0) || need <= 0) continue;
      const enough = Math.min(need, budget.limit);
      const credit = Math.min(budget.limit, budget.credit + budget.rate * (now - budget.at));
      if (credit < enough) wait = Math.max(wait, Math.ceil((enough - credit) / budget.rate));
    }
    return Math.min(wait, this.maxRetryAfterMs);
  }

  /** Counts a starting request against the paced budgets. */
  private charge(now: number, tokens: number | undefined): void {
    for (const [budget, , cost] of this.costs(tokens)) {
      if (!budget) continue;
      const refill = budget.rate === undefined ? 0 : budget.rate * (now - budget.at);
      budget.credit = Math.min(budget.limit, budget.credit + refill) - cost;
      budget.at = now;
    }
  }

  private pauseFor(ms: number): void {
    const until = Date.now() + Math.min(ms, this.maxRetryAfterMs);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.wakeUpAt(until);
  }

  /** Runs drain() at `time` (or earlier, when a wake-up is already due before it). */
  private wakeUpAt(time: number): void {
    if (this.wakeTimer && this.wakeAt <= time) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = time;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.drain();
    }, timerDelay(Math.max(1, time - Date.now())));
  }

  /** Whether a request of `tokens` may start now; arms a wake-up when only time stands in the way. */
  private canStart(now: number, tokens: number | undefined): boolean {
    if (this.active >= this.concurrency) return false;
    if (this.probing && this.probeNumber !== undefined) return false;
    if (now < this.pausedUntil) {
      this.wakeUpAt(this.pausedUntil);
      return false;
    }
    const wait = this.paceDelay(now, tokens);
    if (wait > 0) {
      this.wakeUpAt(now + wait);
      return false;
    }
    return true;
  }

  /** Waits for a slot and the pace; resolves to the request's number in the order of starts. */
  private acquire(tokens: number | undefined): Promise<number> {
    const now = Date.now();
    if (this.waiting.length === 0 && this.canStart(now, tokens)) {
      this.charge(now, tokens);
      return Promise.resolve(this.begin());
    }
    return new Promise((resolve) => this.waiting.push({ start: resolve, tokens }));
  }

  /** Counts a request in flight; returns its number in the order of starts. */
  private begin(): number {
    this.active++;
    const startNumber = ++this.started;
    if (this.probing && this.probeNumber === undefined) this.probeNumber = startNumber;
    return startNumber;
  }

  /**
   * After a probe's answer the next request may be the probe. A success ends
   * probing, unless half the requests before it were refused: a limit at its
   * edge that let one in, which all requests at once would overrun.
   */
  private settleProbe(startNumber: number, succeeded: boolean): void {
    if (startNumber !== this.probeNumber) return;
    this.probeNumber = undefined;
    if (succeeded && this.refusedAmong(startNumber - SPENT_LIMIT_SPAN, startNumber - 1) < SPENT_LIMIT_SPAN / 2) this.probing = false;
  }

  private release(): void {
    this.active--;
    this.drain();
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const now = Date.now();
      const next = this.waiting[0]!;
      if (!this.canStart(now, next.tokens)) return;
      this.charge(now, next.tokens);
      this.waiting.shift();
      next.start(this.begin());
    }
  }
}
