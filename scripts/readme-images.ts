/**
 * Draws the charts shown in the README (docs/*.png) from the sample data
 * scored with its hand labels (the labels judge). Run: npx tsx scripts/readme-images.ts
 */
import * as path from "node:path";
import { createJudge, loadDataset, meanWithCI, pairedDifferences, relevanceRate, saveChart, scoreAnswerCorrectness, scoreMultimodalRelevance, summarize, thresholdSweep } from "../src/index";

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const data = path.join(root, "data");
  const docs = (name: string) => path.join(root, "docs", name);
  const judge = createJudge({ judge: "labels", labels: path.join(data, "qa-models.labels.jsonl") });
  const scored = await scoreAnswerCorrectness(await loadDataset(path.join(data, "qa-models.csv")), { judge, progress: false, quiet: true });
  const relevanceJudge = createJudge({ judge: "labels", labels: path.join(data, "multimodal.labels.jsonl") });
  const judged = await scoreMultimodalRelevance(await loadDataset(path.join(data, "multimodal.csv")), { judge: relevanceJudge, imageRoot: data, progress: false, quiet: true });
  // A summary table has no judge column: name the judge.
  await saveChart(meanWithCI(summarize(scored, { by: "model" }), { judgeLabel: judge.label }), docs("mean-with-ci.png"), { scale: 1.5 });
  await saveChart(thresholdSweep(scored), docs("threshold-sweep.png"), { scale: 1.5 });
  await saveChart(pairedDifferences(scored), docs("chart-paired.png"), { scale: 1.5 });
  await saveChart(relevanceRate(judged), docs("chart-relevance.png"), { scale: 1.5 });
  console.log("wrote docs/mean-with-ci.png, docs/threshold-sweep.png, docs/chart-paired.png and docs/chart-relevance.png");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
