/**
 * The `evalframe` executable in a pipeline, as CI scripts run it: when the
 * reader of its standard error goes away (`evalframe score … 2>&1 | head`,
 * a log collector that stops), the run goes on and writes its files with the
 * exit code it would have had; only the messages are lost. Runs src/cli.ts as
 * its own process (the process is what is tested).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { parseCsv } from "../src/dataset/csv";
import { tempDir } from "./support/files";
import { RUN_TS } from "./support/run-ts";

const ROOT = path.join(__dirname, "..");
const ENTRY = path.join(ROOT, "src", "cli.ts");
const SAMPLE = path.join(ROOT, "data", "qa-models.csv");

/** The environment of a shell with no judge settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(OPENAI|EVALFRAME)_/.test(key)) env[key] = value;
  return env;
}

/** Runs the command line with its stderr's reader gone from the start; resolves to its exit code and stdout. */
function runWithStderrClosed(args: readonly string[], cwd: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RUN_TS, ENTRY, ...args], { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    child.stderr.destroy(); // the reader of its stderr went away
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout }));
  });
}

describe("the command line when the reader of its stderr goes away", () => {
  it("finishes the run: the scored table is written whole and the exit code is the run's", async () => {
    const dir = tempDir();
    const out = path.join(dir, "scored.csv");
    const run = await runWithStderrClosed(["score", SAMPLE, "--judge", "offline", "--out", out], dir);
    assert.equal(run.status, 0, `exit ${run.status}; stdout:\n${run.stdout.slice(-2000)}`);
    assert.ok(existsSync(out), "the scored table was not written");
    const rows = parseCsv(readFileSync(SAMPLE, "utf8")).records.length;
    assert.equal(parseCsv(readFileSync(out, "utf8")).records.length, rows, "rows are missing from the scored table");
    assert.match(run.stdout, /wrote /, "stdout still has the run's results");
  });

  it("keeps a gate's exit code (1) with its message lost", async () => {
    const dir = tempDir();
    const out = path.join(dir, "scored.csv");
    const run = await runWithStderrClosed(["score", SAMPLE, "--judge", "offline", "--out", out, "--fail-under", "0.99"], dir);
    assert.equal(run.status, 1, `exit ${run.status}; stdout:\n${run.stdout.slice(-2000)}`);
    assert.ok(existsSync(out), "the scored table was not written");
  });
});
