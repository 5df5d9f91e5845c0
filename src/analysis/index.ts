/**
 * The analysis layer: summaries, model comparisons, agreement, drill-down
 * tables, the statistics behind them, and HTML tables for notebooks.
 *
 * @example
 * import { loadDataset, scoreAnswerCorrectness, summarize, compareModels, showTable } from "evalframe";
 * const scored = await scoreAnswerCorrectness(await loadDataset("data/qa-models.csv"));
 * showTable(summarize(scored, { by: "model" }));
 * showTable(compareModels(scored));
 */
export { summarize, DEFAULT_METRICS, SUMMARY_COLUMNS } from "./summarize";
export type { SummarizeOptions, FrameInput } from "./summarize";
export { compareModels, COMPARISON_COLUMNS } from "./compare";
export { headline } from "./headline";
export type { HeadlineOptions } from "./headline";
export type { CompareModelsOptions, ComparisonTest } from "./compare";
export { agreement } from "./agreement";
export type { AgreementInput, AgreementResult } from "./agreement";
export { calibrate } from "./calibrate";
export type { CalibrateOptions, CalibrationReport, CalibrationLabels } from "./calibrate";
export { alignStatements, wordOverlap, statementWords, ALIGN_THRESHOLD } from "./align";
export { disagreements, worst } from "./drilldown";
export type { DisagreementsOptions, WorstOptions } from "./drilldown";
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
} from "./stats";
export type {
  NumberArray,
  Label,
  BootstrapOptions,
  BootstrapInterval,
  TwoSampleBootstrap,
  WilcoxonResult,
  SignTestResult,
} from "./stats";
export { mulberry32, deriveSeed, seedToUint32, DEFAULT_SEED } from "./random";
export type { Rng } from "./random";
export { tableHTML, showTable } from "../display/table";
export type { TableHTMLOptions } from "../display/table";
