/**
 * A model whose every row failed cannot be drawn in the box plot, the means
 * or the rates: those charts now name it in their subtitle ("no valid score:
 * …"), where it was missing without a word (the box plot even listed it in
 * its legend, with no box).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meanWithCI, relevanceRate, scoreBox } from "../src/index";

function rows(metric: string, binary: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 6; q++) {
    out.push({ id: `q${q}`, model: "atlas", user_input: `question ${q}`, [metric]: binary ? q % 2 : 0.5 + q / 20, [`${metric}_error`]: "" });
    out.push({ id: `q${q}`, model: "broken", user_input: `question ${q}`, [metric]: Number.NaN, [`${metric}_error`]: "request to gpt-4o-mini: HTTP 500" });
  }
  return out;
}

function subtitle(spec: unknown): string {
  const title = (spec as { title?: { subtitle?: string | string[] } }).title;
  return ([] as string[]).concat(title?.subtitle ?? []).join(" | ");
}

describe("charts with a model that has no valid score", () => {
  it("scoreBox, meanWithCI and relevanceRate name it in the subtitle", () => {
    const scored = rows("answer_correctness", false);
    assert.match(subtitle(scoreBox(scored)), /no valid score: broken/);
    assert.match(subtitle(meanWithCI(scored)), /no valid score: broken/);
    assert.match(subtitle(relevanceRate(rows("multimodal_relevance", true))), /no valid score: broken/);
  });

  it("keeps each subtitle line short enough not to widen the chart, with a model that failed and one with a single score", () => {
    const scored = [...rows("answer_correctness", false), { id: "q0", model: "single", user_input: "question 0", answer_correctness: 0.5, answer_correctness_error: "" }];
    for (const spec of [meanWithCI(scored), scoreBox(scored)]) {
      const lines = ([] as string[]).concat((spec as { title?: { subtitle?: string | string[] } }).title?.subtitle ?? []);
      assert.match(lines.join(" | "), /no valid score: broken/);
      for (const line of lines) assert.ok(line.length <= 90, `a subtitle line of ${line.length} characters: "${line}"`);
    }
  });

  it("names nobody when every model has a score", () => {
    const scored = rows("answer_correctness", false).filter((r) => r["model"] === "atlas");
    assert.doesNotMatch(subtitle(scoreBox(scored)), /no valid score/);
    assert.doesNotMatch(subtitle(meanWithCI(scored)), /no valid score/);
  });
});
