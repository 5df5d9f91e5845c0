/**
 * The metric registry ([D] 3): a test-only metric, answer_length (no judge
 * call: min(1, words / 50)), registered with one registerMetric line, shows up
 * in summarize, the command line (score, its summary and headline,
 * summarize, diff, --metrics' choices, the help) and the report (its summary
 * and its charts), with no other change.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Cell } from "../src/dataset/table";
import type { EvalRow, Metric, MetricColumn, MetricRunContext } from "../src/metrics/metric";
import {
  defaultScoreColumns,
  definitionOfColumn,
  metricDefinition,
  metricNames,
  registerMetric,
  unregisterMetric,
  type MetricDefinition,
} from "../src/metrics/registry";
import { DEFAULT_METRICS } from "../src/analysis/summarize";
import { buildReport, createJudge, frameRecords, loadDataset, score, summarize } from "../src/index";
import { runCliCaptured } from "./support/cli";
import { chartIds } from "./support/report-page";
import { tempDir } from "./support/files";

const NAME = "answer_length";
const COLUMNS = { score: NAME, error: `${NAME}_error`, judge: `${NAME}_judge` } as const;

interface LengthResult {
  score: number;
  error: string;
  judge: string;
}

/** The test-only metric: the answer's length in words over 50, capped at 1. */
class AnswerLength implements Metric<LengthResult> {
  readonly name = NAME;
  readonly requiredColumns = ["user_input", "response"] as const;
  readonly judge = undefined;
  columns(): MetricColumn[] {
    return [
      { name: COLUMNS.score, type: "number" },
      { name: COLUMNS.error, type: "string" },
      { name: COLUMNS.judge, type: "string" },
    ];
  }
  async scoreRows(rows: readonly EvalRow[], context: MetricRunContext): Promise<LengthResult[]> {
    return rows.map((row) => {
      const words = row.response.split(/\s+/).filter((w) => w !== "").length;
      context.rowDone(false);
      return { score: Math.min(1, words / 50), error: "", judge: "none (word count)" };
    });
  }
  cells(r: LengthResult): Record<string, Cell> {
    return { [COLUMNS.score]: r.score, [COLUMNS.error]: r.error, [COLUMNS.judge]: r.judge };
  }
  failedCells(reason: string, judgeLabel: string): Record<string, Cell> {
    return { [COLUMNS.score]: Number.NaN, [COLUMNS.error]: reason, [COLUMNS.judge]: judgeLabel };
  }
}

const ANSWER_LENGTH: MetricDefinition = {
  name: NAME,
  label: "answer length",
  scoreColumn: COLUMNS.score,
  errorColumn: COLUMNS.error,
  judgeColumn: COLUMNS.judge,
  extraScoreColumns: [],
  columns: Object.values(COLUMNS),
  requiredColumns: ["user_input", "response"],
  needs: `a "response" column`,
  binary: false,
  display: { chart: "scoreDistribution" },
  create: () => new AnswerLength(),
};

const ROWS = [
  { id: "q1", model: "terse", user_input: "What is the capital of France?", response: "Paris.", reference: "Paris is the capital of France." },
  { id: "q2", model: "terse", user_input: "Who wrote Hamlet?", response: "Shakespeare.", reference: "William Shakespeare wrote Hamlet." },
  { id: "q3", model: "terse", user_input: "What is water made of?", response: "Hydrogen and oxygen.", reference: "Water is made of hydrogen and oxygen." },
  { id: "q1", model: "chatty", user_input: "What is the capital of France?", response: "The capital of France is Paris, a city on the Seine that has been the seat of government for centuries.", reference: "Paris is the capital of France." },
  { id: "q2", model: "chatty", user_input: "Who wrote Hamlet?", response: "Hamlet was written by William Shakespeare around 1600, and it is one of his best-known tragedies.", reference: "William Shakespeare wrote Hamlet." },
  { id: "q3", model: "chatty", user_input: "What is water made of?", response: "Water is made of two hydrogen atoms bonded to one oxygen atom, which is why its formula is H2O.", reference: "Water is made of hydrogen and oxygen." },
];

