/** Vega-Lite charts: builders, rendering and display. */
export { scoreHistogram, scoreBox } from "./distribution";
export type { HistogramOptions, BoxOptions } from "./distribution";
export { meanWithCI, relevanceRate, pairedDifferences, winTieLoss, thresholdSweep } from "./comparison";
export type { MeanChartOptions, PairedDifferencesOptions, WinTieLossOptions, ThresholdSweepOptions } from "./comparison";
export { factualVsSemantic, questionHeatmap, verdictBars } from "./detail";
export type { HeatmapOptions } from "./detail";
export { toSVG, toPNG, saveChart, compileChart } from "./render";
export type { PngOptions, CompiledChart } from "./render";
export { show, VEGA_LITE_MIME } from "./show";
export type { ShowOptions } from "./show";
export { modelColor, setModelColors, VEGA_LITE_SCHEMA, MAX_INLINE_ROWS } from "./spec";
export type { VegaLiteSpec } from "./spec";
export type { ChartInput } from "./data";
