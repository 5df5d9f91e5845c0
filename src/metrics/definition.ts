/**
 * What a metric tells the rest of evalframe about itself (its entry in the
 * registry, `metrics/registry.ts`), and the command line's flags its
 * `create` reads. Types only, so that each metric's definition and the
 * registry can share them without importing each other.
 */
import type { CanonicalColumn } from "../dataset/columns";
import type { Metric } from "./metric";
import type { ImageDetailName } from "../context/option-names";

/**
 * The chart a metric's scores read best in (see `charts/`).
 *
 * @example
 * const chart: PreferredChart = "relevanceRate"; // 0/1 scores: a rate per model
 */
export type PreferredChart = "meanWithCI" | "relevanceRate" | "scoreDistribution";

/**
 * What the command line parsed for metrics: every metric's `create` gets the
 * whole bag and reads the fields it cares about. Fields are undefined when
 * their flag was not given.
 *
 * @example
 * const flags: MetricFlags = { threshold: 0.7, imageRoot: "/data" }; // --threshold 0.7 --image-root /data
 */
export interface MetricFlags {
  /** `--weights`: [factual, semantic]. */
  weights?: [number, number];
  /** `--beta`. */
  beta?: number;
  /** `--threshold` (0 to 1). */
  threshold?: number;
  /** `--similarity-threshold` (0 to 1). */
  similarityThreshold?: number;
  /** `--layout`: how answer correctness asks the judge ("ragas" or "fused"). */
  layout?: "ragas" | "fused";
  /** `--reasons` (true) / `--no-reasons` (false, the default): a reason before each of answer correctness's verdicts. */
  reasons?: boolean;
  /** `--answers-per-call`: the fused layout's answers per call. */
  answersPerCall?: number;
  /** `--image-root`, resolved (the input file's folder by default). */
  imageRoot?: string;
  /** `--allow-private-network`. */
  allowPrivateNetwork?: boolean;
  /** `--max-images-per-row`: multimodal relevance's `maxImagesPerRow`. */
  maxImagesPerRow?: number;
  /** `--max-image-bytes`: the image loader's `maxImageBytes`. */
  maxImageBytes?: number;
  /** `--max-row-image-bytes`: multimodal relevance's `maxRowImageBytes`. */
  maxRowImageBytes?: number;
  /** `--download-timeout-ms`: the image loader's `downloadTimeoutMs`. */
  downloadTimeoutMs?: number;
  /** `--max-concurrent-loads`: the image loader's `maxConcurrentLoads`. */
  maxConcurrentLoads?: number;
  /** `--kept-image-bytes`: the image loader's `keptImageBytes`. */
  keptImageBytes?: number;
  /** `--image-detail`: the detail multimodal relevance asks images to be seen in (`image_url.detail`). */
  imageDetail?: ImageDetailName;
}

/**
 * How one row was scored beyond its judge: each setting that moves its score,
 * by name, with its value as text.
 *
 * @example
 * const scoring: ScoringRecord = { layout: "fused", reasons: "yes", weights: "0.75/0.25" };
 */
export type ScoringRecord = Readonly<Record<string, string>>;

/**
 * One metric as the rest of evalframe sees it: what the CLI, `summarize`,
 * the report and the charts read instead of spelling metric names.
 *
 * @example
 * const answerLength: MetricDefinition = {
 *   name: "answer_length", label: "answer length", scoreColumn: "answer_length",
 *   errorColumn: "answer_length_error", judgeColumn: "answer_length_judge", extraScoreColumns: [],
 *   columns: ["answer_length", "answer_length_error", "answer_length_judge"],
 *   requiredColumns: ["user_input", "response"], needs: `a "response" column`, binary: false,
 *   display: { chart: "scoreDistribution" }, create: () => new AnswerLength(),
 * };
 */
export interface MetricDefinition {
  /** The metric's name, also its score column's name and column prefix, e.g. `answer_correctness`. */
  readonly name: string;
  /** A short human label, e.g. "answer correctness". */
  readonly label: string;
  /** The score column. */
  readonly scoreColumn: string;
  /** The column holding each row's failure ("" when fine). */
  readonly errorColumn: string;
  /** The column holding each row's judge label. */
  readonly judgeColumn: string;
  /** Further score columns summarized by default, right after `scoreColumn` (e.g. the continuous score kept beside a thresholded one). */
  readonly extraScoreColumns: readonly string[];
  /** Every column the metric may write, in order (optional ones included). */
  readonly columns: readonly string[];
  /** Canonical input columns every row needs. */
  readonly requiredColumns: readonly CanonicalColumn[];
  /** How the missing input reads in a message, e.g. `a "reference" column (or ground_truth, …)`. */
  readonly needs: string;
  /** True when scores are 0 or 1 (shown as a pass rate). */
  readonly binary: boolean;
  /**
   * The lowest and highest score the metric gives, e.g. `[0, 1]`: an analysis
   * refuses a score column holding a value outside it (a column rescaled to
   * percent would pass any gate). Optional: a metric without bounds leaves it out.
   */
  readonly scoreRange?: readonly [number, number];
  /** Display defaults. */
  readonly display: { readonly chart: PreferredChart };
  /** Builds the metric from the command line's flags. */
  create(flags: MetricFlags): Metric;
  /**
   * How one row of a scored table was scored beyond its judge, read from the
   * metric's own columns (`cell` gives that row's value of a column);
   * undefined when the row records nothing (a failed row, a table from an
   * older evalframe). Comparisons of two runs check that both were scored
   * alike. Optional: a metric without settings leaves it out.
   */
  scoringOf?(cell: (column: string) => unknown): ScoringRecord | undefined;
  /**
   * Settings of {@link MetricDefinition.scoringOf} that follow from others
   * (a layout asks with its own prompts): each is compared between two runs
   * only where the settings it follows agree, so that one change is not
   * named twice.
   */
  readonly derivedSettings?: Readonly<Record<string, readonly string[]>>;
  /**
   * The part of a text cell of `column` that {@link MetricDefinition.scoringOf}
   * needs (the text itself when it needs all, or the column is not its own),
   * so that a comparison of two large runs holds only that.
   */
  scoringPart?(column: string, text: string): string;
}
