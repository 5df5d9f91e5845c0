/**
 * Regenerates data/qa-models.csv and data/multimodal.csv from their .jsonl
 * sources (the files we edit), through evalframe's own loader and writer.
 * Run: npx tsx scripts/build-sample-data.ts
 */
import * as path from "node:path";
import { loadDataset, toCSV } from "../src/index";

async function main(): Promise<void> {
  const data = path.join(__dirname, "..", "data");
  const df = await loadDataset(path.join(data, "qa-models.jsonl"), { required: ["user_input", "response", "reference", "id", "model"] });
  await toCSV(df, path.join(data, "qa-models.csv"));
  console.log(`wrote data/qa-models.csv: ${df.shape[0]} rows, columns ${df.columns.join(", ")}`);
  const mm = await loadDataset(path.join(data, "multimodal.jsonl"), { required: ["user_input", "response", "retrieved_contexts", "id", "model"] });
  await toCSV(mm, path.join(data, "multimodal.csv"));
  console.log(`wrote data/multimodal.csv: ${mm.shape[0]} rows, columns ${mm.columns.join(", ")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
