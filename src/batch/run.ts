/**
 * Batch mode: score a table through the OpenAI Batch API (half the price, no
 * per-minute limits). Each stage runs the metrics against the cache through a
 * collecting judge, sends what is missing as batch JSONL (Files API, then
 * Batches API), polls, and reads the output and error files back into the
 * same cache the interactive path uses; the next stage sees those replies and
 * asks its own questions (answer correctness needs two: statements, then
 * classification; embeddings ride along with the first). When nothing is
 * missing, the last pass is the result.
 *
 * The batch ids live in the batch folder, so a process stopped while a batch
 * runs picks it up again instead of submitting twice.
 */
import { createHash, randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import * as path from "node:path";
import { processAlive, tempFileDone, tempFileStarted, writeFileAtomic } from "../dataset/atomic-write";
import type { DataFrame } from "danfojs-node";
import { toFile } from "openai";
import type { DatasetSource } from "../dataset/load";
import { metricJudgeLabel, newRunUsage, score, setScoreRun, type ScoreOptions } from "../frame/score";
import type { JudgeOptions } from "../judge/config";
import { createJudge } from "../judge/create";
import type { Judge } from "../judge/judge";
import { OpenAIJudge, vectorsInOrder } from "../judge/openai-judge";
import { formatUsage, type UsageRecorder } from "../judge/usage";
import type { Metric } from "../metrics/metric";
import { CollectingJudge } from "./collector";
import { embeddingLines, parseRequestLines, parseResultLines, requestLines, type BatchEndpoint, type BatchRequestLine, type BatchResultLine } from "./lines";
import { errorText } from "../display/words";
import { timerDelay } from "../dataset/timer-limit";

/** What the Batches API says about a batch, as far as we use it. */
interface BatchObject {
  id: string;
  status: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  request_counts?: { total: number; completed: number; failed: number } | null;
  /** Why a batch failed validation (status "failed"). */
  errors?: { data?: { code?: string | null; message?: string | null; line?: number | null }[] | null } | null;
}

/** The calls of the `openai` SDK that batch mode uses. */
interface BatchApi {
  files: {
    create(body: { file: unknown; purpose: "batch" }): Promise<{ id: string }>;
    content(id: string): Promise<{ text(): Promise<string> }>;
  };
  batches: {
    create(body: { input_file_id: string; endpoint: BatchEndpoint; completion_window: "24h" }): Promise<BatchObject>;
    retrieve(id: string): Promise<BatchObject>;
    list(query: { limit: number }): AsyncIterable<BatchObject & { input_file_id?: string; created_at?: number }>;
  };
}

/** A batch submitted by a stage, as remembered in the batch folder. */
export interface SubmittedBatch {
  stage: number;
  endpoint: BatchEndpoint;
  /** SHA-256 of the sorted custom_ids: the same pending work gives the same signature. */
  signature: string;
  /** "" while the input file is uploaded but the batch not yet created. */
  batchId: string;
  inputFileId: string;
  lines: number;
  status: string;
  applied: boolean;
  submittedAt: string;
  /**
   * Set when another batch folder that uses the same cache submitted this batch (and pays for it):
   * this folder's run waits for it and reads its results instead of submitting its lines again.
   */
  adoptedFrom?: string;
}

/** The batch folder's state file. */
export interface BatchState {
  version: 1;
  batches: SubmittedBatch[];
  /**
   * With `retryFailed: "batch"`: custom_id → the follow-up rounds a failed line has had, kept
   * while the run is unfinished so that a stopped and resumed run does not give (and pay for)
   * more rounds; cleared when the run finishes.
   */
  retries?: Record<string, number>;
  /** With `retryFailed: "batch"`: the lines this unfinished run gave up on after their follow-up batch (collector id → why); cleared when the run finishes. */
  failed?: Record<string, string>;
}

/** The limits on one batch input file, of {@link scoreBatch} and {@link exportBatchRequests}. */
export interface BatchFileLimits {
  /** Most request lines in one batch: a stage with more is sent as several batches. Default 50,000 (OpenAI's limit). */
  maxLinesPerBatch?: number;
  /** Most bytes of one batch input file: a stage with more is sent as several batches. Default 190,000,000 (OpenAI's limit is 200 MB). */
  maxBatchBytes?: number;
  /** Most texts to embed in one embeddings batch, over all its lines. Default 50,000 (OpenAI's limit). */
  maxEmbeddingInputsPerBatch?: number;
}

/** Options of {@link scoreBatch}. */
export interface BatchOptions extends BatchFileLimits {
  /** An OpenAI-compatible judge (or options for one); the offline judge has no batch API. */
  judge?: Judge | JudgeOptions;
  /** Where batch ids, stages and request files are kept; default `.evalframe-batch`. */
  batchDir?: string;
  /** Time between status polls; default 30 s. */
  pollIntervalMs?: number;
  /** The Batch API's completion window; only "24h" exists today. */
  completionWindow?: "24h";
  /** What to do with lines that failed or expired: retry them interactively (default), in a follow-up batch, or not at all. */
  retryFailed?: "interactive" | "batch" | "none";
  /** Usage recorder for the run (default a new one). */
  usage?: UsageRecorder;
  /** Status lines while waiting (default: console.error). */
  log?: (line: string) => void;
  /** Do not print the usage line at the end. */
  quiet?: boolean;
}

/** The status of an uploaded batch whose creation the server refused (a rerun creates it). */
const NOT_CREATED = "not created";

/** Status polls in a row that may fail (the server busy or unreachable) before a run stops; it resumes when run again. */
const POLL_MISSES = 10;

const TERMINAL = new Set(["completed", "failed", "expired", "cancelled"]);

function openaiJudge(judge: Judge | JudgeOptions | undefined, readsResults = false): OpenAIJudge {
  const j = judge && typeof (judge as Judge).complete === "function" ? (judge as Judge) : createJudge({ ...(judge as JudgeOptions | undefined), judge: "openai" });
  if (!(j instanceof OpenAIJudge)) {
    throw new Error("batch mode needs an OpenAI-compatible judge (the offline judge has no batch API); set OPENAI_API_KEY or OPENAI_BASE_URL");
  }
  // A batch's results go into the cache and each stage reads them back from there: with no cache,
  // every stage would find its requests still missing and submit (and pay for) them again, without end.
  if (readsResults && !j.keepsReplies) {
    throw new Error("batch mode keeps a batch's results in the reply cache and reads them back from there, so it cannot run with the cache off (cache: false, --no-cache); leave the cache on, or give it a folder (cacheDir, --cache-dir)");
  }
  return j;
}

/**
 * The batch folder's state: none yet when there is no state file. A state
 * file that cannot be read as one (cut short, edited, another tool's) is
 * refused, never taken for none: its batch ids would be lost, and the
 * batches submitted (and paid for) again.
 */
async function loadState(dir: string): Promise<BatchState> {
  const file = path.join(dir, "state.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, batches: [] };
    throw new Error(`cannot read the batch state ${file}: ${errorText(error)}`);
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    state = undefined;
  }
  const batches = (state as { batches?: unknown } | null | undefined)?.batches;
  if ((state as { version?: unknown } | null | undefined)?.version !== 1 || !Array.isArray(batches) || !batches.every(isSubmittedBatch) || !isRecordOf((state as BatchState).retries, "number") || !isRecordOf((state as BatchState).failed, "string")) {
    throw new Error(
      `the batch state ${file} is damaged (not the JSON this version writes), so the batches it records cannot be found: ` +
        `restore it from a backup, or move it away to submit the remaining work again (batches already submitted are then paid for again; the Batches API lists them)`,
    );
  }
  return state as BatchState;
}

/** Whether a value is absent, or an object whose values are all of one type. */
function isRecordOf(value: unknown, type: "number" | "string"): boolean {
  return value === undefined || (typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === type));
}

