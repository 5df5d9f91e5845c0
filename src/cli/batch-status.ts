/**
 * `evalframe batch status`: what the batch folder recorded.
 */
import { flag, parseCommand, stringOption } from "./args";
import { failOnError, UsageError } from "./errors";
import type { Command } from "./command";
import { runtime, batchRuntime, s, b } from "./command-support";

/** `evalframe batch status`: where each batch of a batch folder stands. */
export const batchCommand: Command = async (argv, io) => {
  const c = "batch";
  const [sub, ...rest] = argv;
  if (sub !== "status") throw new UsageError(`${c}: the only subcommand is "status" (evalframe batch status --batch-dir DIR)`, c);
  const args = parseCommand(c, rest, { "batch-dir": s, live: b });
  const dir = stringOption(args, "batch-dir") ?? ".evalframe-batch";
  const { batchStatus } = batchRuntime();
  const { formatTable } = runtime();
  const batches = await failOnError(() => batchStatus(dir, flag(args, "live") ? { judge: { judge: "openai" } } : {}), `${dir}: `);
  if (batches.length === 0) {
    io.out(`${dir}: no batch submitted yet\n`);
    return 0;
  }
  io.out(`${formatTable(batches.map((b) => ({ stage: b.stage, endpoint: b.endpoint, batch: b.batchId || "(uploaded, not created)", lines: b.lines, status: b.status, applied: b.applied ? "yes" : "no", submitted: b.submittedAt })))}\n`);
  return 0;
};
