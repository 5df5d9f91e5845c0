/**
 * The main job on the bundled data: load data/qa-models.csv, check every row,
 * and write the checked table to out/. Run: npm run demo
 */
import * as path from "node:path";
import { checkDataset, loadDataset, toCSV } from "../src/index";

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const input = path.join(root, "data", "qa-models.csv");
  const required = ["user_input", "response", "reference", "id", "model"] as const;
  const { table, errors } = await checkDataset(input, { required });
  const count = (name: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const v of table.columns.find((c) => c.name === name)?.values ?? []) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
    return counts;
  };
  const list = (m: Map<string, number>): string => [...m].map(([k, n]) => `${k} (${n})`).join(", ");
  console.log(`data/qa-models.csv: ${table.rowCount} rows, ${count("id").size} questions`);
  console.log(`models:  ${list(count("model"))}`);
  console.log(`domains: ${list(count("domain"))}`);
  console.log(`rows with bad input: ${errors.filter((e) => e !== "").length}`);
  const out = path.join(root, "out", "qa-models.csv");
  await toCSV(await loadDataset(input, { required }), out);
  console.log(`wrote ${path.relative(root, out)}`);
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
