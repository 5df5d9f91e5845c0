/**
 * `evalframe batch status`: what the batch folder recorded.
 */
import { flag, parseCommand, stringOption } from "./args";
import { failOnError, UsageError } from "./errors";
import type { Command } from "./command";
import { runtime, batchRuntime, s, b } from "./command-support";
import { JUDGE_OPTIONS, judgeFlags } from "./judge-flags";

/** `evalframe batch status`: where each batch of a batch folder stands. */
export const batchCommand: Command = async (argv, io, env) => {
  const c = "batch";
  const [sub, ...rest] = argv;
  if (sub !== "status") throw new UsageError(`${c}: the only subcommand is "status" (evalframe batch status --batch-dir DIR)`, c);
  const args = parseCommand(c, rest, { "batch-dir": s, live: b, ...JUDGE_OPTIONS });
  const dir = stringOption(args, "batch-dir") ?? ".evalframe-batch";
  const { batchStatus, batchFolderHolder } = batchRuntime();
  const { formatTable, createJudge } = runtime();
  // --live asks the Batches API: the server and key come from the judge flags and the given environment.
  const live = flag(args, "live") ? { judge: createJudge({ ...(await judgeFlags(c, args, env)).options, judge: "openai", quiet: true }, env) } : {};
  const batches = await failOnError(() => batchStatus(dir, live), `${dir}: `);
  if (batches.length === 0) {
    io.out(`${dir}: no batch submitted yet\n`);
    return 0;
  }
  // A run holding the folder now (its lock file): said, so that a second run is not started in the same folder.
  const holder = await batchFolderHolder(dir);
  if (holder?.gone) io.out(`${dir}: its lock was left by process ${String(holder.pid ?? "?")} (since ${String(holder.since ?? "?")}), which no longer runs: the next run takes the folder over and resumes its batches\n`);
  else if (holder) io.out(`${dir}: in use by the batch run of process ${String(holder.pid ?? "?")} on ${String(holder.host ?? "?")} since ${String(holder.since ?? "?")}\n`);
  io.out(`${formatTable(batches.map((b) => ({ stage: b.stage, endpoint: b.endpoint, batch: b.batchId || "(uploaded, not created)", lines: b.lines, status: b.status, applied: b.applied ? "yes" : "no", submitted: b.submittedAt, ...(batches.some((x) => x.adoptedFrom !== undefined) ? { "submitted from": b.adoptedFrom ?? "this folder" } : {}) })))}\n`);
  return 0;
};
