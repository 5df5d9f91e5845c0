/** Running the command line in-process, with what it prints captured. */
import { runCli } from "../../src/cli/main";

/** The exit code and everything printed on each stream. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `evalframe <args>` in this process and captures its output. */
export async function runCliCaptured(args: readonly string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}
