/**
 * `evalframe score` in a CI log (stderr not a terminal): progress lines go
 * through the command's stderr writer, one at every tenth of the way, and
 * the last state again whenever a minute passed without a line, so that a
 * run waiting on a server is seen to be alive. The clock and the timer are
 * driven by hand here: no test waits on real time.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../src/cli/main";
import { logProgress } from "../src/cli/progress-log";
import type { ProgressEvent } from "../src/judge/progress";
import { runCliCaptured as run } from "./support/cli";
import { tempDir } from "./support/files";
import { writeSampleHead } from "./support/sample";

/** A run's progress event. */
function event(done: number, total: number, elapsedMs: number, calls: [number, number]): ProgressEvent {
  return { done, total, errors: 0, elapsedMs, etaMs: undefined, calls: { done: calls[0], total: calls[1] } };
}

/** A hand-driven clock and timer for {@link logProgress}. */
function handClock(): { now: () => number; advance: (ms: number) => void; every: (tick: () => void) => { unref: () => void }; stop: () => void; stopped: () => boolean } {
  let t = 1_000_000;
  let tick: (() => void) | undefined;
  let stopped = false;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
      if (!stopped) tick?.();
    },
    every: (fn) => ((tick = fn), { unref: () => undefined }),
    stop: () => void (stopped = true),
    stopped: () => stopped,
  };
}

describe("progress in a CI log", () => {
  it("writes a line at every tenth, and the last state again after a minute without a line, until the run ends", () => {
    const clock = handClock();
    const lines: string[] = [];
    const log = logProgress((line) => void lines.push(line), { everyMs: 60_000, now: clock.now, every: clock.every, stop: clock.stop });
    log.progress(event(0, 100, 0, [0, 200]));
    assert.equal(lines.length, 1);
    clock.advance(59_000);
    assert.equal(lines.length, 1, "not before a minute without a line");
    clock.advance(2_000);
    assert.equal(lines.length, 2, "a minute without a line: the state again");
    assert.match(lines[1]!, /0\/200 calls · 0\/100 rows · 1 min 1 s/);
    clock.advance(30_000);
    assert.equal(lines.length, 2);
    clock.advance(30_000);
    assert.equal(lines.length, 3, "and again a minute later");
    // A tenth of the way is a line as before; the minute counts from it.
    log.progress(event(10, 100, 130_000, [20, 200]));
    assert.equal(lines.length, 4);
    assert.match(lines[3]!, /20\/200 calls/);
    clock.advance(45_000);
    assert.equal(lines.length, 4);
    log.progress(event(100, 100, 200_000, [200, 200]));
    assert.equal(lines.length, 5);
    assert.ok(clock.stopped(), "the timer stops with the run");
    clock.advance(600_000);
    assert.equal(lines.length, 5);
    assert.ok(lines.every((l) => l.endsWith("\n") && !l.includes("\x1b")), "plain lines, no escape codes");
  });

  it("stop() ends the lines of a run that failed half-way", () => {
    const clock = handClock();
    const lines: string[] = [];
    const log = logProgress((line) => void lines.push(line), { everyMs: 60_000, now: clock.now, every: clock.every, stop: clock.stop });
    log.progress(event(3, 100, 1_000, [5, 200]));
    log.stop();
    clock.advance(120_000);
    assert.equal(lines.length, 1);
  });

  it("evalframe score (stderr not a terminal) writes its progress lines through runCli's stderr writer", async () => {
    const dir = tempDir();
    const input = writeSampleHead(dir, 2);
    assert.ok(!process.stderr.isTTY, "this test runs with stderr not a terminal, as in CI");
    const r = await run(["score", input, "--out", path.join(dir, "scored.csv"), "--judge", "offline"]);
    assert.equal(r.code, 0, r.err);
    const progress = r.err.split("\n").filter((l) => l.startsWith("["));
    assert.ok(progress.length >= 2, r.err);
    assert.match(progress[0]!, /^\[░+\] 0\/6 rows · 0 s$/);
    assert.match(progress.at(-1)!, /^\[█+\] \d+\/\d+ calls · 6\/6 rows · \d+ s$/);
    const quiet = await run(["score", input, "--out", path.join(dir, "scored2.csv"), "--judge", "offline", "--no-progress"]);
    assert.deepEqual(quiet.err.split("\n").filter((l) => l.startsWith("[")), []);
  });
  it("evalframe score run with writers of its own draws no bar on the process's terminal, and draws it on the terminal it is given", async () => {
    const dir = tempDir();
    const input = writeSampleHead(dir, 2);
    // As in a terminal: the process's stderr is one. A caller that gives its own writers still gets every line.
    const was = Object.getOwnPropertyDescriptor(process.stderr, "isTTY");
    Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true });
    const real: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((text: string | Uint8Array) => (real.push(String(text)), true)) as typeof process.stderr.write;
    try {
      const r = await run(["score", input, "--out", path.join(dir, "scored.csv"), "--judge", "offline"]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(real.filter((t) => t.includes("rows")), [], "nothing was written past the given writers");
      assert.ok(r.err.split("\n").some((l) => /^\[█+\] \d+\/\d+ calls · 6\/6 rows/.test(l)), r.err);
      const drawn: string[] = [];
      let err = "";
      const terminal = { isTTY: true, columns: 60, write: (text: string) => void drawn.push(text) };
      const code = await runCli(["score", input, "--out", path.join(dir, "scored2.csv"), "--judge", "offline"], { out: () => undefined, err: (t) => void (err += t), terminal });
      assert.equal(code, 0, err);
      assert.ok(drawn.length >= 2 && drawn.every((t) => t.startsWith("\r")), JSON.stringify(drawn));
      assert.match(drawn.at(-1)!, /6\/6 rows.*\n$/);
      assert.deepEqual(err.split("\n").filter((l) => l.startsWith("[")), [], "the bar is not also logged as lines");
    } finally {
      process.stderr.write = write;
      if (was) Object.defineProperty(process.stderr, "isTTY", was);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
    }
  });
});