/** Whether a value has the fields of a {@link SubmittedBatch} that resuming reads. */
function isSubmittedBatch(value: unknown): value is SubmittedBatch {
  if (typeof value !== "object" || value === null) return false;
  const b = value as Record<string, unknown>;
  return typeof b["stage"] === "number" && typeof b["endpoint"] === "string" && typeof b["signature"] === "string" && typeof b["batchId"] === "string" && typeof b["inputFileId"] === "string" && typeof b["applied"] === "boolean";
}

async function saveState(dir: string, state: BatchState): Promise<void> {
  await writeFileAtomic(path.join(dir, "state.json"), `${JSON.stringify(state, null, 2)}\n`);
}

function signature(lines: readonly BatchRequestLine[]): string {
  return createHash("sha256").update(lines.map((l) => l.custom_id).sort().join("\n")).digest("hex");
}

/** Runs one collecting pass of the metrics over the table; `passUsage` counts its (cached) calls. */
async function collect(data: DatasetSource, metrics: readonly Metric[], judge: OpenAIJudge, failed: ReadonlyMap<string, string>) {
  const collector = new CollectingJudge(judge, failed);
  const passUsage = judge.newUsage();
  const scored = await score(data, metrics, { judge: collector, progress: false, quiet: true, usage: passUsage } satisfies ScoreOptions);
  await collector.settled();
  return { collector, scored, passUsage };
}

/** A result line's reply body, as far as we read it. */
interface ResultBody {
  model?: string;
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
  data?: { index: number; embedding: number[] }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
}

/**
 * Reads result lines into the cache. Returns the custom_ids that failed, with why.
 * Lines of other runs (unknown custom_ids) are ignored. `paid` are the lines whose
 * replies this run counts in its usage: by default `requests`; for a resumed batch,
 * all of its lines (a stopped run read some into the cache, but never counted them);
 * none for a batch another folder submitted (that folder's run counts them).
 */
async function applyResults(
  results: readonly BatchResultLine[],
  requests: readonly BatchRequestLine[],
  collector: CollectingJudge,
  judge: OpenAIJudge,
  usage: UsageRecorder,
  unreadable: readonly string[] = [],
  paid: readonly BatchRequestLine[] = requests,
): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  const byId = new Map(requests.map((r) => [r.custom_id, r]));
  const paidById = new Map(paid.map((r) => [r.custom_id, r]));
  const seen = new Set<string>();
  const counted = new Set<string>();
  for (const result of results) {
    const status = result.response?.status_code ?? 0;
    const ok = !result.error && status === 200 && typeof result.response?.body === "object" && result.response.body !== null;
    const body = (ok ? result.response!.body : {}) as ResultBody;
    const line = paidById.get(result.custom_id);
    // Each line's first result only, as below.
    if (line && !counted.has(result.custom_id)) {
      counted.add(result.custom_id);
      if (ok) {
        const model = String(line.body["model"] ?? body.model ?? "");
        usage.batchLine();
        judge.usage.batchLine();
        // (A count that is no count, or no sane one, is counted as 0 by the recorder.)
        for (const u of [usage, judge.usage]) {
          u.tokens(model, line.url === "/v1/embeddings" ? "embedding" : "chat", body.usage?.prompt_tokens ?? 0, body.usage?.completion_tokens ?? 0, "batch", body.usage?.prompt_tokens_details?.cached_tokens ?? 0);
        }
      }
    }
    const request = byId.get(result.custom_id);
    if (!request || seen.has(result.custom_id)) continue;
    seen.add(result.custom_id);
    if (!ok) {
      const why = result.error?.message ?? JSON.stringify(result.response?.body ?? {}).slice(0, 200);
      failures.set(result.custom_id, judge.scrub(`batch line failed (HTTP ${status || "none"}): ${why}`));
      continue;
    }
    if (request.url === "/v1/chat/completions") {
      const pending = collector.pendingChats.get(result.custom_id);
      if (!pending) continue;
      const choice = body.choices?.[0];
      const problem = await judge.acceptReply(pending.request, choice?.message?.content ?? null, choice?.finish_reason ?? null);
      if (problem !== undefined) failures.set(result.custom_id, `batch reply unusable: ${problem}`);
    } else {
      const texts = request.body["input"] as string[];
      // Each vector goes to the text its index names: one without an index, or a list that does not
      // number the texts 0…n-1 once each, would put vectors on the wrong texts, silently.
      const data: unknown[] = Array.isArray(body.data) ? body.data : [];
      const vectors = vectorsInOrder(data, texts.length);
      if (vectors === undefined) {
        failures.set(result.custom_id, `batch embeddings reply is not ${texts.length} vectors of numbers, one per text by its index (it has ${data.length} entries)`);
        continue;
      }
      await Promise.all(texts.map((t, i) => judge.acceptEmbedding(t, vectors[i]!)));
    }
  }
  for (const request of requests) {
    if (seen.has(request.custom_id)) continue;
    const why =
      unreadable.length > 0
        ? `no result for this line: the batch ended before it ran, or its result is one of the lines that could not be read (${unreadable.slice(0, 3).join("; ")}${unreadable.length > 3 ? `; ${unreadable.length - 3} more` : ""})`
        : "the batch ended (expired or cancelled) before this line ran";
    failures.set(request.custom_id, judge.scrub(why));
  }
  return failures;
}

/** Marks each failed line's requests as failed for good, by the ids the collector looks up. */
function recordFailures(failures: ReadonlyMap<string, string>, requests: readonly BatchRequestLine[], judge: OpenAIJudge, into: Map<string, string>): void {
  const byId = new Map(requests.map((r) => [r.custom_id, r]));
  for (const [id, why] of failures) {
    const request = byId.get(id);
    if (request?.url === "/v1/embeddings") {
      for (const text of request.body["input"] as string[]) into.set(CollectingJudge.embeddingId(judge.embeddingKey(text)), why);
    } else {
      into.set(id, why);
    }
  }
}

