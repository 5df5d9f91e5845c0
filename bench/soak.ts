/**
 * Soak: 2,000 rows scored against a server that answers 10% of requests 429,
 * 3% 500, hangs on 1% and sends invalid JSON in 2% of chat replies, while the
 * scoring process (a child, disk cache on) is killed with SIGKILL three times
 * at seeded points and started again. Every row must end scored or with a
 * reason, in its place, with the scores of a fault-free run; the paid calls
 * (requests the server answered 200) are set against the fault-free run's.
 *
 * Faults are decided per request by a seeded hash of its body and of how many
 * times that body was seen, and kills happen at seeded counts of paid calls,
 * so the run is reproducible up to timing (which requests are in flight when
 * the kill lands).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { mulberry32 } from "../src/stats/random";
import type { ChatContext, Fault, FakeOpenAI, RecordedRequest } from "../test/support/fake-openai";
import { scriptedAnswerCorrectness, sentences } from "../test/support/scripted-judge";
import { qaRows, type QaRow } from "./data";
import { SOAK_JUDGE, type SoakRowOut } from "./soak-worker";
import { figure, paidCalls, round, scriptedServer, withServer, withTempDir, type BenchFigure, type BenchResult } from "./support";

/** Shares of requests that get each fault. */
const FAULTS = { rateLimited: 0.1, serverError: 0.03, hang: 0.01, invalidJson: 0.02 } as const;

