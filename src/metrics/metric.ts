/**
 * What a metric is: it scores typed rows (never DataFrames) and says which
 * columns its results become. `frame/score.ts` maps rows in and columns out.
 */
import type { CanonicalColumn, ColumnType } from "../dataset/columns";
import type { Cell } from "../dataset/table";
import type { Judge } from "../judge/judge";
import type { UsageRecorder } from "../judge/usage";

/** One checked input row, with canonical fields. */
export interface EvalRow {
  /** Position of the row in the input table. */
  index: number;
  user_input: string;
  response: string;
  reference: string | undefined;
  retrieved_contexts: string[] | undefined;
  model: string | undefined;
  id: string | undefined;
}

/** An output column of a metric. */
export interface MetricColumn {
  name: string;
  type: ColumnType;
}

/** What a metric's run gets from the scoring run. */
export interface MetricRunContext {
  /** The run's judge (a metric may bring its own). */
  judge: Judge;
  /** The run's usage recorder. */
  usage: UsageRecorder;
  /** Call once per row when it is finished. */
  rowDone: (failed: boolean) => void;
}

/**
 * A metric: scores rows and turns its results into columns. Row-level
 * failures are results with an error, never exceptions.
 */
export interface Metric<R = unknown> {
  /** Name and column prefix, e.g. `answer_correctness`. */
  readonly name: string;
  /** Canonical columns every row needs. */
  readonly requiredColumns: readonly CanonicalColumn[];
  /** The judge this metric was given, if any (else the run's). */
  readonly judge: Judge | undefined;
  /** Output columns, in order. */
  columns(): MetricColumn[];
  /** Scores rows; the result array is aligned with `rows`. */
  scoreRows(rows: readonly EvalRow[], context: MetricRunContext): Promise<R[]>;
  /** The output cells of one result, by column name. */
  cells(result: R): Record<string, Cell>;
  /** The output cells of a row that was not scored (bad input), with its reason. */
  failedCells(reason: string, judgeLabel: string): Record<string, Cell>;
}
