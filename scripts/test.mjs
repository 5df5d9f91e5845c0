#!/usr/bin/env node
/**
 * Runs the test files: `node scripts/test.mjs` runs every file (what `npm test`
 * runs after building and type-checking); `--fast` leaves out the files that
 * need Jupyter, Chromium or an `npm install` of the packed package (HEAVY
 * below) and the scale checks (SCALE below), whose behaviour a smaller run
 * in another file checks too. Processes run in parallel, more of them than
 * cores: part of a file's time is spent waiting on child processes, servers
 * and timers.
 * Files that assert on elapsed time (TIMED) run afterwards, one at a time,
 * in a process of their own.
 * Extra arguments go to `node --test` (e.g. `--test-name-pattern=summary`).
 *
 * The other files (but OWN_PROCESS) share a few processes (GROUPS), each
 * running its files one after the other: a process costs
 * 0.5–2.5 s of CPU to start, load TypeScript, the library and danfojs-node,
 * which was most of the time on 2 cores. Each file still runs as its own
 * suite, named by its path, so its top-level hooks (a fake server's start,
 * reset and stop) stay its own; a test that changes the process (its
 * working directory, an environment variable) puts it back before it ends.
 * Any file runs on its own with
 * `node --require tsx/cjs --require ./test/support/fast-assert.cjs --test test/<file>`
 * (without the second `--require`, a failing `assert.ok(value)` with no message
 * takes minutes to report: see test/support/fast-assert.cjs).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Makes a failing `assert.ok(value)` without a message fail at once (see the file). */
const FAST_ASSERT = path.join(ROOT, "test", "support", "fast-assert.cjs");

/** The test files that need Jupyter (notebooks), headless Chromium (the browser checks) or an npm install. */
export const HEAVY = [
  "notebooks.test.ts", // Jupyter with the tslab kernel
  "charts-browser.test.ts", // Chromium
  "report-browser.test.ts", // Chromium
  "report.test.ts", // Chromium (the report page)
  "compare-runs.test.ts", // Chromium (the run-comparison report page)
  "demo.test.ts", // Chromium (the demo's report)
  "rep-narrow.test.ts", // Chromium (the report at 375 px)
  "rep-bidi.test.ts", // Chromium (right-to-left names in the headline)
  "packed-install.test.ts", // npm pack + npm install into a temp project
];

/**
 * Scale checks: files whose point is the size of the run (each has a smaller
 * twin in test:fast that checks the same behaviour). `npm test` runs them;
 * `--fast` leaves them out.
 */
export const SCALE = [
  "batch-scale.test.ts", // 500 rows interactive and through the Batch API, and 6,200 through the Batch API (about 15 s); batch.test.ts checks 30 rows
];

/**
 * Files that assert on elapsed time (pacing, latency, rate-limit windows):
 * they run after the rest, one at a time. (scheduler-pacing.test.ts is not
 * one: it runs on mocked timers, so a busy machine cannot change its times.)
 */
export const TIMED = ["fake-openai.test.ts", "fake-openai-ratelimit.test.ts", "progress.test.ts", "rate-limits.test.ts"];

/**
 * Roughly how many seconds each file takes in a shared process on 2 cores
 * (measured; the loading a group does once is not in them), only to spread
 * the files evenly over the groups; a file not listed counts as 1 s. A wrong
 * figure costs balance, not correctness.
 */
const SECONDS = {
  "batch.test.ts": 16, "cli.test.ts": 12.5, "judge.test.ts": 12.5, "estimate.test.ts": 9.5, "charts.test.ts": 8.5,
  "answer-correctness.test.ts": 6.5, "colour-vision.test.ts": 6, "config.test.ts": 4, "offline-judge.test.ts": 3.3,
  "analysis.test.ts": 3, "fused.test.ts": 3, "prototype-names.test.ts": 2.4, "score-stream.test.ts": 2.3,
  "lean-replies.test.ts": 1.5, "cli-multimodal.test.ts": 5, "cli-diff.test.ts": 1.2, "context.test.ts": 0.9, "base-url.test.ts": 0.6,
  "scheduler-pacing.test.ts": 0.5, "offline.test.ts": 0.5, "labels-judge.test.ts": 0.5, "sample-labels.test.ts": 0.4,
  "multimodal.test.ts": 0.4, "headline.test.ts": 0.4, "sample-data.test.ts": 0.3, "cli-words.test.ts": 0.3,
  "metric-registry.test.ts": 0.2, "dataset.test.ts": 0.2, "calibrate.test.ts": 0.2, "stats.test.ts": 0.1,
  "input-integrity.test.ts": 0.1, "cli-printable.test.ts": 0.1, "cache.test.ts": 0.1, "atomic-write.test.ts": 0.1,
  "math.test.ts": 0.1, "layers.test.ts": 0.1, "pkg-installed.test.ts": 16, "pkg-api-types.test.ts": 10, "pkg-cli-pipes.test.ts": 9, "typed-rows.test.ts": 4.5, "frame-display.test.ts": 0.1, "csv.test.ts": 0.1, "offline-rules-version.test.ts": 2.6,
};

