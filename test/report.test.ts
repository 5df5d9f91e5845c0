/**
 * The self-contained HTML report: its sections, that it references nothing
 * outside itself, that hostile text is escaped, and that it draws every chart
 * in headless Chromium with no console error.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { buildReport, createJudge, frameRecords, loadDataset, scoreAnswerCorrectness, scoreMultimodalRelevance, toCSV, toDataFrame, writeReport } from "../src/index";
import { jsonForScript, scriptSafe } from "../src/report/assets";
import { failureKind } from "../src/report/failures";
import { scriptHash } from "../src/report/page";
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

/** One section's HTML, from its opening tag to its end. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}"`);
  assert.ok(start >= 0, `section ${id}`);
  return html.slice(start, html.indexOf("</section>", start));
}

/** The pairs in the per-question differences chart's data, in order. */
function pairsDrawn(html: string): string[] {
  const data = /<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(data, "chart data");
  const chart = (JSON.parse(data[1]!) as { id: string; spec: unknown }[]).find((c) => c.id === "chart-paired");
  assert.ok(chart, "the chart-paired chart");
  const pairs = new Set<string>();
  JSON.stringify(chart.spec, (key, value: unknown) => {
    if (key === "pair" && typeof value === "string") pairs.add(value);
    return value;
  });
  return [...pairs];
}

