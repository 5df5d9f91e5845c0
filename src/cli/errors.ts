/**
 * How the command line fails: bad usage (exit 2), input it cannot read or
 * use and run-level failures (exit 1, one line), and anything unexpected
 * (exit 1, one line and a hint to rerun with EVALFRAME_DEBUG=1 for the stack).
 * Every line is scrubbed of secrets.
 */
import { cliMessageOf } from "../dataset/fix-hint";
import { redactSecrets, type EnvironmentVariables } from "../judge/config";

/** Exit codes of the `evalframe` command. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Bad flags or arguments: exit 2, one line and where to find help. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The subcommand whose --help to point at, if any. */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** Input that cannot be read, parsed or used, or a run that failed as a whole: exit 1, one line. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliFailure";
  }
}

/** Runs `step`, turning any error it throws into a {@link CliFailure} with the same message. */
export async function failOnError<T>(step: () => T | Promise<T>, prefix = ""): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof UsageError || error instanceof CliFailure) throw error;
    const message = cliMessageOf(error);
    // A message that names its file already ("x.csv: …") is not given the file again.
    throw new CliFailure(prefix !== "" && message.startsWith(prefix) ? message : prefix + message);
  }
}

/** Runs `step`, turning any error it throws into a {@link UsageError} (option values a library function refused). */
export async function usageOnError<T>(step: () => T | Promise<T>, command?: string): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof UsageError || error instanceof CliFailure) throw error;
    throw new UsageError(cliMessageOf(error), command);
  }
}

/** Variables that hold API keys. */
const KEY_VARIABLES = ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "EVALFRAME_API_KEY", "EVALFRAME_EMBEDDING_API_KEY"];

/** Secrets that must never be printed: the API keys of the process's environment and of the one the command was given. */
function secrets(env: EnvironmentVariables): (string | undefined)[] {
  return KEY_VARIABLES.flatMap((name) => [process.env[name], env[name]]);
}

/** Text made safe to print: secrets removed (the keys of `env` too, the environment `runCli` was given). */
export function scrub(text: string, env: EnvironmentVariables = process.env): string {
  return redactSecrets(text, secrets(env));
}

/** One line: line breaks folded into spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/**
 * Reports an error on stderr and returns the exit code: usage errors and
 * failures as one line; anything else as one line plus a hint (or the stack
 * with EVALFRAME_DEBUG=1). API keys of the process's environment and of
 * `env` are removed.
 */
export function reportError(error: unknown, write: (text: string) => void, env: EnvironmentVariables = process.env): number {
  const debug = process.env["EVALFRAME_DEBUG"] === "1";
  const text = cliMessageOf(error);
  const clean = (t: string): string => scrub(t, env);
  if (error instanceof UsageError) {
    const help = error.command ? `evalframe ${error.command} --help` : "evalframe --help";
    write(`evalframe: ${clean(oneLine(text))} (see ${help})\n`);
    if (debug && error.stack) write(`${clean(error.stack)}\n`);
    return EXIT.usage;
  }
  if (error instanceof CliFailure) {
    write(`evalframe: ${clean(oneLine(text))}\n`);
    if (debug && error.stack) write(`${clean(error.stack)}\n`);
    return EXIT.failure;
  }
  write(`evalframe: unexpected error: ${clean(oneLine(text))}\n`);
  if (debug && error instanceof Error && error.stack) write(`${clean(error.stack)}\n`);
  else write("run with EVALFRAME_DEBUG=1 for the stack\n");
  return EXIT.failure;
}
