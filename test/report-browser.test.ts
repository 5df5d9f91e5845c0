/**
 * The demo's report in headless Chromium at 1,280 × 800, with JavaScript on
 * and off: the headline is visible without scrolling, no table is wider than
 * its container (nor the page wider than the window), the answers' filters
 * leave only the matching answers, and nothing logs an error or breaks the
 * Content-Security-Policy. With JavaScript off every answer is there and the
 * filter bar is hidden. Every drawn chart is announced to a screen reader by
 * its heading and what it shows.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { before, describe, it } from "node:test";
import type { DataFrame } from "danfojs-node";
import { buildReport, createJudge, loadDataset, scoreAnswerCorrectness } from "../src/index";
import { escapeHtml } from "../src/display/html";
import { tableFromDataFrame } from "../src/frame/dataframe";
import { parseDetails, DETAILS_COLUMN } from "../src/metrics/answer-correctness/details";
import { dumpDom, ERROR_PROBE, pageResult } from "./support/browser";
import { mulberry32 } from "../src/stats";
import { tempDir } from "./support/files";
import { chartIds, probedCopy, reportStatus } from "./support/report-page";

const ROOT = path.join(__dirname, "..");
const WORD = "year";
const MODEL = "swift-mini";

/** What the page measures about its own layout: the headline's box and every table against its container. */
const LAYOUT = `function layout(doc, win) {
  const box = doc.getElementById("headline").getBoundingClientRect();
  const tables = Array.prototype.map.call(doc.querySelectorAll("table"), function (t) {
    const c = t.parentElement;
    const section = t.closest("section");
    return { where: (section ? section.id : "?") + (t.closest("details:not([open])") ? " (closed)" : ""), table: t.scrollWidth, wrap: c.scrollWidth, container: c.clientWidth };
  });
  return {
    viewport: [win.innerWidth, win.innerHeight],
    scrolled: win.scrollY,
    page: doc.documentElement.scrollWidth,
    headline: { top: box.top, bottom: box.bottom, text: doc.getElementById("headline").textContent },
    tables: tables
  };
}`;

/** Opens every <details> (the full tables, the statements, the failure groups), measures, and closes them again. */
const OPENED = `function opened(doc, win) {
  const closed = Array.prototype.filter.call(doc.querySelectorAll("details"), function (d) { return !d.open; });
  closed.forEach(function (d) { d.open = true; });
  const measured = layout(doc, win);
  closed.forEach(function (d) { d.open = false; });
  return { page: measured.page, tables: measured.tables };
}`;

/** The answers the page shows: every visible card's model and whether it contains the word. */
const SHOWN = `function shown(doc, word) {
  return Array.prototype.filter.call(doc.querySelectorAll("#answers .answer"), function (a) { return a.getClientRects().length > 0; }).map(function (a) {
    const q = a.closest(".question");
    return { row: Number(a.getAttribute("data-row")), model: a.getAttribute("data-model"), status: a.getAttribute("data-status"), disagree: a.getAttribute("data-disagree") === "true",
      match: ((q.querySelector(".question-head").textContent + " " + a.textContent).toLowerCase().indexOf(word) >= 0) };
  });
}`;

interface Layout {
  viewport: [number, number];
  scrolled: number;
  page: number;
  headline: { top: number; bottom: number; text: string };
  tables: { where: string; table: number; wrap: number; container: number }[];
}
interface Card {
  row: number;
  model: string;
  status: string;
  disagree: boolean;
  match: boolean;
}
interface Filtered {
  all: Card[];
  word: Card[];
  wordAndModel: Card[];
  failedOfModel: Card[];
  disagree: Card[];
  nothing: Card[];
  count: string;
  emptyShown: boolean;
  barShown: boolean;
}

/**
 * A page that shows the report in a 1,280 × 800 frame (the window of
 * `--dump-dom` loses height to the browser's own bars; a frame's does not)
 * and measures it from outside once the report's own script is done. With
 * `scripts` false the frame's sandbox lets no script run: JavaScript off
 * for the report. With scripts on, the report gets the error probe at the top
 * of its <head> (before its Content-Security-Policy), and the outer page then
 * drives the filters as a reader would.
 */
