import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import {
  compareModels,
  compileChart,
  createJudge,
  factualVsSemantic,
  loadDataset,
  meanWithCI,
  modelColor,
  pairedDifferences,
  questionHeatmap,
  relevanceRate,
  saveChart,
  scoreAnswerCorrectness,
  scoreBox,
  scoreHistogram,
  scoreMultimodalRelevance,
  summarize,
  thresholdSweep,
  toDataFrame,
  toPNG,
  toSVG,
  verdictBars,
  winTieLoss,
  type VegaLiteSpec,
} from "../src/index";
import { tempDir } from "./support/files";
import { chartGallery } from "./support/gallery";

const DATA = path.join(__dirname, "..", "data");
const MODELS = ["atlas-pro", "chatter-xl", "swift-mini"];
let scored: DataFrame;
let judged: DataFrame;
let gallery: Record<string, VegaLiteSpec>;

before(async () => {
  const judge = createJudge({ judge: "offline" });
  scored = await scoreAnswerCorrectness(await loadDataset(path.join(DATA, "qa-models.csv")), { judge, progress: false, quiet: true });
  judged = await scoreMultimodalRelevance(await loadDataset(path.join(DATA, "multimodal.csv")), { judge, imageRoot: DATA, progress: false, quiet: true });
  gallery = chartGallery(scored, judged);
});

/** Every data row a spec inlines, across layers and facets. */
function inlineRows(spec: unknown): number {
  if (Array.isArray(spec)) return spec.reduce((n: number, s) => n + inlineRows(s), 0);
  if (spec === null || typeof spec !== "object") return 0;
  let n = 0;
  for (const [key, value] of Object.entries(spec)) {
    if (key === "data" && value && typeof value === "object" && Array.isArray((value as { values?: unknown }).values)) n += (value as { values: unknown[] }).values.length;
    else n += inlineRows(value);
  }
  return n;
}

describe("charts from the sample data", () => {
  it("builds every chart the issue lists", () => {
    assert.deepEqual(Object.keys(gallery).sort(), [
      "factualVsSemantic",
      "meanWithCI",
      "pairedDifferences",
      "questionHeatmap",
      "relevanceRate",
      "scoreBox",
      "scoreHistogram",
      "scoreHistogramLayered",
      "thresholdSweep",
      "verdictBars",
      "winTieLoss",
    ]);
  });

  it("compiles every spec with vega-lite with no warning, under a v5 schema", async () => {
    for (const [name, spec] of Object.entries(gallery)) {
      assert.equal(spec.$schema, "https://vega.github.io/schema/vega-lite/v5.json", name);
      const { warnings } = await compileChart(spec);
      assert.deepEqual(warnings, [], name);
    }
  });

  it("renders every chart to an SVG holding its axis titles and model names, and a PNG with text", async () => {
    const expectations: Record<string, string[]> = {
      scoreHistogram: ["answer_correctness", "Rows", ...MODELS],
      scoreHistogramLayered: ["answer_correctness", "Rows", ...MODELS],
      scoreBox: ["answer_correctness", ...MODELS],
      meanWithCI: ["mean answer_correctness", "95% bootstrap CI", ...MODELS],
      factualVsSemantic: ["semantic (cosine of embeddings)", "factual (F-beta of statements)", ...MODELS],
      questionHeatmap: ["q01", ...MODELS],
      pairedDifferences: ["atlas-pro − chatter-xl", "q01"],
      winTieLoss: ["Questions", "atlas-pro vs chatter-xl", "atlas-pro vs swift-mini"],
      verdictBars: ["Statements", "TP", "FP", "FN", ...MODELS],
      thresholdSweep: ["Pass rate", "Threshold", ...MODELS],
      relevanceRate: ["share judged relevant", ...MODELS],
    };
    for (const [name, spec] of Object.entries(gallery)) {
      const svg = await toSVG(spec);
      for (const text of expectations[name] ?? []) assert.ok(svg.includes(text), `${name}: the SVG lacks "${text}"`);
      const png = await toPNG(spec, { scale: 1 });
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], name);
      const width = png.readUInt32BE(16);
      const height = png.readUInt32BE(20);
      assert.ok(width > 250 && height > 150, `${name}: ${width}×${height}`);
      assert.ok(png.length > 12_000, `${name}: a PNG of ${png.length} bytes has too little drawn on it (text missing?)`);
    }
  });

  it("draws text in the PNG (a chart with its labels is much larger than the same chart without)", async () => {
    const spec = gallery["verdictBars"]!;
    const bare = { ...spec, title: "", encoding: { ...(spec["encoding"] as object), y: { field: "model", type: "nominal", axis: null }, x: { field: "statements", type: "quantitative", axis: null } } };
    const withText = await toPNG(spec, { scale: 1 });
    const without = await toPNG({ ...bare, $schema: spec.$schema }, { scale: 1 });
    assert.ok(withText.length > without.length * 1.3, `${withText.length} vs ${without.length}`);
  });

  it("saves as svg, png and json", async () => {
    const dir = tempDir();
    for (const ext of ["svg", "png", "json"]) await saveChart(gallery["scoreBox"]!, path.join(dir, "nested", `box.${ext}`));
    await assert.rejects(saveChart(gallery["scoreBox"]!, path.join(dir, "box.gif")), /use \.svg, \.png or \.json/);
  });
});