async function retryInteractively(failures: ReadonlyMap<string, string>, requests: readonly BatchRequestLine[], collector: CollectingJudge, judge: OpenAIJudge, usage: UsageRecorder, failed: Map<string, string>): Promise<void> {
  const byId = new Map(requests.map((r) => [r.custom_id, r]));
  await Promise.all(
    [...failures.keys()].map(async (id) => {
      const request = byId.get(id)!;
      try {
        if (request.url === "/v1/embeddings") await judge.embed(request.body["input"] as string[], usage);
        else await judge.complete(collector.pendingChats.get(id)!.request, usage);
      } catch (error) {
        recordFailures(new Map([[id, errorText(error)]]), requests, judge, failed);
      }
    }),
  );
}

async function waitFor(api: BatchApi, batch: SubmittedBatch, state: BatchState, dir: string, pollMs: number, log: (line: string) => void, server: string): Promise<BatchObject> {
  let last = "";
  let misses = 0;
  for (;;) {
    let current: BatchObject;
    try {
      current = await api.batches.retrieve(batch.batchId);
      misses = 0;
    } catch (error) {
      // A batch takes up to a day: a poll the server could not answer for a moment (overloaded, 5xx, 429, the
      // connection dropped) is tried again at the next interval instead of ending the run; other errors
      // (the key refused, no such batch) or many failed polls in a row end it, saying how to resume.
      const status = (error as { status?: unknown }).status;
      // A batch the server does not know: most likely submitted with another key, organisation or server than
      // this run's. Submitting its lines again would pay for them twice, so the run stops saying what to do.
      if (status === 404) {
        throw new Error(
          `batch stage ${batch.stage}: the Batches API of ${server} does not know batch ${batch.batchId} (404), submitted ${batch.submittedAt} with ${batch.lines} ${batch.endpoint} lines: ` +
            `give this run the key, organisation and server that submitted it; or, to submit its lines again (and pay for them again), move ${path.join(dir, "state.json")} away or use another batch folder`,
        );
      }
      const passing = typeof status !== "number" || status === 408 || status === 409 || status === 429 || status >= 500;
      if (passing && ++misses < POLL_MISSES) {
        log(`batch stage ${batch.stage}: could not get the status of ${batch.batchId} (${errorText(error)}); trying again (${misses} of ${POLL_MISSES - 1})`);
        await pause(pollMs);
        continue;
      }
      throw new Error(
        `batch stage ${batch.stage}: could not get the status of batch ${batch.batchId}${misses > 1 ? ` (${misses} tries)` : ""}: ${errorText(error)}; ` +
          `the batch goes on at the provider and is kept in ${dir}: run the same command again to resume it (it is not submitted again)`,
      );
    }
    const counts = current.request_counts ? ` ${current.request_counts.completed + current.request_counts.failed}/${current.request_counts.total}` : "";
    const line = `batch stage ${batch.stage} (${batch.endpoint}, ${batch.lines} lines): ${current.status}${counts}`;
    if (line !== last) log(line);
    last = line;
    if (current.status !== batch.status) {
      batch.status = current.status;
      await saveState(dir, state);
    }
    if (TERMINAL.has(current.status)) return current;
    await pause(pollMs);
  }
}

/**
 * A batch's output or error file. One the Files API no longer has (404: deleted, or past its
 * expiry) reads as empty, said in the log: its lines are then retried (or failed) as lines
 * that did not run, instead of the run failing at this batch at every try.
 */
async function fileText(api: BatchApi, id: string | null | undefined, batch: SubmittedBatch, kind: "output" | "error", log: (line: string) => void): Promise<string> {
  if (!id) return "";
  try {
    return await (await api.files.content(id)).text();
  } catch (error) {
    if ((error as { status?: unknown }).status !== 404) throw error;
    log(`batch stage ${batch.stage}: the ${kind} file ${id} of batch ${batch.batchId} is gone (404: deleted, or past its expiry); its lines are taken as not run`);
    return "";
  }
}

/** The name of a stage's request file copy in the batch folder. */
function requestFileName(stage: number, endpoint: BatchEndpoint, sig: string): string {
  return `stage-${stage}-${endpoint === "/v1/embeddings" ? "embeddings" : "chat"}-${sig.slice(0, 12)}.jsonl`;
}

/**
 * The request lines of a recorded batch, from its request file's copy in the batch folder; when
 * the copy is gone, from the one request file per stage of a folder written before request files
 * were named by their content (evalframe before 2026-12-02; a later batch of the same stage wrote
 * over it, so it is this batch's only when its lines give the batch's signature); else, when
 * `api` is given, from the batch's input file (the copy is then written again); none when
 * neither can be read.
 */
async function recordedLines(dir: string, batch: SubmittedBatch, api?: BatchApi, log?: (line: string) => void): Promise<BatchRequestLine[]> {
  const copy = path.join(dir, requestFileName(batch.stage, batch.endpoint, batch.signature));
  let text: string;
  try {
    text = await readFile(copy, "utf8");
  } catch {
    const legacy = await readFile(path.join(dir, legacyRequestFileName(batch.stage, batch.endpoint)), "utf8").catch(() => undefined);
    const legacyLines = legacy === undefined ? [] : parseRequestLines(legacy);
    if (legacyLines.length > 0 && signature(legacyLines) === batch.signature) return legacyLines;
    if (api === undefined || batch.inputFileId === "") return [];
    // The copy is gone (the folder tidied by hand): without its lines, the batch's would be submitted (and paid
    // for) again; the Files API still has its input file for as long as it keeps the batch's files.
    try {
      text = await (await api.files.content(batch.inputFileId)).text();
    } catch (error) {
      log?.(`batch stage ${batch.stage}: the request file copy of batch ${batch.batchId || "(not created)"} is gone from ${dir} and its input file ${batch.inputFileId} cannot be read (${errorText(error)}): its lines cannot be told, and those still missing are submitted again`);
      return [];
    }
    await writeFileAtomic(copy, text);
    log?.(`batch stage ${batch.stage}: the request file copy of batch ${batch.batchId || "(not created)"} was gone; read again from its input file ${batch.inputFileId}`);
  }
  return parseRequestLines(text);
}

/** The request file's name in batch folders written before {@link requestFileName} named them by their content. */
function legacyRequestFileName(stage: number, endpoint: BatchEndpoint): string {
  return `stage-${stage}-${endpoint === "/v1/embeddings" ? "embeddings" : "chat"}.jsonl`;
}

/**
 * Request lines in parts within the limits of one batch (a line over them alone), in their
 * order, each part with its JSONL text (each line serialised once, for its size and its text).
 */