function framed(html: string, scripts: boolean): string {
  const head = html.indexOf("<head>") + "<head>".length;
  const report = scripts ? html.slice(0, head) + ERROR_PROBE + html.slice(head) : html;
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{width:1280px;height:800px;border:0;display:block}</style></head><body>
<iframe id="report" sandbox="${scripts ? "allow-scripts allow-same-origin" : "allow-same-origin"}" srcdoc="${escapeHtml(report)}"></iframe>
<pre id="result"></pre>
<script>
${LAYOUT}
${OPENED}
${SHOWN}
const frame = document.getElementById("report");
function jsOff(doc, win) {
  const bar = doc.getElementById("answer-filters");
  return {
    cards: shown(doc, ${JSON.stringify(WORD)}).length,
    questions: doc.querySelectorAll("#answers .question").length,
    barHidden: bar.hidden && bar.getClientRects().length === 0,
    noscript: Array.prototype.some.call(doc.querySelectorAll("#answers p"), function (p) { return /filters need JavaScript/.test(p.textContent) && p.getClientRects().length > 0; }),
    drawnCharts: doc.querySelectorAll("[data-rendered]").length,
    statusDone: doc.getElementById("evalframe-status").getAttribute("data-done")
  };
}
function jsOn(doc, win) {
  const model = doc.getElementById("filter-model");
  const status = doc.getElementById("filter-status");
  const search = doc.getElementById("filter-text");
  function set(el, value, type) { el.value = value; el.dispatchEvent(new win.Event(type, { bubbles: true })); }
  const filtered = { all: shown(doc, ${JSON.stringify(WORD)}), barShown: doc.getElementById("answer-filters").getClientRects().length > 0 };
  set(search, "  YEAR ", "input");
  filtered.word = shown(doc, ${JSON.stringify(WORD)});
  set(model, ${JSON.stringify(MODEL)}, "change");
  filtered.wordAndModel = shown(doc, ${JSON.stringify(WORD)});
  filtered.count = doc.getElementById("filter-count").textContent;
  set(search, "", "input");
  set(status, "failed", "change");
  filtered.failedOfModel = shown(doc, ${JSON.stringify(WORD)});
  set(model, "", "change");
  set(status, "disagree", "change");
  filtered.disagree = shown(doc, ${JSON.stringify(WORD)});
  set(search, "zzzz-no-such-word", "input");
  filtered.nothing = shown(doc, ${JSON.stringify(WORD)});
  filtered.emptyShown = doc.getElementById("filter-empty").getClientRects().length > 0;
  return { filtered: filtered, errors: win.__errors, status: JSON.parse(doc.getElementById("evalframe-status").textContent) };
}
function measure() {
  const doc = frame.contentDocument;
  const win = frame.contentWindow;
  const result = { layout: layout(doc, win), opened: opened(doc, win) };
  Object.assign(result, ${scripts ? "jsOn" : "jsOff"}(doc, win));
  document.getElementById("result").textContent = JSON.stringify(result);
}
function wait() {
  const doc = frame.contentDocument;
  const status = doc && doc.readyState === "complete" ? doc.getElementById("evalframe-status") : null;
  if (status && (${scripts ? 'status.getAttribute("data-done") === "true"' : "true"})) {
    try { measure(); } catch (e) { document.getElementById("result").textContent = JSON.stringify({ failure: String(e && e.stack || e) }); }
  } else setTimeout(wait, 50);
}
wait();
</script></body></html>`;
}

/** Opens the framed report in Chromium and returns what the outer page measured. */
function openFramed<T>(html: string, scripts: boolean, file: string): T {
  writeFileSync(file, framed(html, scripts));
  const result = pageResult<T & { failure?: string }>(dumpDom(file, 30_000, { windowSize: "1400,1100" }));
  assert.equal(result.failure, undefined, "the measuring script ran");
  return result;
}

function assertFits(layout: Pick<Layout, "page" | "tables">, when: string): void {
  assert.ok(layout.page <= 1280, `${when}: the page is ${layout.page} px wide, more than the 1,280 px window`);
  assert.ok(layout.tables.length > 0, `${when}: tables measured`);
  for (const t of layout.tables) {
    assert.ok(t.table <= t.container, `${when}: a table in ${t.where} is ${t.table} px wide in a ${t.container} px container`);
    assert.ok(t.wrap <= t.container, `${when}: a table's container in ${t.where} scrolls (${t.wrap} > ${t.container})`);
  }
}

