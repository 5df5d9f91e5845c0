/**
 * Charts as a reader checks them on edge data, rendered to SVG (vega and
 * vega-lite, as `toSVG` draws them) and read back as text: what the axes say
 * must be true of what they count.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toSVG, verdictBars, winTieLoss } from "../src/index";

/** The texts of an SVG (axis ticks, labels, titles), unescaped. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").trim());
}

/** Three models that answered one question. */
const ONE_QUESTION = ["a", "b", "c"].map((model, k) => ({ id: "q1", model, user_input: "Why?", response: `answer ${k}`, answer_correctness: 0.2 + 0.3 * k, answer_correctness_error: "" }));

describe("count axes count whole things", () => {
  it("wins/ties/losses of one question: the Questions axis has whole-number ticks only, not 0.1, 0.2, … questions", async () => {
    const svg = await toSVG(winTieLoss(ONE_QUESTION));
    const ticks = texts(svg).filter((t) => /^−?\d+([.,]\d+)?$/.test(t));
    assert.ok(ticks.includes("0") && ticks.includes("1"), `ticks: ${ticks.join(" ")}`);
    assert.deepEqual(ticks.filter((t) => /[.,]/.test(t)), [], `fractional ticks on a count axis: ${ticks.join(" ")}`);
  });

  it("statement verdicts of one short answer: the Statements axis has whole-number ticks only", async () => {
    const details = JSON.stringify({
      answer: [{ statement: "It rains.", verdict: "TP", reason: "" }],
      reference: [{ statement: "It rains.", verdict: "covered", reason: "" }],
    });
    const rows = [{ ...ONE_QUESTION[0]!, answer_correctness_tp: 1, answer_correctness_fp: 0, answer_correctness_fn: 1, answer_correctness_statements: details }];
    const svg = await toSVG(verdictBars(rows));
    const ticks = texts(svg).filter((t) => /^\d+([.,]\d+)?$/.test(t));
    assert.ok(ticks.length >= 2, `ticks: ${ticks.join(" ")}`);
    assert.deepEqual(ticks.filter((t) => /[.,]/.test(t)), [], `fractional ticks on a count axis: ${ticks.join(" ")}`);
  });
});