function splitLines(lines: readonly BatchRequestLine[], limits: BatchLimits): { lines: BatchRequestLine[]; text: string }[] {
  const parts: { lines: BatchRequestLine[]; text: string }[] = [];
  let current: BatchRequestLine[] = [];
  let texts: string[] = [];
  let bytes = 0;
  let inputs = 0;
  for (const line of lines) {
    const json = JSON.stringify(line);
    const size = Buffer.byteLength(json) + 1;
    const embedded = line.url === "/v1/embeddings" ? (line.body["input"] as unknown[]).length : 0;
    if (current.length > 0 && (current.length >= limits.lines || bytes + size > limits.bytes || inputs + embedded > limits.embeddingInputs)) {
      parts.push({ lines: current, text: `${texts.join("\n")}\n` });
      current = [];
      texts = [];
      bytes = 0;
      inputs = 0;
    }
    current.push(line);
    texts.push(json);
    bytes += size;
    inputs += embedded;
  }
  if (current.length > 0) parts.push({ lines: current, text: `${texts.join("\n")}\n` });
  return parts;
}

/** Waits `ms` between two polls (or tries) of the Batches API. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The folder, next to the reply cache, where each batch folder that uses the cache is recorded. */
function foldersNextToCache(judge: OpenAIJudge): string | undefined {
  const cache = judge.cacheFolder;
  return cache === undefined ? undefined : path.join(path.resolve(cache), "batch-folders");
}

/**
 * Records, next to the reply cache, that the batch folder `dir` uses it: a run with another batch
 * folder and the same cache then finds this folder's batches in flight instead of submitting
 * (and paying for) their lines again. A record that cannot be written is said, never fatal.
 */
async function recordFolderNextToCache(judge: OpenAIJudge, dir: string, log: (line: string) => void): Promise<void> {
  const folders = foldersNextToCache(judge);
  if (folders === undefined) return;
  const file = path.join(folders, `${createHash("sha256").update(dir).digest("hex").slice(0, 16)}.json`);
  try {
    await mkdir(folders, { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify({ batchDir: dir })}\n`);
  } catch (error) {
    log(`batch: could not record the batch folder ${dir} next to the cache (${errorText(error)}); a run with another batch folder and the same cache will not see this one's batches in flight`);
  }
}

/** The other batch folders recorded next to the cache of `judge` (none with the cache off). */
async function otherFolders(judge: OpenAIJudge, dir: string): Promise<string[]> {
  const folders = foldersNextToCache(judge);
  if (folders === undefined) return [];
  let names: string[];
  try {
    names = (await readdir(folders)).filter((n) => n.endsWith(".json")).sort();
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    try {
      const other = (JSON.parse(await readFile(path.join(folders, name), "utf8")) as { batchDir?: unknown }).batchDir;
      if (typeof other === "string" && path.resolve(other) !== dir) found.push(path.resolve(other));
    } catch {
      // Being written, or not ours: passed over.
    }
  }
  return found;
}

/**
 * Says when a run holds another batch folder that uses the same cache: the batches that run
 * submits from now on are not seen by this one, which may then submit (and pay for) some of
 * the same lines. (Two tables scored with one cache is no mistake: it is said, not refused.)
 */
async function warnOfRunsInOtherFolders(judge: OpenAIJudge, dir: string, log: (line: string) => void): Promise<void> {
  for (const other of await otherFolders(judge, dir)) {
    const holder = await batchFolderHolder(other);
    if (holder === undefined || holder.gone) continue;
    log(
      `batch: another batch run (process ${String(holder.pid ?? "?")} on ${String(holder.host ?? "?")}, since ${String(holder.since ?? "?")}) uses the same cache with the batch folder ${other}: ` +
        `its batches submitted so far are waited for, not submitted again, but lines it submits from now on are not seen here and may be paid for twice if both runs score the same rows; ` +
        `to score the same table, give both runs one batch folder (a second run there is refused while the first runs)`,
    );
  }
}

/**
 * Takes into this folder's state the batches that other batch folders with the same cache
 * submitted and have not read back, that hold some of `pending`: they are then waited for and
 * read like this folder's own (their replies go to the shared cache), and marked `adoptedFrom`.
 * Their request files are copied here, so that a resumed run of this folder finds their lines.
 * A folder that is gone, or whose state cannot be read, is passed over (its own run says why).
 */
async function adoptOtherFoldersBatches(
  api: BatchApi,
  judge: OpenAIJudge,
  dir: string,
  state: BatchState,
  endpoint: BatchEndpoint,
  pending: readonly BatchRequestLine[],
  log: (line: string) => void,
): Promise<void> {
  const ids = new Set(pending.map((l) => l.custom_id));
  const texts = new Set(pending.flatMap((l) => (l.url === "/v1/embeddings" ? (l.body["input"] as string[]) : [])));
  const known = new Set(state.batches.map((b) => b.batchId).filter((id) => id !== ""));
  for (const other of await otherFolders(judge, dir)) {
    let theirs: BatchState;
    try {
      theirs = await loadState(other);
    } catch {
      continue;
    }
    // Only batches created (one uploaded but not created may yet be created by that folder's run, or never).
    for (const batch of theirs.batches.filter((b) => b.endpoint === endpoint && !b.applied && b.batchId !== "" && !known.has(b.batchId))) {
      const file = requestFileName(batch.stage, batch.endpoint, batch.signature);
      let text: string;
      try {
        text = await readFile(path.join(other, file), "utf8");
      } catch {
        continue;
      }
      // An embeddings line is named by its texts alone: one of another embedding model holds other vectors for them.
      const overlaps = parseRequestLines(text).some((l) =>
        l.url === "/v1/embeddings"
          ? l.body["model"] === judge.embeddingModel && (ids.has(l.custom_id) || (l.body["input"] as string[]).some((t) => texts.has(t)))
          : ids.has(l.custom_id),
      );
      if (!overlaps) continue;
      // A batch this run's server does not know (the other folder used another key, organisation or server) cannot be
      // waited for here; waiting would stop this run at it, at every try.
      // Any refusal of the request (404, or 400/401/403: another key, organisation, server or proxy) is as final as
      // not knowing it: taken over, it would stop this folder's every run. A server error may pass: waited for, it is retried.
      const refused = await api.batches.retrieve(batch.batchId).then(
        () => undefined,
        (error: unknown) => {
          const status = (error as { status?: unknown }).status;
          return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
        },
      );
      if (refused !== undefined) {
        log(`batch: batch ${batch.batchId} of the batch folder ${other} holds some of these lines, but the Batches API of ${judge.label} refuses to read it (${refused}: another key, organisation or server); they are submitted here`);
        known.add(batch.batchId);
        continue;
      }
      await writeFileAtomic(path.join(dir, file), text);
      state.batches.push({ ...batch, adoptedFrom: batch.adoptedFrom ?? other });
      known.add(batch.batchId);
      await saveState(dir, state);
    }
  }
}

/** The Batch API did not create a batch; `refused` when it said so for a limit (429: the enqueued token limit). */
class BatchNotCreated extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = "BatchNotCreated";
  }
}

