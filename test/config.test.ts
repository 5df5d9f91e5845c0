/**
 * One configuration story ([B] item 2): every judge setting comes from the
 * call's options (on the command line, a flag), then EVALFRAME_* variables,
 * then OPENAI_* ones, then the default, the same for the API and the CLI;
 * `evalframe config` prints where each came from with keys masked; and
 * embeddings can go to a server of their own, with their own key.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../src/cli/main";
import {
  describeJudgeConfig,
  JUDGE_ENV_VARS,
  maskSecret,
  resolveJudgeConfig,
  type EnvironmentVariables,
  type JudgeOptions,
  type JudgeSettingName,
  type ResolvedJudgeConfig,
} from "../src/judge/config";
import { createJudge } from "../src/judge/create";
import { JudgeError } from "../src/judge/types";
import { useFakeOpenAI } from "./support/fake-openai";
import { filesUnder, tempDir } from "./support/files";
import { echoChat, echoRequest } from "./support/requests";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

const CHAT_KEY = "sk-chat-Qw7eR9tY2uI4oP6aS8dF0gH1";
const EMBEDDING_KEY = "emb-key-Zx3cV5bN7mL9kJ2hG4fD6sA8";
const SHORT_KEY = "tok-12345";

/** One setting's layers, highest first: the option, then each environment variable; and its default. */
interface Layers {
  setting: JudgeSettingName;
  option: Partial<JudgeOptions>;
  optionValue: unknown;
  env: [name: string, text: string, value: unknown][];
  defaultValue: unknown;
  read: (config: ResolvedJudgeConfig) => unknown;
  /** Options every case needs (e.g. a server, so that the judge is openai). */
  base?: Partial<JudgeOptions>;
}

const LAYERS: Layers[] = [
  {
    setting: "model",
    option: { model: "opt-model" },
    optionValue: "opt-model",
    env: [["EVALFRAME_MODEL", "env-model", "env-model"]],
    defaultValue: "gpt-4o-mini",
    read: (c) => c.model,
  },
  {
    setting: "visionModel",
    option: { visionModel: "opt-vision" },
    optionValue: "opt-vision",
    env: [["EVALFRAME_VISION_MODEL", "env-vision", "env-vision"]],
    defaultValue: "gpt-4o",
    read: (c) => c.visionModel,
  },
  {
    setting: "embeddingModel",
    option: { embeddingModel: "opt-embed" },
    optionValue: "opt-embed",
    env: [["EVALFRAME_EMBEDDING_MODEL", "env-embed", "env-embed"]],
    defaultValue: "text-embedding-3-small",
    read: (c) => c.embeddingModel,
  },
  {
    setting: "baseURL",
    option: { baseURL: "http://option-host:1/v1" },
    optionValue: "http://option-host:1/v1",
    env: [
      ["EVALFRAME_BASE_URL", "http://evalframe-host:2/v1", "http://evalframe-host:2/v1"],
      ["OPENAI_BASE_URL", "http://openai-host:3/v1/", "http://openai-host:3/v1"],
    ],
    defaultValue: "https://api.openai.com/v1",
    read: (c) => c.baseURL,
  },
  {
    setting: "apiKey",
    option: { apiKey: "key-option" },
    optionValue: "key-option",
    env: [
      ["EVALFRAME_API_KEY", "key-evalframe", "key-evalframe"],
      ["OPENAI_API_KEY", "key-openai", "key-openai"],
    ],
    defaultValue: undefined,
    read: (c) => c.apiKey,
  },
  {
    setting: "embeddingBaseURL",
    option: { embeddingBaseURL: "http://embed-option:4/v1" },
    optionValue: "http://embed-option:4/v1",
    env: [["EVALFRAME_EMBEDDING_BASE_URL", "http://embed-env:5/v1", "http://embed-env:5/v1"]],
    defaultValue: "http://chat:6/v1", // the chat server
    read: (c) => c.embeddingBaseURL,
    base: { baseURL: "http://chat:6/v1" },
  },
  {
    setting: "embeddingApiKey",
    option: { embeddingApiKey: "embed-key-option" },
    optionValue: "embed-key-option",
    env: [["EVALFRAME_EMBEDDING_API_KEY", "embed-key-env", "embed-key-env"]],
    defaultValue: undefined, // another host than the chat server's: the chat key is not sent there
    read: (c) => c.embeddingApiKey,
    base: { baseURL: "http://chat:6/v1", apiKey: "chat-key", embeddingBaseURL: "http://elsewhere:7/v1" },
  },
  {
    setting: "concurrency",
    option: { concurrency: 3 },
    optionValue: 3,
    env: [["EVALFRAME_CONCURRENCY", "5", 5]],
    defaultValue: 16,
    read: (c) => c.concurrency,
  },
  {
    setting: "maxTokens",
    option: { maxTokens: 1024 },
    optionValue: 1024,
    env: [["EVALFRAME_MAX_TOKENS", "512", 512]],
    defaultValue: undefined, // the server's own limit
    read: (c) => c.maxTokens,
  },
  {
    setting: "timeoutMs",
    option: { timeoutMs: 5_000 },
    optionValue: 5_000,
    env: [["EVALFRAME_TIMEOUT_MS", "300000", 300_000]],
    defaultValue: 60_000,
    read: (c) => c.timeoutMs,
  },
  {
    setting: "cacheDir",
    option: { cacheDir: "option-cache" },
    optionValue: "option-cache",
    env: [["EVALFRAME_CACHE_DIR", "env-cache", "env-cache"]],
    defaultValue: ".evalframe-cache",
    read: (c) => c.cacheDir,
  },
  {
    setting: "judge",
    option: { judge: "offline" },
    optionValue: "offline",
    env: [["EVALFRAME_JUDGE", "openai", "openai"]],
    defaultValue: "openai", // a base URL is set (below), so the default is openai
    read: (c) => c.kind,
    base: { baseURL: "http://chat:6/v1" },
  },
];

