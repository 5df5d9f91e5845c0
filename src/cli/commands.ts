/**
 * The subcommands of `evalframe`, one file each, and their registry. Each checks its flags first (a bad flag exits 2 before any file is read or any call is paid for), then reads its input (a problem there exits 1 with one line), then does its work.
 */
import type { Command } from "./command";
import { batchCommand } from "./batch-status";
import { calibrateCommand } from "./calibrate";
import { chartCommand } from "./chart";
import { compareCommand } from "./compare";
import { configCommand } from "./config";
import { diffCommand } from "./diff";
import { reportCommand } from "./report";
import { scoreCommand } from "./score";
import { summarizeCommand } from "./summarize";

export type { CliIO, Command } from "./command";
export { CHART_KINDS } from "./chart";

/** Every subcommand by name. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  score: scoreCommand,
  summarize: summarizeCommand,
  compare: compareCommand,
  chart: chartCommand,
  report: reportCommand,
  batch: batchCommand,
  calibrate: calibrateCommand,
  diff: diffCommand,
  config: configCommand,
};