/**
 * Files that must start in a process of their own: they check what loading
 * the library loads, which a file before them in a shared process would
 * have loaded already.
 */
export const OWN_PROCESS = ["dataframe-load.test.ts"];

/**
 * How many processes the files share: one per core and one more, so that
 * one waiting on a timer or a server leaves its core to another (on 2 cores
 * test:fast took 49–51 s with 3, 57 s with 2 and 59 s with 4).
 * EVALFRAME_TEST_GROUPS sets it (1 runs them all in one process, which
 * shows a test that leaves something behind for the next).
 */
const GROUPS = Number(process.env["EVALFRAME_TEST_GROUPS"] ?? availableParallelism() + 1);
if (!Number.isInteger(GROUPS) || GROUPS < 1) {
  console.error(`EVALFRAME_TEST_GROUPS must be a whole number of at least 1, got ${process.env["EVALFRAME_TEST_GROUPS"]}`);
  process.exit(2);
}

const args = process.argv.slice(2);
const fast = args.includes("--fast");
const passOn = args.filter((a) => a !== "--fast");
const files = readdirSync(path.join(ROOT, "test"))
  .filter((f) => f.endsWith(".test.ts") && !(fast && (HEAVY.includes(f) || SCALE.includes(f))))
  .sort();
const concurrency = Number(process.env["EVALFRAME_TEST_CONCURRENCY"] ?? Math.max(4, 2 * availableParallelism()));

/**
 * Splits `list` into `count` groups of about equal time (by {@link SECONDS},
 * longest first, each to the group with the least so far), and writes for
 * each a file that runs its members one after the other, each inside a suite
 * named by its path. Returns the group files' paths.
 */
function groupFiles(list, count, dir) {
  const groups = Array.from({ length: Math.min(count, list.length) }, () => ({ seconds: 0, files: [] }));
  const weighted = list.map((f) => ({ f, seconds: SECONDS[f] ?? 1 })).sort((a, b) => b.seconds - a.seconds || a.f.localeCompare(b.f));
  for (const { f, seconds } of weighted) {
    const least = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.seconds += seconds;
    least.files.push(f);
  }
  mkdirSync(dir, { recursive: true });
  return groups.map((group, i) => {
    const file = path.join(dir, `group-${i + 1}.cjs`);
    const members = group.files.sort().map((f) => `describe(${JSON.stringify(`test/${f}`)}, () => {\n  require(${JSON.stringify(path.join(ROOT, "test", f))});\n});\n`);
    writeFileSync(file, `"use strict";\nconst { describe } = require("node:test");\n${members.join("")}`);
    return file;
  });
}

/** Runs `list` (test files, or group files by path) under `node --test`, `concurrency` files at a time; its exit status. */
function runFiles(list, concurrency) {
  if (list.length === 0) return 0;
  const paths = list.map((f) => (path.isAbsolute(f) ? f : path.join("test", f)));
  // tsx's CommonJS hook only: the tests and the package are CommonJS, and it starts in a third of
  // the time of `--import tsx` (which also registers its ES-module loader).
  const run = spawnSync(process.execPath, ["--require", "tsx/cjs", "--require", FAST_ASSERT, "--test", "--test-reporter=spec", `--test-concurrency=${concurrency}`, ...passOn, ...paths], { cwd: ROOT, stdio: "inherit" });
  return run.status ?? 1;
}

const groupDir = mkdtempSync(path.join(tmpdir(), "evalframe-test-groups-"));
let status;
try {
  const untimed = files.filter((f) => !TIMED.includes(f));
  // The heavy and scale files are long on their own: in a group they would hold the others up.
  const shared = untimed.filter((f) => !HEAVY.includes(f) && !SCALE.includes(f) && !OWN_PROCESS.includes(f));
  const own = untimed.filter((f) => !shared.includes(f));
  const parallel = runFiles([...own, ...groupFiles(shared, GROUPS, path.join(groupDir, "parallel"))], concurrency);
  // The timed files one after the other, in one process.
  const timed = runFiles(groupFiles(files.filter((f) => TIMED.includes(f)), 1, path.join(groupDir, "timed")), 1);
  status = parallel || timed;
} finally {
  rmSync(groupDir, { recursive: true, force: true });
}
process.exit(status);
