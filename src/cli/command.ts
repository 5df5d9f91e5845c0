/** What a subcommand is: arguments, writers and environment in, an exit code out. */
import type { EnvironmentVariables } from "../judge/config";

/** Where a command writes: results to `out` (stdout), messages to `err` (stderr). */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

/** A subcommand: its arguments (and the environment the judge settings are read from) in, an exit code out. */
export type Command = (argv: readonly string[], io: CliIO, env: EnvironmentVariables) => Promise<number>;
