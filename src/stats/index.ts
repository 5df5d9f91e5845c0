/**
 * `evalframe/stats`: the statistics behind summaries and comparisons —
 * NaN-aware descriptive statistics, the normal distribution, seeded bootstrap
 * intervals, Wilson intervals, the exact permutation test of two means, the Wilcoxon signed-rank and sign tests,
 * Holm's correction, agreement (Cohen's kappa, Spearman), and the seeded
 * random numbers. Plain arrays in, numbers out: nothing here knows DataFrames.
 *
 * @example
 * import { wilcoxonSignedRank, holm } from "evalframe/stats";
 */
export {
  isValidNumber,
  finiteValues,
  countValid,
  nanMean,
  nanStd,
  nanMin,
  nanMax,
  nanMedian,
  sortedFinite,
  quantile7,
  quantileSorted7,
  averageRanks,
} from "./descriptive";
export type { NumberArray } from "./descriptive";
export { erf, erfc, normalCdf, normalQuantile } from "./normal";
export { bootstrapMeanCI, pairedBootstrapCI, twoSampleBootstrap } from "./bootstrap";
export type { BootstrapOptions, BootstrapInterval, TwoSampleBootstrap } from "./bootstrap";
export { permutationTest, PERMUTATION_EXACT_MAX_SPLITS } from "./permutation";
export type { PermutationTestResult } from "./permutation";
export { wilcoxonSignedRank, WILCOXON_EXACT_MAX_N, roundDifferences, binomialTwoSidedP, signTest, holm } from "./paired-tests";
export type { WilcoxonOptions } from "./paired-tests";
export type { WilcoxonResult, SignTestResult } from "./paired-tests";
export { isMissingLabel, cohenKappa, spearman } from "./agreement";
export type { Label } from "./agreement";
export { wilsonInterval } from "./intervals";
export type { ProportionInterval } from "./intervals";
export { mulberry32, deriveSeed, seedFromData, seedToUint32, DEFAULT_SEED } from "./random";
export type { Rng } from "./random";
export { hodgesLehmann, signTestInterval } from "./shift";
export type { ShiftInterval, ShiftOptions, SignShareInterval } from "./shift";
