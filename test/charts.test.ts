import assert from "node:assert/strict";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import {
  changeWithCI,
  modelShape,
  normalQuantile,
  OUTCOME_COLORS,
  VERDICT_COLORS,
  wilsonInterval,
} from "../src/charts/index";
import { normalCdf } from "../src/stats/normal";
import { compareModels, createJudge, factualVsSemantic, loadDataset, meanWithCI, pairedDifferences, questionHeatmap, relevanceRate, saveChart, scoreAnswerCorrectness, scoreBox, scoreHistogram, scoreMultimodalRelevance, summarize, thresholdSweep, toDataFrame, toPNG, toSVG, verdictBars, winTieLoss, type VegaLiteSpec } from "../src/index";
import { compileChart, modelColor } from "../src/charts/index";
import { compareRuns, frameRecords } from "../src/index";
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

const frameRecordsOf = (frame: DataFrame): Record<string, unknown>[] => frameRecords(frame) as Record<string, unknown>[];

/** Counted from the scored rows, apart from the charts: questions where model a scores higher, the same, lower than b. */
function headToHead(a: string, b: string): { higher: number; tie: number; lower: number } {
  const rows = frameRecordsOf(scored);
  const score = (model: string, id: unknown) => rows.find((r) => r["model"] === model && r["id"] === id)!["answer_correctness"] as number;
  const ids = [...new Set(rows.map((r) => r["id"]))];
  const out = { higher: 0, tie: 0, lower: 0 };
  for (const id of ids) {
    const d = score(a, id) - score(b, id);
    if (d > 0) out.higher++;
    else if (d < 0) out.lower++;
    else out.tie++;
  }
  return out;
}

/** Total of a count column over one model's scored rows. */
const modelTotal = (model: string, column: string): number => frameRecordsOf(scored).filter((r) => r["model"] === model).reduce((sum, r) => sum + (r[column] as number), 0);

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
    const layers = (spec["layer"] as { mark: { type: string } }[]).filter((l) => l.mark.type !== "text");
    const config = { ...(spec["config"] as object), axis: { disable: true }, legend: { disable: true } };
    const bare: VegaLiteSpec = { ...spec, title: "", layer: layers, config };
    const withText = await toPNG(spec, { scale: 1 });
    const without = await toPNG(bare, { scale: 1 });
    assert.ok(withText.length > without.length * 1.3, `${withText.length} vs ${without.length}`);
  });

  it("saves as svg, png and json", async () => {
    const dir = tempDir();
    for (const ext of ["svg", "png", "json"]) await saveChart(gallery["scoreBox"]!, path.join(dir, "nested", `box.${ext}`));
    await assert.rejects(saveChart(gallery["scoreBox"]!, path.join(dir, "box.gif")), /use \.svg, \.png or \.json/);
  });
});

