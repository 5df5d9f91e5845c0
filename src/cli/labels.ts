/**
 * `--labels` on the command line: the label files of `score --judge labels`
 * and of `calibrate`, repeatable or comma-separated.
 */
import type { JudgeKind } from "../judge/config";
import type { LabelSet } from "../labels/types";
import { stringList, type OptionSpec, type ParsedArgs } from "./args";
import { failOnError, UsageError } from "./errors";

/** The `--labels` option: a path, repeatable, each value comma-separated. */
export const LABELS_OPTION: OptionSpec = { type: "string", multiple: true };

/** The label files named by `--labels`; undefined when it is absent, a usage error when it is empty. */
export function labelFiles(command: string, args: ParsedArgs): string[] | undefined {
  const files = stringList(args, "labels");
  if (files !== undefined && files.length === 0) throw new UsageError(`${command}: --labels is empty; give a label file, e.g. --labels data/qa-models.labels.jsonl`, command);
  return files;
}

/**
 * Checks `--judge` against `--labels` for `score`: `--judge labels` needs
 * label files, and label files go only with the labels judge (they choose
 * it when `--judge` is not given).
 */
export function checkLabelsJudge(command: string, kind: JudgeKind | undefined, files: readonly string[] | undefined): void {
  if (kind === "labels" && files === undefined) {
    throw new UsageError(`${command}: --judge labels needs --labels FILE (a hand-label file, see docs/labelling.md), e.g. --labels data/qa-models.labels.jsonl`, command);
  }
  if (files !== undefined && kind !== undefined && kind !== "labels") {
    throw new UsageError(`${command}: --labels goes with --judge labels (the labels judge replays them), not --judge ${kind}`, command);
  }
}

/** Reads and checks label files; a problem is one line naming the file, line and field (exit 1). */
export async function readLabelFiles(files: readonly string[]): Promise<LabelSet> {
  const { readLabels } = require("../labels/read") as typeof import("../labels/read");
  return failOnError(() => readLabels(files));
}
