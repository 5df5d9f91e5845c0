/**
 * `evalframe/stats`: the statistics behind summaries and comparisons —
 * NaN-aware descriptive statistics, seeded bootstrap intervals, Wilson
 * intervals, the Wilcoxon signed-rank and sign tests, Holm's correction,
 * agreement (Cohen's kappa, Spearman), and the seeded random numbers.
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
  erf,
  erfc,
  normalCdf,
  bootstrapMeanCI,
  pairedBootstrapCI,
  twoSampleBootstrap,
  wilcoxonSignedRank,
  WILCOXON_EXACT_MAX_N,
  binomialTwoSidedP,
  signTest,
  holm,
  isMissingLabel,
  cohenKappa,
  spearman,
} from "./analysis/stats";
export type { NumberArray, Label, BootstrapOptions, BootstrapInterval, TwoSampleBootstrap, WilcoxonResult, SignTestResult } from "./analysis/stats";
export { wilsonInterval, normalQuantile } from "./analysis/intervals";
export type { ProportionInterval } from "./analysis/intervals";
export { mulberry32, deriveSeed, seedToUint32, DEFAULT_SEED } from "./analysis/random";
export type { Rng } from "./analysis/random";
