/**
 * The self-contained HTML report: its sections, that it references nothing
 * outside itself, that hostile text is escaped, and that it draws every chart
 * in headless Chromium with no console error.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { buildReport, createJudge, loadDataset, scoreAnswerCorrectness, scoreMultimodalRelevance, toCSV, writeReport } from "../src/index";
import { jsonForScript, scriptSafe } from "../src/report/assets";
import { dumpDom, pageResult, screenshot } from "./support/browser";
import { chartIds, probedCopy, reportStatus } from "./support/report-page";
import { tempDir } from "./support/files";

const ROOT = path.join(__dirname, "..");
const quiet = { progress: false as const, quiet: true };

/** The report's HTML without the inlined libraries' code (their own string constants may name URLs). */
function withoutLibraries(html: string): string {
  return html.replace(/<script data-library="[^"]+">[\s\S]*?<\/script>/g, "<script data-library></script>");
}

/** Each chart container's markup up to its caption. */
function chartMarkup(dom: string, id: string): string {
  const start = dom.indexOf(`id="${id}"`);
  assert.ok(start >= 0, `container ${id} is in the page`);
  const end = dom.indexOf("<figcaption", start);
  return dom.slice(start, end);
}

describe("HTML report", () => {
  const dir = tempDir();
  let scored: DataFrame;
  let html = "";

  before(async () => {
    const judge = createJudge({ judge: "offline" });
    scored = await scoreAnswerCorrectness(await loadDataset(path.join(ROOT, "data", "qa-models.csv")), { judge, ...quiet });
    html = buildReport(scored, { title: "Sample <report> & co" });
  });

  it("has the title, the judge with the offline banner, the usage line, and every section", () => {
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.ok(html.includes("<title>Sample &lt;report&gt; &amp; co</title>"));
    assert.ok(html.includes("<h1>Sample &lt;report&gt; &amp; co</h1>"));
    assert.match(html, /<span class="judge">offline \(approximate\)<\/span>/);
    assert.match(html, /<div class="banner offline" role="note"><strong>Offline judge — offline \(approximate\)\.<\/strong> 126 of 126 judgements/);
    assert.match(html, /<p class="usage"[^>]*>126 rows · \d+ chat calls \(0 cached\) · .* · offline \(approximate\)<\/p>/);
    for (const id of ["summary", "comparison", "charts", "worst"]) assert.match(html, new RegExp(`<section id="${id}">`), `section ${id}`);
    assert.doesNotMatch(html, /<section id="failed">/, "no row failed");
    // summarize per model and compareModels, as tables readable without JavaScript.
    const summary = html.slice(html.indexOf('<section id="summary">'), html.indexOf('<section id="comparison">'));
    for (const model of ["atlas-pro", "chatter-xl", "swift-mini"]) assert.ok(summary.includes(`<td>${model}</td>`));
    assert.match(summary, /<th[^>]*>ci_low<\/th>/);
    const comparison = html.slice(html.indexOf('<section id="comparison">'), html.indexOf('<section id="charts">'));
    assert.equal((comparison.match(/<tr>/g) ?? []).length, 1 + 3, "header and three pairs");
    assert.match(comparison, /<th[^>]*>p_holm<\/th>/);
    // The charts that apply to answer correctness.
    assert.deepEqual(chartIds(html), ["chart-box", "chart-mean", "chart-sweep", "chart-verdicts", "chart-scatter", "chart-heatmap", "chart-paired-1", "chart-paired-2", "chart-wtl"]);
    // The ten worst rows, each with its statements and verdicts.
    const worst = html.slice(html.indexOf('<section id="worst">'), html.indexOf("<footer>"));
    assert.equal((worst.match(/<article class="row" id="row-\d+">/g) ?? []).length, 10);
    assert.equal((worst.match(/<h4[^>]*>Answer statements<\/h4>/g) ?? []).length, 10);
    assert.match(worst, /<span style="font-weight:600;color:#[0-9a-f]{6}">(TP|FP|FN|covered)<\/span>/);
    assert.match(worst, /precision = TP\/\(TP\+FP\)/);
  });

  it("references nothing outside the file, and nothing can close a script early", () => {
    assert.doesNotMatch(html, /<script[^>]*\ssrc\s*=/i);
    const own = withoutLibraries(html);
    assert.doesNotMatch(own, /<link\b/i);
    assert.doesNotMatch(own, /<(img|iframe|embed|object|source|video|audio|base)\b/i);
    assert.doesNotMatch(own, /\b(src|href|action)\s*=\s*["']?(https?:)?\/\//i);
    assert.doesNotMatch(own, /url\(/i, "no CSS url()");
    assert.doesNotMatch(own, /https?:\/\//, "no URL outside the libraries' own code (the specs' $schema is stripped)");
    assert.match(own, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;unsafe-inline&#39; &#39;unsafe-eval&#39;;[^"]*connect-src &#39;none&#39;/);
    // Three libraries inlined, and every </script in the page ends one of the page's scripts.
    assert.deepEqual([...html.matchAll(/<script data-library="([^"]+)">/g)].map((m) => m[1]), ["vega", "vega-lite", "vega-embed"]);
    const opened = (html.match(/<script\b/gi) ?? []).length;
    assert.equal((html.match(/<\/script/gi) ?? []).length, opened);
    assert.equal(opened, 1 + 3 + 1, "the chart data, three libraries, the drawing script");
    for (const lib of ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"]) {
      const code = readFileSync(path.join(ROOT, "node_modules", lib), "utf8");
      assert.ok(html.includes(scriptSafe(code)), `${lib} is inlined whole`);
    }
  });

  it("script-safe helpers: </script and <!-- cannot end or confuse a script element, and JSON reads back unchanged", () => {
    assert.equal(scriptSafe('var a = "</script><!-- x";'), 'var a = "<\\/script>\\x3c!-- x";');
    assert.equal(scriptSafe("/<\\/SCRIPT/i"), "/<\\/SCRIPT/i");
    const value = { text: "</script><script>alert(1)</script> & <!-- \u2028 \u2029", n: [1, 2] };
    const safe = jsonForScript(value);
    assert.doesNotMatch(safe, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(safe), value);
  });

  it("escapes hostile text from the table: answers, questions, models and the title", async () => {
    const hostile = "<script>alert(1)</script>";
    const rows = [
      { id: "x1", model: "<b>m1</b>", user_input: `Question ${hostile}?`, response: `The answer is ${hostile}. It is blue.`, reference: "The sky is blue." },
      { id: "x1", model: "m2", user_input: `Question ${hostile}?`, response: `</script><img src=x onerror=alert(2)> The sky is blue.`, reference: "The sky is blue." },
      { id: "x2", model: "<b>m1</b>", user_input: "Why?", response: "Because <!-- it is -->.", reference: "Because it is." },
      { id: "x2", model: "m2", user_input: "Why?", response: "No idea.", reference: "Because it is." },
    ];
    const judged = await scoreAnswerCorrectness(rows, { judge: createJudge({ judge: "offline" }), ...quiet });
    const page = buildReport(judged, { title: hostile });
    const own = withoutLibraries(page);
    assert.ok(!own.includes(hostile), "no live <script>alert(1)</script>");
    assert.ok(!own.includes("<img src=x"), "no live <img>");
    assert.ok(!own.includes("<b>m1</b>"), "no live <b>");
    assert.ok(!own.includes("<!-- it is -->"), "no live comment");
    assert.ok(own.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), "the answer is shown, escaped");
    assert.ok(own.includes("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
    const data = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(page);
    assert.ok(data && !/[<>]/.test(data[1]!), "chart data carries no < or >");
    assert.ok((JSON.parse(data[1]!) as { spec: unknown }[]).length > 0);

    // In the browser: no alert, no error, charts drawn.
    const file = path.join(dir, "hostile.html");
    probedCopy(page, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    assert.deepEqual(reportStatus(dom).failed, []);
  });

  it("opens in headless Chromium with no console error, every chart drawn as SVG; the screenshot has content", () => {
    const file = path.join(dir, "report.html");
    probedCopy(html, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    const status = reportStatus(dom);
    const ids = chartIds(html);
    assert.deepEqual(status.failed, []);
    assert.deepEqual([...status.drawn].sort(), [...ids].sort());
    for (const id of ids) {
      const markup = chartMarkup(dom, id);
      assert.match(markup, /data-rendered="true"/, id);
      assert.match(markup, /<svg[^>]*class="marks"[\s\S]*class="mark-[a-z]+ role-mark/, `${id} holds a drawn vega SVG`);
    }
    const shot = path.join(dir, "report.png");
    screenshot(file, shot, "1280,3000");
    assert.ok(existsSync(shot));
    const png = readFileSync(shot);
    assert.equal(png.readUInt32BE(16), 1280, "width");
    assert.equal(png.readUInt32BE(20), 3000, "height");
    assert.ok(statSync(shot).size > 100_000, `a screenshot with content (${statSync(shot).size} bytes)`);
  });

  it("a table read back from CSV: the judge comes from its columns, no usage line; writeReport writes the file", async () => {
    const csv = path.join(dir, "scored.csv");
    await toCSV(scored, csv);
    const back = await loadDataset(csv);
    const out = path.join(dir, "nested", "from-csv.html");
    await writeReport(back, out, { generatedAt: null });
    const page = readFileSync(out, "utf8");
    assert.match(page, /class="banner offline"/);
    assert.doesNotMatch(page, /<p class="usage"/, "no usage is known for a file");
    assert.doesNotMatch(page, /generated \d{4}/);
    assert.equal((page.match(/<article class="row"/g) ?? []).length, 10);
    assert.deepEqual(chartIds(page), chartIds(html));
    assert.throws(() => buildReport(back.drop({ columns: ["answer_correctness"] })), /no score column/);
  });

  it("multimodal relevance: the relevance chart, the answers judged not relevant and the failed rows", async () => {
    const judged = await scoreMultimodalRelevance(await loadDataset(path.join(ROOT, "data", "multimodal.csv")), {
      judge: createJudge({ judge: "offline" }),
      imageRoot: path.join(ROOT, "data"),
      ...quiet,
    });
    const page = buildReport(judged);
    assert.deepEqual(chartIds(page), ["chart-relevance"]);
    for (const id of ["summary", "comparison", "charts", "not-relevant", "failed"]) assert.match(page, new RegExp(`<section id="${id}">`), id);
    assert.match(page, /<section id="failed">[\s\S]*offline judge/i, "rows with images fail with the offline judge's reason");
    assert.doesNotMatch(withoutLibraries(page), /\b(src|href)\s*=\s*["']?https?:/i, "image URLs in the data are shown as text, never loaded");
    const file = path.join(dir, "multimodal.html");
    probedCopy(page, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    assert.deepEqual(reportStatus(dom), { drawn: ["chart-relevance"], failed: [] });
  });
});
