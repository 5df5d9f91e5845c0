import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { score } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { duration } from "../src/display/words";
import { formatProgress, ProgressTracker, terminalProgress, type ProgressEvent } from "../src/judge/progress";
import { answerCorrectness } from "../src/metrics/answer-correctness/metric";
import { useFakeOpenAI } from "./support/fake-openai";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "./support/scripted-judge";

/** Characters after the carriage return (the bar's characters are one column each). */
const displayWidthOf = (s: string): number => Array.from(s.replace(/^\r/, "")).length;

const SAMPLE = path.join(__dirname, "..", "data", "qa-models.csv");
const LATENCY_MS = 150;
const fake = useFakeOpenAI(() => ({ latencyMs: LATENCY_MS, chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }));

describe("durations in words", () => {
  it("tenths under 10 s, then seconds, minutes and seconds, hours and minutes; whole seconds when asked", () => {
    assert.equal(duration(420), "0.4 s");
    assert.equal(duration(3240), "3.2 s");
    assert.equal(duration(9960), "10 s");
    assert.equal(duration(3240, { wholeSeconds: true }), "3 s");
    assert.equal(duration(95_000), "1 min 35 s");
    assert.equal(duration(179_600), "3 min 0 s", "never '2 min 60 s'");
    assert.equal(duration(3_599_400), "59 min 59 s");
    assert.equal(duration(7_530_000), "2 h 6 min");
    assert.equal(duration(Number.NaN), "? s");
  });
});

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
    // A long batch run says hours, not hundreds of minutes.
    assert.match(formatProgress({ done: 1, total: 4, errors: 0, elapsedMs: 1_800_000, etaMs: 5_430_000 }), /30 min 0 s · about 1 h 31 min left$/);
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

  it("on a terminal the line fits its width, never uses escape codes when TERM is dumb, and groups digits in every frame", () => {
    const event: ProgressEvent = {
      done: 500, total: 2520, errors: 0, elapsedMs: 1000, etaMs: 4000,
      calls: { done: 1044, total: 5257 },
      stages: [{ stage: "extracting statements", done: 543, total: 1084 }, { stage: "classifying", done: 500, total: 1000 }],
    };
    const draw = (columns: number | undefined, term: string | undefined, events: ProgressEvent[]) => {
      const out: string[] = [];
      const bar = terminalProgress({ isTTY: true, columns, write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream, { term });
      for (const e of events) bar(e);
      return out;
    };
    const narrow = draw(40, "xterm", [event]);
    const line = narrow[0]!.replace(/^\r/, "").replace(/\x1b\[K$/, "");
    assert.ok(Array.from(line).length <= 39, `fits 40 columns with one to spare: ${JSON.stringify(line)}`);
    assert.match(line, /^\[█+░+\] 1,044\/5,257 calls/);
    const wide = draw(200, "xterm", [event])[0]!;
    assert.match(wide, /\(extracting statements 543\/1,084, classifying 500\/1,000\) · 500\/2,520 rows/, "the whole line when it fits");
    const dumb = draw(200, "dumb", [{ ...event, calls: undefined, stages: undefined, done: 0 }, event, { ...event, stages: [] }]);
    assert.ok(dumb.every((s) => !s.includes("\x1b")), "no escape codes for TERM=dumb");
    assert.match(dumb[0]!, /\] 0\/2,520 rows/, "digits grouped before the calls are planned too");
    assert.ok(dumb[2]!.endsWith(" ".repeat(displayWidthOf(dumb[1]!) - displayWidthOf(dumb[2]!.trimEnd()))), "spaces cover the longer line before");
  });

  it("counts calls by stage, and formats them with the stages under way", () => {
    const events: ProgressEvent[] = [];
    const tracker = new ProgressTracker(2, (e) => events.push(e), 0);
    tracker.plan([{ stage: "extracting statements", calls: 3 }, { stage: "classifying", calls: 2, after: "extracting statements" }], 2);
    tracker.report();
    assert.deepEqual(events[0]!.calls, { done: 0, total: 5 });
    assert.match(formatProgress(events[0]!), /0\/5 calls \(extracting statements 0\/3, classifying 0\/2\) · 0\/2 rows · 0 s · waiting for the first reply$/);
    tracker.skip("classifying");
    assert.deepEqual(events.at(-1)!.stages, [
      { stage: "extracting statements", done: 0, total: 3 },
      { stage: "classifying", done: 1, total: 2 },
    ]);
  });
});

describe("progress of a real run", () => {
  // How close the time left comes to the truth is a timing goal: `npm run bench -- --only progress` measures it.
  it("draws at once, shows each stage, and gives a time left once calls have come back", async () => {
    const events: { at: number; event: ProgressEvent }[] = [];
    const judge = createJudge({ judge: "openai", apiKey: "sk-progress-test-0000", baseURL: fake.url(), cache: false, concurrency: 16 });
    await score(SAMPLE, [answerCorrectness()], { judge, quiet: true, progress: (event) => events.push({ at: Date.now(), event }) });
    const first = events[0]!.event;
    assert.equal(first.calls?.done, 0, "the first event comes before any reply");
    assert.equal(first.calls?.total, fake.server.requests.length, "every call the run made was planned");
    assert.deepEqual(first.stages!.map((s) => s.stage), ["extracting statements", "classifying", "embedding"]);
    const last = events.at(-1)!.event;
    assert.deepEqual(last.calls, { done: first.calls!.total, total: first.calls!.total });
    const later = events.filter(({ event }) => event.calls!.done >= 0.1 * event.calls!.total && event.done < event.total);
    assert.ok(later.length >= 5, `progress is drawn as the run goes (${later.length} events after the first 10% of calls)`);
    assert.ok(events.every(({ at }, i) => i === 0 || at >= events[i - 1]!.at), "events come in order, in time");
    for (const { event } of later) {
      assert.ok(event.etaMs !== undefined && Number.isFinite(event.etaMs) && event.etaMs >= 0, `at ${event.calls!.done}/${event.calls!.total} calls a time left is given: ${event.etaMs}`);
    }
    const dones = events.map(({ event }) => event.calls!.done);
    assert.ok(dones.every((d, i) => i === 0 || d >= dones[i - 1]!), "the calls done never go back");
  });
});