function assertHeadline(layout: Layout, when: string): void {
  assert.deepEqual(layout.viewport, [1280, 800], `${when}: the window`);
  assert.equal(layout.scrolled, 0);
  assert.ok(layout.headline.top >= 0 && layout.headline.bottom <= 800, `${when}: the headline (${layout.headline.top}–${layout.headline.bottom} px) is in the first 800 px`);
  assert.match(layout.headline.text, /Ranking by mean answer_correctness: atlas-pro 0\.74/);
}

describe("HTML report in Chromium at 1,280 × 800 (the demo's report)", () => {
  const dir = tempDir();
  let scored: DataFrame;
  let html = "";
  /** Per row: model, and whether its question, reference, answer, statements or reason contain WORD. */
  let rows: { model: string; word: boolean; score: number }[] = [];

  before(async () => {
    const judge = createJudge({ judge: "labels", labels: path.join(ROOT, "data", "qa-models.labels.jsonl") });
    scored = await scoreAnswerCorrectness(await loadDataset(path.join(ROOT, "data", "qa-models.csv")), { judge, progress: false, quiet: true });
    // As scripts/demo.ts writes it, judge in the title included.
    html = buildReport(scored, { title: `qa-models: answer correctness (${judge.label})`, generatedAt: null });
    const table = tableFromDataFrame(scored);
    const col = (name: string) => table.columns.find((c) => c.name === name)!.values;
    rows = Array.from({ length: table.rowCount }, (_, i) => {
      const details = parseDetails(col(DETAILS_COLUMN)[i]);
      const texts = [col("id")[i], col("user_input")[i], col("reference")[i], col("response")[i], col("answer_correctness_error")[i]].map((v) => String(v ?? ""));
      for (const s of [...(details?.response ?? []), ...(details?.reference ?? [])]) texts.push(s.statement, s.reason);
      return { model: String(col("model")[i]), word: texts.join(" ").toLowerCase().includes(WORD), score: Number(col("answer_correctness")[i]) };
    });
  });

  it("JavaScript on: headline in the first 800 px, no table wider than its container, filters leave only matching answers, no console error", () => {
    const result = openFramed<{ errors: string[]; status: { drawn: string[]; failed: string[] }; layout: Layout; opened: Layout; filtered: Filtered }>(
      html,
      true,
      path.join(dir, "js-on.html"),
    );
    assert.deepEqual(result.errors, [], "no console error, no CSP violation");
    assert.deepEqual(result.status.failed, [], "every chart drawn");
    assert.deepEqual([...result.status.drawn].sort(), [...chartIds(html)].sort(), "every chart drawn");
    assertHeadline(result.layout, "JavaScript on");
    assertFits(result.layout, "JavaScript on");
    assertFits(result.opened, "JavaScript on, every <details> open");

    const f = result.filtered;
    assert.equal(f.barShown, true, "the filter bar is shown");
    assert.equal(f.all.length, 126, "every answer shown before filtering");
    const expectedWord = rows.filter((r) => r.word).length;
    const expectedBoth = rows.filter((r) => r.word && r.model === MODEL).length;
    assert.ok(expectedBoth > 0 && expectedBoth < expectedWord && expectedWord < 126, `a useful word (${expectedBoth} < ${expectedWord} < 126)`);
    assert.equal(f.word.length, expectedWord, `"${WORD}" (any case, spaces around) leaves the answers that contain it`);
    assert.ok(f.word.every((c) => c.match));
    assert.equal(f.wordAndModel.length, expectedBoth, `"${WORD}" and ${MODEL}`);
    assert.ok(f.wordAndModel.every((c) => c.match && c.model === MODEL));
    assert.equal(f.count, `${expectedBoth} answers of 126, in ${expectedBoth} questions`);
    const failed = rows.filter((r) => r.model === MODEL && r.score < 0.5).length;
    assert.equal(f.failedOfModel.length, failed, `${MODEL}'s answers under 0.5`);
    assert.ok(f.failedOfModel.every((c) => c.model === MODEL && c.status === "failed"));
    assert.ok(f.disagree.length > 0 && f.disagree.length < 126 && f.disagree.length % 3 === 0, "models disagree: whole questions, every model's answer");
    assert.ok(f.disagree.every((c) => c.disagree));
    assert.deepEqual(f.nothing, []);
    assert.equal(f.emptyShown, true, "a note says nothing matches");
  });

  it("the report opened directly (not in a frame): its own scripts pass its Content-Security-Policy, no console error", () => {
    const file = path.join(dir, "report.html");
    probedCopy(html, file);
    const dom = dumpDom(file);
    assert.deepEqual(pageResult<{ errors: string[] }>(dom).errors, []);
    assert.deepEqual(reportStatus(dom).failed, []);
    assert.match(dom, /<div class="filters" id="answer-filters" role="search" aria-label="Filter the answers">/, "the filter script un-hid the bar");
  });

  it("JavaScript off: every answer is there, the filter bar is hidden, the headline is in the first 800 px, no table wider than its container", () => {
    const result = openFramed<{ layout: Layout; opened: Layout; cards: number; questions: number; barHidden: boolean; noscript: boolean; drawnCharts: number; statusDone: string | null }>(
      html,
      false,
      path.join(dir, "js-off.html"),
    );
    assert.equal(result.drawnCharts, 0, "no script of the report ran");
    assert.equal(result.statusDone, null);
    assert.equal(result.cards, 126, "every answer is shown");
    assert.equal(result.questions, 42);
    assert.equal(result.barHidden, true, "the filter bar is hidden");
    assert.equal(result.noscript, true, "a note says the filters need JavaScript");
    assertHeadline(result.layout, "JavaScript off");
    assertFits(result.layout, "JavaScript off");
    assertFits(result.opened, "JavaScript off, every <details> open");
  });
});