describe("resolveJudgeConfig: option, then EVALFRAME_*, then OPENAI_*, then the default", () => {
  for (const layer of LAYERS) {
    it(`${layer.setting}: each source wins over the ones after it`, () => {
      const sources = ["option", ...layer.env.map(([name]) => name), "default"];
      for (let top = 0; top < sources.length; top++) {
        const options: JudgeOptions = { ...(layer.base ?? {}), ...(top === 0 ? layer.option : {}), quiet: true };
        const env: EnvironmentVariables = Object.fromEntries(layer.env.filter((_, i) => i + 1 >= top).map(([name, text]) => [name, text]));
        const config = resolveJudgeConfig(options, env);
        const expected = top === 0 ? layer.optionValue : top <= layer.env.length ? layer.env[top - 1]![2] : layer.defaultValue;
        assert.deepEqual(layer.read(config), expected, `${layer.setting} with ${sources[top]} on top`);
        const source = config.sources[layer.setting];
        // A setting that follows another when unset (the embeddings server and its key) has that value's source.
        if (sources[top] === "default" && layer.setting === "embeddingBaseURL") assert.equal(source, "option", "the chat server's URL, from the option");
        else assert.equal(source, sources[top], `source of ${layer.setting}`);
      }
    });
  }

  it("every environment variable of JUDGE_ENV_VARS is covered above", () => {
    const covered = new Set(LAYERS.flatMap((l) => l.env.map(([name]) => name)));
    for (const names of Object.values(JUDGE_ENV_VARS)) for (const name of names) assert.ok(covered.has(name), name);
  });

  it("an empty or blank variable counts as unset", () => {
    const config = resolveJudgeConfig({ quiet: true }, { EVALFRAME_MODEL: "", EVALFRAME_BASE_URL: "  ", OPENAI_BASE_URL: "http://openai-host:3/v1", EVALFRAME_CONCURRENCY: "" });
    assert.equal(config.model, "gpt-4o-mini");
    assert.equal(config.sources.model, "default");
    assert.equal(config.baseURL, "http://openai-host:3/v1");
    assert.equal(config.sources.baseURL, "OPENAI_BASE_URL");
    assert.equal(config.concurrency, 16);
  });

  it("chooses the openai judge when only an EVALFRAME_* key or base URL is set; EVALFRAME_JUDGE=offline needs no notice", () => {
    assert.equal(resolveJudgeConfig({}, { EVALFRAME_API_KEY: "k-1234" }).kind, "openai");
    assert.equal(resolveJudgeConfig({}, { EVALFRAME_BASE_URL: "http://localhost:11434/v1" }).kind, "openai");
    const offline = resolveJudgeConfig({}, { EVALFRAME_JUDGE: "offline", OPENAI_API_KEY: "k-1234" });
    assert.equal(offline.kind, "offline");
    assert.equal(offline.offlineNotice, undefined, "asked for: no notice");
    assert.equal(offline.sources.judge, "EVALFRAME_JUDGE");
    // Labels given as an option choose the labels judge over EVALFRAME_JUDGE.
    assert.equal(resolveJudgeConfig({ labels: [] }, { EVALFRAME_JUDGE: "openai" }).kind, "labels");
  });

  it("the offline notice names the variables in words for people, not code", () => {
    const notice = resolveJudgeConfig({}, {}).offlineNotice ?? "";
    assert.match(notice, /offline judge \(approximate/);
    assert.match(notice, /set OPENAI_API_KEY \(or OPENAI_BASE_URL for a local server\) to use a real model/i);
    assert.match(notice, /EVALFRAME_API_KEY/);
    assert.ok(!notice.includes("{"), notice);
  });

  it("refuses bad values from the environment, naming the variable", () => {
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_CONCURRENCY: "abc" }), /^RangeError: EVALFRAME_CONCURRENCY must be a whole number of at least 1, in digits only \(e\.g\. EVALFRAME_CONCURRENCY=8, not " 8" or "\+8"\); got "abc"$/);
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_CONCURRENCY: "0" }), /EVALFRAME_CONCURRENCY must be a whole number of at least 1, .*; got "0"/);
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_CONCURRENCY: "2.5" }), /EVALFRAME_CONCURRENCY/);
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_JUDGE: "gpt" }), /EVALFRAME_JUDGE must be openai or offline, got "gpt"/);
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_JUDGE: "labels" }), /the labels judge needs label files/);
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_JUDGE: "openai" }), /needs an API key \(EVALFRAME_API_KEY or OPENAI_API_KEY/);
    // A bad URL from the environment is named with its variable; one given as an option needs no name.
    assert.throws(() => resolveJudgeConfig({}, { EVALFRAME_EMBEDDING_BASE_URL: "ftp://x" }), /embedding base URL \(from EVALFRAME_EMBEDDING_BASE_URL\) must be an http\(s\) URL/);
    assert.throws(() => resolveJudgeConfig({}, { OPENAI_BASE_URL: "ftp://x" }), /judge base URL \(from OPENAI_BASE_URL\) must be an http\(s\) URL/);
    assert.throws(() => resolveJudgeConfig({ baseURL: "ftp://x" }, {}), /^RangeError: judge base URL must be an http\(s\) URL/);
    // An option wins: a bad variable under it is not read.
    assert.equal(resolveJudgeConfig({ concurrency: 4, quiet: true }, { EVALFRAME_CONCURRENCY: "abc" }).concurrency, 4);
  });

  it("--no-cache (cache: false) wins over EVALFRAME_CACHE_DIR", () => {
    const config = resolveJudgeConfig({ cache: false, quiet: true }, { EVALFRAME_CACHE_DIR: "env-cache" });
    assert.equal(config.cacheDir, false);
    assert.equal(config.sources.cacheDir, "option");
  });

  it("a separate embeddings server: its own URL query; the chat key only on the same host; refuses user:password", () => {
    const split = resolveJudgeConfig(
      { quiet: true },
      { OPENAI_BASE_URL: "http://gpu1:8000/v1", OPENAI_API_KEY: CHAT_KEY, EVALFRAME_EMBEDDING_BASE_URL: "http://gpu2:8001/v1?token=abc123" },
    );
    assert.equal(split.separateEmbeddings, true);
    assert.equal(split.embeddingBaseURL, "http://gpu2:8001/v1");
    assert.deepEqual(split.embeddingQuery, { token: "abc123" });
    assert.deepEqual(split.query, {});
    assert.equal(split.embeddingApiKey, undefined, "the chat key is not sent to another host");
    const sameHost = resolveJudgeConfig({ quiet: true }, { OPENAI_BASE_URL: "https://res.example/openai/a", OPENAI_API_KEY: CHAT_KEY, EVALFRAME_EMBEDDING_BASE_URL: "https://res.example/openai/b" });
    assert.equal(sameHost.embeddingApiKey, CHAT_KEY);
    assert.equal(sameHost.sources.embeddingApiKey, "OPENAI_API_KEY");
    const together = resolveJudgeConfig({ quiet: true }, { OPENAI_API_KEY: CHAT_KEY });
    assert.equal(together.separateEmbeddings, false);
    assert.equal(together.embeddingBaseURL, together.baseURL);
    assert.throws(
      () => resolveJudgeConfig({}, { OPENAI_API_KEY: CHAT_KEY, EVALFRAME_EMBEDDING_BASE_URL: "http://user:pw-Secret9@gpu2:8001/v1" }),
      (error: unknown) => {
        assert.match(String(error), /embedding base URL .* user name or password .* EVALFRAME_EMBEDDING_API_KEY/);
        assert.ok(!String(error).includes("pw-Secret9"));
        return true;
      },
    );
  });
});