describe("chart data", () => {
  it("the pairing charts leave out rows without a model, as compareModels does", () => {
    const rows: Record<string, string | number | null>[] = [];
    for (const id of ["q1", "q2", "q3"]) {
      rows.push({ id, model: "alpha", user_input: `question ${id}`, answer_correctness: 0.9 });
      rows.push({ id, model: "beta", user_input: `question ${id}`, answer_correctness: 0.4 });
    }
    // No model: a missing cell, an empty one and NaN (a model column read as numbers), one of them on a question no model answered.
    rows.push({ id: "q1", model: null, user_input: "question q1", answer_correctness: 0.1 });
    rows.push({ id: "q2", model: "", user_input: "question q2", answer_correctness: 0.2 });
    rows.push({ id: "q9", model: Number.NaN, user_input: "question q9", answer_correctness: 0.3 });
    const compared = frameRecords(compareModels(rows)).map((r) => [r["model_a"], r["model_b"]]);
    assert.deepEqual(compared, [["alpha", "beta"]]);
    // Every pair by default: the one pair compareModels compares, a single-pair chart of its 3 questions.
    const pairs = JSON.stringify(pairedDifferences(rows));
    assert.match(pairs, /Per-question difference, alpha − beta/);
    assert.equal(inlineRows(pairedDifferences(rows)), inlineRows(pairedDifferences(rows.slice(0, 6))));
    assert.equal(pairs, JSON.stringify(pairedDifferences(rows.slice(0, 6))));
    // The heatmap: the two models' columns and their three questions, no column for the rows without a model.
    const heat = questionHeatmap(rows);
    assert.equal(JSON.stringify(heat), JSON.stringify(questionHeatmap(rows.slice(0, 6))));
    const values = (heat as unknown as { data: { values: { model: string; id: string }[] } }).data.values;
    assert.deepEqual([...new Set(values.map((v) => v.model))], ["alpha", "beta"]);
    assert.deepEqual([...new Set(values.map((v) => v.id))].sort(), ["q1", "q2", "q3"]);
  });

  it("gives each model one colour in every chart", () => {
    const colours = (spec: VegaLiteSpec): Record<string, string> => {
      const found: Record<string, string> = {};
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node === null || typeof node !== "object") return;
        const color = (node as { color?: { field?: unknown; scale?: { domain?: unknown; range?: unknown } } }).color;
        const scale = color?.scale;
        if (color?.field === "model" && Array.isArray(scale?.domain) && Array.isArray(scale?.range)) {
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

  it("gives the models of one chart different colours, however many models earlier charts drew", () => {
    // Names no other test uses: this process may have drawn other charts before.
    const fresh = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${process.pid}-${i}`);
    const rowsOf = (models: string[]) => models.flatMap((model, m) => Array.from({ length: 4 }, (_, q) => ({ id: `q${q}`, model, answer_correctness: ((q + m) % 5) / 4 })));
    const legend = (spec: VegaLiteSpec): string[] => {
      const json = JSON.stringify(spec);
      const match = /"color":\{"field":"model"[^}]*?"scale":\{"domain":\[[^\]]*\],"range":(\[[^\]]*\])/.exec(json);
      assert.ok(match, "the chart colours by model");
      return JSON.parse(match[1]!) as string[];
    };
    const earlier = fresh("earlier", 8);
    const before = legend(scoreHistogram(toDataFrame(rowsOf(earlier))));
    // One model of that chart and seven new ones: every palette colour has been used by now.
    const later = [earlier[0]!, ...fresh("later", 7)];
    const eight = legend(scoreBox(toDataFrame(rowsOf(later))));
    assert.equal(eight.length, 8);
    assert.equal(new Set(eight).size, 8, `colours: ${eight.join(", ")}`);
    // A model keeps its colour.
    assert.equal(eight[0], before[0]);
    assert.deepEqual(earlier.map(modelColor), before);
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
      onePair: pairedDifferences(frame, { a: "atlas-pro", b: "swift-mini" }),
      relevance: relevanceRate(frame.rename({ answer_correctness: "multimodal_relevance" }), { seed: 1 }),
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

  it("draws and compares hundreds of thousands of answers (no value list is spread into a call's arguments, which overflows the stack)", () => {
    // Two models × 140,000 questions, as typed columns (past the 125,000 arguments this Node takes); a
    // 0-10 score so that the heatmap's scale is read from the values.
    const questions = 140_000;
    const rowCount = 2 * questions;
    const at = (i: number) => ((i * 7919) % 1000) / 1000;
    const table = {
      rowCount,
      columns: [
        { name: "id", type: "string" as const, values: Array.from({ length: rowCount }, (_, i) => `q${i % questions}`) },
        { name: "model", type: "string" as const, values: Array.from({ length: rowCount }, (_, i) => MODELS[Math.floor(i / questions)]!) },
        { name: "answer_correctness", type: "number" as const, values: Array.from({ length: rowCount }, (_, i) => at(i)) },
        { name: "answer_correctness_factual", type: "number" as const, values: Array.from({ length: rowCount }, (_, i) => at(i + 1)) },
        { name: "answer_correctness_semantic", type: "number" as const, values: Array.from({ length: rowCount }, (_, i) => 0.5 + at(i + 2) / 3) },
        { name: "grade", type: "number" as const, values: Array.from({ length: rowCount }, (_, i) => 10 * at(i)) },
      ],
    };
    for (const spec of [factualVsSemantic(table), pairedDifferences(table), questionHeatmap(table, { metric: "grade" })]) assert.ok(inlineRows(spec) > 0);

    // One model's run against the same answers scored 0.01 higher (scores stay from 0 to 1).
    const before = { rowCount: questions, columns: table.columns.map((c) => ({ ...c, values: c.values.slice(0, questions) })) };
    const after = { ...before, columns: before.columns.map((c) => (c.name === "answer_correctness" ? { ...c, values: c.values.map((v) => Math.min(1, Number(v) + 0.01)) } : c)) };
    const runs = compareRuns(before, after, { bootstrap: 20 });
    assert.deepEqual(
      frameRecords(runs.summary).map((r) => [r["model"], r["n_paired"]]),
      [[MODELS[0], questions], ["(all)", questions]],
    );
  });

  it("names the columns when a metric is missing", () => {
    assert.throws(() => scoreHistogram(scored, { metric: "nope" }), /no column "nope"; the columns are "id"/);
    assert.throws(() => relevanceRate(scored), /multimodal_relevance/);
  });
});

/** The subtitle lines of a spec. */
function subtitle(spec: VegaLiteSpec): string[] {
  const title = spec["title"];
  if (typeof title !== "object" || title === null) return [];
  const sub = (title as { subtitle?: string | string[] }).subtitle;
  return sub === undefined ? [] : Array.isArray(sub) ? sub : [sub];
}

/** Every layer of a spec (nested layers flattened). */
function layers(spec: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const list = (node as { layer?: unknown }).layer;
    if (Array.isArray(list)) list.forEach((l) => (out.push(l as Record<string, unknown>), walk(l)));
  };
  walk(spec);
  return out;
}

const values = (spec: VegaLiteSpec): Record<string, unknown>[] => (spec["data"] as { values: Record<string, unknown>[] }).values;
const close = (a: unknown, b: number, eps = 1e-4) => typeof a === "number" && Math.abs(a - b) < eps;

describe("honest small-n charts", () => {
  it("Wilson intervals match hand-computed values (z = 1.959964)", () => {
    // 0/1: centre = half = (z²/2)/(1 + z²) = 0.396727 → [0, 0.793453]
    const none = wilsonInterval(0, 1);
    assert.equal(none.low, 0);
    assert.ok(close(none.high, 0.793453), String(none.high));
    const all = wilsonInterval(1, 1);
    assert.ok(close(all.low, 0.206547), String(all.low));
    assert.equal(all.high, 1);
    // 3/10: centre 0.355506, half 0.247716
    const some = wilsonInterval(3, 10);
    assert.ok(close(some.low, 0.10779) && close(some.high, 0.603222), `${some.low} ${some.high}`);
    assert.ok(close(some.rate, 0.3));
    const wide = wilsonInterval(3, 10, 0.99);
    assert.ok(wide.low < some.low && wide.high > some.high);
    assert.ok(Number.isNaN(wilsonInterval(0, 0).low));
    assert.throws(() => wilsonInterval(4, 3), /between 0 and n = 3/);
    assert.throws(() => wilsonInterval(1, 2.5), /whole number/);
  });

  it("the normal quantile inverts normalCdf", () => {
    assert.ok(close(normalQuantile(0.975), 1.959963984540054, 1e-12));
    assert.equal(normalQuantile(0.5), 0);
    assert.ok(close(normalQuantile(0.025), -1.959963984540054, 1e-12));
    for (const p of [1e-12, 1e-6, 0.001, 0.2, 0.7, 0.999, 1 - 1e-9]) assert.ok(Math.abs(normalCdf(normalQuantile(p)) - p) < 1e-12 * Math.max(1, p / 1e-3), `p = ${p}`);
    assert.equal(normalQuantile(0), Number.NEGATIVE_INFINITY);
    assert.throws(() => normalQuantile(1.5), /between 0 and 1/);
  });

  it("relevanceRate: Wilson intervals at every n (also n = 1), n on every bar, a zero rate drawn as a visible 0", async () => {
    const rows = [
      { model: "none-of-one", multimodal_relevance: 0, multimodal_relevance_judge: "hand-labelled" },
      { model: "one-of-one", multimodal_relevance: 1, multimodal_relevance_judge: "hand-labelled" },
      ...Array.from({ length: 10 }, (_, i) => ({ model: "three-of-ten", multimodal_relevance: i < 3 ? 1 : 0, multimodal_relevance_judge: "hand-labelled" })),
    ];
    const spec = relevanceRate(rows);
    const data = values(spec);
    const of = (m: string) => data.find((r) => r["model"] === m)!;
    assert.ok(of("none-of-one")["ci_low"] === 0 && close(of("none-of-one")["ci_high"], 0.793453));
    assert.ok(close(of("one-of-one")["ci_low"], 0.206547) && of("one-of-one")["ci_high"] === 1);
    assert.ok(close(of("three-of-ten")["ci_low"], 0.10779) && close(of("three-of-ten")["ci_high"], 0.603222));
    assert.deepEqual(data.map((r) => r["label"]), ["0% · n = 1", "100% · n = 1", "30% · n = 10"]);
    assert.ok(subtitle(spec).some((l) => l.includes("Wilson")));
    const tick = layers(spec).find((l) => (l["mark"] as { type?: string }).type === "tick" && JSON.stringify(l["encoding"]).includes('"field":"rate"'));
    assert.ok(tick, "a tick at the rate, so a rate of 0 is drawn");
    const svg = await toSVG(spec);
    for (const text of ["0% · n = 1", "30% · n = 10", "judge: hand-labelled"]) assert.ok(svg.includes(text), `the SVG lacks "${text}"`);
    assert.deepEqual((await compileChart(spec)).warnings, []);
  });

  it("relevanceRate falls back to the bootstrap CI, and says so, for scores that are not 0 or 1", () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({ model: "m", multimodal_relevance: i / 5 }));
    const spec = relevanceRate(rows, { seed: 3 });
    assert.ok(subtitle(spec)[0]!.includes("bootstrap CI of the mean (scores are not all 0 or 1)"));
  });

  it("reads a true/false score column as 1/0", () => {
    const rows = [true, false, true, true, false, true, true, true].map((passed) => ({ model: "m", passed }));
    const mean = meanWithCI(rows, { metric: "passed" }) as unknown as { data: { values: { mean: number; n: number }[] } };
    assert.deepEqual(mean.data.values.map((v) => [v.mean, v.n]), [[0.75, 8]]);
    const box = scoreBox(rows, { metric: "passed", strip: false }) as unknown as { data: { values: { min: number; median: number; max: number; n: number }[] } };
    assert.deepEqual(box.data.values.map((v) => [v.min, v.median, v.max, v.n]), [[0, 1, 1, 8]]);
  });

  it("meanWithCI writes n beside every mean and says when there is no interval", () => {
    const rows = [
      { model: "alone", answer_correctness: 0.4 },
      { model: "pair", answer_correctness: 0.2 },
      { model: "pair", answer_correctness: 0.6 },
    ];
    const spec = meanWithCI(rows, { seed: 1 });
    assert.deepEqual(values(spec).map((r) => r["label"]), ["0.400 · n = 1 · no CI", "0.400 · n = 2"]);
    assert.ok(subtitle(spec)[0]!.includes("no CI with fewer than 2 scores"));
    const summaryRows = values(gallery["meanWithCI"]!);
    for (const r of summaryRows) assert.match(String(r["label"]), /^\d\.\d{3} · n = 42$/);
  });

  it("one answer: the mean's axis has room around its point, not one tick reading the mean to six places, and the verdict bar counts 1 answer", async () => {
    const one = frameRecordsOf(scored).slice(0, 1);
    const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    const mean = texts(await toSVG(meanWithCI(one)));
    assert.ok(!mean.some((t) => /^\d\.\d{6}$/.test(t)), mean.join(" | "));
    assert.ok(mean.filter((t) => /^\d\.\d\d?$/.test(t)).length >= 3, mean.join(" | "));
    const verdicts = texts(await toSVG(verdictBars(one)));
    assert.ok(verdicts.includes("n = 1 answer"), verdicts.join(" | "));
  });

  it("meanWithCI and relevanceRate: a table without a model column is one group, as in the other charts; their errors name the chart, not summarize", async () => {
    const scores = [{ answer_correctness: 0.5 }, { answer_correctness: 0.7 }];
    for (const spec of [meanWithCI(scores), relevanceRate([{ multimodal_relevance: 1 }, { multimodal_relevance: 0 }]), scoreBox(scores)]) {
      assert.ok((await toSVG(spec)).includes("n = 2"));
    }
    assert.throws(() => relevanceRate([{ model: "a", answer_correctness: 0.5 }]), /^Error: relevanceRate: no metric column "multimodal_relevance"; the columns are: model, answer_correctness$/);
    assert.throws(() => meanWithCI([{ model: "a", answer_correctness: 0.5 }], { by: "team" }), /^Error: meanWithCI: no by column "team" to group the rows by/);
  });

  it("a row with no model is drawn as \"(no model)\", as the headline names it, and a table with no model column as \"all answers\", not as a group with no name", async () => {
    const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    const rows = [
      { id: "q1", model: "a", answer_correctness: 0.5 },
      { id: "q2", model: "a", answer_correctness: 0.7 },
      { id: "q1", model: null, answer_correctness: 0.2 },
    ];
    for (const spec of [scoreBox(rows), meanWithCI(rows), scoreHistogram(rows), thresholdSweep(rows)]) assert.ok(texts(await toSVG(spec)).some((t) => t.startsWith("(no model)")), String((spec as { title?: { text?: string } }).title?.text));
    const bare = [{ answer_correctness: 0.5 }, { answer_correctness: 0.7 }];
    for (const spec of [scoreBox(bare), meanWithCI(bare)]) assert.ok(texts(await toSVG(spec)).includes("all answers"));
  });

  it("a histogram and a box plot of answers that all failed draw an empty 0-to-1 axis, not a lone \"0.000000\" tick", async () => {
    const failed = frameRecordsOf(scored).map((r) => ({ ...r, answer_correctness: Number.NaN, answer_correctness_error: "judge failed: HTTP 500" }));
    for (const spec of [scoreHistogram(failed), scoreBox(failed)]) {
      const svg = await toSVG(spec);
      const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
      assert.ok(!texts.includes("0.000000"), texts.join(" | "));
      assert.ok(texts.includes("1.0") || texts.includes("1"), texts.join(" | "));
    }
  });

  it("names the judge in every chart's subtitle, reads it from <metric>_judge, and turns it off with judgeLabel: false", () => {
    // Every chart of the gallery, those drawn from summarize() and compareModels() results too (their judge column).
    for (const [name, spec] of Object.entries(gallery)) {
      const line = subtitle(spec).find((l) => l.startsWith("judge"));
      assert.equal(line, "judge: offline (approximate)", name);
    }
    assert.ok(subtitle(meanWithCI(summarize(scored, { by: "model" }), { judgeLabel: "gpt-4o-mini @ api.openai.com" })).includes("judge: gpt-4o-mini @ api.openai.com"));
    assert.ok(subtitle(winTieLoss(scored)).includes("judge: offline (approximate)"));
    assert.ok(subtitle(meanWithCI(scored)).includes("judge: offline (approximate)"));
    const builders: [string, (o: { judgeLabel: false }) => VegaLiteSpec][] = [
      ["scoreHistogram", (o) => scoreHistogram(scored, o)],
      ["scoreBox", (o) => scoreBox(scored, o)],
      ["meanWithCI", (o) => meanWithCI(scored, o)],
      ["factualVsSemantic", (o) => factualVsSemantic(scored, o)],
      ["questionHeatmap", (o) => questionHeatmap(scored, o)],
      ["pairedDifferences", (o) => pairedDifferences(scored, o)],
      ["winTieLoss", (o) => winTieLoss(scored, o)],
      ["verdictBars", (o) => verdictBars(scored, o)],
      ["thresholdSweep", (o) => thresholdSweep(scored, o)],
      ["relevanceRate", (o) => relevanceRate(judged, o)],
    ];
    for (const [name, build] of builders) assert.ok(!subtitle(build({ judgeLabel: false })).some((l) => l.includes("judge")), name);
  });

  it("pairs answers to a question as compareModels does: a pairBy the table lacks is an error, and no id column pairs by question text", () => {
    const rows = frameRecordsOf(scored);
    for (const build of [pairedDifferences, questionHeatmap]) {
      assert.throws(() => build(scored, { pairBy: "qid" }), /no pairBy column "qid"; the columns are: id, /);
      // Without ids, the same charts from the question text (each model answers each question once here).
      const byText = rows.map(({ id: _id, ...rest }) => rest);
      assert.equal(inlineRows(build(byText)), inlineRows(build(scored)));
      // Without ids, and a model answering one question twice: no way to pair them.
      assert.throws(() => build([...byText, byText[0]!]), /cannot tell which answers are to the same question: there is no "id" column, and a model in "model" answers the same question text more than once; give pairBy/);
      // A model answering an id twice is refused as compareModels refuses it, not drawn from one of the two answers.
      const again = { ...rows[0]!, answer_correctness: 1 - (rows[0]!["answer_correctness"] as number) };
      assert.throws(() => build([...rows, again]), new RegExp(`^Error: ${build.name}: 1 \\(id, model\\) pair appears more than once: \\("q01", "atlas-pro"\\); each model may answer each id once$`));
      assert.throws(() => compareModels([...rows, again]), /1 \(id, model\) pair appears more than once: \("q01", "atlas-pro"\)/);
    }
    // Two judges in one table: both named.
    const mixed = frameRecordsOf(scored).map((r, i) => ({ ...r, answer_correctness_judge: i % 2 === 0 ? "offline (approximate)" : "hand-labelled" }));
    assert.ok(subtitle(scoreBox(mixed)).includes("judges: offline (approximate); hand-labelled"));
    // A score column derived from answer_correctness finds answer_correctness_judge.
    const continuous = frameRecordsOf(scored).map((r) => ({ ...r, answer_correctness_continuous: r["answer_correctness"] }));
    assert.ok(subtitle(thresholdSweep(continuous)).includes("judge: offline (approximate)"));
  });

  it("jitters the factual-vs-semantic dots by a bounded, seeded amount; the tooltips keep the exact values", () => {
    const first = values(factualVsSemantic(scored));
    const again = values(factualVsSemantic(scored));
    assert.deepEqual(first, again, "the same seed gives the same picture");
    const other = values(factualVsSemantic(scored, { seed: 7 }));
    assert.notDeepEqual(first.map((r) => r["factual_shown"]), other.map((r) => r["factual_shown"]));
    for (const r of first) {
      const d = (r["factual_shown"] as number) - (r["factual"] as number);
      assert.ok(Math.abs(d) <= 0.025 + 1e-12, String(d));
    }
    const atZeroOrOne = first.filter((r) => r["factual"] === 0 || r["factual"] === 1);
    assert.ok(atZeroOrOne.length > 10);
    assert.ok(new Set(atZeroOrOne.map((r) => r["factual_shown"])).size === atZeroOrOne.length, "no two dots at 0 or 1 on top of each other");
    const exact = values(factualVsSemantic(scored, { jitter: false }));
    assert.ok(exact.every((r) => r["factual_shown"] === r["factual"] && r["semantic_shown"] === r["semantic"]));
    assert.ok(subtitle(factualVsSemantic(scored))[0]!.includes("jittered (seeded)"));
  });

  it("pairedDifferences draws every pair by default, the pairs asked for, or one pair", async () => {
    const all = gallery["pairedDifferences"]!;
    const pairsOf = (spec: VegaLiteSpec) => [...new Set(layers(spec).flatMap((l) => ((l["data"] as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).map((r) => r["pair"]).filter(Boolean)))];
    assert.deepEqual(pairsOf(all), ["atlas-pro − chatter-xl", "atlas-pro − swift-mini", "chatter-xl − swift-mini"]);
    const svg = await toSVG(all);
    for (const text of ["chatter-xl − swift-mini", "n = 42", `▶ ${headToHead("atlas-pro", "chatter-xl").higher}`]) assert.ok(svg.includes(text), text);
    const chosen = pairedDifferences(scored, { pairs: [["swift-mini", "atlas-pro"], ["chatter-xl", "atlas-pro"]] });
    assert.deepEqual(pairsOf(chosen), ["swift-mini − atlas-pro", "chatter-xl − atlas-pro"]);
    const one = pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" });
    assert.equal((one["title"] as { text: string }).text, "Per-question difference, atlas-pro − swift-mini");
    const h = headToHead("atlas-pro", "swift-mini");
    assert.ok(subtitle(one)[0]!.startsWith(`atlas-pro higher on ${h.higher}, tie on ${h.tie}, swift-mini higher on ${h.lower} of 42 questions`), subtitle(one)[0]);
    assert.throws(() => pairedDifferences(scored, { pairs: [["atlas-pro", "nobody"]] }), /need two different models among "atlas-pro", "chatter-xl", "swift-mini"; got a = atlas-pro, b = nobody/);
    assert.throws(() => pairedDifferences(scored, { pairs: [] }), /pairs is empty/);
    // The jitter is seeded too.
    assert.deepEqual(JSON.stringify(pairedDifferences(scored)), JSON.stringify(all));
    const marks = layers(one).find((l) => (l["mark"] as { type?: string }).type === "point")!;
    const enc = marks["encoding"] as { color: { scale: { range: string[] } }; shape: { scale: { range: string[] } } };
    assert.deepEqual(enc.color.scale.range, [OUTCOME_COLORS.first, OUTCOME_COLORS.tie, OUTCOME_COLORS.second]);
    assert.deepEqual(enc.shape.scale.range, ["triangle-right", "circle", "triangle-left"], "outcomes differ by shape too");
  });

  it("win/tie/loss and TP/FP/FN bars carry their names and counts as text, in a fixed order, n at the end", async () => {
    const wtl = gallery["winTieLoss"]!;
    const texts = values(wtl).map((r) => r["label"] ?? r["total_label"]).filter(Boolean);
    // Each pair's counts as the rows give them (no ties on this data: a tie would add "tie n"), then n per pair.
    const expected = [["atlas-pro", "chatter-xl"], ["atlas-pro", "swift-mini"], ["chatter-xl", "swift-mini"]].flatMap(([a, b]) => {
      const h = headToHead(a!, b!);
      return [`win ${h.higher}`, ...(h.tie > 0 ? [`tie ${h.tie}`] : []), `loss ${h.lower}`];
    });
    // A segment too narrow for its name carries its count alone ("4" for "loss 4"): the judge's scores decide the widths.
    assert.equal(texts.length, expected.length + 3);
    expected.forEach((e, i) => assert.ok(texts[i] === e || texts[i] === e.split(" ")[1], `${String(texts[i])} for ${e}`));
    assert.deepEqual(texts.slice(expected.length), ["n = 42", "n = 42", "n = 42"]);
    const wtlColours = (layers(wtl)[0]!["encoding"] as { color: { scale: { range: string[] } } }).color.scale.range;
    assert.deepEqual(wtlColours, [OUTCOME_COLORS.first, OUTCOME_COLORS.tie, OUTCOME_COLORS.second]);
    const verdicts = gallery["verdictBars"]!;
    const vColours = (layers(verdicts)[0]!["encoding"] as { color: { scale: { domain: string[]; range: string[] } } }).color.scale;
    assert.deepEqual(vColours.domain, ["TP", "FP", "FN"]);
    assert.deepEqual(vColours.range, [VERDICT_COLORS.TP, VERDICT_COLORS.FP, VERDICT_COLORS.FN]);
    const svg = await toSVG(verdicts);
    // Every count written on a segment is that verdict's count for one model, counted from the rows.
    const perModel = MODELS.flatMap((m) => ["TP", "FP", "FN"].map((v) => `${v} ${modelTotal(m, `answer_correctness_${v.toLowerCase()}`)}`));
    const written = [...new Set(svg.match(/\b(?:TP|FP|FN) \d+/g) ?? [])];
    assert.ok(written.length >= 5, written.join(", "));
    for (const text of written) assert.ok(perModel.includes(text), `${text} is not one of ${perModel.join(", ")}`);
    assert.ok(svg.includes("n = 42 answers"));
    const tied = winTieLoss([
      { id: "q1", model: "a", answer_correctness: 1 },
      { id: "q1", model: "b", answer_correctness: 1 },
      { id: "q2", model: "a", answer_correctness: 0 },
      { id: "q2", model: "b", answer_correctness: 1 },
    ]);
    assert.deepEqual(values(tied).map((r) => r["label"] ?? r["total_label"]).filter(Boolean), ["tie 1", "loss 1", "n = 2"]);
  });

  it("the heatmap uses the blue–orange scale and writes each score in its cell", () => {
    const heat = gallery["questionHeatmap"]!;
    const rect = layers(heat)[0]!["encoding"] as { color: { scale: { scheme: string; domainMid: number } } };
    assert.equal(rect.color.scale.scheme, "blueorange");
    assert.equal(rect.color.scale.domainMid, 0.5);
    assert.ok(values(heat).every((r) => typeof r["text"] === "string" && /^(1\.00|\.\d\d|×)$/.test(r["text"] as string)));
  });

  it("models past the eighth reuse a colour with a different shape", () => {
    const names = Array.from({ length: 9 }, (_, i) => `shape-test-${i}`);
    const shapes = names.map(modelShape);
    const colours = names.map(modelColor);
    const combos = new Set(names.map((_, i) => `${colours[i]}|${shapes[i]}`));
    assert.equal(combos.size, 9);
    const thresholds = thresholdSweep(scored);
    assert.deepEqual(Object.keys((thresholds["encoding"] as Record<string, unknown>)).filter((k) => k === "color" || k === "shape"), ["color", "shape"]);
  });

  it("changeWithCI writes the change and n beside each interval and takes judgeLabel", () => {
    const before = frameRecordsOf(scored);
    const after = before.map((r) => ({ ...r, answer_correctness: Math.min(1, (r["answer_correctness"] as number) + 0.01) }));
    const spec = changeWithCI(compareRuns(before, after, { bootstrap: 100 }), { judgeLabel: "offline (approximate)" });
    // Each model's answers all rose by 0.01 (but those at 1): the change, n, and no interval where every answer changed alike.
    const labels = values(spec).map((r) => String(r["label"]));
    assert.ok(labels.every((l) => /^\+0\.010 · n = \d+( · CI n\/a: every answer changed alike)?$/.test(l)), labels.join("\n"));
    assert.ok(subtitle(spec).includes("judge: offline (approximate)"));
  });

  it("changeWithCI says a change of the same amount on every answer has no interval, rather than draw one of no width", () => {
    const before = frameRecordsOf(scored).filter((r) => typeof r["answer_correctness"] === "number" && (r["answer_correctness"] as number) <= 0.5);
    const after: Record<string, unknown>[] = before.map((r) => ({ ...r, answer_correctness: (r["answer_correctness"] as number) + 0.25 }));
    const rows = values(changeWithCI(compareRuns(before, after, { bootstrap: 100 })));
    assert.ok(rows.length >= 2, `${rows.length} rows`);
    for (const r of rows) assert.match(String(r["label"]), /^\+0\.250 · n = \d+ · CI n\/a: every answer changed alike$/);
    // Every other answer of each model changed by 0.1 more: the changes vary, and so does the bootstrap.
    const seen = new Map<unknown, number>();
    const varied = after.map((r) => {
      const k = (seen.get(r["model"]) ?? 0) + 1;
      seen.set(r["model"], k);
      return { ...r, answer_correctness: (r["answer_correctness"] as number) + (k % 2) * 0.1 };
    });
    for (const r of values(changeWithCI(compareRuns(before, varied, { bootstrap: 100 })))) assert.doesNotMatch(String(r["label"]), /CI n\/a/);
  });
});

describe("charts of two models, given one", () => {
  it("winTieLoss and pairedDifferences say in their own names that they need a second model", () => {
    const one = frameRecordsOf(scored).filter((r) => r["model"] === "atlas-pro");
    assert.throws(() => winTieLoss(one), /^Error: winTieLoss: needs at least two models in column "model"; found 1: atlas-pro$/);
    assert.throws(() => pairedDifferences(one), (error: Error) => {
      assert.match(error.message, /^pairedDifferences: draws the differences between two models' answers .*column "model" holds one model, "atlas-pro"; score a second model's answers/);
      assert.doesNotMatch(error.message, /undefined/);
      return true;
    });
  });
});
