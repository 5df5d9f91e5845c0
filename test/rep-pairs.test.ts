/**
 * The report's per-question differences with more model pairs than it draws
 * (6 models, 15 pairs): every model is drawn against the one of the highest
 * mean (as the wins/ties/losses chart does past its own limit), rather than
 * the first model against the next ten, which left the best model out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReport } from "../src/index";

const MODELS = ["m1", "m2", "m3", "leader", "m5", "m6"];

/** 10 questions; "leader" (fourth in the file) has the highest mean. */
function rows(models: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 10; q++) {
    models.forEach((model, k) => {
      const base = model === "leader" ? 0.85 : 0.2 + k * 0.05;
      out.push({ id: `q${q}`, model, user_input: `question ${q}`, response: "an answer", reference: "the reference", answer_correctness: base + ((q * 7) % 5) / 50 });
    });
  }
  return out;
}

interface Chart {
  id: string;
  spec: Record<string, unknown>;
}

function charts(html: string): Chart[] {
  const json = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html)?.[1];
  assert.ok(json, "the page lists its charts");
  return JSON.parse(json) as Chart[];
}

/** The (first, second) pairs a chart's data rows name, in order. */
function drawnPairs(spec: unknown, first: string, second: string): string[] {
  const pairs = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const o = node as Record<string, unknown>;
    if (typeof o[first] === "string" && typeof o[second] === "string") pairs.add(`${o[first]} − ${o[second]}`);
    Object.values(o).forEach(visit);
  };
  visit(spec);
  return [...pairs];
}

describe("report: per-question differences past the pairs it draws", () => {
  it("draws every model against the one of the highest mean, and says so", () => {
    const html = buildReport(rows(MODELS), { generatedAt: null });
    const all = charts(html);
    const paired = all.find((c) => c.id === "chart-paired");
    assert.ok(paired, "the per-question differences are drawn");
    const expected = MODELS.filter((m) => m !== "leader").map((m) => `${m} − leader`);
    assert.deepEqual(drawnPairs(paired.spec, "first", "second"), expected, "each model against the leader");
    const caption = /<figcaption>(One strip[^<]*)<\/figcaption>/.exec(html)?.[1] ?? "";
    assert.match(caption, /against leader, the model of the highest mean/);
    assert.match(html, /each model against leader \(the highest mean\), not all 15 model pairs/);
  });

  it("draws every pair when they are few", () => {
    const html = buildReport(rows(["m1", "leader", "m3"]), { generatedAt: null });
    const paired = charts(html).find((c) => c.id === "chart-paired");
    assert.deepEqual(drawnPairs(paired?.spec, "first", "second"), ["m1 − leader", "m1 − m3", "leader − m3"]);
  });
});