/** The header cells of the first table in some HTML. */
function headers(html: string): string[] {
  const head = /<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(html);
  assert.ok(head, "a table");
  return [...head[1]!.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
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

  it("has the title, the headline under it, the judge with the offline banner, the usage line, and every section in order", () => {
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.ok(html.includes("<title>Sample &lt;report&gt; &amp; co</title>"));
    assert.ok(html.includes("<h1>Sample &lt;report&gt; &amp; co</h1>"));
    // The headline comes right under the title, from headline(summary, comparison, { judge }).
    assert.match(html, /<h1>[^<]*<\/h1>\n<section id="headline" aria-label="Headline"><p>Ranking by mean answer_correctness: atlas-pro 0\.\d\d \(95% CI [^)]+\), chatter-xl/);
    assert.match(section(html, "headline"), /<p>Scored by the offline judge \(approximate, lexical\)/);
    assert.match(html, /<span class="judge">offline \(approximate\)<\/span>/);
    assert.match(html, /<div class="banner offline" role="note"><strong>Approximate scores\.<\/strong> 126 of 126 judgements came from evalframe's offline judge/);
    assert.match(html, /<p class="usage"[^>]*>126 rows · \d+ chat calls \(0 cached\) · .* · offline \(approximate\)<\/p>/);
    const order = [...html.matchAll(/<section id="([a-z-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, ["headline", "summary", "comparison", "charts", "worst", "answers"], "no row failed: no failed section");
    assert.deepEqual([...html.matchAll(/<li><a href="#([a-z-]+)">/g)].map((m) => m[1]), order.slice(1), "the contents list every section after the headline");
    // summarize per model: short, the mean with its interval in one cell, the full table on demand; no NaN anywhere.
    const summary = section(html, "summary");
    const short = summary.slice(0, summary.indexOf("<details"));
    for (const model of ["atlas-pro", "chatter-xl", "swift-mini"]) assert.ok(short.includes(`<td>${model}</td>`));
    assert.deepEqual(headers(short), ["model", "n", "mean (95% CI)", "median"], "no n_error (none failed), no pass_rate (not 0/1 scores)");
    assert.match(short, /<td class="num">0\.\d\d <span class="ci">\(0\.\d\d–0\.\d\d\)<\/span><\/td>/);
    assert.match(summary, /<details class="more"><summary>All columns<\/summary>/);
    assert.ok(headers(summary.slice(summary.indexOf("<details"))).includes("ci_low"), "the full table has every column");
    assert.ok(!headers(summary.slice(summary.indexOf("<details"))).includes("pass_rate"), "a column that is NaN throughout is left out");
    assert.match(summary, /Not shown, as it is empty in every row: the column <code>pass_rate<\/code>\./, "which column, and why");
    assert.doesNotMatch(withoutLibraries(html), />\s*NaN\s*</, "no NaN cell");
    // compareModels: short (pair, pairs, difference with CI, the test's estimate with CI, w/t/l, p_holm, verdict), the full table on demand.
    const comparison = section(html, "comparison");
    const shortComparison = comparison.slice(0, comparison.indexOf("<details"));
    assert.deepEqual(headers(shortComparison), ["a − b", "pairs", "difference (95% CI)", "typical question (95% CI)", "wins / ties / losses", "p_holm", "verdict"]);
    assert.equal((shortComparison.match(/<tr>/g) ?? []).length, 1 + 3, "header and three pairs");
    assert.match(shortComparison, /<td>atlas-pro − chatter-xl<\/td><td class="num">42<\/td><td class="num">\+0\.\d\d <span class="ci">\(\+0\.\d\d to \+0\.\d\d\)<\/span><\/td><td class="num">\+0\.\d\d <span class="ci">\(\+0\.\d\d to \+0\.\d\d\)<\/span><\/td><td class="num">\d+ \/ \d+ \/ \d+<\/td>/);
    assert.ok(headers(comparison.slice(comparison.indexOf("<details"))).includes("p_value"));
    // Numbers right-aligned (class num), text left; the stylesheet wraps text and keeps numbers on one line.
    assert.match(html, /th\.num, td\.num, td\.ef-num \{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap;/);
    assert.match(html, /th, td \{[^}]*text-align: left; overflow-wrap: anywhere; \}/);
    // The charts that apply to answer correctness; the per-question differences of every pair.
    assert.deepEqual(chartIds(html), ["chart-box", "chart-mean", "chart-sweep", "chart-verdicts", "chart-scatter", "chart-heatmap", "chart-paired", "chart-wtl"]);
    assert.deepEqual(pairsDrawn(html), ["atlas-pro − chatter-xl", "atlas-pro − swift-mini", "chatter-xl − swift-mini"]);
  });

  it("the lowest-scoring answers: three per model, under the model, each with its statements, verdicts and a link to the question", () => {
    const worst = section(html, "worst");
    assert.deepEqual([...worst.matchAll(/<h3 class="worst-model">([^<]+)<\/h3>/g)].map((m) => m[1]), ["atlas-pro", "chatter-xl", "swift-mini"]);
    const articles = [...worst.matchAll(/<article class="row" id="row-(\d+)">([\s\S]*?)<\/article>/g)];
    assert.equal(articles.length, 9);
    const table = frameRecords(scored);
    const byModel = new Map<string, number[]>();
    for (const [, row] of articles) {
      const r = table[Number(row)]!;
      byModel.set(String(r["model"]), [...(byModel.get(String(r["model"])) ?? []), r["answer_correctness"] as number]);
    }
    for (const [model, scores] of byModel) {
      assert.equal(scores.length, 3, model);
      const all = table.filter((r) => r["model"] === model).map((r) => r["answer_correctness"] as number).sort((a, b) => a - b);
      assert.deepEqual(scores, all.slice(0, 3), `${model}: its three lowest, lowest first`);
    }
    assert.equal((worst.match(/<h4[^>]*>Answer statements<\/h4>/g) ?? []).length, 9);
    assert.match(worst, /<span style="font-weight:600;color:#[0-9a-f]{6}">(TP|FP|FN|covered)<\/span>/);
    assert.match(worst, /precision = TP\/\(TP\+FP\)/);
    for (const [, , body] of articles) {
      const target = /<a href="#(question-\d+)">Every model's answer to this question<\/a>/.exec(body!)?.[1];
      assert.ok(target && html.includes(`<article class="question" id="${target}"`), "links to its question");
    }
  });

  it("answers by question: every answer as a card with its model, status, disagreement flag and statements; the filter bar hidden until its script runs", () => {
    const answers = section(html, "answers");
    const questions = [...answers.matchAll(/<article class="question" id="question-(\d+)" data-disagree="(true|false)">/g)];
    assert.equal(questions.length, 42);
    const cards = [...answers.matchAll(/<div class="answer" data-row="(\d+)" data-model="([^"]*)" data-status="(passed|failed|error)" data-disagree="(true|false)">/g)];
    assert.equal(cards.length, 126);
    assert.deepEqual([...new Set(cards.map((c) => c[2]))], ["atlas-pro", "chatter-xl", "swift-mini"]);
    const records = frameRecords(scored);
    for (const [, row, , status] of cards) {
      const score = records[Number(row)]!["answer_correctness"] as number;
      assert.equal(status, score >= 0.5 ? "passed" : "failed", `row ${row}`);
    }
    // "models disagree": the questions whose scores spread by 0.5 or more, all of a question's cards flagged alike.
    const disputed = questions.filter((q) => q[2] === "true").length;
    assert.ok(disputed > 0 && disputed < 42);
    assert.equal(cards.filter((c) => c[4] === "true").length, disputed * 3);
    assert.match(answers, new RegExp(`Models disagree on ${disputed} of 42 questions`));
    // Each card: the answer text and the statements with their verdicts, collapsed.
    assert.equal((answers.match(/<details><summary>Statements: \d+ TP · \d+ FP · \d+ FN<\/summary>/g) ?? []).length, 126);
    assert.match(answers, /<li><span class="v v-(TP|FP)">(TP|FP)<\/span>/);
    assert.match(answers, /<li><span class="v v-(covered|FN)">(covered|FN)<\/span>/);
    // The filter bar: hidden in the HTML (no dead controls without JavaScript), one option per model, the statuses with counts.
    assert.match(answers, /<div class="filters" id="answer-filters" role="search" aria-label="Filter the answers" hidden>/);
    assert.match(answers, /<select id="filter-model"><option value="">all models<\/option><option value="atlas-pro">atlas-pro \(42\)<\/option><option value="chatter-xl">chatter-xl \(42\)<\/option><option value="swift-mini">swift-mini \(42\)<\/option><\/select>/);
    for (const value of ["passed", "failed", "error", "disagree"]) assert.match(answers, new RegExp(`<option value="${value}">[^<]+\\(\\d+\\)</option>`), value);
    assert.match(answers, /<input type="search" id="filter-text"/);
    assert.match(answers, /<noscript><p class="note">The filters need JavaScript; every answer is listed below\.<\/p><\/noscript>/);
    // Size: the whole page, libraries included, stays near a megabyte for 126 answers.
    assert.ok(Buffer.byteLength(html) < 1_400_000, `${Buffer.byteLength(html)} bytes`);
  });

  it("a title that ends with the judge in parentheses: the heading drops it (the judge line says it), the tab names it once", () => {
    const page = buildReport(scored, { title: "qa-models: answer correctness (offline (approximate))", headline: ["One <b>sentence</b>.", "Two."], generatedAt: null });
    assert.match(page, /<h1>qa-models: answer correctness<\/h1>/);
    assert.match(page, /<title>qa-models: answer correctness · offline \(approximate\)<\/title>/);
    assert.doesNotMatch(page, /\(offline \(approximate\)\)/);
    assert.match(page, /<section id="headline" aria-label="Headline"><p>One &lt;b&gt;sentence&lt;\/b&gt;\.<\/p><p>Two\.<\/p><\/section>/, "the headline option, escaped");
    assert.ok(/<h1>evalframe report<\/h1>\n<p class="judges">/.test(buildReport(scored, { headline: [], generatedAt: null })), "an empty headline: no section");
  });

  it("an answer with thousands of statements shows the first 200 of them, then how many more, in its card and among the lowest scores", () => {
    const records = frameRecords(scored);
    const row = records.findIndex((r) => typeof r["answer_correctness_statements"] === "string" && r["answer_correctness_statements"] !== "");
    const details = JSON.parse(String(records[row]!["answer_correctness_statements"])) as { response: { statement: string; verdict: string; reason: string }[] };
    details.response = Array.from({ length: 5000 }, (_, i) => ({ statement: `Claim number ${i + 1}.`, verdict: "FP", reason: "the reference does not say it" }));
    records[row]!["answer_correctness_statements"] = JSON.stringify(details);
    records[row]!["answer_correctness"] = 0; // the lowest score of its model, so it is among the lowest too
    const page = buildReport(toDataFrame(records), { generatedAt: null });
    const card = section(page, "answers");
    assert.ok(card.includes("Claim number 200."), "the first 200 are shown");
    assert.ok(!card.includes("Claim number 201."), "the 201st is not");
    assert.ok(card.includes("<li class=\"more\">… and 4,800 more statements (the first 200 are shown; the scored file has them all)</li>"));
    const lowest = section(page, "worst");
    assert.ok(lowest.includes("Claim number 200.") && !lowest.includes("Claim number 201."));
    assert.match(lowest, /… and 4,800 more/);
    const plain = buildReport(scored, { generatedAt: null }).length;
    assert.ok(page.length - plain < 100_000, `5,000 statements add little to the page: ${page.length - plain} characters`);
  });

  it("failed rows are grouped by the kind of failure, with counts and every row's whole reason under its group", () => {
    const records = frameRecords(scored);
    // Worded as the OpenAI judge words them: the stage, the request and its model, then the cause.
    const reasons = [
      "classification of the statements failed: verdicts request to gpt-4o-mini: HTTP 429 from https://api.openai.com/v1: 429 Rate limit reached for gpt-4o-mini (TPM): Limit 200000, Used 199000",
      "classification of the statements failed: verdicts request to gpt-4o-mini: no valid reply after 3 attempts; last problem: the reply is not valid JSON: \"Sure! Here is the answer: {not json\"",
      "embedding failed: embeddings request to text-embedding-3-small: no reply within 60000 ms from https://api.openai.com/v1",
      "classification of the statements failed: verdicts request to gpt-4o-mini: HTTP 429 from https://api.openai.com/v1: 429 Rate limit reached for gpt-4o-mini (RPM): Limit 500; try again in 20s",
    ];
    reasons.forEach((reason, i) => {
      records[i * 5]!["answer_correctness_error"] = reason;
      records[i * 5]!["answer_correctness"] = Number.NaN;
    });
    const page = buildReport(toDataFrame(records), { generatedAt: null });
    const failed = section(page, "failed");
    const groups = [...failed.matchAll(/<details class="group" data-failure-group="([^"]+)"><summary><span class="count">(\d+) rows?<\/span> · answer_correctness · ([^<]+) <span class="note">\(([^)]+)\)<\/span><\/summary>([\s\S]*?)<\/details>/g)];
    assert.deepEqual(groups.map((g) => [g[2], g[3], g[4]]), [
      ["2", "classification of the statements failed: verdicts request to gpt-4o-mini: HTTP 429", "atlas-pro"],
      ["1", "classification of the statements failed: verdicts request to gpt-4o-mini: no valid reply after N attempts; last problem: the reply is not valid JSON", "swift-mini"],
      ["1", "embedding failed: embeddings request to text-embedding-3-small: no reply within N ms from …", "chatter-xl"],
    ]);
    for (const reason of reasons) assert.ok(failed.includes(`<td class="error">${reason.replace(/'/g, "&#39;").replace(/"/g, "&quot;")}</td>`), reason);
    assert.equal((groups[0]![5]!.match(/<tr>/g) ?? []).length, 1 + 2);
    // The summary now shows n_error; the failed answers are "error" cards.
    assert.ok(headers(section(page, "summary").split("<details")[0]!).includes("n_error"));
    assert.equal((section(page, "answers").match(/data-status="error"/g) ?? []).length, 4);
    assert.match(section(page, "answers"), /<option value="error">error \(not scored\) \(4\)<\/option>/);
    assert.equal(failureKind("the row has 5 images, more than maxImagesPerRow (4); raise it or split the contexts"), "the row has N images, more than maxImagesPerRow");
    assert.equal(failureKind('embedding failed: connect ECONNREFUSED 127.0.0.1:8080 (see "https://x.test/a:b")'), "embedding failed: connect ECONNREFUSED …");
    assert.equal(failureKind("judging failed: request to qwen2.5:7b: row 12 of 1,200 has 3 images"), "judging failed: request to qwen2.5:7b: row N of N has N images");
    assert.equal(failureKind("  "), "(no reason given)");
  });

  it("pairs: the per-question differences of the pairs named, a note for a model that is not there", () => {
    const page = buildReport(scored, { pairs: [["swift-mini", "atlas-pro"], ["chatter-xl", "atlas-pro"], ["atlas-pro", "nobody"]], generatedAt: null });
    assert.deepEqual(pairsDrawn(page), ["swift-mini − atlas-pro", "chatter-xl − atlas-pro"]);
    const charts = section(page, "charts");
    assert.match(charts, /<h3>Per-question differences<\/h3>/);
    assert.match(charts, /Per-question difference, atlas-pro − nobody: not drawn \(no model nobody; the models are atlas-pro, chatter-xl, swift-mini\)/);
    const one = buildReport(scored, { pairs: [["chatter-xl", "swift-mini"]], generatedAt: null });
    assert.match(section(one, "charts"), /<h3>Per-question difference, chatter-xl − swift-mini<\/h3>/);
    assert.throws(() => buildReport(scored, { passAt: 2 }), /passAt must be a number from 0 to 1/);
  });

  it("references nothing outside the file, and nothing can close a script early", () => {
    assert.doesNotMatch(html, /<script[^>]*\ssrc\s*=/i);
    const own = withoutLibraries(html);
    assert.doesNotMatch(own, /<link\b/i);
    assert.doesNotMatch(own, /<(img|iframe|embed|object|source|video|audio|base)\b/i);
    assert.doesNotMatch(own, /\b(src|href|action)\s*=\s*["']?(https?:)?\/\//i);
    assert.doesNotMatch(own, /url\(/i, "no CSS url()");
    assert.doesNotMatch(own, /https?:\/\//, "no URL outside the libraries' own code (the specs' $schema is stripped)");
    // Only the page's own scripts may run: each is allowed by its hash, never 'unsafe-inline'.
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    assert.match(policy, /^default-src 'none'; script-src ('sha256-[A-Za-z0-9+/]+=*' )+'unsafe-eval'; style-src 'unsafe-inline';[^"]*connect-src 'none'/);
    assert.doesNotMatch(policy, /unsafe-inline'[^;]*;[^;]*style-src/, "no 'unsafe-inline' for scripts");
    const inline = [...html.matchAll(/<script(?: data-library="[^"]+")?>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    assert.equal(inline.length, 1 + 3 + 1, "the filter script, three libraries, the drawing script");
    for (const code of inline) assert.ok(policy.includes(scriptHash(code)), "each inline script's hash is in the policy");
    assert.equal(policy.match(/'sha256-/g)!.length, inline.length, "and nothing else");
    // Three libraries inlined, and every </script in the page ends one of the page's scripts.
    assert.deepEqual([...html.matchAll(/<script data-library="([^"]+)">/g)].map((m) => m[1]), ["vega", "vega-lite", "vega-embed"]);
    const opened = (html.match(/<script\b/gi) ?? []).length;
    assert.equal((html.match(/<\/script/gi) ?? []).length, opened);
    assert.equal(opened, 1 + 1 + 3 + 1, "the filter script, the chart data, three libraries, the drawing script");
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

  it("one answer: the page says 1 row, not 1 rows", () => {
    const page = buildReport(scored.head(1), { generatedAt: null });
    assert.match(page, /<p class="meta">1 row · 1 model: atlas-pro · metrics: answer_correctness<\/p>/);
    assert.match(html, /<p class="meta">126 rows · 3 models: /);
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
    assert.equal((page.match(/<article class="row"/g) ?? []).length, 9);
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
    assert.deepEqual([...page.matchAll(/<section id="([a-z-]+)"/g)].map((m) => m[1]), ["headline", "summary", "comparison", "charts", "failed", "not-relevant", "answers"]);
    const failed = section(page, "failed");
    assert.match(failed, /<summary><span class="count">\d+ rows<\/span> · multimodal_relevance · relevance judgement failed: the offline judge cannot see images, and this verdict depends on context N<\/summary>|<summary><span class="count">\d+ rows<\/span> · multimodal_relevance · relevance judgement failed: the offline judge cannot see images, and this verdict depends on context N <span/, "one group for the rows with images");
    assert.match(section(page, "answers"), /An answer passes at a score of 1;/);
    assert.doesNotMatch(section(page, "answers"), /Statements/);
    assert.doesNotMatch(withoutLibraries(page), /\b(src|href)\s*=\s*["']?https?:/i, "image URLs in the data are shown as text, never loaded");
    const file = path.join(dir, "multimodal.html");
    probedCopy(page, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    assert.deepEqual(reportStatus(dom), { drawn: ["chart-relevance"], failed: [] });
  });
});

describe("HTML report: 0/1 scores, a run where most answers failed, and the change since the previous run", () => {
  const models = ["atlas-pro", "chatter-xl", "swift-mini"];
  const imageReason = "relevance judgement failed: the offline judge cannot see images, and this verdict depends on context 1 (images/bar-chart.png); set OPENAI_API_KEY or OPENAI_BASE_URL and a vision model to judge this row";
  // As data/multimodal.csv scored offline: one question of ten scored, 27 of 30 rows failed on images.
  const mostlyFailed = Array.from({ length: 10 }, (_, q) =>
    models.map((model) => ({
      id: `m${q}`,
      model,
      user_input: `Question ${q}?`,
      response: `Answer of ${model}.`,
      multimodal_relevance: q === 0 ? (model === "swift-mini" ? 0 : 1) : Number.NaN,
      multimodal_relevance_reason: q === 0 ? "in line with the context" : "",
      multimodal_relevance_error: q === 0 ? "" : imageReason,
      multimodal_relevance_judge: "offline (approximate)",
    })),
  ).flat();

  /** The caption of a chart, and its spec's subtitle. */
  function chartText(page: string, id: string): { caption: string; subtitle: string } {
    const start = page.indexOf(`id="${id}"`);
    assert.ok(start >= 0, id);
    const caption = /<figcaption>([^<]*)<\/figcaption>/.exec(page.slice(start))![1]!;
    const data = JSON.parse(/<script type="application\/json" id="evalframe-charts">([\s\S]*?)<\/script>/.exec(page)![1]!) as { id: string; spec: { title: { subtitle: string | string[] } } }[];
    const spec = data.find((c) => c.id === id)!.spec;
    return { caption, subtitle: [spec.title.subtitle].flat().join(" · ") };
  }

  it("most answers failed: the headline leads with it and why, no zero-width interval, no conclusion from one pair; the interval is Wilson's everywhere it is named", () => {
    const page = buildReport(mostlyFailed, { generatedAt: null });
    const sentences = [...section(page, "headline").matchAll(/<p>([^<]*)<\/p>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
    assert.match(sentences[0]!, /^Only 3 of 30 answers were scored on multimodal_relevance: 27 failed \(9 of atlas-pro's, 9 of chatter-xl's, 9 of swift-mini's\), all with “relevance judgement failed: the offline judge cannot see images, and this verdict depends on context N”/);
    assert.equal(sentences[1], "Ranking by mean multimodal_relevance: atlas-pro 1.00 (95% CI 0.21–1.00) tied with chatter-xl 1.00 (0.21–1.00), swift-mini 0.00 (0.00–0.79); 1 answer each.");
    assert.match(sentences[2]!, /^No conclusion about atlas-pro against chatter-xl \(1 question scored for both\) or chatter-xl against swift-mini \(1 question scored for both\): .*95% CI is n\/a\.$/);
    assert.ok(!sentences.some((s) => /0\.00–0\.00|1\.00–1\.00|higher than/.test(s)), sentences.join("\n"));
    assert.ok(!sentences.some((s) => /failed to score/.test(s)), "the failures are said once, first");
    // The summary: Wilson intervals, and it says so.
    const summary = section(page, "summary");
    assert.match(summary, /mean over the valid scores with its 95% Wilson score interval \(the scores are 0 or 1\)/);
    assert.match(summary, /<td class="num">1\.00 <span class="ci">\(0\.21–1\.00\)<\/span><\/td>/);
    assert.match(summary, /<td class="num">0\.00 <span class="ci">\(0\.00–0\.79\)<\/span><\/td>/);
    // The comparison table: a difference from one pair has no interval.
    const comparison = section(page, "comparison");
    assert.equal((comparison.match(/<span class="ci" title="1 pair: a difference needs at least 2">\(CI n\/a\)<\/span>/g) ?? []).length, 3);
    // The relevance chart: caption and subtitle name the same interval.
    const rate = chartText(page, "chart-relevance");
    assert.match(rate.caption, /with its 95% Wilson score interval\.$/);
    assert.match(rate.subtitle, /95% Wilson score interval/);
    for (const text of [rate.caption, rate.subtitle, summary]) assert.doesNotMatch(text, /bootstrap/);
    // The filter bar agrees with the text: 0/1 scores pass at 1.
    const answers = section(page, "answers");
    assert.match(answers, /An answer passes at a score of 1;/);
    assert.match(answers, /<option value="passed">passed \(score 1\) \(2\)<\/option><option value="failed">failed \(score 0\) \(1\)<\/option>/);
    assert.doesNotMatch(answers, /score ≥ 0\.5/);
  });

  it("a thresholded answer_correctness (0/1) gets Wilson in the mean chart's caption and subtitle; a continuous one keeps the bootstrap", () => {
    const rows = Array.from({ length: 12 }, (_, q) => models.map((model, m) => ({ id: `q${q}`, model, user_input: `Q${q}?`, response: "A.", answer_correctness: (q + m) % 3 === 0 ? 0 : 1 }))).flat();
    const zeroOne = chartText(buildReport(rows, { generatedAt: null }), "chart-mean");
    assert.match(zeroOne.caption, /per model with its 95% Wilson score interval\.$/);
    assert.match(zeroOne.subtitle, /95% Wilson score interval/);
    const continuous = chartText(buildReport(rows.map((r, i) => ({ ...r, answer_correctness: r.answer_correctness * 0.8 + (i % 5) / 25 })), { generatedAt: null }), "chart-mean");
    assert.match(continuous.caption, /per model with its seeded 95% bootstrap confidence interval\.$/);
    assert.match(continuous.subtitle, /95% bootstrap CI of the mean/);
  });

  it("with a previous run: one headline sentence on the change, the same numbers as the section's table; a column left out says which and why", () => {
    const before = Array.from({ length: 10 }, (_, q) =>
      models.map((model, m) => ({ id: `q${q}`, model, user_input: `Q${q}?`, response: `A${q}`, answer_correctness: 0.3 + ((q * 7 + m * 3) % 10) / 20 })),
    ).flat();
    const after = before.map((r, i) => (r.model === "atlas-pro" ? { ...r, answer_correctness: r.answer_correctness - 0.25 - (i % 2) / 10 } : r));
    const page = buildReport(after, { previous: before, generatedAt: null });
    const sentences = [...section(page, "headline").matchAll(/<p>([^<]*)<\/p>/g)].map((m) => m[1]!);
    const change = sentences.filter((s) => s.startsWith("Since the previous run"));
    assert.equal(change.length, 1, sentences.join("\n"));
    const m = /^Since the previous run \(mean answer_correctness\): atlas-pro (−0\.\d\d) on average \(95% CI (−0\.\d\d) to (−0\.\d\d)\), −0\.\d\d on the typical answer \(Hodges–Lehmann, 95% CI −0\.\d\d to −0\.\d\d; Wilcoxon p_holm = 0\.0\d+\); others unchanged within chance; answers: 10 worse\.$/.exec(change[0]!);
    assert.ok(m, change[0]);
    // The section's table shows the same change and interval for atlas-pro.
    const row = /<td>atlas-pro<\/td>(?:<td[^>]*>[^<]*<\/td>){3}<td class="num">([^ ]+) <span class="ci">\(([^ ]+) to ([^)]+)\)<\/span><\/td>/.exec(section(page, "change"));
    assert.ok(row, "atlas-pro's row in the change table");
    assert.deepEqual([row[1], row[2], row[3]], [m[1], m[2], m[3]]);
    assert.match(section(page, "change"), /Not shown, as (it is|they are) empty in every row: the columns? <code>/);
    assert.doesNotMatch(page, /Left out, no value in any row/);
    // Without a previous run: no such sentence.
    assert.ok(![...section(buildReport(after, { generatedAt: null }), "headline").matchAll(/<p>([^<]*)<\/p>/g)].some((x) => x[1]!.startsWith("Since the previous run")));
  });
});