describe("the report's charts name themselves to a screen reader", () => {
  it("every chart of the report, drawn in headless Chromium, is announced by its heading and what it shows, not as 'Vega visualization'", () => {
    const rng = mulberry32(2);
    const rows = ["atlas-pro", "swift-mini"].flatMap((model, m) =>
      Array.from({ length: 12 }, (_, q) => ({ id: `q${q}`, model, user_input: `Question ${q}?`, response: `answer ${q}`, reference: `reference ${q}`, answer_correctness: Math.min(1, 0.3 + 0.3 * m + 0.3 * rng()), answer_correctness_error: "", answer_correctness_judge: "hand-labelled" })),
    );
    const file = path.join(tempDir(), "report.html");
    writeFileSync(file, buildReport(rows, { generatedAt: null }));
    const dom = dumpDom(file);
    const charts = [...dom.matchAll(/<figure><h3>([^<]*)<\/h3><div class="chart[^"]*" id="([^"]*)"([^>]*)>/g)].map((m) => ({ heading: m[1]!, id: m[2]!, attributes: m[3]! }));
    assert.ok(charts.length >= 4, `charts found: ${charts.map((c) => c.id).join(", ")}`);
    for (const c of charts) {
      assert.match(c.attributes, /data-rendered="true"/, `${c.id} was drawn`);
      const label = /aria-label="([^"]*)"/.exec(c.attributes)?.[1] ?? "";
      assert.notEqual(label, "Vega visualization", c.id);
      assert.ok(label.startsWith(`${c.heading}: `), `${c.id}: ${label}`);
      assert.match(label, /judge: hand-labelled/, `${c.id}: the subtitle is read too: ${label}`);
    }
  });

});