/**
 * Creates a batch; refused for a limit (429: the organisation's enqueued token limit) while
 * batches this run submitted are in progress, it waits for them to make room and tries again.
 */
async function createBatchWhenRoom(
  api: BatchApi,
  batch: SubmittedBatch,
  state: BatchState,
  dir: string,
  options: BatchOptions,
  log: (line: string) => void,
  pollMs: number,
  submitted: readonly SubmittedBatch[],
): Promise<void> {
  // Once none of this run's batches is in progress, one more try: a refusal then is not for them.
  let lastTry = false;
  for (let waits = 0; ; waits++) {
    try {
      await createBatch(api, batch, state, dir, options, log);
      return;
    } catch (error) {
      if (!(error instanceof BatchNotCreated) || !error.refused || lastTry) throw error;
      const running: string[] = [];
      for (const other of submitted) {
        if (other.batchId !== "" && !TERMINAL.has((await api.batches.retrieve(other.batchId)).status)) running.push(other.batchId);
      }
      if (running.length === 0) {
        lastTry = true;
        continue;
      }
      if (waits === 0) log(`batch stage ${batch.stage}: the Batch API refused to create the batch of ${batch.lines} lines for now (429, enqueued token limit); trying again as ${running.length === 1 ? running[0] : `${running.length} batches`} of this run finish${running.length === 1 ? "es" : ""}`);
      await pause(pollMs);
    }
  }
}

/** The Batch API's limits on one batch. */
interface BatchLimits {
  lines: number;
  bytes: number;
  /** Texts to embed, over all the lines of an embeddings batch. */
  embeddingInputs: number;
}

