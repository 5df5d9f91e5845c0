#!/usr/bin/env node
/**
 * The `evalframe` executable (package.json "bin"): runs {@link runCli} on
 * the process arguments and exits with its code once output is flushed.
 * Errors that escape anyway are printed as one line, never as a stack.
 */
import { reportError } from "./cli/errors";
import { removeTempFilesNow } from "./dataset/atomic-write";
import { runCli } from "./cli/main";
import { printable } from "./display/printable";

function exit(code: number): void {
  process.exitCode = code;
  // Flush both streams, then exit even if an HTTP keep-alive socket is still open.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0); // the reader went away (e.g. `| head`)
});
// The reader of the messages went away (`2>&1 | head`, a log collector that stopped): the run goes on without
// them, so that its files are written and it exits with its own code; an error of stderr is never a crash.
process.stderr.on("error", () => {});
for (const event of ["uncaughtException", "unhandledRejection"] as const) {
  process.on(event, (error: unknown) => exit(reportError(error, (text) => void process.stderr.write(printable(text)))));
}

// Stopped from the keyboard or by a signal: end the progress line and say what stays. Every file is
// written whole or not at all (the temporary files of the writes under way are removed now), and every
// reply paid for is in the cache before its row is written.
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    removeTempFilesNow();
    process.stderr.write(
      `${process.stderr.isTTY ? "\n" : ""}evalframe: stopped (${signal}); no file was left half written, and a model's replies already paid for are in the cache (unless --no-cache): the same command goes on from there\n`,
      () => {
        removeTempFilesNow(); // one a write was opening when the signal came
        process.exit(code);
      },
    );
  });
}

void runCli(process.argv.slice(2)).then(exit);
