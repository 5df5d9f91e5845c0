/**
 * The main job on the bundled data (`npm run demo`): score
 * data/qa-models.csv for answer correctness with the judge from the
 * environment (the offline judge, with a notice, when neither OPENAI_API_KEY
 * nor OPENAI_BASE_URL is set), write out/scored.csv, out/statements.csv and
 * the self-contained out/report.html, and print the summary per model, the
 * model comparison and the usage line.
 */
import * as path from "node:path";
import { formatTable } from "../src/cli/table";
import {
  compareModels,
  createJudge,
  formatUsage,
  loadDataset,
  scoreAnswerCorrectness,
  scoreRun,
  statements,
  summarize,
  toCSV,
  writeReport,
} from "../src/index";

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const out = path.join(root, "out");
  const relative = (file: string) => path.relative(process.cwd(), file) || file;

  const judge = createJudge();
  const df = await loadDataset(path.join(root, "data", "qa-models.csv"));
  const scored = await scoreAnswerCorrectness(df, { judge, quiet: true });

  const files = { scored: path.join(out, "scored.csv"), statements: path.join(out, "statements.csv"), report: path.join(out, "report.html") };
  await toCSV(scored, files.scored);
  await toCSV(statements(scored), files.statements);
  await writeReport(scored, files.report, { title: `qa-models: answer correctness (${judge.label})` });

  console.log(`\nAnswer correctness by model (judge: ${judge.label})\n`);
  console.log(formatTable(summarize(scored, { by: "model" }), { columns: ["model", "n", "n_valid", "n_error", "mean", "ci_low", "ci_high", "median", "std"] }));
  console.log("\nModel comparison (paired by question; Holm-adjusted p-values)\n");
  console.log(
    formatTable(compareModels(scored), {
      columns: ["model_a", "model_b", "n_pairs", "mean_diff", "ci_low", "ci_high", "wins", "ties", "losses", "p_holm", "verdict"],
    }),
  );
  console.log(`\nwrote ${relative(files.scored)}, ${relative(files.statements)} and ${relative(files.report)}`);
  const run = scoreRun(scored);
  if (run) console.log(formatUsage(run.usage));
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
