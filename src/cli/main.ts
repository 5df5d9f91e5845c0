/**
 * `runCli`: the `evalframe` command line as a function — arguments in, exit
 * code out, output through the given writers. `src/cli.ts` is the
 * executable around it.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { CliIO } from "./command";
import { reportError, UsageError } from "./errors";
import { COMMAND_HELP, mainHelp } from "./help";
import { printable } from "../display/printable";

export type { CliIO } from "./command";

/** The subcommands, in the order help lists them. */
const COMMAND_NAMES = ["score", "summarize", "compare", "diff", "chart", "report", "batch", "calibrate", "config"] as const;

/** The commands module, loaded only when a command runs (it loads danfojs: `--help` and `--version` stay instant). */
function loadCommands(): typeof import("./commands") {
  return require("./commands") as typeof import("./commands");
}

/** The version in evalframe's package.json. */
export function cliVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version?: unknown };
    return typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    return "unknown";
  }
}

const STDIO: CliIO = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  get terminal() {
    return process.stderr.isTTY ? process.stderr : undefined;
  },
};

const HELP_FLAGS = new Set(["--help", "-h"]);

/**
 * Runs the `evalframe` command line and resolves to its exit code: 0 done,
 * 1 input that cannot be read or used or a run that failed as a whole,
 * 2 bad usage. Errors are printed as one line on `io.err`, never thrown.
 * Judge settings are read from `env` (default `process.env`) as `createJudge`
 * reads them.
 *
 * @example
 * const code = await runCli(["summarize", "out/scored.csv", "--by", "model"]);
 * await runCli(["config", "--json"], undefined, { EVALFRAME_MODEL: "llama3.1", OPENAI_BASE_URL: "http://localhost:11434/v1" });
 */
export async function runCli(argv: readonly string[], output: CliIO = STDIO, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  // Everything the command line prints goes through here: user data cannot reach the terminal raw.
  // The progress bar (our own words and numbers, with the escape codes that redraw it) goes to the terminal as it is.
  const io: CliIO = { out: (text) => output.out(printable(text)), err: (text) => output.err(printable(text)), terminal: output.terminal };
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.err(mainHelp());
      return 2;
    }
    if (HELP_FLAGS.has(first) || first === "help") {
      const topic = rest[0];
      io.out(topic !== undefined && COMMAND_HELP[topic] !== undefined ? COMMAND_HELP[topic]! : mainHelp());
      return 0;
    }
    if (first === "--version" || first === "-V") {
      io.out(`${cliVersion()}\n`);
      return 0;
    }
    if (first.startsWith("-")) throw new UsageError(`unknown option ${first}; give a command first: ${COMMAND_NAMES.join(", ")}`);
    if (!(COMMAND_NAMES as readonly string[]).includes(first)) throw new UsageError(`unknown command "${first}"; the commands are ${COMMAND_NAMES.join(", ")}`);
    if (rest.some((a) => HELP_FLAGS.has(a))) {
      io.out(COMMAND_HELP[first] ?? mainHelp());
      return 0;
    }
    const command = loadCommands().COMMANDS[first]!;
    return await command(rest, io, env);
  } catch (error) {
    return reportError(error, io.err, env);
  }
}
