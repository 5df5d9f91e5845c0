/**
 * The judge behind a chart's scores, named in its subtitle so that a PNG
 * pasted into a slide keeps the caveat ("judge: offline (approximate)").
 */
import { judgeLabels } from "../dataset/column-toolkit";
import type { Table } from "../dataset/table";

export { judgeLabels };

/**
 * The `judgeLabel` option every chart builder takes:
 * - `true` or left out: the distinct labels of the score's `<metric>_judge`
 *   column (or of a `judge` column, which `summarize` and `compareModels`
 *   results carry), nothing when the table has neither (pass the label then);
 * - a label or several: shown as given (`judge.label`, "hand-labelled");
 * - `false`: no judge line.
 */
export type JudgeLabelOption = boolean | string | readonly string[];

/** The option every chart builder takes to name the judge in its subtitle. */
export interface JudgeLabelOptions {
  /** Name the judge in the subtitle: see {@link JudgeLabelOption}. Default true (read from the table). */
  judgeLabel?: JudgeLabelOption;
}



/**
 * The subtitle line naming the judge ("judge: gpt-4o-mini @ api.openai.com"),
 * or undefined when the option is false or no label is known.
 *
 * @example
 * judgeLine(true, [table], ["answer_correctness"]) // "judge: offline (approximate)"
 * judgeLine("hand-labelled", [], [])               // "judge: hand-labelled"
 * judgeLine(false, [table], ["answer_correctness"]) // undefined
 */
export function judgeLine(option: JudgeLabelOption | undefined, tables: readonly Table[], metrics: readonly string[]): string | undefined {
  if (option === false) return undefined;
  const labels =
    typeof option === "string" ? [option] : Array.isArray(option) ? [...new Set(option as readonly string[])] : [...new Set(tables.flatMap((t) => judgeLabels(t, metrics)))];
  const shown = labels.map((l) => l.trim()).filter((l) => l !== "");
  if (shown.length === 0) return undefined;
  return `${shown.length === 1 ? "judge" : "judges"}: ${shown.join("; ")}`;
}
