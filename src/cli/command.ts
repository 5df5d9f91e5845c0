/** What a subcommand is: arguments, writers and environment in, an exit code out. */
import type { EnvironmentVariables } from "../judge/config";
import type { ProgressStream } from "../judge/progress";

/**
 * Where a command writes: results to `out` (stdout), messages to `err`
 * (stderr), and a progress bar to `terminal` when there is one.
 */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /**
   * The terminal `err` shows on, if it is one: `score` redraws its progress
   * bar there in place. Without it, progress goes through `err` as lines (a
   * line at every tenth, and once a minute at the least), as a CI log wants.
   */
  terminal?: ProgressStream | undefined;
}

/** A subcommand: its arguments (and the environment the judge settings are read from) in, an exit code out. */
export type Command = (argv: readonly string[], io: CliIO, env: EnvironmentVariables) => Promise<number>;
