/** Every chart evalframe makes, built from scored sample data (for the chart tests and the browser page). */
import type { DataFrame } from "danfojs-node";
import { compareModels, factualVsSemantic, meanWithCI, pairedDifferences, questionHeatmap, relevanceRate, scoreBox, scoreHistogram, summarize, thresholdSweep, verdictBars, winTieLoss, type VegaLiteSpec } from "../../src/index";

/** The charts of a qa-models frame scored for answer correctness and a multimodal frame judged for relevance. */
export function chartGallery(scored: DataFrame, judged: DataFrame): Record<string, VegaLiteSpec> {
  return {
    scoreHistogram: scoreHistogram(scored),
    scoreHistogramLayered: scoreHistogram(scored, { layout: "layer" }),
    scoreBox: scoreBox(scored),
    meanWithCI: meanWithCI(summarize(scored, { by: "model" })),
    factualVsSemantic: factualVsSemantic(scored),
    questionHeatmap: questionHeatmap(scored),
    pairedDifferences: pairedDifferences(scored),
    winTieLoss: winTieLoss(compareModels(scored, {})),
    verdictBars: verdictBars(scored),
    thresholdSweep: thresholdSweep(scored),
    relevanceRate: relevanceRate(judged),
  };
}
