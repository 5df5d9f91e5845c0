/**
 * The judge flags of the command line (`score`, `config`): read into
 * `JudgeOptions` in one place, checked against the environment the same way
 * `createJudge` reads it. The API key never comes from a flag, only from the
 * environment.
 */
import { estimateOnlyOptions, openAIWithoutAccess, resolveJudgeConfig, type EnvironmentVariables, type JudgeKind, type JudgeOptions, type JudgeSettingName, type ResolvedJudgeConfig } from "../judge/config";
import { choice, flag, stringOption, wholeNumber, type OptionSpec, type ParsedArgs } from "./args";
import { UsageError, usageOnError } from "./errors";
import { checkLabelsJudge, labelFiles, LABELS_OPTION } from "./labels";
import { unreadVariables, unreadVariablesWarning } from "./env-hints";

const s: OptionSpec = { type: "string" };

/** The judge flags, as `parseCommand` takes them. */
export const JUDGE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  judge: s,
  labels: LABELS_OPTION,
  model: s,
  "vision-model": s,
  "embedding-model": s,
  "base-url": s,
  "embedding-base-url": s,
  concurrency: s,
  "max-tokens": s,
  "timeout-ms": s,
  "cache-dir": s,
  "no-cache": { type: "boolean" },
};

/** The text flags that set a judge option as given. */
const TEXT_FLAGS: readonly [flag: string, option: "model" | "visionModel" | "embeddingModel" | "baseURL" | "embeddingBaseURL" | "cacheDir"][] = [
  ["model", "model"],
  ["vision-model", "visionModel"],
  ["embedding-model", "embeddingModel"],
  ["base-url", "baseURL"],
  ["embedding-base-url", "embeddingBaseURL"],
  ["cache-dir", "cacheDir"],
];

/** The judge options the flags give, and what they resolve to with the environment. */
export interface JudgeFlags {
  /** The options to pass to `createJudge` (with the environment); `labels` holds the label files' paths. */
  options: JudgeOptions;
  /** The label files of `--labels`, if given (read them before creating the judge). */
  labels: string[] | undefined;
  /** The options resolved with the environment (quiet: no notice is printed). */
  config: ResolvedJudgeConfig;
  /** The flag that set each setting, for showing where a value came from. */
  flags: Partial<Record<JudgeSettingName, string>>;
  /**
   * One line (no line break) naming variables of the environment that look
   * meant for the judge but are not read (`EVALFRAME_MODLE`, `OPENAI_API_BASE`),
   * for the command to print on stderr; undefined when there are none.
   */
  warning: string | undefined;
}

/**
 * Reads the judge flags of a command and checks them with the environment,
 * before any file is read or any call is paid for: a bad value is a usage
 * error naming the flag or the environment variable.
 */
export async function judgeFlags(command: string, args: ParsedArgs, env: EnvironmentVariables, { estimateOnly = false }: { estimateOnly?: boolean } = {}): Promise<JudgeFlags> {
  const c = command;
  const kind = choice<JudgeKind>(c, "judge", stringOption(args, "judge"), ["openai", "offline", "labels"]);
  const labels = labelFiles(c, args);
  checkLabelsJudge(c, kind, labels);
  const options: JudgeOptions = {};
  const flags: Partial<Record<JudgeSettingName, string>> = {};
  if (kind !== undefined) {
    options.judge = kind;
    flags.judge = "--judge";
  } else if (labels !== undefined) {
    flags.judge = "--labels";
  }
  if (labels !== undefined) options.labels = labels;
  for (const [name, key] of TEXT_FLAGS) {
    const v = stringOption(args, name);
    if (v === undefined) continue;
    if (v.trim() === "") throw new UsageError(`${c}: --${name} is empty`, c);
    options[key] = v;
    flags[key] = `--${name}`;
  }
  const concurrency = wholeNumber(c, "concurrency", stringOption(args, "concurrency"), 1, { example: "8" });
  if (concurrency !== undefined) {
    options.concurrency = concurrency;
    flags.concurrency = "--concurrency";
  }
  const maxTokens = wholeNumber(c, "max-tokens", stringOption(args, "max-tokens"), 1, { example: "1024" });
  if (maxTokens !== undefined) {
    options.maxTokens = maxTokens;
    flags.maxTokens = "--max-tokens";
  }
  const timeoutMs = wholeNumber(c, "timeout-ms", stringOption(args, "timeout-ms"), 1, { example: "300000" });
  if (timeoutMs !== undefined) {
    options.timeoutMs = timeoutMs;
    flags.timeoutMs = "--timeout-ms";
  }
  if (flag(args, "no-cache")) {
    options.cache = false;
    flags.cacheDir = "--no-cache";
  }
  // Variables that look meant for the judge but are not read; other tools' names for the key and server
  // only when the judge may be an OpenAI-compatible one (not an offline or labels judge chosen by name).
  const envJudge = env["EVALFRAME_JUDGE"]?.trim();
  const chosen = kind ?? (labels !== undefined ? "labels" : envJudge === "offline" || envJudge === "labels" ? envJudge : undefined);
  const given = new Set<"baseURL" | "model">([...(options.baseURL !== undefined ? (["baseURL"] as const) : []), ...(options.model !== undefined ? (["model"] as const) : [])]);
  const hints = unreadVariables(env, { openai: chosen !== "offline" && chosen !== "labels", given });
  // An estimate (--dry-run) sends nothing, so it prices an OpenAI-compatible judge without a key.
  if (estimateOnly) Object.assign(options, estimateOnlyOptions(options, env));
  else if (openAIWithoutAccess(options, env)) {
    throw new UsageError(
      `${c}: ${kind === "openai" ? "--judge openai" : "EVALFRAME_JUDGE=openai"} needs OPENAI_API_KEY or EVALFRAME_API_KEY in the environment ` +
        `(or --base-url, EVALFRAME_BASE_URL or OPENAI_BASE_URL for a server that needs no key)${hints.length > 0 ? `; ${hints.join("; ")}` : ""}`,
      c,
    );
  }
  const config = await usageOnError(() => resolveJudgeConfig({ ...options, quiet: true }, env), c);
  const leak = openAIKeyElsewhere(config, flags);
  if (leak !== undefined) hints.push(leak);
  return { options, labels, config, flags, warning: unreadVariablesWarning(hints) };
}

/**
 * A warning when OPENAI_API_KEY (most often an OpenAI key, set for other
 * tools) would be sent to another machine's server that is not OpenAI's and
 * was not set beside it in OPENAI_BASE_URL, but by a flag or
 * EVALFRAME_BASE_URL; undefined otherwise. The key is never shown.
 */
function openAIKeyElsewhere(config: ResolvedJudgeConfig, flags: Partial<Record<JudgeSettingName, string>>): string | undefined {
  if (config.kind !== "openai" || config.sources.apiKey !== "OPENAI_API_KEY") return undefined;
  const from = config.sources.baseURL;
  if (from === "OPENAI_BASE_URL" || from === "default") return undefined;
  const host = new URL(config.baseURL).host;
  const hostname = new URL(config.baseURL).hostname;
  // OpenAI's own, or this machine (a key sent there goes nowhere else).
  if (/(^|\.)openai\.com$/i.test(hostname) || /^(localhost|127(\.\d+){3}|\[::1\])$/i.test(hostname)) return undefined;
  return (
    `OPENAI_API_KEY is sent to ${host} (the base URL from ${from === "option" ? (flags.baseURL ?? "an option") : from}), which is not OpenAI's; ` +
    `if it is an OpenAI key, set EVALFRAME_API_KEY to this server's key instead (any text, if the server needs none)`
  );
}