describe("describeJudgeConfig and maskSecret", () => {
  it("masks keys (at most the last 4 characters, only of a long key) and query values", () => {
    assert.equal(maskSecret(undefined), "not set");
    assert.equal(maskSecret(CHAT_KEY), "set (…0gH1)");
    assert.equal(maskSecret(SHORT_KEY), "set (hidden)");
    const config = resolveJudgeConfig(
      { quiet: true },
      { EVALFRAME_API_KEY: CHAT_KEY, OPENAI_BASE_URL: "http://gpu1:8000/v1?api-version=2024&token=tok-Hidden42", EVALFRAME_EMBEDDING_API_KEY: SHORT_KEY, EVALFRAME_EMBEDDING_BASE_URL: "http://gpu2:8001/v1" },
    );
    const rows = describeJudgeConfig(config, { model: "--model" });
    const text = JSON.stringify(rows);
    for (const secret of [CHAT_KEY, SHORT_KEY, "tok-Hidden42", "2024"]) assert.ok(!text.includes(secret), `${secret} is shown`);
    const byName = Object.fromEntries(rows.map((r) => [r.setting, r]));
    assert.deepEqual(byName["baseURL"], { setting: "baseURL", name: "base URL", value: "http://gpu1:8000/v1?api-version=…&token=…", from: "OPENAI_BASE_URL" });
    assert.deepEqual(byName["apiKey"], { setting: "apiKey", name: "API key", value: "set (…0gH1)", from: "EVALFRAME_API_KEY" });
    assert.equal(byName["embeddingApiKey"]!.value, "set (hidden)");
    assert.equal(byName["model"]!.from, "default");
  });
});

