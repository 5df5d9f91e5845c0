/**
 * Draws the charts shown in the README (docs/*.png) from the sample data
 * scored with its hand labels (the labels judge). Run: npx tsx scripts/readme-images.ts
 */
import * as path from "node:path";
import { createJudge, loadDataset, meanWithCI, saveChart, scoreAnswerCorrectness, summarize, thresholdSweep } from "../src/index";

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const judge = createJudge({ judge: "labels", labels: path.join(root, "data", "qa-models.labels.jsonl") });
  const scored = await scoreAnswerCorrectness(await loadDataset(path.join(root, "data", "qa-models.csv")), { judge, progress: false, quiet: true });
  await saveChart(meanWithCI(summarize(scored, { by: "model" })), path.join(root, "docs", "mean-with-ci.png"), { scale: 1.5 });
  await saveChart(thresholdSweep(scored), path.join(root, "docs", "threshold-sweep.png"), { scale: 1.5 });
  console.log("wrote docs/mean-with-ci.png and docs/threshold-sweep.png");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
