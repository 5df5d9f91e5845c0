/**
 * Charts for colour-blind readers. The simulation is Machado, Oliveira &
 * Fernandes (2009), severity 1.0, applied in linear RGB; distances are
 * CIEDE2000 (ΔE₀₀) in CIE L*a*b* (D65). The bound: every pair of colours a
 * chart tells apart stays at ΔE₀₀ ≥ 10 under simulated deuteranopia (about
 * ten just-noticeable differences; the old red/green win–loss pair fell to 0.7).
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import { Resvg } from "@resvg/resvg-js";
import type { DataFrame } from "danfojs-node";
import { compareRuns, createJudge, loadDataset, scoreAnswerCorrectness, scoreMultimodalRelevance, toDataFrame, type VegaLiteSpec } from "../src/index";
import {
  changeWithCI,
  colourDistance,
  deltaE2000,
  DIVERGING_SCHEME,
  MODEL_PALETTE,
  OUTCOME_COLORS,
  pairedDifferences,
  SEQUENTIAL_SCHEME,
  simulateColourBlindness,
  thresholdSweep,
  toLab,
  toSVG,
  VERDICT_COLORS,
  type Lab,
} from "../src/charts/index";
import { gradientStops, legendSymbolFills, simulateSvg } from "./support/colour-blind-svg";
import { chartGallery } from "./support/gallery";

/** The least ΔE₀₀ between two colours a chart tells apart, as a deuteranope sees them. */
const BOUND = 10;
/** The least ΔE₀₀ between the first four model colours and between outcome colours (they carry the main reading). */
const STRONG = 20;
const DATA = path.join(__dirname, "..", "data");

function pairs<T>(items: readonly T[]): [T, T][] {
  return items.flatMap((a, i) => items.slice(i + 1).map((b): [T, T] => [a, b]));
}

function minDistance(colours: readonly string[], kind?: "deuteranopia" | "protanopia"): { value: number; pair: string } {
  let best = { value: Number.POSITIVE_INFINITY, pair: "" };
  for (const [a, b] of pairs(colours)) {
    const d = colourDistance(a, b, kind);
    if (d < best.value) best = { value: d, pair: `${a}–${b}` };
  }
  return best;
}

describe("colour arithmetic", () => {
  it("CIEDE2000 matches the published test pairs of Sharma, Wu & Dalal (2005)", () => {
    const cases: [Lab, Lab, number][] = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, -1.3802, -84.2814], [50, 0, -82.7485], 1.0],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
      [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
      [[50, -0.001, 2.49], [50, 0.0009, -2.49], 4.8045],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[50, 2.5, 0], [56, -27, -3], 31.903],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
      [[90.8027, -2.0831, 1.441], [91.1528, -1.6435, 0.0447], 1.4441],
    ];
    for (const [a, b, expected] of cases) {
      assert.ok(Math.abs(deltaE2000(a, b) - expected) < 1e-4, `${a} vs ${b}: ${deltaE2000(a, b)} ≠ ${expected}`);
      assert.ok(Math.abs(deltaE2000(b, a) - expected) < 1e-4, "symmetric");
    }
  });

  it("L*a*b* of white, black and a grey; the simulation leaves greys alone", () => {
    const white = toLab("#ffffff");
    assert.ok(Math.abs(white[0] - 100) < 1e-3 && Math.abs(white[1]) < 1e-3 && Math.abs(white[2]) < 1e-3, String(white));
    assert.deepEqual(toLab("#000000").map((v) => Math.round(v * 1e6) / 1e6), [0, 0, 0]);
    for (const grey of ["#777777", "#BBBBBB", "#DDDDDD"]) {
      const seen = simulateColourBlindness(grey, "deuteranopia");
      assert.ok(colourDistance(grey, grey, "deuteranopia") === 0 && Math.abs(seen[0] - seen[1]) < 1e-3 && Math.abs(seen[1] - seen[2]) < 1e-3, `${grey} → ${seen}`);
    }
  });

  it("the simulation catches red against green: the old win/loss colours merge for a deuteranope", () => {
    const normal = colourDistance("#59a14f", "#e15759");
    const deuteranope = colourDistance("#59a14f", "#e15759", "deuteranopia");
    assert.ok(normal > 50, `normal vision: ${normal}`);
    assert.ok(deuteranope < 2, `deuteranopia: ${deuteranope}`);
  });
});

describe("palettes under simulated colour blindness", () => {
  it(`every pair of the 8 model colours stays at ΔE₀₀ ≥ ${BOUND} (deuteranopia and protanopia), the first 4 at ≥ ${STRONG}`, () => {
    assert.equal(MODEL_PALETTE.length, 8);
    assert.equal(new Set(MODEL_PALETTE.map((c) => c.toLowerCase())).size, 8);
    for (const kind of ["deuteranopia", "protanopia"] as const) {
      const all = minDistance(MODEL_PALETTE, kind);
      assert.ok(all.value >= BOUND, `${kind}: ${all.pair} at ${all.value.toFixed(1)}`);
    }
    const first = minDistance(MODEL_PALETTE.slice(0, 4), "deuteranopia");
    assert.ok(first.value >= STRONG, `first four: ${first.pair} at ${first.value.toFixed(1)}`);
    const normal = minDistance(MODEL_PALETTE);
    assert.ok(normal.value >= STRONG, `normal vision: ${normal.pair} at ${normal.value.toFixed(1)}`);
  });

  it(`win/tie/loss and TP/FP/FN colours stay ≥ ${STRONG} apart for a deuteranope, verdicts also by lightness`, () => {
    const outcomes = minDistance(Object.values(OUTCOME_COLORS), "deuteranopia");
    assert.ok(outcomes.value >= STRONG, `outcomes: ${outcomes.pair} at ${outcomes.value.toFixed(1)}`);
    const verdicts = minDistance(Object.values(VERDICT_COLORS), "deuteranopia");
    assert.ok(verdicts.value >= STRONG, `verdicts: ${verdicts.pair} at ${verdicts.value.toFixed(1)}`);
    const lightness = Object.values(VERDICT_COLORS).map((c) => toLab(simulateColourBlindness(c, "deuteranopia"))[0]);
    for (const [a, b] of pairs(lightness)) assert.ok(Math.abs(a - b) >= 10, `verdict lightness ${lightness.map((l) => l.toFixed(0)).join(", ")}`);
  });
});

