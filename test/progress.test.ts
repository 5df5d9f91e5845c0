import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatProgress, ProgressTracker, terminalProgress, type ProgressEvent } from "../src/index";

describe("progress", () => {
  it("reports done, errors and an ETA, throttled, and always at the end", () => {
    const events: ProgressEvent[] = [];
    const tracker = new ProgressTracker(5, (e) => events.push(e), 60_000);
    tracker.step();
    tracker.step(true);
    tracker.step();
    tracker.step();
    assert.equal(events.length, 1, "throttled: only the first step reports within the interval");
    tracker.step();
    const last = events.at(-1)!;
    assert.deepEqual([last.done, last.total, last.errors], [5, 5, 1]);
    assert.equal(last.etaMs, 0);
  });

  it("formats one line with a bar, counts and time left", () => {
    const line = formatProgress({ done: 30, total: 120, errors: 1, elapsedMs: 9000, etaMs: 27000 });
    assert.equal(line, "[██████░░░░░░░░░░░░░░░░░░] 30/120 rows · 1 error · 9 s · about 27 s left");
    assert.equal(formatProgress({ done: 4, total: 4, errors: 0, elapsedMs: 125_000, etaMs: 0 }), "[████████████████████████] 4/4 rows · 2 min 5 s");
  });

  it("writes a line per tenth when the terminal is a log, and redraws in place on a TTY", () => {
    const written: string[] = [];
    const log = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const bar = terminalProgress(log);
    for (let done = 1; done <= 100; done++) bar({ done, total: 100, errors: 0, elapsedMs: done, etaMs: 100 - done });
    assert.equal(written.length, 11, "the first row, then every tenth");
    assert.match(written.at(-1)!, /100\/100 rows/);
    const tty: string[] = [];
    const live = terminalProgress({ isTTY: true, write: (s: string) => tty.push(s) } as unknown as NodeJS.WriteStream);
    live({ done: 1, total: 2, errors: 0, elapsedMs: 1, etaMs: 1 });
    live({ done: 2, total: 2, errors: 0, elapsedMs: 2, etaMs: 0 });
    assert.ok(tty[0]!.startsWith("\r") && !tty[0]!.endsWith("\n"));
    assert.ok(tty[1]!.endsWith("\n"));
  });
});
