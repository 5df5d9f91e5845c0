/**
 * The report of a large table (5,100 rows: 340 questions × 15 models): its
 * questions × models heatmap holds the 60 questions where the models
 * disagree most (it held all 340, a chart about 7,000 px tall that pushed the
 * charts after it out of sight), says so, and the page stays a few MB.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReport } from "../src/index";
import { MAX_HEATMAP_QUESTIONS } from "../src/report/charts";
import { mulberry32 } from "../src/stats";

const QUESTIONS = 340;
const MODELS = Array.from({ length: 15 }, (_, k) => `model-${String(k + 1).padStart(2, "0")}`);

function rows(): Record<string, unknown>[] {
  const random = mulberry32(11);
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < QUESTIONS; q++) {
    MODELS.forEach((model, k) => {
      const score = Math.min(1, Math.max(0, 0.3 + k * 0.03 + (random() - 0.5) * 0.6));
      out.push({ id: `q${String(q).padStart(4, "0")}`, model, user_input: `question ${q}`, response: `answer ${q} of ${model}`, reference: `reference ${q}`, answer_correctness: score });
    });
  }
  return out;
}

describe("report of 5,100 rows", () => {
  it("draws the 60 questions where the models disagree most in the heatmap, and says so", () => {
    const html = buildReport(rows(), { generatedAt: null });
    const json = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.ok(json, "the page lists its charts");
    const heatmap = (JSON.parse(json) as { id: string; spec: { data?: { values?: { id?: string }[] }; title?: { subtitle?: string[] | string } } }[]).find((c) => c.id === "chart-heatmap");
    assert.ok(heatmap, "the heatmap is drawn");
    const ids = new Set((heatmap.spec.data?.values ?? []).map((v) => v.id));
    assert.equal(ids.size, MAX_HEATMAP_QUESTIONS, `questions in the heatmap: ${ids.size}`);
    assert.match(JSON.stringify(heatmap.spec.title), new RegExp(`top ${MAX_HEATMAP_QUESTIONS} of ${QUESTIONS} questions`));
    assert.ok(html.length < 12_000_000, `the page is ${(html.length / 1e6).toFixed(1)} MB`);
  });
});