/** Runs `evalframe` in this process with the given environment. */
async function cli(args: readonly string[], env: EnvironmentVariables): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, env);
  return { code, out, err };
}

/** The "from" column of `evalframe config`'s table, by setting name. */
function fromColumn(out: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const line of out.split("\n").slice(2)) {
    if (line.trim() === "") break;
    const cells = line.split(/\s{2,}/);
    rows[cells[0]!] = cells.at(-1)!;
  }
  return rows;
}

describe("evalframe config: the same order on the command line, printed with its sources", () => {
  const full: EnvironmentVariables = {
    EVALFRAME_MODEL: "env-model",
    EVALFRAME_VISION_MODEL: "env-vision",
    EVALFRAME_EMBEDDING_MODEL: "env-embed",
    EVALFRAME_BASE_URL: "http://evalframe-host:2/v1",
    OPENAI_BASE_URL: "http://openai-host:3/v1",
    EVALFRAME_API_KEY: CHAT_KEY,
    OPENAI_API_KEY: "sk-openai-Ignored000000000000",
    EVALFRAME_EMBEDDING_BASE_URL: "http://embed-env:5/v1?key=qs-Secret77",
    EVALFRAME_EMBEDDING_API_KEY: EMBEDDING_KEY,
    EVALFRAME_CONCURRENCY: "5",
    EVALFRAME_MAX_TOKENS: "2048",
    EVALFRAME_CACHE_DIR: "env-cache",
    EVALFRAME_JUDGE: "openai",
  };

  it("flags win over EVALFRAME_*, which win over OPENAI_*, which win over the defaults", async () => {
    const flags = ["config", "--model", "flag-model", "--base-url", "http://flag-host:1/v1", "--concurrency", "7", "--max-tokens", "1024", "--timeout-ms", "300000", "--no-cache"];
    const withFlags = await cli(flags, full);
    assert.equal(withFlags.code, 0, withFlags.err);
    assert.deepEqual(fromColumn(withFlags.out), {
      judge: "EVALFRAME_JUDGE",
      model: "--model",
      "vision model": "EVALFRAME_VISION_MODEL",
      "embedding model": "EVALFRAME_EMBEDDING_MODEL",
      "base URL": "--base-url",
      "API key": "EVALFRAME_API_KEY",
      "embedding base URL": "EVALFRAME_EMBEDDING_BASE_URL",
      "embedding API key": "EVALFRAME_EMBEDDING_API_KEY",
      concurrency: "--concurrency",
      "max tokens a reply": "--max-tokens",
      "request timeout, ms": "--timeout-ms",
      cache: "--no-cache",
    });
    assert.match(withFlags.out, /^max tokens a reply\s+1024\s+--max-tokens$/m);
    assert.match(withFlags.out, /^model\s+flag-model\s+--model$/m);
    assert.match(withFlags.out, /^base URL\s+http:\/\/flag-host:1\/v1\s+--base-url$/m);

    const envOnly = await cli(["config"], full);
    assert.match(envOnly.out, /^model\s+env-model\s+EVALFRAME_MODEL$/m);
    assert.match(envOnly.out, /^base URL\s+http:\/\/evalframe-host:2\/v1\s+EVALFRAME_BASE_URL$/m);
    assert.match(envOnly.out, /^concurrency\s+5\s+EVALFRAME_CONCURRENCY$/m);
    assert.match(envOnly.out, /^max tokens a reply\s+2048\s+EVALFRAME_MAX_TOKENS$/m);
    assert.match(envOnly.out, /^cache\s+env-cache\s+EVALFRAME_CACHE_DIR$/m);

    const openaiOnly = await cli(["config"], { OPENAI_BASE_URL: "http://openai-host:3/v1", OPENAI_API_KEY: CHAT_KEY });
    assert.deepEqual(fromColumn(openaiOnly.out), {
      judge: "default",
      model: "default",
      "vision model": "default",
      "embedding model": "default",
      "base URL": "OPENAI_BASE_URL",
      "API key": "OPENAI_API_KEY",
      "embedding base URL": "OPENAI_BASE_URL",
      "embedding API key": "OPENAI_API_KEY",
      concurrency: "default",
      "max tokens a reply": "default",
      "request timeout, ms": "default",
      cache: "default",
    });
    assert.match(openaiOnly.out, /^max tokens a reply\s+the server's limit\s+default$/m);

    const nothing = await cli(["config"], {});
    assert.match(nothing.out, /^judge\s+offline\s+default$/m);
    assert.match(nothing.out, /^base URL\s+https:\/\/api\.openai\.com\/v1\s+default$/m);
    assert.match(nothing.out, /set OPENAI_API_KEY \(or OPENAI_BASE_URL for a local server\)/);
  });

  it("never prints a key or a query value, in the table or in --json", async () => {
    for (const args of [["config"], ["config", "--json"], ["config", "--embedding-base-url", "http://flag-embed:9/v1?sig=qs-Secret77"]]) {
      const run = await cli(args, full);
      assert.equal(run.code, 0, run.err);
      for (const secret of [CHAT_KEY, EMBEDDING_KEY, "qs-Secret77", "sk-openai-Ignored"]) {
        assert.ok(!run.out.includes(secret) && !run.err.includes(secret), `${secret} printed by ${args.join(" ")}`);
      }
    }
    const json = JSON.parse((await cli(["config", "--json"], full)).out) as Record<string, { value: string; from: string }>;
    assert.deepEqual(json["apiKey"], { value: "set (…0gH1)", from: "EVALFRAME_API_KEY" });
    assert.deepEqual(json["embeddingBaseURL"], { value: "http://embed-env:5/v1?key=…", from: "EVALFRAME_EMBEDDING_BASE_URL" });
    assert.deepEqual(json["model"], { value: "env-model", from: "EVALFRAME_MODEL" });
  });

  it("--json gives numbers as numbers, and the embeddings' base URL the flag it came from", async () => {
    const run = await cli(["config", "--json", "--base-url", "http://localhost:9/v1", "--concurrency", "5"], {});
    assert.equal(run.code, 0, run.err);
    const json = JSON.parse(run.out) as Record<string, { value: unknown; from: string }>;
    assert.deepEqual(json["concurrency"], { value: 5, from: "--concurrency" });
    assert.deepEqual(json["maxTokens"], { value: null, from: "default" });
    assert.deepEqual(json["embeddingBaseURL"], { value: "http://localhost:9/v1", from: "--base-url" });
  });

  it("a bad value is a usage error (exit 2) naming the flag or the variable", async () => {
    const bad = await cli(["config"], { EVALFRAME_CONCURRENCY: "abc" });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /EVALFRAME_CONCURRENCY must be a whole number of at least 1, in digits only .*; got "abc"/);
    // Read by the flags' own rule: what --concurrency refuses, the variable refuses too.
    for (const text of [" 8", "+8", "8 ", "8.0", "8e0", "0x10"]) {
      const flagRun = await cli(["config", "--concurrency", text], {});
      const envRun = await cli(["config"], { EVALFRAME_CONCURRENCY: text });
      assert.equal(flagRun.code, 2, text);
      assert.equal(envRun.code, 2, `EVALFRAME_CONCURRENCY=${JSON.stringify(text)}: ${envRun.out}`);
      assert.match(envRun.err, new RegExp(`^evalframe: EVALFRAME_CONCURRENCY must be a whole number of at least 1, in digits only .*; got ${JSON.stringify(text).replace(/[.+]/g, "\\$&")}`));
      assert.equal((await cli(["config"], { EVALFRAME_MAX_TOKENS: text })).code, 2, `EVALFRAME_MAX_TOKENS=${JSON.stringify(text)}`);
    }
    const noServer = await cli(["config"], { EVALFRAME_JUDGE: "openai" });
    assert.equal(noServer.code, 2);
    assert.match(noServer.err, /EVALFRAME_JUDGE=openai needs OPENAI_API_KEY or EVALFRAME_API_KEY/);
    const badFlag = await cli(["config", "--concurrency", "x"], {});
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.err, /--concurrency must be a whole number/);
    const badTokens = await cli(["config"], { EVALFRAME_MAX_TOKENS: "0" });
    assert.equal(badTokens.code, 2);
    assert.match(badTokens.err, /EVALFRAME_MAX_TOKENS must be a whole number of at least 1, in digits only .*; got "0"/);
    const badTokensFlag = await cli(["config", "--max-tokens", "many"], {});
    assert.equal(badTokensFlag.code, 2);
    assert.match(badTokensFlag.err, /--max-tokens must be a whole number from 1 to 9007199254740991, in digits only \(e\.g\. --max-tokens 1024\); got "many"/);
  });

  it("score --judge openai accepts EVALFRAME_API_KEY or EVALFRAME_BASE_URL (it fails on the missing file, not on the key)", async () => {
    const dir = tempDir();
    const missing = path.join(dir, "missing.csv");
    const none = await cli(["score", missing, "--out", path.join(dir, "s.csv"), "--judge", "openai"], {});
    assert.equal(none.code, 2);
    assert.match(none.err, /--judge openai needs OPENAI_API_KEY or EVALFRAME_API_KEY/);
    for (const env of [{ EVALFRAME_API_KEY: CHAT_KEY }, { EVALFRAME_BASE_URL: "http://127.0.0.1:9/v1" }]) {
      const run = await cli(["score", missing, "--out", path.join(dir, "s.csv"), "--judge", "openai"], env);
      assert.equal(run.code, 1, run.err);
      assert.doesNotMatch(run.err, /needs OPENAI_API_KEY/);
    }
  });
});