describe("every chart kind under a simulated deuteranopia render", () => {
  let specs: Record<string, VegaLiteSpec>;

  before(async () => {
    const offline = createJudge({ judge: "offline" });
    const labels = createJudge({ judge: "labels", labels: path.join(DATA, "qa-models.labels.jsonl") });
    const qa = await loadDataset(path.join(DATA, "qa-models.csv"));
    const scored: DataFrame = await scoreAnswerCorrectness(qa, { judge: offline, progress: false, quiet: true });
    const labelled: DataFrame = await scoreAnswerCorrectness(await loadDataset(path.join(DATA, "qa-models.csv")), { judge: labels, progress: false, quiet: true });
    const judged = await scoreMultimodalRelevance(await loadDataset(path.join(DATA, "multimodal.csv")), { judge: offline, imageRoot: DATA, progress: false, quiet: true });
    // Eight models on one plot: the three of the sample data (seen first) and five more.
    const eight = toDataFrame(
      ["atlas-pro", "chatter-xl", "swift-mini", "m4", "m5", "m6", "m7", "m8"].flatMap((model, m) =>
        Array.from({ length: 6 }, (_, q) => ({ id: `q${q}`, model, answer_correctness: ((q * 5 + m * 3) % 10) / 9 })),
      ),
    );
    specs = {
      ...chartGallery(scored, judged),
      pairedOnePair: pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" }),
      changeWithCI: changeWithCI(compareRuns(labelled, scored, { bootstrap: 200 })),
      thresholdSweepEightModels: thresholdSweep(eight),
    };
  });

  it("uses only the new palettes: model colours from Okabe–Ito, outcome and verdict colours, blue–orange and viridis schemes", () => {
    const allowed = new Set([...MODEL_PALETTE, ...Object.values(OUTCOME_COLORS), ...Object.values(VERDICT_COLORS), "#555555"].map((c) => c.toLowerCase()));
    for (const [name, spec] of Object.entries(specs)) {
      const json = JSON.stringify(spec).toLowerCase();
      for (const old of ["#59a14f", "#e15759", "#4e79a7", "#f28e2b", "redyellowgreen", "redgreen"]) assert.ok(!json.includes(old), `${name} still uses ${old}`);
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node === null || typeof node !== "object") return;
        const color = (node as { color?: { scale?: { range?: unknown; scheme?: unknown } } }).color;
        if (color && typeof color === "object") {
          const range = color.scale?.range;
          if (Array.isArray(range)) for (const c of range) assert.ok(allowed.has(String(c).toLowerCase()), `${name}: colour ${String(c)} is not in a palette`);
          if (color.scale?.scheme !== undefined) assert.ok([DIVERGING_SCHEME, SEQUENTIAL_SCHEME].includes(String(color.scale.scheme)), `${name}: scheme ${String(color.scale.scheme)}`);
        }
        Object.values(node).forEach(walk);
      };
      walk(spec);
    }
    const heat = JSON.stringify(specs["questionHeatmap"]);
    assert.ok(heat.includes(`"scheme":"${DIVERGING_SCHEME}"`), "the heatmap is blue–orange");
  });

  it(`renders each chart kind with its colours simulated, and its legend colours stay ΔE₀₀ ≥ ${BOUND} apart`, async () => {
    const out = process.env["EVALFRAME_CVD_DIR"];
    if (out) mkdirSync(out, { recursive: true });
    let legends = 0;
    const simulated: Record<string, string> = {};
    for (const [name, spec] of Object.entries(specs)) {
      const svg = simulateSvg(await toSVG(spec), "deuteranopia");
      simulated[name] = svg;
      const png = new Resvg(svg, { background: "white", font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" } }).render().asPng();
      assert.ok(png.length > 5_000, `${name}: the simulated render is empty`);
      if (out) writeFileSync(path.join(out, `${name}.deuteranopia.png`), png);
      const fills = [...new Set(legendSymbolFills(svg).map((f) => f.toLowerCase()))];
      if (fills.length >= 2) {
        legends++;
        // Already simulated: compare as seen (no second simulation).
        const close = minDistance(fills);
        assert.ok(close.value >= BOUND, `${name}: legend colours ${close.pair} are ΔE₀₀ ${close.value.toFixed(1)} apart for a deuteranope`);
      }
      for (const stops of gradientStops(svg)) {
        const ends = colourDistance(stops[0]!, stops[stops.length - 1]!);
        assert.ok(ends >= 30, `${name}: the ends of its colour scale are ΔE₀₀ ${ends.toFixed(1)} apart for a deuteranope`);
      }
    }
    assert.ok(legends >= 7, `${legends} charts had a categorical legend to check`);
    const eight = legendSymbolFills(simulated["thresholdSweepEightModels"]!);
    assert.equal(new Set(eight).size, 8, "eight models, eight colours");
  });
});
