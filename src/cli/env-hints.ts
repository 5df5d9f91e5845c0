/**
 * Environment variables that look like judge settings but are not read: an
 * `EVALFRAME_*` name evalframe does not know (`EVALFRAME_MODLE`), or a name
 * other tools use for the OpenAI key or server (`OPENAI_API_BASE`,
 * `OPENAI_KEY`) while the one evalframe reads is unset. Without a word, such
 * a run would take the offline judge, or send the key to api.openai.com
 * instead of the server meant. Only names are ever shown, never values.
 */
import { JUDGE_ENV_VARS, type EnvironmentVariables } from "../judge/config";
import { editDistance } from "./args";

/** Every `EVALFRAME_*` variable the package reads: the judge's settings and the command line's own. */
const KNOWN_EVALFRAME = new Set<string>([
  ...Object.values(JUDGE_ENV_VARS).flat(),
  "EVALFRAME_DEBUG",
  // Read by this repository's own test and benchmark scripts, not by the package: never a typo.
  "EVALFRAME_TEST_GROUPS",
  "EVALFRAME_TEST_CONCURRENCY",
  "EVALFRAME_BENCH_BEFORE",
  "EVALFRAME_CVD_DIR",
]);

/** Names other tools give the OpenAI key or server, and the variables evalframe reads for it. */
const OTHER_TOOLS_NAMES: readonly { setting: "baseURL" | "apiKey" | "model"; names: readonly string[]; reads: readonly string[]; what: string }[] = [
  { setting: "baseURL", names: ["OPENAI_API_BASE", "OPENAI_BASE", "OPENAI_API_URL", "OPENAI_URL", "OPENAI_ENDPOINT", "OPENAI_API_ENDPOINT", "OPENAI_API_HOST"], reads: JUDGE_ENV_VARS.baseURL, what: "the server" },
  { setting: "apiKey", names: ["OPENAI_KEY", "OPENAI_APIKEY", "OPENAI_TOKEN", "OPENAI_API_TOKEN", "OPENAI_SECRET_KEY"], reads: JUDGE_ENV_VARS.apiKey, what: "the key" },
  { setting: "model", names: ["OPENAI_MODEL", "OPENAI_MODEL_NAME", "OPENAI_CHAT_MODEL"], reads: JUDGE_ENV_VARS.model, what: "the chat model" },
];

/** A variable counts as set when it holds more than spaces, as the judge reads it. */
function isSet(env: EnvironmentVariables, name: string): boolean {
  const value = env[name];
  return value !== undefined && value.trim() !== "";
}

/** "A", "A or B", "A, B or C" (`word` "and": "A and B"). */
function either(names: readonly string[], word = "or"): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} ${word} ${names.at(-1)!}`;
}

/** Options of {@link unreadVariables}. */
export interface UnreadVariablesOptions {
  /**
   * Whether names of other tools for the OpenAI key, server and model are
   * checked too (default true); false when an offline or labels judge was
   * chosen, which reads none of them.
   */
  openai?: boolean;
  /** Settings given by a flag (`--base-url`, `--model`): another tool's variable for them is no matter then. */
  given?: ReadonlySet<"baseURL" | "model">;
}

/**
 * One sentence per variable set in `env` that evalframe does not read but
 * that was likely meant for it (each naming the variable to use instead),
 * or an empty list. Values are never shown.
 *
 * @example
 * unreadVariables({ EVALFRAME_MODLE: "llama3.1" });
 * // ["EVALFRAME_MODLE is set, but evalframe reads no such variable (did you mean EVALFRAME_MODEL?)"]
 */
export function unreadVariables(env: EnvironmentVariables, options: UnreadVariablesOptions = {}): string[] {
  const hints: string[] = [];
  const known = [...KNOWN_EVALFRAME];
  for (const name of Object.keys(env).sort()) {
    if (!/^EVALFRAME_/i.test(name) || KNOWN_EVALFRAME.has(name) || !isSet(env, name)) continue;
    const upper = name.toUpperCase();
    if (KNOWN_EVALFRAME.has(upper)) {
      hints.push(`${name} is set, but variable names are read in capitals: ${upper}`);
      continue;
    }
    let near: { name: string; distance: number } | undefined;
    const typed = upper.slice("EVALFRAME_".length);
    for (const candidate of known) {
      const wanted = candidate.slice("EVALFRAME_".length);
      // EVALFRAME_OPENAI_API_KEY, EVALFRAME_CHAT_MODEL: a known name with a word in front (the longest such wins).
      // EVALFRAME_CACHE: the start of a known name.
      const distance = typed.endsWith(`_${wanted}`) ? 1.5 - wanted.length / 100 : wanted.startsWith(`${typed}_`) ? 1.6 : editDistance(typed, wanted);
      if (distance <= 3 && (near === undefined || distance < near.distance)) near = { name: candidate, distance };
    }
    hints.push(`${name} is set, but evalframe reads no such variable (${near ? `did you mean ${near.name}?` : `the judge's are ${Object.values(JUDGE_ENV_VARS).flat().filter((n) => n.startsWith("EVALFRAME_")).join(", ")}`})`);
  }
  if (options.openai !== false) {
    for (const group of OTHER_TOOLS_NAMES) {
      if (group.reads.some((n) => isSet(env, n)) || options.given?.has(group.setting as "baseURL" | "model")) continue;
      const given = group.names.filter((n) => isSet(env, n));
      if (given.length === 0) continue;
      hints.push(`${either(given, "and")} ${given.length === 1 ? "is" : "are"} set, but evalframe reads ${group.what} from ${either(group.reads)}, which ${group.reads.length === 1 ? "is" : "are"} not set`);
    }
  }
  return hints;
}

/** The warning line of {@link unreadVariables}' sentences (no line break), or undefined when there are none. */
export function unreadVariablesWarning(hints: readonly string[]): string | undefined {
  return hints.length === 0 ? undefined : `evalframe: warning: ${hints.join("; ")}`;
}