/** The Vega-Lite specs a report inlines, by chart id. */
function reportSpecs(html: string): Map<string, Record<string, unknown>> {
  const data = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(data, "the report inlines its charts");
  return new Map((JSON.parse(data[1]!) as { id: string; spec: Record<string, unknown> }[]).map((c) => [c.id, c.spec]));
}

/** Help text with its line breaks and padding as single spaces. */
const flat = (text: string): string => text.replace(/\s+/g, " ");

function csv(rows: readonly Record<string, string>[]): string {
  const head = Object.keys(rows[0]!);
  const quote = (v: string): string => `"${v.replaceAll('"', '""')}"`;
  return [head.join(","), ...rows.map((r) => head.map((k) => quote(r[k]!)).join(","))].join("\n") + "\n";
}

describe("the metric registry", () => {
  it("lists the two metrics in order, with their columns from the metric modules", () => {
    assert.deepEqual(metricNames(), ["answer_correctness", "multimodal_relevance"]);
    assert.deepEqual([...defaultScoreColumns()], ["answer_correctness", "answer_correctness_continuous", "multimodal_relevance"]);
    assert.deepEqual([...DEFAULT_METRICS], ["answer_correctness", "answer_correctness_continuous", "multimodal_relevance"]);
    const ac = metricDefinition("answer_correctness")!;
    assert.equal(ac.errorColumn, "answer_correctness_error");
    assert.equal(ac.judgeColumn, "answer_correctness_judge");
    assert.equal(ac.binary, false);
    assert.equal(definitionOfColumn("answer_correctness_continuous"), ac);
    assert.equal(metricDefinition("multimodal_relevance")!.binary, true);
    // create() reads its own flags from the shared bag; the metric's columns agree with the definition's.
    const built = ac.create({ threshold: 0.5, imageRoot: "/nowhere" });
    assert.deepEqual(built.columns().map((c) => c.name), [...ac.columns]);
    const mr = metricDefinition("multimodal_relevance")!.create({ weights: [1, 0], allowPrivateNetwork: true });
    assert.deepEqual(mr.columns().map((c) => c.name), [...metricDefinition("multimodal_relevance")!.columns]);
    assert.throws(() => ac.create({ weights: [0, 0] }), /weight/);
  });

  it("refuses a name taken or not snake_case", () => {
    assert.throws(() => registerMetric({ ...ANSWER_LENGTH, name: "answer_correctness" }), /already registered/);
    assert.throws(() => registerMetric({ ...ANSWER_LENGTH, name: "Answer-Length" }), /lower-case words/);
    assert.equal(unregisterMetric("no_such_metric"), false);
  });
});

