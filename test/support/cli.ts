/** Running the command line in-process, with what it prints captured. */
import { runCli } from "../../src/cli/main";

/** The exit code and everything printed on each stream. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs `evalframe <args>` in this process and captures its output. `env` is
 * where the command reads its judge settings (default `process.env`), so a
 * test gives its own settings without touching the process environment.
 */
export async function runCliCaptured(args: readonly string[], env?: Readonly<Record<string, string | undefined>>): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, env);
  return { code, out, err };
}
