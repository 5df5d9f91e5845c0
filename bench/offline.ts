/**
 * The offline judge: its agreement with the bundled hand labels (factual
 * Spearman, model order, wrong answers scored high, statement agreement,
 * answer order) on the sample data and on the held-out set's two splits, with
 * the sets a reader scored a whole answer at a time (fresh, development, assistant),
 * Ragas' documentation examples, and the time and memory of scoring
 * 100,000 synthetic rows (in a child process, from dist/).
 *
 *   npm run build && npm run bench -- --only offline
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { calibrate } from "../src/analysis/calibrate";
import { frameRecords } from "../src/cli/table";
import { loadDataset } from "../src/frame/load";
import { scoreAnswerCorrectness } from "../src/frame/score";
import { createJudge } from "../src/judge/create";
import { readLabels } from "../src/labels/read";
import { figure, round, type BenchFigure, type BenchResult } from "./support";

const root = path.join(__dirname, "..");

interface ScaleResult {
  rows: number;
  ms: number;
  cpuSeconds: number;
  peakMb: number;
  failed: number;
}

/** Which rows the scale run scores (see offline-worker.ts). */
type Shape = "sample" | "synthetic";

function scaleRun(rows: number, shape: Shape): Promise<ScaleResult> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "offline-worker.ts"), String(rows), "--data", shape], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`offline-worker ${rows} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split("\n").pop()!) as ScaleResult);
    }),
  );
}

async function scoreOne(user_input: string, response: string, reference: string): Promise<Record<string, unknown>> {
  const scored = await scoreAnswerCorrectness([{ user_input, response, reference }], { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
  return frameRecords(scored)[0]!;
}

/** Runs the offline-judge benchmark. */
export async function benchOffline(options: { rows?: number } = {}): Promise<BenchResult> {
  const figures: BenchFigure[] = [];
  const notes: string[] = [];

  const table = await loadDataset(path.join(root, "data", "qa-models.csv"));
  const scored = await scoreAnswerCorrectness(table, { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
  const report = calibrate(scored, path.join(root, "data", "qa-models.labels.jsonl"));
  const rows = frameRecords(report.rows!);
  const at = (target: string) => rows.find((r) => r["target"] === target && r["model"] === "(all)")!;
  const factual = at("factual");
  const final = at("score");
  figures.push(
    figure("labels: factual score vs labels' F1, Spearman (126 answers)", round(factual["spearman"] as number, 3), "", "≥ 0.8", (factual["spearman"] as number) >= 0.8),
    figure("labels: factual score vs labels' F1, MAE / bias", `${round(factual["mae"] as number, 3)} / ${round(factual["bias"] as number, 3)}`, ""),
    figure("labels: final score vs labels' F1, Spearman", round(final["spearman"] as number, 3), ""),
    figure(
      "labels: answers the labels score 0 that get factual ≥ 0.5",
      `${Math.round((factual["high_on_label_zero"] as number) * (factual["n_label_zero"] as number))} of ${String(factual["n_label_zero"])} (${round((factual["high_on_label_zero"] as number) * 100, 1)}%)`,
      "",
      "≤ 5%",
      (factual["high_on_label_zero"] as number) <= 0.05,
    ),
  );
  const ranking = frameRecords(report.ranking!);
  const order = (key: string) => [...ranking].sort((a, b) => (b[key] as number) - (a[key] as number)).map((r) => String(r["model"]));
  const byFactual = (() => {
    const all = frameRecords(scored);
    const models = [...new Set(all.map((r) => String(r["model"])))];
    const mean = (m: string) => {
      const v = all.filter((r) => r["model"] === m).map((r) => r["answer_correctness_factual"] as number);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    return models.sort((a, b) => mean(b) - mean(a));
  })();
  const labelOrder = order("label_mean");
  figures.push(
    figure("labels: model order by factual score / by the labels", `${byFactual.join(" > ")} / ${labelOrder.join(" > ")}`, "", "same order", byFactual.join() === labelOrder.join()),
    figure("labels: model order by final score agrees with the labels", String(report.rankingAgrees), "", "true", report.rankingAgrees === true),
  );
  for (const r of frameRecords(report.statements!)) {
    figures.push(figure(`labels: statement agreement, ${String(r["side"])} side (accuracy / kappa, ${String(r["n_aligned"])} aligned)`, `${round(r["accuracy"] as number, 3)} / ${round(r["kappa"] as number, 3)}`, ""));
  }
  const sampleOrder = frameRecords(report.answerOrder!).find((r) => r["target"] === "factual")!;
  figures.push(figure("labels: the better of two answers to a question scored higher (factual)", `${String(sampleOrder["ordered"])} of ${String(sampleOrder["n_pairs"])} pairs (${round((sampleOrder["share_ordered"] as number) * 100, 1)}%)`, ""));

  // The held-out set: answers written and labelled apart from the judge (docs/labelling.md).
  const heldOut = frameRecords(await scoreAnswerCorrectness(await loadDataset(path.join(root, "data", "qa-heldout.csv")), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true }));
  for (const split of ["test", "dev"] as const) {
    const rows = heldOut.filter((r) => r["split"] === split);
    const r = calibrate(rows, path.join(root, "data", "qa-heldout.labels.jsonl"), { top: 0 });
    const f = frameRecords(r.rows!).find((x) => x["target"] === "factual" && x["model"] === "(all)")!;
    const o = frameRecords(r.answerOrder!).find((x) => x["target"] === "factual")!;
    const what = `held-out ${split} split`;
    const zero = f["n_label_zero"] as number;
    const high = Math.round((f["high_on_label_zero"] as number) * zero);
    figures.push(
      figure(`${what}: factual score vs labels' F1, Spearman (${rows.length} answers)`, round(f["spearman"] as number, 3), "", split === "test" ? "≥ 0.8 ([A], on unseen answers)" : undefined, split === "test" ? (f["spearman"] as number) >= 0.8 : undefined),
      figure(`${what}: answers the labels score 0 that get factual ≥ 0.5`, `${high} of ${zero} (${round((high / zero) * 100, 1)}%)`, "", split === "test" ? "≤ 5%" : undefined, split === "test" ? high / zero <= 0.05 : undefined),
      figure(`${what}: the better of two answers to a question scored higher`, `${String(o["ordered"])} of ${String(o["n_pairs"])} pairs (${round((o["share_ordered"] as number) * 100, 1)}%; ${String(o["tied"])} tied)`, ""),
      figure(`${what}: model order by final score agrees with the labels`, String(r.rankingAgrees), "", split === "test" ? "true" : undefined, split === "test" ? r.rankingAgrees === true : undefined),
    );
  }

  // A second reader: some test batches labelled again, apart, by a reader who saw neither the first
  // labels nor the judge. How far two readers agree is the most a judge can be asked to agree.
  const secondFile = path.join(root, "data", "qa-heldout.second-reader.labels.jsonl");
  const firstFile = path.join(root, "data", "qa-heldout.labels.jsonl");
  const second = readLabels(secondFile).answerCorrectness;
  const keys = new Set(second.map((l) => `${String(l.id)}\u0000${String(l.model)}`));
  const both = heldOut.filter((r) => keys.has(`${String(r["id"])}\u0000${String(r["model"])}`));
  const replayed = frameRecords(await scoreAnswerCorrectness(both.map(({ user_input, response, reference, id, model, split }) => ({ id, model, split, user_input, response, reference })), { judge: createJudge({ judge: "labels", labels: secondFile }), progress: false, quiet: true }));
  const agreement = (r: ReturnType<typeof calibrate>) => {
    const f = frameRecords(r.rows!).find((x) => x["target"] === "factual" && x["model"] === "(all)")!;
    const o = frameRecords(r.answerOrder!).find((x) => x["target"] === "factual")!;
    const zero = f["n_label_zero"] as number;
    const high = Math.round((f["high_on_label_zero"] as number) * zero);
    return `Spearman ${round(f["spearman"] as number, 3)}; ${high} of ${zero} label-0 answers at ≥ 0.5; ${String(o["ordered"])} of ${String(o["n_pairs"])} pairs ordered (${String(o["tied"])} tied)`;
  };
  const batches = [...new Set(both.map((r) => String(r["id"]).split("-")[0]))].join(", ");
  figures.push(
    figure(`second reader vs first reader, ${both.length} test answers (${batches})`, agreement(calibrate(replayed, firstFile, { top: 0 })), ""),
    figure(`offline judge vs first reader, the same answers`, agreement(calibrate(both, firstFile, { top: 0 })), ""),
    figure(`offline judge vs second reader, the same answers`, agreement(calibrate(both, secondFile, { top: 0 })), ""),
  );
  notes.push(
    `second reader: data/qa-heldout.second-reader.labels.jsonl labels ${both.length} answers of the test split again, by a reader who saw neither the first labels nor the judge; ` +
      "its factual F1 (the labels judge replays it) against the first reader's is how far two careful readers agree.",
  );

  // Sets a reader scored a whole answer at a time (docs/labelling.md): how the factual part orders
  // the answers to one question, and the final score against the reader's.
  for (const set of [
    { file: "qa-fresh", what: "fresh set (held out)" },
    { file: "qa-dev2", what: "development set (rules tuned on it)" },
    { file: "qa-assistant", what: "assistant set" },
  ]) {
    const scoredSet = await scoreAnswerCorrectness(await loadDataset(path.join(root, "data", `${set.file}.csv`)), { judge: createJudge({ judge: "offline", quiet: true }), progress: false, quiet: true });
    const grades = frameRecords(await loadDataset(path.join(root, "data", `${set.file}.scores.csv`), { required: [], warn: false }));
    const r = calibrate(scoredSet, grades, { labelScore: "human_score", top: 0 });
    const of = (target: string) => frameRecords(r.rows!).find((x) => x["target"] === target && x["model"] === "(all)")!;
    const f = of("factual");
    const o = frameRecords(r.answerOrder!).find((x) => x["target"] === "factual")!;
    const zero = f["n_label_zero"] as number;
    const high = Math.round((f["high_on_label_zero"] as number) * zero);
    figures.push(
      figure(`${set.what}: factual score vs reader's score, Spearman (${frameRecords(scoredSet).length} answers)`, round(f["spearman"] as number, 3), ""),
      figure(`${set.what}: final score vs reader's score, Spearman`, round(of("score")["spearman"] as number, 3), ""),
      figure(`${set.what}: answers the reader scores 0 that get factual ≥ 0.5`, `${high} of ${zero}`, ""),
      figure(`${set.what}: the better of two answers to a question scored higher`, `${String(o["ordered"])} of ${String(o["n_pairs"])} pairs (${round((o["share_ordered"] as number) * 100, 1)}%; ${String(o["tied"])} tied)`, ""),
    );
  }
  notes.push(
    "reader-scored sets: data/qa-fresh.csv, data/qa-dev2.csv and data/qa-assistant.csv scored by the offline judge, calibrate() against their .scores.csv (a reader's 0-1 score per answer, human_score); " +
      "the fresh set is held out, the development set is read while fixing the judge.",
  );

  const bowl = await scoreOne("When was the first super bowl?", "The first superbowl was held on Jan 15, 1967", "The first superbowl was held on January 15, 1967");
  figures.push(figure("Ragas example: super bowl paraphrase, score", round(bowl["answer_correctness"] as number, 3), "", "≥ 0.8", (bowl["answer_correctness"] as number) >= 0.8));
  const einstein = await scoreOne("Where and when was Einstein born?", "Einstein was born in Spain in 1879.", "Einstein was born in 1879 in Germany.");
  const counts = [einstein["answer_correctness_tp"], einstein["answer_correctness_fp"], einstein["answer_correctness_fn"]].join(" / ");
  figures.push(figure("Ragas example: 'born in Spain in 1879', TP / FP / FN", counts, "", "1 / 1 / 1", counts === "1 / 1 / 1"));
  const right = await scoreOne("Where and when was Einstein born?", "Einstein was born in Germany in 1879.", "Einstein was born in 1879 in Germany.");
  figures.push(figure("Ragas example: the right Einstein answer, factual", right["answer_correctness_factual"] as number, "", "1", right["answer_correctness_factual"] === 1));

  const size = options.rows ?? 100_000;
  if (!existsSync(path.join(root, "dist", "index.js"))) {
    notes.push("offline scale: skipped, dist/ is missing (run npm run build first)");
  } else {
    const n = size.toLocaleString("en-US");
    const sample = await scaleRun(size, "sample");
    figures.push(
      figure(`scale: ${n} rows offline (sample repeated), wall time`, round(sample.ms / 1000, 1), "s", "< 60 s", sample.ms < 60_000),
      figure(`scale: ${n} rows offline (sample repeated), CPU time / peak memory`, `${round(sample.cpuSeconds, 1)} s / ${round(sample.peakMb)} MB`, ""),
    );
    const synthetic = await scaleRun(size, "synthetic");
    figures.push(
      figure(`scale: ${n} rows offline (new sentences), wall time`, round(synthetic.ms / 1000, 1), "s", "< 60 s", synthetic.ms < 60_000),
      figure(`scale: ${n} rows offline (new sentences), CPU time / peak memory`, `${round(synthetic.cpuSeconds, 1)} s / ${round(synthetic.peakMb)} MB`, ""),
    );
    notes.push(
      `offline scale, sample repeated: the ${frameRecords(table).length} rows of data/qa-models.csv repeated with new ids to ${n} rows ` +
        `(a growing eval set repeats its questions, answers and references; each text is still read on its own); ${sample.failed} rows failed.`,
      `offline scale, new sentences: ${n} synthetic rows (bench/data qaRows: ${Math.ceil(size / 5).toLocaleString("en-US")} questions × 5 models, ` +
        `about 2.5 sentences per row never seen before, the worst case), ${synthetic.failed} rows failed. ` +
        "Both scored by dist/ in a child process with the default two worker threads.",
    );
  }
  notes.push(
    "labels: data/qa-models.csv scored by the offline judge, calibrate() against data/qa-models.labels.jsonl (hand labels, docs/labelling.md).",
    "held-out: data/qa-heldout.csv (its split column) scored by the offline judge, calibrate() against data/qa-heldout.labels.jsonl; " +
      "the dev split was read while fixing the judge; the test split never was, so its figures are the ones to expect on answers of your own.",
  );
  return { name: "offline", figures, notes };
}