describe("a test-only metric plugs in through the registry", () => {
  const dir = tempDir();
  const input = path.join(dir, "answers.csv");
  before(() => {
    registerMetric(ANSWER_LENGTH); // the one registry line
    writeFileSync(input, csv(ROWS));
  });
  after(() => {
    unregisterMetric(NAME);
  });

  it("is listed after the built-in metrics", () => {
    assert.deepEqual(metricNames(), ["answer_correctness", "multimodal_relevance", NAME]);
    assert.ok(DEFAULT_METRICS.includes(NAME));
  });

  it("is summarized when no metric is named", async () => {
    const scored = await score(await loadDataset(input), [new AnswerLength()], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    const summary = frameRecords(summarize(scored, { by: "model" }));
    const rows = summary.filter((r) => r["metric"] === NAME);
    assert.deepEqual(rows.map((r) => r["model"]), ["terse", "chatty"]);
    assert.ok(Number(rows[0]!["mean"]) < Number(rows[1]!["mean"]));
  });

  it("is scored, summarized and concluded on by the command line", async () => {
    const out = path.join(dir, "scored.csv");
    const run = await runCliCaptured(["score", input, "--metrics", NAME, "--judge", "offline", "--out", out, "--no-progress"]);
    assert.equal(run.code, 0, run.err);
    assert.match(readFileSync(out, "utf8").split("\n")[0]!, /answer_length,answer_length_error,answer_length_judge/);
    assert.match(run.out, /answer_length/);
    assert.match(run.out, /Ranking by mean answer_length: chatty/);
    assert.match(run.out, /answer_length: 0 of 6 rows failed/);
    assert.match(run.out, /terse/);
    assert.match(run.out, /chatty/);

    const summary = await runCliCaptured(["summarize", out]);
    assert.equal(summary.code, 0, summary.err);
    assert.match(summary.out, /answer_length/);

    const gated = await runCliCaptured(["summarize", out, "--fail-under", "0.99"]);
    assert.equal(gated.code, 1);
    assert.match(gated.err, /answer_length/);

    const unknown = await runCliCaptured(["score", input, "--metrics", "nope", "--out", path.join(dir, "x.csv")]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /answer_correctness, multimodal_relevance, answer_length/);

    // diff's default metric is the first registered one both runs scored.
    const diff = await runCliCaptured(["diff", out, out]);
    assert.equal(diff.code, 0, diff.err);
    assert.match(diff.out, /^answer_length: before = /);
  });

  it("is in the help: its name where metrics are listed, its label where they are described", async () => {
    const score = await runCliCaptured(["score", "--help"]);
    assert.equal(score.code, 0);
    assert.ok(flat(score.out).includes("--metrics LIST answer_correctness, multimodal_relevance, answer_length (comma-separated);"), score.out);
    assert.ok(flat(score.out).includes("--fail-under-metric LIST the score column(s) gated (default answer_correctness, multimodal_relevance and answer_length, those present)"), score.out);
    const summarizeHelp = flat((await runCliCaptured(["summarize", "--help"])).out);
    assert.ok(summarizeHelp.includes("score columns (default: answer_correctness, answer_correctness_continuous, multimodal_relevance, answer_length, those present)"), summarizeHelp);
    for (const command of ["diff", "compare"]) {
      const help = flat((await runCliCaptured([command, "--help"])).out);
      assert.ok(help.includes("--metric M score column (default answer_correctness, else multimodal_relevance, else answer_length)"), help);
    }
    const main = flat((await runCliCaptured(["--help"])).out);
    assert.ok(main.includes("score judge every row (answer correctness, multimodal relevance, answer length) and write the scored table"), main);
  });

  it("is in the report's summary table", async () => {
    const scored = await score(await loadDataset(input), [new AnswerLength()], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    const html = buildReport(scored, { generatedAt: null });
    assert.match(html, /metrics: answer_length/);
    assert.match(html, /<td[^>]*>answer_length<\/td>/);
  });

  it("gets the report's charts: the full set when it is the only metric, its preferred chart beside answer correctness", async () => {
    const alone = await score(await loadDataset(input), [new AnswerLength()], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    const html = buildReport(alone, { generatedAt: null });
    assert.deepEqual(chartIds(html), ["chart-box", "chart-mean", "chart-sweep", "chart-heatmap", "chart-paired", "chart-wtl"]);
    assert.match(html, /<figcaption>Mean answer length per model with its seeded 95% bootstrap confidence interval\.<\/figcaption>/);
    assert.match(html, /<figcaption>Answer length per question and model,/);
    const specs = reportSpecs(html);
    assert.ok(JSON.stringify(specs.get("chart-box")).includes("answer_length by model"));
    assert.ok(JSON.stringify(specs.get("chart-mean")).includes("mean answer_length"));

    const ac = metricDefinition("answer_correctness")!.create({});
    const both = await score(await loadDataset(input), [ac, new AnswerLength()], { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    const page = buildReport(both, { generatedAt: null });
    assert.deepEqual(chartIds(page), ["chart-box", "chart-mean", "chart-sweep", "chart-verdicts", "chart-scatter", "chart-heatmap", "chart-paired", "chart-wtl", "chart-box-answer_length"]);
    assert.match(page, /<h3>Score distribution: answer length<\/h3>/);
    assert.match(page, /<figcaption>Box: quartiles and median of each model&#39;s answer length scores;/);
    const lengthBox = JSON.stringify(reportSpecs(page).get("chart-box-answer_length"));
    assert.ok(lengthBox.includes("answer_length by model") && lengthBox.includes("chatty") && lengthBox.includes("terse"), lengthBox);
    assert.ok(JSON.stringify(reportSpecs(page).get("chart-box")).includes("answer_correctness by model"));
  });

  it("is gone once unregistered", () => {
    unregisterMetric(NAME);
    assert.deepEqual([...DEFAULT_METRICS], ["answer_correctness", "answer_correctness_continuous", "multimodal_relevance"]);
    registerMetric(ANSWER_LENGTH);
  });
});
