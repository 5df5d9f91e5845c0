/**
 * Models named after Object.prototype's members ([E] item 9): "constructor",
 * "toString", "__proto__", … go through summarize, compare, disagreements,
 * every chart kind (rendered to SVG by vega), the report's charts and the
 * CLI as any other name.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import * as charts from "../src/charts/index";
import { compareModels, disagreements, frameRecords, summarize, toCSV, toDataFrame } from "../src/index";
import { buildReport } from "../src/report/html";
import type { VegaLiteSpec } from "../src/charts/spec";
import { runCliCaptured } from "./support/cli";
import { tempDir } from "./support/files";

const MODELS = Object.getOwnPropertyNames(Object.prototype);

function scoredRows(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let q = 0; q < 6; q++) {
    MODELS.forEach((model, i) => {
      const score = ((i + q) % 5) / 4;
      rows.push({
        id: `q${q}`,
        model,
        user_input: `Question ${q}?`,
        response: `Answer of ${model}.`,
        reference: "The reference.",
        answer_correctness: score,
        answer_correctness_factual: score,
        answer_correctness_semantic: 0.5,
        answer_correctness_tp: 1,
        answer_correctness_fp: (i + q) % 2,
        answer_correctness_fn: 0,
        answer_correctness_error: "",
        multimodal_relevance: (i + q) % 2,
      });
    });
  }
  return rows;
}

/** The visible text of an SVG's labels, with the invisible zero-width space taken out. */
const visible = (svg: string): string => svg.replace(/\u200b/g, "");

describe("models named after Object.prototype members", () => {
  const df = toDataFrame(scoredRows());

  it("summarize and compareModels give one row per model, under its own name", () => {
    const summary = frameRecords(summarize(df, { by: "model" })).filter((r) => r["metric"] === "answer_correctness");
    assert.deepEqual(summary.map((r) => r["model"]).sort(), [...MODELS].sort());
    for (const r of summary) assert.equal(r["n"], 6, `${String(r["model"])}: all six answers counted`);
    const compared = frameRecords(compareModels(df));
    const named = new Set(compared.flatMap((r) => [r["model_a"], r["model_b"]]));
    for (const m of MODELS) assert.ok(named.has(m), `compareModels lost ${m}`);
  });

  it("disagreements has a column per model, named after it", () => {
    const table = disagreements(df, { top: 3 });
    for (const m of MODELS) {
      assert.ok(table.columns.includes(m), `no column ${m}`);
      assert.equal(table.column(m).values.length, 3);
    }
  });

  it("every chart kind renders, with every model's name on it", async () => {
    const summary = summarize(df, { by: "model" });
    const specs: [string, VegaLiteSpec][] = [
      ["scoreHistogram", charts.scoreHistogram(df)],
      ["scoreBox", charts.scoreBox(df)],
      ["meanWithCI", charts.meanWithCI(summary)],
      ["relevanceRate", charts.relevanceRate(df)],
      ["pairedDifferences", charts.pairedDifferences(df)],
      ["winTieLoss", charts.winTieLoss(df)],
      ["thresholdSweep", charts.thresholdSweep(df)],
      ["factualVsSemantic", charts.factualVsSemantic(df)],
      ["questionHeatmap", charts.questionHeatmap(df)],
      ["verdictBars", charts.verdictBars(df)],
    ];
    for (const [kind, spec] of specs) {
      const svg = visible(await charts.toSVG(spec));
      for (const m of ["constructor", "toString", "hasOwnProperty"]) {
        if (kind === "pairedDifferences" || kind === "winTieLoss" || kind === "factualVsSemantic" || kind === "thresholdSweep") continue;
        assert.ok(svg.includes(m), `${kind} does not show ${m}`);
      }
    }
  });

  it("the report's charts all render", async () => {
    const html = buildReport(df);
    const json = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.ok(json, "the report has charts");
    const list = JSON.parse(json) as { id: string; spec: VegaLiteSpec }[];
    assert.ok(list.length >= 4);
    for (const chart of list) await assert.doesNotReject(charts.toSVG(chart.spec), `report chart ${chart.id}`);
  });

  it("columns named __proto__ and constructor survive a frame and back; a row without one has no value there", () => {
    const rows: Record<string, unknown>[] = [{ id: "a" }, { id: "b" }];
    Object.defineProperty(rows[0], "__proto__", { value: "x", enumerable: true });
    rows[0]!["constructor"] = "c";
    const back = frameRecords(toDataFrame(rows));
    assert.deepEqual(Object.keys(back[0]!), ["id", "__proto__", "constructor"]);
    assert.equal(back[0]!["__proto__"], "x");
    assert.equal(back[0]!["constructor"], "c");
    assert.equal(back[1]!["constructor"], null);
  });

  it("the CLI summarizes, compares and charts them", async () => {
    const dir = tempDir();
    const file = path.join(dir, "scored.csv");
    await toCSV(df, file);
    const summary = await runCliCaptured(["summarize", file]);
    assert.equal(summary.code, 0, summary.err);
    for (const m of MODELS) assert.ok(summary.out.includes(m), `summarize does not show ${m}`);
    const compare = await runCliCaptured(["compare", file]);
    assert.equal(compare.code, 0, compare.err);
    const chart = await runCliCaptured(["chart", file, "--kind", "box", "--out", path.join(dir, "box.svg")]);
    assert.equal(chart.code, 0, chart.err);
    assert.ok(visible(readFileSync(path.join(dir, "box.svg"), "utf8")).includes("constructor"));
  });
});
