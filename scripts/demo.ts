/**
 * The main job on the bundled data (`npm run demo`): score
 * data/qa-models.csv for answer correctness, write out/scored.csv,
 * out/statements.csv and the self-contained out/report.html, print the
 * summary per model, the model comparison and the usage line, then check a
 * judge against the hand labels (data/qa-models.labels.jsonl) with
 * `calibrate`.
 *
 * - With OPENAI_API_KEY or OPENAI_BASE_URL set, the real judge
 *   (`createJudge()` from the environment) is the main run, and the check
 *   compares it with the hand labels.
 * - With neither, the main run replays the hand labels (the "hand-labelled"
 *   judge: what a careful reader gives), and the offline judge also scores
 *   the data (out/scored-offline.csv) to show how far it agrees with them.
 */
import * as path from "node:path";
import { formatTable } from "../src/cli/table";
import { calibrate, compareModels, createJudge, formatUsage, frameRecords, loadDataset, resolveJudgeConfig, scoreAnswerCorrectness, scoreRun, statements, summarize, toCSV, writeReport, type Judge } from "../src/index";
import type { DataFrame } from "danfojs-node";

const fixed = (value: unknown, digits = 3): string => (typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** The "offline judge vs hand labels" section: factual agreement over all rows and the model ranking, from `calibrate`. */
function printCalibration(scored: DataFrame, judge: Judge, labelsFile: string, shown: string): void {
  const report = calibrate(scored, labelsFile);
  const factual = frameRecords(report.rows!).find((r) => r["target"] === "factual" && r["model"] === "(all)")!;
  const zero = Number(factual["n_label_zero"]);
  const high = Number(factual["high_on_label_zero"]);
  const name = judge.kind === "offline" ? "Offline judge" : `Judge ${judge.label}`;
  console.log(`\n${name} vs hand labels (calibrate against ${shown})\n`);
  console.log(`  factual score vs labels' F1 (${factual["n"]} rows): Spearman ${fixed(factual["spearman"])} · MAE ${fixed(factual["mae"])} · bias ${fixed(factual["bias"])}`);
  console.log(
    `  rows the labels score 0, scored ≥ 0.5 (high_on_label_zero): ` +
      (zero > 0 ? `${Math.round(high * zero)} of ${zero} (${fixed(high * 100, 1)}%)` : "none labelled 0"),
  );
  console.log(
    `  model ranking: ${report.rankingAgrees ? "agrees with the labels" : "DIFFERS from the labels"} ` +
      "(judge_mean: mean final score; label_mean: mean of the labels' F1)\n",
  );
  console.log(formatTable(report.ranking!, { columns: ["model", "n", "judge_mean", "label_mean", "judge_rank", "label_rank"] }));
}

async function main(): Promise<void> {
  const root = path.join(__dirname, "..");
  const out = path.join(root, "out");
  const relative = (file: string) => path.relative(process.cwd(), file) || file;
  const labelsFile = path.join(root, "data", "qa-models.labels.jsonl");

  // The same choice createJudge() makes: a real judge when a key or a server is set.
  const real = resolveJudgeConfig({}).kind === "openai";
  if (!real) {
    console.warn(
      `evalframe demo: no OPENAI_API_KEY or OPENAI_BASE_URL is set, so the main run replays the hand labels (${relative(labelsFile)}) ` +
        "and the offline judge (approximate) is checked against them. Set one to score with a real judge.",
    );
  }
  const judge = real ? createJudge() : createJudge({ judge: "labels", labels: labelsFile });
  const df = await loadDataset(path.join(root, "data", "qa-models.csv"));
  const scored = await scoreAnswerCorrectness(df, { judge, quiet: true });

  const files = {
    scored: path.join(out, "scored.csv"),
    statements: path.join(out, "statements.csv"),
    report: path.join(out, "report.html"),
    offline: path.join(out, "scored-offline.csv"),
  };
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

  if (real) {
    printCalibration(scored, judge, labelsFile, relative(labelsFile));
  } else {
    const offline = createJudge({ judge: "offline" });
    const offlineScored = await scoreAnswerCorrectness(df, { judge: offline, quiet: true, progress: false });
    await toCSV(offlineScored, files.offline);
    printCalibration(offlineScored, offline, labelsFile, relative(labelsFile));
    console.log(`\nwrote ${relative(files.offline)} (the offline judge's scores)`);
  }
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
