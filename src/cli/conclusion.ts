/**
 * The headline sentences at the end of `evalframe score` and `compare`: for
 * each metric scored, the ranking and the differences in words, then the
 * judge once.
 */
import type { DataFrame } from "danfojs-node";
import type { FrameInput } from "../analysis/summarize";
import { headline } from "../analysis/headline";
import { compareModels } from "../analysis/compare";
import { readTable } from "../analysis/summarize";
import { getColumn } from "../dataset/table";

/**
 * The conclusion of a scored run as lines: per metric, `headline`'s
 * sentences from the summary and (with two or more models) a comparison of
 * `scores`; the judge sentence once, at the end. A comparison that cannot be
 * made (one model, answers that cannot be told apart) leaves its sentence out,
 * never the run's output.
 */
export function conclusion(scores: FrameInput, summary: DataFrame, metrics: readonly string[], judges: readonly string[]): string[] {
  const table = readTable(summary, "conclusion");
  const present = new Set((getColumn(table, "metric")?.values ?? []).map(String));
  const shown = metrics.filter((m) => present.has(m));
  const models = new Set((getColumn(table, "model")?.values ?? []).map(String));
  const lines: string[] = [];
  shown.forEach((metric, k) => {
    let comparison: DataFrame | undefined;
    if (models.size > 1) {
      try {
        comparison = compareModels(scores, { metric });
      } catch {
        comparison = undefined;
      }
    }
    const last = k === shown.length - 1;
    lines.push(...headline(summary, comparison, { metric, scored: scores, ...(last && judges.length > 0 ? { judge: judges.join(" and ") } : {}) }));
  });
  return lines;
}