/** A number in [0, 1) from a seed and a text (the first 6 bytes of a SHA-256). */
function unit(seed: number, text: string): number {
  return createHash("sha256").update(`${seed}\u0000${text}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** The fault hook: seeded per (request body, occurrence), counting what it injected. */
function faultPlan(seed: number) {
  const seen = new Map<string, number>();
  const counts = { rateLimited: 0, serverError: 0, hang: 0, invalidJson: 0 };
  const fault = (req: RecordedRequest): Fault | undefined => {
    const body = JSON.stringify(req.body ?? null);
    const n = seen.get(body) ?? 0;
    seen.set(body, n + 1);
    let r = unit(seed, `${n}\u0000${body}`);
    if ((r -= FAULTS.rateLimited) < 0) {
      counts.rateLimited++;
      return { kind: "status", status: 429, headers: { "retry-after-ms": "100" } };
    }
    if ((r -= FAULTS.serverError) < 0) {
      counts.serverError++;
      return { kind: "status", status: 500 };
    }
    if ((r -= FAULTS.hang) < 0) {
      counts.hang++;
      return { kind: "hang" };
    }
    if (req.path.endsWith("/chat/completions") && (r -= FAULTS.invalidJson) < 0) {
      counts.invalidJson++;
      return { kind: "invalid_json" };
    }
    return undefined;
  };
  return { fault, counts };
}

interface WorkerRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

/** Starts the soak worker; `kill()` sends SIGKILL. */
function startWorker(url: string, cacheDir: string, dataFile: string, outFile: string): { child: ChildProcess; done: Promise<WorkerRun> } {
  const worker = path.join(__dirname, "soak-worker.ts");
  const child = spawn(process.execPath, ["--import", "tsx", worker, url, cacheDir, dataFile, outFile], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  const done = new Promise<WorkerRun>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout })));
  return { child, done };
}

/**
 * The scripted judge, answering a request repeated after an invalid reply
 * (which ends with that reply and a note saying what was wrong) from its data
 * message, as a model would.
 */
function scriptedWithCorrections(ctx: ChatContext): object {
  const isData = (m: { role: string; content: unknown }): boolean => {
    if (m.role !== "user" || typeof m.content !== "string") return false;
    try {
      return typeof JSON.parse(m.content) === "object";
    } catch {
      return false;
    }
  };
  let last = ctx.messages.length - 1;
  while (last > 0 && !isData(ctx.messages[last])) last--;
  return scriptedAnswerCorrectness({ ...ctx, messages: ctx.messages.slice(0, last + 1) });
}

/** What a server's chat script saw: for each request body, the process (run) of each 200 reply (fault replies aside). */
interface PaidLog {
  onPaid: (() => void) | undefined;
  /** Index of the scoring process now running. */
  run: number;
  bodies: Map<string, number[]>;
}

function paidLog(): PaidLog {
  return { onPaid: undefined, run: 0, bodies: new Map() };
}

/** Chat replies paid again: for a body already answered in the same process, and in an earlier (killed) one. */
function repeats(log: PaidLog): { sameProcess: number; afterKill: number } {
  const out = { sameProcess: 0, afterKill: 0 };
  for (const runs of log.bodies.values()) {
    runs.forEach((run, i) => {
      if (i === 0) return;
      if (runs.indexOf(run) < i) out.sameProcess++;
      else out.afterKill++;
    });
  }
  return out;
}

/** The server's chat script, logging each body and calling `onPaid` before each chat reply it will answer 200. */
function chatWithHook(log: PaidLog) {
  return (ctx: ChatContext): object => {
    log.onPaid?.();
    const body = JSON.stringify(ctx.body);
    const runs = log.bodies.get(body) ?? [];
    runs.push(log.run);
    log.bodies.set(body, runs);
    return scriptedWithCorrections(ctx);
  };
}

function readOut(file: string): SoakRowOut[] {
  return JSON.parse(readFileSync(file, "utf8")) as SoakRowOut[];
}

/** Checks of a soak result against the input rows and the fault-free result. */
function check(rows: readonly QaRow[], out: readonly SoakRowOut[], clean: readonly SoakRowOut[]) {
  let misplaced = 0;
  let lost = Math.max(0, rows.length - out.length);
  let unexplained = 0;
  let errored = 0;
  let differ = 0;
  let wrongStatements = 0;
  rows.forEach((row, i) => {
    const o = out[i];
    if (!o) return;
    if (o.id !== row.id || o.model !== row.model) misplaced++;
    if (o.error !== "") errored++;
    else if (o.score === null) unexplained++;
    if (o.error === "" && o.details !== "") {
      const d = JSON.parse(o.details) as { response: { statement: string }[]; reference: { statement: string }[] };
      const same = (a: string[], b: string[]) => a.length === b.length && a.every((s, k) => s === b[k]);
      if (!same(d.response.map((v) => v.statement), sentences(row.response)) || !same(d.reference.map((v) => v.statement), sentences(row.reference))) {
        wrongStatements++;
      }
    }
    const c = clean[i];
    if (o.error === "" && c && (o.score !== c.score || o.tp !== c.tp || o.fp !== c.fp || o.fn !== c.fn)) differ++;
  });
  if (out.length > rows.length) lost += out.length - rows.length;
  return { misplaced, lost, unexplained, errored, differ, wrongStatements };
}

/** "+ 5" or "− 131". */
function signed(n: number): string {
  return n < 0 ? `− ${-n}` : `+ ${n}`;
}

/** The reasons rows failed with, most common first (numbers and ports blurred), one line each. */
function errorSummary(out: readonly SoakRowOut[]): string[] {
  const counts = new Map<string, number>();
  for (const o of out) {
    if (o.error === "") continue;
    const reason = o.error.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT").replace(/\d+/g, "N").slice(0, 200);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `soak: ${n} rows failed with: ${reason}`);
}

/** Runs the soak: a fault-free run, then a faulty run killed three times and resumed. */
export async function benchSoak(options: { questions?: number; models?: number; kills?: number; seed?: number; latencyMs?: number } = {}): Promise<BenchResult> {
  const questions = options.questions ?? 400;
  const models = options.models ?? 5;
  const kills = options.kills ?? 3;
  const seed = options.seed ?? 2024;
  const latencyMs = options.latencyMs ?? 10;
  const rows = qaRows(questions, models, 500);
  return withTempDir(async (dir) => {
    const dataFile = path.join(dir, "rows.json");
    writeFileSync(dataFile, JSON.stringify(rows));

    // 1. Fault-free.
    const cleanLog = paidLog();
    const clean = await withServer(scriptedServer({ latencyMs, chat: chatWithHook(cleanLog) }), async (server, url) => {
      const t = performance.now();
      const outFile = path.join(dir, "clean.json");
      const run = await startWorker(url, path.join(dir, "cache-clean"), dataFile, outFile).done;
      if (run.code !== 0) throw new Error(`soak: the fault-free run exited with ${run.code ?? run.signal}`);
      return { out: readOut(outFile), paid: paidCalls(server), embeddingPaid: server.totalUsage().embeddingResponses, requests: server.requests.length, ms: performance.now() - t };
    });
    const cleanCheck = check(rows, clean.out, clean.out);
    if (cleanCheck.errored > 0 || cleanCheck.misplaced > 0 || cleanCheck.wrongStatements > 0) {
      throw new Error(`soak: the fault-free run is not clean: ${JSON.stringify(cleanCheck)}`);
    }

    // 2. Faults, kills and resumes.
    const rng = mulberry32(seed);
    // One kill in each of `kills` equal stretches of 10%–90% of the fault-free paid calls, at a seeded point.
    const killAt = Array.from({ length: kills }, (_, k) => Math.round((0.1 + (0.8 * (k + rng())) / kills) * clean.paid));
    const plan = faultPlan(seed);
    const hook = paidLog();
    const faulty = await withServer(scriptedServer({ latencyMs, fault: plan.fault, chat: chatWithHook(hook) }), async (server: FakeOpenAI, url) => {
      const t = performance.now();
      const cacheDir = path.join(dir, "cache-faulty");
      const outFile = path.join(dir, "faulty.json");
      const runs: { paidBefore: number; paidAfter: number; killed: boolean; ms: number }[] = [];
      for (let k = 0; k <= kills; k++) {
        const paidBefore = paidCalls(server);
        hook.run = k;
        const started = performance.now();
        const { child, done } = startWorker(url, cacheDir, dataFile, outFile);
        const target = killAt[k];
        hook.onPaid =
          target === undefined
            ? undefined
            : () => {
                // This reply is the paid call number paidCalls + 1: kill before it is read.
                if (paidCalls(server) + 1 >= target && child.exitCode === null) child.kill("SIGKILL");
              };
        const run = await done;
        hook.onPaid = undefined;
        const killed = run.signal === "SIGKILL";
        runs.push({ paidBefore, paidAfter: paidCalls(server), killed, ms: performance.now() - started });
        if (target !== undefined && !killed) throw new Error(`soak: run ${k + 1} ended (${run.code}) before its kill at ${target} paid calls; ${run.stdout}`);
        if (target === undefined && run.code !== 0) throw new Error(`soak: the last run exited with ${run.code ?? run.signal}`);
      }
      if (!existsSync(outFile)) throw new Error("soak: the last run wrote no result");
      return { out: readOut(outFile), paid: paidCalls(server), embeddingPaid: server.totalUsage().embeddingResponses, requests: server.requests.length, runs, ms: performance.now() - t };
    });

    const result = check(rows, faulty.out, clean.out);
    const ok = result.lost === 0 && result.misplaced === 0 && result.unexplained === 0 && result.wrongStatements === 0;
    const extra = faulty.paid - clean.paid;
    const again = repeats(hook);
    const cleanAgain = repeats(cleanLog);
    const figures: BenchFigure[] = [
      figure(`${rows.length} rows: rows lost or out of place`, result.lost + result.misplaced, "rows", "= 0", result.lost + result.misplaced === 0),
      figure(`${rows.length} rows: rows with neither a score nor a reason`, result.unexplained, "rows", "= 0", result.unexplained === 0),
      figure(`${rows.length} rows: rows whose statements are not their own`, result.wrongStatements, "rows", "= 0", result.wrongStatements === 0),
      figure(`${rows.length} rows: rows ending with an error reason`, result.errored, "rows"),
      figure(`${rows.length} rows: scored rows whose score differs from the fault-free run`, result.differ, "rows", "= 0", result.differ === 0),
      figure(`${rows.length} rows: paid calls with faults and ${kills} kills / fault-free`, `${faulty.paid} / ${clean.paid}`, "calls"),
      figure(`${rows.length} rows: paid calls ratio`, round(faulty.paid / clean.paid, 3), "×"),
      figure(`${rows.length} rows: chat replies paid again for a request answered before a kill`, again.afterKill, "calls"),
      figure(`${rows.length} rows: chat replies paid twice within one process, faulty / fault-free`, `${again.sameProcess} / ${cleanAgain.sameProcess}`, "calls"),
      figure(`${rows.length} rows: invalid-JSON replies (paid)`, plan.counts.invalidJson, "calls"),
      figure(`${rows.length} rows: wall time with faults and kills (4 processes)`, round(faulty.ms), "ms"),
    ];
    const c = plan.counts;
    const notes = [
      `soak: fault-free run ${clean.requests} requests, ${clean.paid} paid, ${round(clean.ms)} ms (one process).`,
      `soak: faulty run ${faulty.requests} requests: ${c.rateLimited} answered 429 (retry-after-ms 100), ${c.serverError} answered 500, ${c.hang} hung ` +
        `(client timeout ${SOAK_JUDGE.timeoutMs} ms, up to ${SOAK_JUDGE.maxRetries} retries), ${c.invalidJson} invalid-JSON 200s (paid, retried with a correction).`,
      `soak: killed at ${killAt.join(", ")} paid calls (seed ${seed}); paid calls per process: ` +
        faulty.runs.map((r, k) => `${k + 1}: ${r.paidAfter - r.paidBefore}${r.killed ? " (killed)" : ""} in ${round(r.ms / 1000, 1)} s`).join(", ") + ".",
      `soak: ${extra} paid calls more than fault-free = ${c.invalidJson} invalid-JSON replies ` +
        `${signed(hook.bodies.size - cleanLog.bodies.size)} distinct chat requests answered (${hook.bodies.size} − ${cleanLog.bodies.size}; a retry after an invalid reply carries a correction) ` +
        `${signed(again.afterKill)} chat replies paid again after a kill (answered, but the process died before caching them) ` +
        `${signed(again.sameProcess - cleanAgain.sameProcess)} chat replies paid twice within one process (${again.sameProcess} − ${cleanAgain.sameProcess}: ` +
        `identical requests started together are each paid, see the work benchmark; how many collide depends on timing) ` +
        `${signed(faulty.embeddingPaid - clean.embeddingPaid)} embedding requests (${faulty.embeddingPaid} − ${clean.embeddingPaid}).`,
      ok ? "soak: every row is in its place, scored or with a reason." : `soak: PROBLEM ${JSON.stringify(result)}`,
      ...errorSummary(faulty.out),
    ];
    return { name: "soak", figures, notes };
  });
}
