/**
 * The means and the rates read as a ranking: with many models (here 8, in
 * no particular order in the file) the best is on top and the rest follow
 * by their mean, so which model leads is seen at a glance; each model keeps
 * its colour (the table's order), and the subtitle says "highest first".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meanWithCI, relevanceRate } from "../src/index";

const MEANS: Record<string, number> = { m1: 0.4, m2: 0.7, m3: 0.2, m4: 0.9, m5: 0.5, m6: 0.3, m7: 0.8, m8: 0.6 };

function rows(metric: string, binary: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 10; q++) {
    for (const [model, mean] of Object.entries(MEANS)) {
      out.push({ id: `q${q}`, model, user_input: `question ${q}`, [metric]: binary ? (q < mean * 10 ? 1 : 0) : mean + (q % 2 === 0 ? 0.05 : -0.05) });
    }
  }
  return out;
}

interface Spec {
  title: { subtitle: string | string[] };
  layer: { encoding?: { y?: { sort?: string[] }; color?: { scale?: { domain?: string[] } } } }[];
}

function axisOrder(spec: Spec): string[] {
  const y = spec.layer.find((l) => l.encoding?.y?.sort)?.encoding?.y?.sort;
  assert.ok(y, "the model axis has an order");
  return y;
}

function colourOrder(spec: Spec): string[] {
  const domain = spec.layer.find((l) => l.encoding?.color?.scale?.domain)?.encoding?.color?.scale?.domain;
  assert.ok(domain, "the colours have a domain");
  return domain;
}

describe("means and rates as a ranking", () => {
  const ranked = Object.entries(MEANS).sort((a, b) => b[1] - a[1]).map(([m]) => m);
  it("meanWithCI puts the highest mean on top, keeps the colours in table order, and says so", () => {
    const spec = meanWithCI(rows("answer_correctness", false), { judgeLabel: false }) as unknown as Spec;
    assert.deepEqual(axisOrder(spec), ranked);
    assert.deepEqual(colourOrder(spec), Object.keys(MEANS));
    assert.match(([] as string[]).concat(spec.title.subtitle).join(" "), /highest first/);
  });
  it("relevanceRate puts the highest rate on top", () => {
    const spec = relevanceRate(rows("multimodal_relevance", true), { judgeLabel: false }) as unknown as Spec;
    assert.deepEqual(axisOrder(spec), ranked);
  });
});
