/**
 * Progress: how close the progress line's time left (ETA) comes to the
 * truth. The bundled sample (126 rows, 290 chat calls and 1 embedding
 * request) is scored against a fake server that answers each request after
 * a fixed latency, 16 requests at once; every progress event is timed, and
 * from the first 10% of calls on each ETA is set against the time the run
 * then took. A timing goal, so a benchmark and not a test (the test checks
 * that the events come, in order, with an ETA).
 */
import * as path from "node:path";
import { score } from "../src/frame/score";
import type { ProgressEvent } from "../src/judge/progress";
import { answerCorrectness } from "../src/metrics/answer-correctness/metric";
import { scriptedAnswerCorrectness, scriptedEmbedding } from "../test/support/scripted-judge";
import { benchJudge, figure, round, withServer, type BenchResult } from "./support";

const SAMPLE = path.join(__dirname, "..", "data", "qa-models.csv");

/** The worst ratios of ETA to truth, each way, over the events after the first 10% of calls. */
export async function benchProgress(latencyMs = 150, concurrency = 16): Promise<BenchResult> {
  const events: { at: number; event: ProgressEvent }[] = [];
  await withServer({ latencyMs, chat: scriptedAnswerCorrectness, embed: scriptedEmbedding }, async (_server, url) => {
    await score(SAMPLE, [answerCorrectness()], { judge: benchJudge(url, { cache: false, concurrency }), quiet: true, progress: (event) => events.push({ at: Date.now(), event }) });
  });
  // The run's work ends with its last row (the bar's last event); building the frame after it is not the ETA's to foresee.
  const end = events.at(-1)!.at;
  const judged = events.filter(({ event }) => event.calls !== undefined && event.calls.done >= 0.1 * event.calls.total && event.done < event.total && event.etaMs !== undefined);
  // In the last moments, when both are a few ms, a call's latency is the grain of the work: those events are left out.
  const ratios = judged.filter(({ at }) => end - at > latencyMs).map(({ at, event }) => event.etaMs! / (end - at));
  const over = Math.max(...ratios);
  const under = Math.min(...ratios);
  return {
    name: "progress",
    figures: [
      figure("ETA / time left, highest after the first 10% of calls", round(over, 2), "×", "≤ 2", over <= 2),
      figure("ETA / time left, lowest after the first 10% of calls", round(under, 2), "×", "≥ 0.5", under >= 0.5),
    ],
    notes: [`progress: the sample (126 rows) against a fake server at ${latencyMs} ms a request, ${concurrency} at once; ${ratios.length} progress events judged of ${events.length}`],
  };
}