/** The limits on one batch that options ask for (the API's by default), checked. */
function batchLimits(options: BatchFileLimits): BatchLimits {
  const limits: BatchLimits = { lines: options.maxLinesPerBatch ?? 50_000, bytes: options.maxBatchBytes ?? 190_000_000, embeddingInputs: options.maxEmbeddingInputsPerBatch ?? 50_000 };
  for (const [name, value] of [["maxLinesPerBatch", limits.lines], ["maxBatchBytes", limits.bytes], ["maxEmbeddingInputsPerBatch", limits.embeddingInputs]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1, got ${String(value)}`);
  }
  return limits;
}

/** Creates the batch of an uploaded input file and records its id. */
async function createBatch(api: BatchApi, batch: SubmittedBatch, state: BatchState, dir: string, options: BatchOptions, log: (line: string) => void): Promise<void> {
  let created: BatchObject;
  try {
    created = await api.batches.create({ input_file_id: batch.inputFileId, endpoint: batch.endpoint, completion_window: options.completionWindow ?? "24h" });
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number") {
      // The server answered no: a rerun creates it from the upload without looking for it in the list of batches.
      batch.status = NOT_CREATED;
      await saveState(dir, state);
    }
    throw new BatchNotCreated(
      `batch stage ${batch.stage}: the Batch API did not create the batch of ${batch.lines} ${batch.endpoint} lines (input file ${batch.inputFileId}, uploaded): ${errorText(error)}` +
        (status === 429
          ? "; none of this run's batches is in progress to make room: run the same command again once your other batches in progress have finished, and it creates this one from the same upload" +
              " (a batch larger than your organisation's enqueued token limit is never accepted: give fewer lines a batch, maxLinesPerBatch, --batch-max-lines)"
          : "; run the same command again: it resumes from the batch folder and creates this batch from the same upload"),
      status === 429,
    );
  }
  batch.batchId = created.id;
  batch.status = created.status;
  await saveState(dir, state);
  log(`batch stage ${batch.stage}: submitted ${created.id} with ${batch.lines} ${batch.endpoint === "/v1/embeddings" ? "embedding" : "chat"} lines`);
}

/**
 * Scores a table through the Batch API and returns the scored DataFrame,
 * equal to what the interactive `score` gives (same prompts, same cache).
 * Requests already in the cache are never sent again; a stopped process
 * resumes its batches from `batchDir`.
 *
 * @example
 * const scored = await scoreBatch(df, [answerCorrectness()], { batchDir: "out/batch", pollIntervalMs: 60_000 });
 */
export async function scoreBatch(data: DatasetSource, metrics: readonly Metric[], options: BatchOptions = {}): Promise<DataFrame> {
  const judge = openaiJudge(options.judge, true);
  const api = judge.sdk as BatchApi;
  const dir = path.resolve(options.batchDir ?? ".evalframe-batch");
  const asked = options.pollIntervalMs ?? 30_000;
  if (typeof asked !== "number" || Number.isNaN(asked) || asked < 0) throw new RangeError(`pollIntervalMs must be a number of milliseconds ≥ 0, got ${String(asked)}`);
  // Node's timers hold at most 2^31 - 1 ms: a longer wait would fire at once and poll without pause.
  const pollMs = timerDelay(asked);
  const log = options.log ?? ((line: string) => console.error(line));
  const usage = options.usage ?? newRunUsage(metrics, judge);
  const retry = options.retryFailed ?? "interactive";
  // A misspelt value would otherwise act as "batch" (a follow-up batch, paid for), whatever was meant.
  if (!["interactive", "batch", "none"].includes(retry)) throw new RangeError(`retryFailed must be "interactive", "batch" or "none", got ${JSON.stringify(retry)}`);
  const limits = batchLimits(options);
  const release = await lockBatchDir(dir);
  try {
    return await runStages(data, metrics, options, judge, api, dir, pollMs, log, usage, retry, limits);
  } finally {
    await release();
  }
}

/** The lock files of the batch folders runs of this process hold now. */
const held = new Set<string>();

/** Who holds a batch folder, as its `lock` file says (fields absent when it cannot be read). */
export interface BatchFolderHolder {
  pid?: unknown;
  host?: unknown;
  since?: unknown;
}

/**
 * The run that holds the batch folder `dir` now, as its `lock` file names it;
 * undefined when no run holds it. `gone` when the lock was left by a process
 * of this machine that no longer runs (the next run takes the folder over).
 */
export async function batchFolderHolder(dir: string): Promise<(BatchFolderHolder & { gone: boolean }) | undefined> {
  const file = path.join(dir, "lock");
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const holder = holderIn(text);
  return { ...holder, gone: holderGone(holder, file) };
}

/**
 * Whether a lock was left by a process of this machine that no longer runs, or by this process
 * when no run of it holds the folder (a process id used again, as in a container).
 */
function holderGone(holder: BatchFolderHolder, file: string): boolean {
  return holder.host === hostname() && typeof holder.pid === "number" && (holder.pid === process.pid ? !held.has(file) : !processAlive(holder.pid));
}

/** The holder a lock file's text names ({} when it names none: not ours, or damaged). */
function holderIn(text: string): BatchFolderHolder {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as BatchFolderHolder) : {};
  } catch {
    return {};
  }
}

/**
 * Puts the whole file `from` at `to` unless a file is there (false then). A file system
 * without hard links gets `to` created exclusively and written instead.
 */
async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    // File systems without hard links say so in several ways (a network share: EACCES or EMLINK as well).
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EACCES", "EMLINK"].includes(code ?? "")) throw error;
  }
  try {
    await writeFile(to, await readFile(from), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The refusal of a run whose batch folder another run holds. */
function folderHeld(dir: string, file: string, holder: BatchFolderHolder): Error {
  return new Error(
    `another batch run (process ${String(holder.pid ?? "?")} on ${String(holder.host ?? "?")}, since ${String(holder.since ?? "?")}) is using the batch folder ${dir}: ` +
      `wait for it to finish, or give this run its own batch folder (batchDir, --batch-dir); two runs in one folder would submit and pay for the same batches twice. ` +
      `If no such run is going on, delete ${file}`,
  );
}

/**
 * Takes the batch folder for this run: a `lock` file naming the process. A second run in
 * the same folder at the same time would read the same state, submit (and pay for) the same
 * batches again, and write over the other's batch ids; it is refused. A lock left by a process
 * that no longer runs (on this machine) is taken over; when two runs find the same such lock
 * at once, one takes the folder and the other is refused as for any lock held.
 * Exported for the tests; not part of the public API.
 */
export async function lockBatchDir(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "lock");
  const me = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  let holder: BatchFolderHolder = {};
  // Each try takes the folder, is refused (a run holds it), or finds it changing (a lock being released or
  // taken over) and tries again; a lock that keeps changing that long is taken as held.
  for (let attempt = 0; attempt < 200; attempt++) {
    // Written whole under another name, then linked as the lock: no run ever reads a lock half written, and the link fails if a lock is there.
    const mine = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.new`;
    tempFileStarted(mine);
    let taken = false;
    try {
      await writeFile(mine, `${JSON.stringify(me)}\n`);
      taken = await linkExclusive(mine, file);
      // Marked held at once (no wait in between): a run of this process that reads the lock meanwhile must not take it for one left.
      if (taken) held.add(file);
    } finally {
      await rm(mine, { force: true });
      tempFileDone(mine);
    }
    if (taken) {
      // Removed with the temporary files when the process is stopped by a signal (Ctrl-C), so that the next run finds the folder free.
      tempFileStarted(file);
      return async () => {
        held.delete(file);
        await rm(file, { force: true });
        tempFileDone(file);
      };
    }
    const seen = await readFile(file, "utf8").catch(() => undefined);
    // Gone meanwhile (its run finished): try again.
    if (seen === undefined) continue;
    holder = holderIn(seen);
    if (!holderGone(holder, file)) break;
    await removeLeftLock(file, seen);
  }
  throw folderHeld(dir, file, holder);
}

/**
 * Removes the lock `file` when it still reads `seen` (a lock left by a run that ended), one run
 * at a time: each run that found it left takes the `lock.break` file first (or waits a moment
 * for the run that has it), so that none removes a lock another run has taken since. A
 * `lock.break` file left by a run stopped in between is removed: at once when it names a process of
 * this machine that no longer runs, else once it is 10 s old (another machine's, on a shared folder).
 */
async function removeLeftLock(file: string, seen: string): Promise<void> {
  const breaker = `${file}.break`;
  try {
    await writeFile(breaker, `${process.pid} ${hostname()}\n`, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const text = await readFile(breaker, "utf8").catch(() => "");
    const [pid, host] = text.trim().split(" ");
    const gone = host === hostname() && pid !== undefined && /^\d+$/.test(pid) && Number(pid) !== process.pid && !processAlive(Number(pid));
    const since = await stat(breaker).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    // Read again just before: the file removed is the one judged left (a run may have taken it since).
    if ((gone || since > 10_000) && (await readFile(breaker, "utf8").catch(() => "")) === text) await rm(breaker, { force: true });
    else await pause(2 + Math.floor(Math.random() * 10));
    return;
  }
  tempFileStarted(breaker);
  try {
    if ((await readFile(file, "utf8").catch(() => undefined)) === seen) await rm(file, { force: true });
  } finally {
    await rm(breaker, { force: true });
    tempFileDone(breaker);
  }
}

async function runStages(
  data: DatasetSource,
  metrics: readonly Metric[],
  options: BatchOptions,
  judge: OpenAIJudge,
  api: BatchApi,
  dir: string,
  pollMs: number,
  log: (line: string) => void,
  usage: UsageRecorder,
  retry: NonNullable<BatchOptions["retryFailed"]>,
  limits: BatchLimits,
): Promise<DataFrame> {
  const failed = new Map<string, string>();
  const state = await loadState(dir);
  // Lines this unfinished run gave up on after their follow-up batch stay given up (see BatchState.failed).
  if (retry === "batch") for (const [id, why] of Object.entries(state.failed ?? {})) failed.set(id, why);
  const rounds = new Map<string, number>(Object.entries(state.retries ?? {}));
  await recordFolderNextToCache(judge, dir, log);
  await warnOfRunsInOtherFolders(judge, dir, log);

  for (let stage = 1; ; stage++) {
    const { collector, scored, passUsage } = await collect(data, metrics, judge, failed);
    const lines = requestLines(collector, judge.embeddingBatchSize);
    if (lines.length === 0) {
      if (state.retries !== undefined || state.failed !== undefined) {
        // Finished: a later run tries the lines that failed for good again, as a rerun retries failed rows.
        delete state.retries;
        delete state.failed;
        await saveState(dir, state);
      }
      usage.addCalls(passUsage);
      usage.rows = passUsage.rows;
      const summary = usage.summary();
      setScoreRun(scored, { usage: summary, judges: [...new Set(metrics.map((m) => metricJudgeLabel(m, judge)))], metrics: metrics.map((m) => m.name) });
      if (!options.quiet) console.log(formatUsage(summary));
      return scored;
    }
    // Submit every part of the stage first (or find it submitted by an earlier, stopped run), then wait.
    // `paid`: the lines of the batch this run counts in its usage (see applyResults).
    const parts: { batch: SubmittedBatch; lines: BatchRequestLine[]; paid: BatchRequestLine[] }[] = [];
    for (const endpoint of ["/v1/chat/completions", "/v1/embeddings"] as const) {
      let pending = lines.filter((l) => l.url === endpoint);
      if (pending.length === 0) continue;
      // Batches another batch folder with the same cache submitted and has not read back, holding some of
      // these lines: waited for and read here (the replies go to the shared cache), not paid for twice.
      await adoptOtherFoldersBatches(api, judge, dir, state, endpoint, pending, log);
      // Batches an earlier, stopped run submitted that still hold some of these lines are resumed, not
      // submitted again: their results are read back for the lines still missing.
      for (const earlier of state.batches.filter((b) => b.endpoint === endpoint && !b.applied)) {
        if (pending.length === 0) break;
        let mine: BatchRequestLine[];
        let recorded: BatchRequestLine[];
        if (signature(pending) === earlier.signature) {
          mine = pending;
          recorded = pending;
          pending = [];
        } else if (endpoint === "/v1/chat/completions") {
          recorded = await recordedLines(dir, earlier, api, log);
          const ids = new Set(recorded.map((l) => l.custom_id));
          mine = pending.filter((l) => ids.has(l.custom_id));
          pending = pending.filter((l) => !ids.has(l.custom_id));
        } else {
          // An embeddings line is named by its texts, which change as some reach the cache: the batch's own
          // lines that hold a text still missing are read back, and the texts they do not hold go in new lines.
          const wanted = new Set(pending.flatMap((l) => l.body["input"] as string[]));
          recorded = await recordedLines(dir, earlier, api, log);
          // Only lines of this run's embedding model: their vectors go to the cache under its name.
          mine = recorded.filter((l) => l.body["model"] === judge.embeddingModel && (l.body["input"] as string[]).some((t) => wanted.has(t)));
          if (mine.length > 0) {
            const covered = new Set(mine.flatMap((l) => l.body["input"] as string[]));
            pending = embeddingLines([...wanted].filter((t) => !covered.has(t)), judge.embeddingModel, judge.embeddingBatchSize);
          }
        }
        if (mine.length === 0) continue;
        if (earlier.adoptedFrom !== undefined) {
          log(
            `batch stage ${stage}: ${mine.length} of these lines are in batch ${earlier.batchId}, submitted from the batch folder ${earlier.adoptedFrom} (which uses the same cache) and not yet read back there: ` +
              `waiting for it and reading its results instead of submitting (and paying for) them again`,
          );
          parts.push({ batch: earlier, lines: mine, paid: [] });
          continue;
        }
        // A run resumed where an earlier one stopped goes on with that run's stage numbers.
        if (earlier.stage > stage) stage = earlier.stage;
        if (earlier.batchId === "" && earlier.status !== NOT_CREATED) {
          // Stopped between uploading and recording the batch: find it by its input file, if it was created.
          // The list is newest first: past the batches created before the upload was recorded (an hour's
          // leeway for the clocks), it is not there, and the rest of the organisation's history is not read.
          const since = Date.parse(earlier.submittedAt) - 3_600_000;
          for await (const b of api.batches.list({ limit: 100 })) {
            if (b.input_file_id === earlier.inputFileId) {
              earlier.batchId = b.id;
              earlier.status = b.status;
              await saveState(dir, state);
              break;
            }
            if (typeof b.created_at === "number" && b.created_at * 1000 < since) break;
          }
        }
        if (earlier.batchId !== "") log(`batch stage ${stage}: resuming ${earlier.batchId} (${mine.length} lines) instead of submitting again`);
        else await createBatchWhenRoom(api, earlier, state, dir, options, log, pollMs, parts.map((p) => p.batch));
        // All its lines were paid for: those a stopped run read into the cache are counted here, as that run never said them.
        parts.push({ batch: earlier, lines: mine, paid: recorded });
      }
      // The rest in batches within the Batch API's limits on one input file (requests and bytes).
      for (const { lines: part, text } of splitLines(pending, limits)) {
        const sig = signature(part);
        // The request file's copy, named by its content too: a later run's stage never writes over an earlier one's.
        const name = requestFileName(stage, endpoint, sig);
        await writeFileAtomic(path.join(dir, name), text);
        const file = await api.files.create({ file: await toFile(Buffer.from(text), name, { type: "application/jsonl" }), purpose: "batch" });
        // Recorded before the batch is created, so that a stop in between cannot lead to a second batch.
        const batch: SubmittedBatch = { stage, endpoint, signature: sig, batchId: "", inputFileId: file.id, lines: part.length, status: "uploaded", applied: false, submittedAt: new Date().toISOString() };
        state.batches.push(batch);
        await saveState(dir, state);
        await createBatchWhenRoom(api, batch, state, dir, options, log, pollMs, parts.map((p) => p.batch));
        parts.push({ batch, lines: part, paid: part });
      }
    }
    for (const { batch, lines: part, paid } of parts) {
      const done = await waitFor(api, batch, state, dir, pollMs, log, judge.label);
      if (done.status === "failed") {
        // Refused as a whole (its input file did not pass validation): none of its lines ran or is paid for.
        // Sending them all interactively instead would cost twice the price, unasked; the next run submits them afresh.
        batch.applied = true;
        await saveState(dir, state);
        const why = (done.errors?.data ?? []).map((e) => `${e.message ?? "no message"}${e.line != null || e.code ? ` (${[e.line != null ? `line ${e.line}` : "", e.code ?? ""].filter((x) => x !== "").join(", ")})` : ""}`);
        throw new Error(
          judge.scrub(
            `batch stage ${stage}: the Batch API failed batch ${batch.batchId} (${batch.lines} ${batch.endpoint} lines, input file ${batch.inputFileId}, a copy of it at ${path.join(dir, requestFileName(batch.stage, batch.endpoint, batch.signature))}) without running it: ` +
              `${why.length > 0 ? why.slice(0, 5).join("; ") + (why.length > 5 ? `; ${why.length - 5} more` : "") : "it gave no reason"}. ` +
              `None of its lines ran, nor is paid for; fix what it says and run again: its lines are submitted in a new batch (the answers already in the cache are kept)`,
          ),
        );
      }
      const output = parseResultLines(await fileText(api, done.output_file_id, batch, "output", log), `${batch.batchId} output`);
      const errors = parseResultLines(await fileText(api, done.error_file_id, batch, "error", log), `${batch.batchId} errors`);
      const unreadable = [...output.unreadable, ...errors.unreadable];
      if (unreadable.length > 0) log(`batch stage ${stage}: ${unreadable.length} result line${unreadable.length === 1 ? "" : "s"} could not be read (${unreadable[0]}); the other lines are used`);
      const failures = await applyResults([...output.lines, ...errors.lines], part, collector, judge, usage, unreadable, paid);
      if (done.status === "cancelled" && failures.size > 0) {
        batch.applied = true;
        await saveState(dir, state);
        // Cancelled (in the dashboard, or by the provider): sending the lines it did not run interactively, at
        // twice the price, is the opposite of what a cancel asks. The lines that ran are kept; the run stops.
        throw new Error(
          `batch stage ${stage}: batch ${batch.batchId} was cancelled; the ${part.length - failures.size} of its ${part.length} lines that ran are kept in the cache, ` +
            `the other ${failures.size} were not run (nor paid for). Run the same command again to submit them in a new batch`,
        );
      }
      if (failures.size > 0) {
        log(`batch stage ${stage}: ${failures.size} of ${part.length} lines failed; ${retry === "none" ? "not retried" : `retrying them ${retry === "interactive" ? "interactively" : "in a follow-up batch"}`}`);
        if (retry === "interactive") await retryInteractively(failures, part, collector, judge, usage, failed);
        else if (retry === "none") recordFailures(failures, part, judge, failed);
        else {
          // Follow-up batch: a line gets one more round, then fails for good.
          const final = new Map([...failures].filter(([id]) => (rounds.get(id) ?? 0) >= 1));
          for (const id of failures.keys()) rounds.set(id, (rounds.get(id) ?? 0) + 1);
          recordFailures(final, part, judge, failed);
        }
        // Kept in the state with the batch read, so that a stopped run resumed neither gives a line
        // another round nor submits a line that failed after its follow-up batch again (and pays for it).
        if (retry === "batch") {
          state.retries = Object.fromEntries(rounds);
          state.failed = Object.fromEntries(failed);
        }
      }
      batch.applied = true;
      await saveState(dir, state);
    }
  }
}

/**
 * Writes the requests the next stage needs as Batch API JSONL without
 * submitting anything — for an offline runner such as vLLM's batch runner.
 * Returns how many lines were written (0 when everything is in the cache:
 * then `score` or `scoreBatch` finishes without a call) and the files.
 *
 * Requests within the limits of one batch go to `file`. More are split as a
 * batch run splits a stage: one endpoint a file, each file within the limits
 * (the API's by default), written as `requests-1.jsonl`, `requests-2.jsonl`, …
 * next to `file` (whose own name is then not written); run each, and import
 * each results file (or them all, joined). Request files an earlier export
 * left under the names this one did not use (`file` when it splits, the
 * numbered ones past its own) are removed, and named in `removed`: run by
 * mistake with the new ones, an earlier stage's requests would be paid for again.
 */
export async function exportBatchRequests(
  data: DatasetSource,
  metrics: readonly Metric[],
  file: string,
  options: { judge?: Judge | JudgeOptions } & BatchFileLimits = {},
): Promise<{ lines: number; chat: number; embeddings: number; files: string[]; removed: string[] }> {
  const limits = batchLimits(options);
  const judge = openaiJudge(options.judge);
  const { collector } = await collect(data, metrics, judge, new Map());
  const lines = requestLines(collector, judge.embeddingBatchSize);
  const counts = { lines: lines.length, chat: lines.filter((l) => l.url === "/v1/chat/completions").length, embeddings: lines.filter((l) => l.url === "/v1/embeddings").length };
  const whole = splitLines(lines, limits);
  const ext = /\.[^./\\]+$/.exec(file)?.[0] ?? "";
  const numbered = (n: number): string => `${file.slice(0, file.length - ext.length)}-${n}${ext}`;
  if (whole.length <= 1) {
    await writeFileAtomic(file, whole[0]?.text ?? "");
    return { ...counts, files: [file], removed: await removeEarlierExports(numbered, 1) };
  }
  // As a batch run sends them: the Batch API takes one endpoint a batch.
  const parts = (["/v1/chat/completions", "/v1/embeddings"] as const).flatMap((endpoint) => splitLines(lines.filter((l) => l.url === endpoint), limits));
  const files = parts.map((_, i) => numbered(i + 1));
  for (const [i, part] of parts.entries()) await writeFileAtomic(files[i]!, part.text);
  const removed = await removeEarlierExports(numbered, parts.length + 1);
  if (await isExportedRequests(file)) {
    await rm(file, { force: true });
    removed.unshift(file);
  }
  return { ...counts, files, removed };
}

/**
 * Removes the files an earlier export wrote under the numbered names this one did not use
 * (`numbered(from)` on), and returns them. Only files that begin as an export's request lines are removed.
 */
async function removeEarlierExports(numbered: (n: number) => string, from: number): Promise<string[]> {
  const removed: string[] = [];
  for (let n = from; await isExportedRequests(numbered(n)); n++) {
    await rm(numbered(n), { force: true });
    removed.push(numbered(n));
  }
  return removed;
}

/** Whether a file is there and begins as a request file an export writes (custom_id first, of a chat or embeddings line). */
async function isExportedRequests(file: string): Promise<boolean> {
  try {
    const handle = await open(file, "r");
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
      return /^\{"custom_id":"(chat-|emb-batch-)[0-9a-f]/.test(buffer.subarray(0, bytesRead).toString("utf8"));
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * Reads a batch output file made elsewhere (OpenAI's format, also written by
 * vLLM's OpenAI-compatible batch runner) into the cache. Returns how many
 * lines were used, how many failed (with why), the lines that could not be
 * read (cut off, no custom_id: named by line number; the others are used, and
 * the requests of those are exported again), how many requests the next
 * stage still needs (export again when it is not 0), and how many lines
 * answer no request the table needs now (`ignored`: made with other judge
 * settings, for another table, repeated, or read before).
 */
export async function importBatchResults(
  data: DatasetSource,
  metrics: readonly Metric[],
  file: string,
  options: { judge?: Judge | JudgeOptions } = {},
): Promise<{ applied: number; failed: Map<string, string>; unreadable: string[]; remaining: number; ignored: number }> {
  const judge = openaiJudge(options.judge, true);
  const usage = judge.newUsage();
  const { collector } = await collect(data, metrics, judge, new Map());
  const requests = requestLines(collector, judge.embeddingBatchSize);
  const { lines: results, unreadable } = parseResultLines(await readFile(file, "utf8"), file);
  const wanted = new Set(requests.map((r) => r.custom_id));
  const relevant = results.filter((r) => wanted.has(r.custom_id));
  const answered = new Set(relevant.map((r) => r.custom_id));
  const failures = await applyResults(relevant, requests.filter((r) => answered.has(r.custom_id)), collector, judge, usage);
  const after = await collect(data, metrics, judge, new Map());
  // Lines that answer no request the table needs now: made with other judge settings (another model, layout or
  // prompt), for another table, or read before. Counted, so that a mismatch is not taken for work still to do.
  const ignored = results.length - relevant.length;
  return { applied: answered.size - failures.size, failed: failures, unreadable, remaining: requestLines(after.collector, judge.embeddingBatchSize).length, ignored };
}

/**
 * Where each batch of a batch folder stands, as recorded (and, when a judge
 * is given, as the Batches API says now).
 */
export async function batchStatus(batchDir: string, options: { judge?: Judge | JudgeOptions } = {}): Promise<SubmittedBatch[]> {
  const state = await loadState(path.resolve(batchDir));
  if (options.judge !== undefined) {
    const api = openaiJudge(options.judge).sdk as BatchApi;
    for (const batch of state.batches) {
      if (!batch.applied && batch.batchId !== "") batch.status = (await api.batches.retrieve(batch.batchId)).status;
    }
  }
  return state.batches;
}
