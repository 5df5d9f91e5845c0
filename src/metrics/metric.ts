/**
 * What a metric is: it scores typed rows (never DataFrames) and says which
 * columns its results become. `frame/score.ts` maps rows in and columns out.
 */
import type { CanonicalColumn, ColumnType } from "../dataset/columns";
import type { Cell } from "../dataset/table";
import type { Embedder, Judge } from "../judge/judge";
import type { StagePlan } from "../judge/progress";
import type { StructuredRequest } from "../judge/types";
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
  /**
   * The judge to ask: the metric's own `judge` when it has one, else the
   * run's; in a notebook, held so that the interrupt stops its requests.
   */
  judge: Judge;
  /** The run's usage recorder. */
  usage: UsageRecorder;
  /** Call once per row when it is finished. */
  rowDone: (failed: boolean) => void;
  /** Counts the run's judge calls by stage, for progress (absent when nobody watches). */
  calls?: CallTracker;
  /**
   * Wraps a judge the metric brings itself beyond its own `judge` (a
   * separate embeddings judge) as the run wraps its judges: in a notebook,
   * so that the interrupt stops its requests too. Absent: use it as it is.
   */
  hold?: <J extends Embedder>(judge: J) => J;
}

/** Counts judge calls as they finish, by stage (see `ProgressTracker`). */
export interface CallTracker {
  /** Counts one call of `stage` when `work` settles; returns `work`. */
  track<T>(stage: string, work: Promise<T>): Promise<T>;
  /** A planned call of `stage` that was not needed after all. */
  skip(stage: string): void;
}

/** What a cost estimate reads of a request: the prompt and the model. */
export type PlannedRequest = Pick<StructuredRequest<unknown>, "messages" | "model" | "promptVersion" | "schemaName" | "jsonSchema">;

/** A call a metric will make, as a cost estimate sees it before any call. */
export type PlannedCall =
  | {
      kind: "chat";
      stage: string;
      /** The request, exactly as it will be sent, or as predicted when it depends on replies not known yet. */
      request: PlannedRequest;
      /** True when the request is predicted (its content depends on earlier replies). */
      predicted: boolean;
      /** True when the judge's cache holds the reply (the call will be free). */
      cached: boolean;
      /** The reply's expected size in tokens, given a token counter of the model. */
      replyTokens: (tokens: (text: string) => number) => number;
    }
  | {
      kind: "embedding";
      stage: string;
      /** The texts to embed (distinct), all in one call of the metric; the judge batches them. */
      texts: readonly string[];
    };

/** What a metric's plan may consult: the judge, and replies it has cached (a rerun's statements). */
export interface PlanContext {
  judge: Judge;
  /** The cached reply of a request, if the judge has it; never a call. */
  cachedReply<T>(request: StructuredRequest<T>): Promise<T | undefined>;
  /**
   * Told of a row the plan finds will fail before any call (an image that
   * will be refused), with why, e.g. "context 1: images/x.png: no such file: …";
   * such a row is given no planned call. Optional: without it the plan only
   * leaves the row out.
   */
  willFail?(row: EvalRow, reason: string): void;
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
  /** The judge label this metric's rows carry when `judge` scores them (default `judge.label`): multimodal relevance names the vision model it asks. */
  labelOf?(judge: Judge): string;
  /** The judge calls scoring `rows` with `judge` (the run's, when the metric has none of its own) takes, per stage, for progress; cheap (no call, no cache). */
  planCalls?(rows: readonly EvalRow[], judge?: Judge): StagePlan[];
  /** Every call scoring `rows` would make, for a cost estimate; makes none. */
  plan?(rows: readonly EvalRow[], context: PlanContext): Promise<PlannedCall[]>;
}