describe("chart data", () => {
  it("gives each model one colour in every chart", () => {
    const colours = (spec: VegaLiteSpec): Record<string, string> => {
      const found: Record<string, string> = {};
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node === null || typeof node !== "object") return;
        const scale = (node as { scale?: { domain?: unknown; range?: unknown } }).scale;
        if ((node as { field?: unknown }).field === "model" && Array.isArray(scale?.domain) && Array.isArray(scale?.range)) {
          scale.domain.forEach((m, i) => (found[String(m)] = String((scale.range as unknown[])[i])));
        }
        Object.values(node).forEach(walk);
      };
      walk(spec);
      return found;
    };
    const expected = Object.fromEntries(MODELS.map((m) => [m, modelColor(m)]));
    for (const name of ["scoreHistogram", "scoreBox", "meanWithCI", "factualVsSemantic", "thresholdSweep"]) {
      assert.deepEqual(colours(gallery[name]!), expected, name);
    }
    assert.equal(new Set(Object.values(expected)).size, 3);
  });

  it("takes its intervals from our seeded bootstrap, not from Vega", () => {
    const summary = summarize(scored, { by: "model", metrics: ["answer_correctness"] });
    const rows = ((gallery["meanWithCI"]!["data"] as { values: Record<string, number>[] }).values);
    const table = summary.values as unknown[][];
    const col = (n: string) => summary.columns.indexOf(n);
    rows.forEach((r, i) => {
      assert.equal(r["ci_low"], table[i]![col("ci_low")]);
      assert.equal(r["ci_high"], table[i]![col("ci_high")]);
    });
    assert.ok(!JSON.stringify(gallery).includes("ci0") && !JSON.stringify(gallery).includes("ci1"));
  });

  it("never inlines more than 5,000 rows, whatever the input size", () => {
    const big: Record<string, unknown>[] = [];
    for (let q = 0; q < 4000; q++) {
      for (const [m, model] of MODELS.entries()) {
        const f = ((q * 7 + m * 13) % 100) / 100;
        big.push({ id: `q${q}`, model, user_input: `Q${q}?`, answer_correctness: f * 0.8 + 0.1, answer_correctness_factual: f, answer_correctness_semantic: 0.5 + f / 3, answer_correctness_tp: q % 3, answer_correctness_fp: m, answer_correctness_fn: 1 });
      }
    }
    const frame = toDataFrame(big);
    const specs = {
      hist: scoreHistogram(frame),
      box: scoreBox(frame),
      mean: meanWithCI(frame, { seed: 1 }),
      scatter: factualVsSemantic(frame),
      heat: questionHeatmap(frame),
      pairs: pairedDifferences(frame),
      wtl: winTieLoss(compareModels(frame, { bootstrap: 200 })),
      verdicts: verdictBars(frame),
      sweep: thresholdSweep(frame),
    };
    for (const [name, spec] of Object.entries(specs)) {
      const n = inlineRows(spec);
      assert.ok(n <= 5000, `${name} inlines ${n} rows`);
      assert.ok(n > 0, name);
    }
  });

  it("names the columns when a metric is missing", () => {
    assert.throws(() => scoreHistogram(scored, { metric: "nope" }), /no column "nope"; the columns are "id"/);
    assert.throws(() => relevanceRate(scored), /multimodal_relevance/);
  });
});