describe("chat and embeddings on two servers, for real over HTTP", () => {
  const chat = useFakeOpenAI(() => ({ chat: echoChat }));
  const embeddings = useFakeOpenAI(() => ({}));

  it("sends each server only its kind of request, each with its own key; the label shows both", async () => {
    const judge = createJudge(
      { judge: "openai", embeddingBaseURL: embeddings.url(), cache: false },
      { EVALFRAME_BASE_URL: chat.url(), EVALFRAME_API_KEY: CHAT_KEY, EVALFRAME_EMBEDDING_API_KEY: EMBEDDING_KEY },
    );
    assert.equal((await judge.complete(echoRequest("hello"))).answer, "echo: hello");
    const vectors = await judge.embed(["one", "two", "one"]);
    assert.equal(vectors.length, 3);
    assert.ok(chat.server.requests.length > 0 && chat.server.requests.every((r) => r.path === "/v1/chat/completions"), "the chat server gets chat only");
    assert.ok(embeddings.server.requests.length > 0 && embeddings.server.requests.every((r) => r.path === "/v1/embeddings"), "the embeddings server gets embeddings only");
    assert.ok(chat.server.requests.every((r) => r.headers["authorization"] === `Bearer ${CHAT_KEY}`));
    assert.ok(embeddings.server.requests.every((r) => r.headers["authorization"] === `Bearer ${EMBEDDING_KEY}`));
    assert.equal(judge.label, `gpt-4o-mini @ ${new URL(chat.url()).host} (embeddings: text-embedding-3-small @ ${new URL(embeddings.url()).host})`);
  });

  it("never sends the chat key to another host, and keeps secrets out of an embeddings error", async () => {
    const judge = createJudge({ judge: "openai", apiKey: CHAT_KEY, baseURL: chat.url(), embeddingBaseURL: embeddings.url(), cache: false, maxRetries: 0 }, {});
    await judge.embed(["x"]);
    assert.equal(embeddings.server.requests[0]!.headers["authorization"], "Bearer no-key-needed");
    embeddings.server.options.fault = () => ({ kind: "status", status: 400, body: { error: { message: `bad key ${EMBEDDING_KEY}` } } });
    const keyed = createJudge({ judge: "openai", baseURL: chat.url(), embeddingBaseURL: embeddings.url(), cache: false, maxRetries: 0 }, { EVALFRAME_EMBEDDING_API_KEY: EMBEDDING_KEY });
    await assert.rejects(keyed.embed(["y"]), (error: unknown) => {
      assert.ok(error instanceof JudgeError);
      assert.match(error.message, new RegExp(`HTTP 400 from ${embeddings.url().replace(/[.]/g, "\\.")}`));
      assert.ok(!error.message.includes(EMBEDDING_KEY), error.message);
      return true;
    });
  });

  it("keeps asking the chat server while the embeddings server says to wait: each server has its own pace", async () => {
    // The embeddings server refuses its first request with "come back in 3 s"; chat requests meanwhile go out at once.
    let refused = false;
    embeddings.server.options.fault = () => (refused ? undefined : ((refused = true), { kind: "status", status: 429, headers: { "retry-after-ms": "3000" } }));
    const judge = createJudge({ judge: "openai", baseURL: chat.url(), embeddingBaseURL: embeddings.url(), cache: false, retryBaseDelayMs: 1 }, {});
    const embedded = judge.embed(["waits"]);
    while (embeddings.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const refusal = embeddings.server.requests[0]!.receivedAt;
    // Time for the client to read the 429 (a shared scheduler would now hold every new request for 3 s).
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let i = 0; i < 4; i++) assert.equal((await judge.complete(echoRequest(`c${i}`))).answer, `echo: c${i}`);
    assert.equal((await embedded).length, 1);
    const retried = embeddings.server.requests[1]!.receivedAt;
    assert.ok(retried - refusal >= 2900, "the embeddings server was given the time it asked for");
    const late = chat.server.requests.filter((r) => r.receivedAt - refusal >= 2000);
    assert.equal(late.length, 0, "no chat request waited for the embeddings server's pause");
  });

  it("keys cached embeddings by the server that made them", async () => {
    const dir = tempDir();
    const viaChat = createJudge({ judge: "openai", baseURL: chat.url(), cacheDir: dir }, {});
    await viaChat.embed(["cached text"]);
    assert.equal(chat.server.embeddingRequests().length, 1);
    const viaOther = createJudge({ judge: "openai", baseURL: chat.url(), embeddingBaseURL: embeddings.url(), cacheDir: dir }, {});
    await viaOther.embed(["cached text"]);
    assert.equal(embeddings.server.embeddingRequests().length, 1, "another server's embedding is not a cache hit");
    await viaOther.embed(["cached text"]);
    assert.equal(embeddings.server.embeddingRequests().length, 1, "its own is");
  });

  it("stops asking an embeddings server that is not there, even when the chat server answers", async () => {
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const judge = createJudge({ judge: "openai", baseURL: chat.url(), embeddingBaseURL: `http://127.0.0.1:${port}/v1`, cache: false, retryBaseDelayMs: 20 }, {});
    await judge.complete(echoRequest("the chat server answers"));
    await assert.rejects(judge.embed(["a"]), /could not reach http:\/\/127\.0\.0\.1:\d+\/v1 \(connect ECONNREFUSED .*\): 3 connections failed .* is the embeddings server running, and is its base URL \(--embedding-base-url or EVALFRAME_EMBEDDING_BASE_URL\) right\?/);
    await assert.rejects(judge.embed(["b"]), /3 connections failed/, "later requests fail at once");
    assert.ok(judge.usage.summary().retries <= 3, `${judge.usage.summary().retries} retries`);
    assert.equal((await judge.complete(echoRequest("still"))).answer, "echo: still", "the chat server is still used");
  });

  it("evalframe score with EVALFRAME_* variables and --embedding-base-url: the models and servers asked for, no key in any output or file", async () => {
    chat.server.options = { chat: scriptedAnswerCorrectness };
    embeddings.server.options = { embed: scriptedEmbedding };
    const dir = tempDir();
    const input = path.join(dir, "qa.csv");
    writeFileSync(input, "user_input,response,reference\nWhere is Paris?,Paris is in France.,Paris is in France.\nWho wrote Hamlet?,Marlowe wrote it.,Shakespeare wrote Hamlet.\n");
    const out = path.join(dir, "scored.csv");
    const run = await cli(["score", input, "--out", out, "--embedding-base-url", embeddings.url(), "--no-progress", "--cache-dir", path.join(dir, "cache")], {
      EVALFRAME_BASE_URL: chat.url(),
      EVALFRAME_API_KEY: CHAT_KEY,
      EVALFRAME_MODEL: "llama-test",
      EVALFRAME_EMBEDDING_MODEL: "embed-test",
      EVALFRAME_EMBEDDING_API_KEY: EMBEDDING_KEY,
      OPENAI_API_KEY: "sk-never-Used0000000000000000",
    });
    assert.equal(run.code, 0, run.err);
    assert.ok(chat.server.chatRequests().length >= 2 && chat.server.requests.every((r) => r.path === "/v1/chat/completions" && r.body.model === "llama-test"));
    assert.ok(chat.server.requests.every((r) => r.headers["authorization"] === `Bearer ${CHAT_KEY}`), "EVALFRAME_API_KEY wins over OPENAI_API_KEY");
    assert.ok(embeddings.server.requests.length >= 1 && embeddings.server.requests.every((r) => r.path === "/v1/embeddings" && r.body.model === "embed-test"));
    assert.ok(embeddings.server.requests.every((r) => r.headers["authorization"] === `Bearer ${EMBEDDING_KEY}`));
    assert.match(readFileSync(out, "utf8"), /llama-test @ 127\.0\.0\.1:\d+ \(embeddings: embed-test @ 127\.0\.0\.1:\d+\)/);
    for (const file of filesUnder(dir)) {
      const text = readFileSync(file, "utf8");
      for (const secret of [CHAT_KEY, EMBEDDING_KEY]) assert.ok(!text.includes(secret), `${path.relative(dir, file)} holds a key`);
    }
    for (const secret of [CHAT_KEY, EMBEDDING_KEY]) assert.ok(!run.out.includes(secret) && !run.err.includes(secret));
  });
});
