#!/usr/bin/env node
/**
 * Runs the test files: `node scripts/test.mjs` runs every file (what `npm test`
 * runs after building and type-checking); `--fast` leaves out the files that
 * need Jupyter, Chromium or an `npm install` of the packed package (HEAVY
 * below) and the scale checks (SCALE below), whose behaviour a smaller run
 * in another file checks too. Files run in parallel, several at a time even
 * on 2 cores: most of a file's time is spent waiting on child processes,
 * servers and timers.
 * Files that assert on elapsed time (TIMED) run afterwards, one at a time.
 * Extra arguments go to `node --test` (e.g. `--test-name-pattern=summary`).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The test files that need Jupyter (notebooks), headless Chromium (the browser checks) or an npm install. */
export const HEAVY = [
  "notebooks.test.ts", // Jupyter with the tslab kernel
  "charts-browser.test.ts", // Chromium
  "report-browser.test.ts", // Chromium
  "report.test.ts", // Chromium (the report page)
  "compare-runs.test.ts", // Chromium (the run-comparison report page)
  "demo.test.ts", // Chromium (the demo's report)
  "packed-install.test.ts", // npm pack + npm install into a temp project
];

/**
 * Scale checks: files whose point is the size of the run (each has a smaller
 * twin in test:fast that checks the same behaviour). `npm test` runs them;
 * `--fast` leaves them out.
 */
export const SCALE = [
  "batch-scale.test.ts", // 500 rows × 3 models interactive and through the Batch API; batch.test.ts checks 30 rows
];

/**
 * Files that assert on elapsed time (pacing, latency, rate-limit windows):
 * they run after the rest, one at a time. (scheduler-pacing.test.ts is not
 * one: it runs on mocked timers, so a busy machine cannot change its times.)
 */
export const TIMED = ["fake-openai.test.ts", "fake-openai-ratelimit.test.ts", "progress.test.ts", "rate-limits.test.ts"];

const args = process.argv.slice(2);
const fast = args.includes("--fast");
const passOn = args.filter((a) => a !== "--fast");
const files = readdirSync(path.join(ROOT, "test"))
  .filter((f) => f.endsWith(".test.ts") && !(fast && (HEAVY.includes(f) || SCALE.includes(f))))
  .sort();
const concurrency = Number(process.env["EVALFRAME_TEST_CONCURRENCY"] ?? Math.max(4, 2 * availableParallelism()));

/** Runs `files` under `node --test`, `concurrency` files at a time; its exit status. */
function runFiles(list, concurrency) {
  if (list.length === 0) return 0;
  const paths = list.map((f) => path.join("test", f));
  // tsx's CommonJS hook only: the tests and the package are CommonJS, and it starts in a third of
  // the time of `--import tsx` (which also registers its ES-module loader), in each of ~50 processes.
  const run = spawnSync(process.execPath, ["--require", "tsx/cjs", "--test", "--test-reporter=spec", `--test-concurrency=${concurrency}`, ...passOn, ...paths], { cwd: ROOT, stdio: "inherit" });
  return run.status ?? 1;
}

const parallel = runFiles(files.filter((f) => !TIMED.includes(f)), concurrency);
const timed = runFiles(files.filter((f) => TIMED.includes(f)), 1);
process.exit(parallel || timed);
