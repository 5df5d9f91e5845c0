/**
 * The main job on the bundled data: score data/qa-models.csv for answer
 * correctness (the offline judge when no OPENAI_API_KEY / OPENAI_BASE_URL is
 * set), write out/scored.csv and out/statements.csv, and print the mean score
 * per model and the story of the worst answer. Run: npm run demo
 */
import * as path from "node:path";
import { createJudge, explanation, loadDataset, scoreAnswerCorrectness, statements, toCSV } from "../src/index";

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const out = path.join(root, "out");
  const judge = createJudge();
  const df = await loadDataset(path.join(root, "data", "qa-models.csv"));
  const scored = await scoreAnswerCorrectness(df, { judge });
  await toCSV(scored, path.join(out, "scored.csv"));
  await toCSV(statements(scored), path.join(out, "statements.csv"));

  const rows = scored.values as unknown[][];
  const col = (name: string) => scored.columns.indexOf(name);
  const byModel = new Map<string, number[]>();
  for (const row of rows) {
    const model = String(row[col("model")]);
    byModel.set(model, [...(byModel.get(model) ?? []), row[col("answer_correctness")] as number]);
  }
  console.log(`\nanswer correctness by model (judge: ${judge.label})`);
  for (const [model, scores] of byModel) {
    const valid = scores.filter((s) => !Number.isNaN(s));
    const mean = valid.reduce((a, b) => a + b, 0) / valid.length;
    console.log(`  ${model.padEnd(12)} mean ${mean.toFixed(3)}  (${valid.length} scored, ${scores.length - valid.length} failed)`);
  }
  let worst = 0;
  rows.forEach((row, i) => {
    if ((row[col("answer_correctness")] as number) < (rows[worst]![col("answer_correctness")] as number)) worst = i;
  });
  console.log(`\nthe lowest score:\n${explanation(scored, worst).text}`);
  console.log(`\nwrote out/scored.csv (${rows.length} rows) and out/statements.csv`);
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
