/**
 * The settings that every comparison of paired scores shares (compareModels,
 * compareRuns): the score column, the model column, the bootstrap, the seed,
 * the significance level and the coverage — their defaults and their checks,
 * written once.
 */
import { DEFAULT_BY, type PairOptions } from "../dataset/column-toolkit";
import { DEFAULT_SEED } from "../stats/random";

/**
 * The verdict of a comparison whose test finds a difference one way while
 * the mean difference points the other (or either is beyond chance while
 * the other leans the other way): skewed differences, e.g. most questions a
 * little better and a few much worse. Neither side is named, because the
 * mean is what the table, the headline and the gates compare.
 */
export const MEAN_DISAGREES = "inconclusive: the typical answer and the mean disagree";

/** The options a comparison reads its settings from (each comparison's own options type documents them; `by` and `pairBy` are {@link PairOptions}). */
export interface ComparisonOptions extends PairOptions {
  metric?: string;
  bootstrap?: number;
  seed?: number;
  alpha?: number;
  confidence?: number;
}

/** A comparison's settings with their defaults filled in and checked. */
export interface ComparisonSettings {
  /** Score column (default "answer_correctness"). */
  metric: string;
  /** Model column (default {@link DEFAULT_BY}). */
  by: string;
  /** Bootstrap replicates (default 2,000). */
  replicates: number;
  /** Seed of the bootstrap (default {@link DEFAULT_SEED}). */
  seed: number;
  /** Significance level of the verdict (default 0.05). */
  alpha: number;
  /** Coverage of the interval (default 0.95). */
  confidence: number;
}

/**
 * The settings of a comparison from its options, defaults filled in.
 *
 * @throws {RangeError} when alpha or confidence is not between 0 and 1, or
 *   bootstrap is not a positive whole number (the message starts with `caller`).
 */
export function comparisonSettings(options: ComparisonOptions, caller: string): ComparisonSettings {
  const metric = options.metric ?? "answer_correctness";
  const by = options.by ?? DEFAULT_BY;
  const replicates = options.bootstrap ?? 2000;
  const seed = options.seed ?? DEFAULT_SEED;
  const alpha = options.alpha ?? 0.05;
  const confidence = options.confidence ?? 0.95;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`${caller}: alpha must be between 0 and 1, got ${alpha}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`${caller}: confidence must be between 0 and 1, got ${confidence}`);
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`${caller}: bootstrap must be a positive whole number of replicates, got ${replicates}`);
  }
  return { metric, by, replicates, seed, alpha, confidence };
}
