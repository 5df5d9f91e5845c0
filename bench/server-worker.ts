/**
 * The fake OpenAI server in a process of its own, so that its work does not
 * share the benchmark client's thread (a real server is elsewhere too). It
 * answers with the scripted answer-correctness judge. Start it with
 * {@link startServerProcess}; it listens on 127.0.0.1 and stops when its
 * parent disconnects.
 *
 *   node --import tsx bench/server-worker.ts '{"latencyMs":200}'   (through fork, with an IPC channel)
 */
import { fork, type ChildProcess } from "node:child_process";
import { mulberry32 } from "../src/stats/random";
import * as path from "node:path";
import { FakeOpenAI, type RateLimitOptions, type RateLimitStats } from "../test/support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "../test/support/scripted-judge";

/** What the server process is started with (JSON-safe options). */
export interface ServerProcessOptions {
  latencyMs?: number;
  rateLimit?: RateLimitOptions;
  /**
   * A busy gateway: this share of requests (chat and embeddings) answered 429
   * with `retry-after-ms`, at random (seeded), whatever the rate.
   */
  refuse?: { share: number; retryAfterMs: number; seed: number };
}

/** What the server process reports when asked. */
export interface ServerStats {
  requests: number;
  chatRequests: number;
  embeddingRequests: number;
  /** Requests answered 200. */
  ok: number;
  maxInFlight: number;
  rateLimit: RateLimitStats;
  /** Arrival times (ms since epoch) of the requests, in order. */
  arrivals: number[];
}

type Message = { cmd: "stats" } | { cmd: "reset" };

/** A running server process. */
export interface ServerProcess {
  url: string;
  stats(): Promise<ServerStats>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Forks the server process and waits for its URL. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child: ChildProcess = fork(path.join(__dirname, "server-worker.ts"), [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const replies: ((value: unknown) => void)[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`server process exited with ${code} before listening`)));
    child.once("message", (m) => resolve((m as { url: string }).url));
  });
  child.removeAllListeners("exit");
  child.on("message", (m) => replies.shift()?.(m));
  const ask = <T>(message: Message): Promise<T> =>
    new Promise<T>((resolve) => {
      replies.push(resolve as (value: unknown) => void);
      child.send(message);
    });
  return {
    url,
    stats: () => ask<ServerStats>({ cmd: "stats" }),
    reset: async () => {
      await ask({ cmd: "reset" });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}") as ServerProcessOptions;
  const { refuse, ...serverOptions } = options;
  const server = new FakeOpenAI({ chat: scriptedAnswerCorrectness, embed: scriptedEmbedding, ...serverOptions });
  if (refuse) {
    const rng = mulberry32(refuse.seed);
    server.options.fault = () => (rng() < refuse.share ? { kind: "status", status: 429, headers: { "retry-after-ms": String(refuse.retryAfterMs) } } : undefined);
  }
  const url = await server.start();
  process.on("message", (m: Message) => {
    if (m.cmd === "reset") {
      server.reset();
      process.send?.({ ok: true });
    } else if (m.cmd === "stats") {
      const usage = server.totalUsage();
      const stats: ServerStats = {
        requests: server.requests.length,
        chatRequests: server.chatRequests().length,
        embeddingRequests: server.embeddingRequests().length,
        ok: usage.chatResponses + usage.embeddingResponses,
        maxInFlight: server.maxInFlight,
        rateLimit: server.rateLimitStats(),
        arrivals: server.requests.map((r) => r.receivedAt),
      };
      process.send?.(stats);
    }
  });
  process.on("disconnect", () => {
    void server.stop().then(() => process.exit(0));
  });
  process.send?.({ url });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
