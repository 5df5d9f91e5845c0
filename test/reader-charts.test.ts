/**
 * Charts as a reader checks them on edge data, rendered to SVG (vega and
 * vega-lite, as `toSVG` draws them) and read back as text: what the axes say
 * must be true of what they count; and the names, tables and outlines that
 * let a screen reader or a low-vision reader have them too (the report drawn
 * in Chromium: test/report-browser.test.ts).
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { buildReport, createJudge, factualVsSemantic, loadDataset, meanWithCI, scoreAnswerCorrectness, summarize, thresholdSweep, toSVG, verdictBars, winTieLoss } from "../src/index";
import { setModelColors } from "../src/charts/index";

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

describe("charts name themselves to a screen reader", () => {
  it("a chart made in a notebook carries the same description (its title and subtitle)", () => {
    const spec = winTieLoss(ONE_QUESTION, { judgeLabel: "hand-labelled" });
    assert.match(String(spec["description"]), /^Wins, ties and losses per question; .*judge: hand-labelled$/);
  });
});

describe("the report's charts are not only pictures", () => {
  it("under each chart, its numbers in a table that is there without JavaScript: the pass rate by threshold, the statement counts, the quartiles", async () => {
    const df = await loadDataset(path.join(__dirname, "..", "data", "qa-models.csv"));
    const scored = await scoreAnswerCorrectness(df, { judge: createJudge({ judge: "labels", labels: path.join(__dirname, "..", "data", "qa-models.labels.jsonl"), quiet: true }), progress: false, quiet: true });
    const html = buildReport(scored, { generatedAt: null });
    const figures = [...html.matchAll(/<figure><h3>([^<]*)<\/h3>([\s\S]*?)<\/figure>/g)].map((m) => ({ heading: m[1]!, body: m[2]! }));
    assert.ok(figures.length >= 8, figures.map((f) => f.heading).join(", "));
    for (const f of figures) assert.match(f.body, /<details class="more"><summary>The numbers of this chart<\/summary><div class="table-wrap"><table/, `${f.heading} has its numbers`);
    const of = (heading: string) => figures.find((f) => f.heading === heading)!.body;
    const cells = (body: string) => [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<t[dh][^>]*>([^<]*)<\/t[dh]>/g)].map((c) => c[1]!));
    // The sweep: every model at every threshold, the pass rate as the chart's tooltip says it.
    const sweep = cells(of("Pass rate by threshold"));
    assert.deepEqual(sweep[0], ["model", "threshold", "pass rate", "scored rows"]);
    assert.equal(sweep.length, 1 + 3 * 21);
    assert.ok(sweep.some((r) => r[0] === "atlas-pro" && r[1] === "0.50" && /^\d+\.\d%$/.test(r[2]!) && r[3] === "42"), JSON.stringify(sweep.slice(0, 3)));
    // The statement verdicts: TP, FP, FN counts per model, as the bars' labels.
    const verdicts = cells(of("Statement verdicts"));
    assert.deepEqual(verdicts[0], ["model", "verdict", "statements"]);
    assert.deepEqual(verdicts.slice(1, 4).map((r) => r.slice(0, 2)), [["atlas-pro", "TP"], ["atlas-pro", "FP"], ["atlas-pro", "FN"]]);
    // The box: each model's quartiles.
    assert.deepEqual(cells(of("Score distribution"))[0], ["model", "scored rows", "min", "p25", "median", "p75", "max"]);
  });
});

describe("markers stand out from the white page whatever the model's colour", () => {
  /** WCAG's contrast ratio of a CSS hex colour against white. */
  const againstWhite = (hex: string): number => {
    const channel = (i: number) => {
      const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const l = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
    return 1.05 / (l + 0.05);
  };
  /** Every point marker of an SVG: its fill and stroke. */
  const markers = (svg: string) =>
    [...svg.matchAll(/<path [^>]*aria-roledescription="point"[^>]*>/g)].map((m) => ({ fill: /fill="(#[0-9A-Fa-f]{6})"/.exec(m[0])?.[1] ?? "#FFFFFF", stroke: /stroke="(#[0-9A-Fa-f]{6})"/.exec(m[0])?.[1] }));

  it("Okabe–Ito's yellow and orange (1.2:1 and 2.0:1 on white): the points of the sweep, the means and the scatter keep WCAG's 3:1 by their outline", async () => {
    setModelColors({ "pale-yellow": "#F0E442", "pale-orange": "#E69F00" });
    const rows = ["pale-yellow", "pale-orange"].flatMap((model, m) =>
      Array.from({ length: 6 }, (_, q) => ({ id: `q${q}`, model, user_input: `Q${q}?`, response: "a", answer_correctness: 0.2 + 0.1 * q + 0.05 * m, answer_correctness_factual: 0.3 + 0.1 * q, answer_correctness_semantic: 0.5 + 0.05 * q, answer_correctness_error: "" })),
    );
    for (const [name, spec] of [["sweep", thresholdSweep(rows)], ["means", meanWithCI(summarize(rows, { by: "model" }))], ["scatter", factualVsSemantic(rows)]] as const) {
      const points = markers(await toSVG(spec));
      assert.ok(points.length >= 2, `${name}: ${points.length} points`);
      assert.ok(points.some((p) => p.fill.toUpperCase() === "#F0E442"), `${name}: a yellow point is drawn`);
      for (const p of points) {
        const best = Math.max(againstWhite(p.fill), p.stroke === undefined ? 0 : againstWhite(p.stroke));
        assert.ok(best >= 3, `${name}: a point filled ${p.fill} with outline ${p.stroke ?? "none"} reaches only ${best.toFixed(2)}:1 on white`);
      }
    }
  });
});

describe("the means chart claims no certainty it does not have", () => {
  it("a model whose every score is 0: its label says there is no interval and why, instead of a bar of no width", async () => {
    const rows = ["fine", "all-zero"].flatMap((model, m) => Array.from({ length: 10 }, (_, q) => ({ id: `q${q}`, model, answer_correctness: m === 1 ? 0 : 0.3 + 0.05 * q, answer_correctness_error: "" })));
    const labels = texts(await toSVG(meanWithCI(summarize(rows, { by: "model" }))));
    assert.ok(labels.includes("0.000 · n = 10 · no CI: every score the same"), labels.join(" | "));
    assert.ok(labels.some((l) => /^0\.525 · n = 10$/.test(l)), labels.join(" | "));
  });
});
