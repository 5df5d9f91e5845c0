/**
 * The report on a phone (a 375 px wide frame in headless Chromium; the same
 * rules serve the printed page): the comparison table's model columns stay
 * readable (words on a line, not one letter under another), and every chart
 * is scaled to its box instead of being cut at its right edge, where the
 * counts and the legend are; the answers' filter bar keeps its labels on one
 * line and its controls inside it, with a model of a long name; a statements
 * table's headers, labels and verdicts ("verdict", "A1", "covered") stay whole.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReport, createJudge, loadDataset, scoreAnswerCorrectness } from "../src/index";
import { escapeHtml } from "../src/display/html";
import { dumpDom, pageResult } from "./support/browser";
import { tempDir, writeText } from "./support/files";
import { sampleHeadRows } from "./support/sample";
import { formatCsv } from "../src/dataset/export";

const LONG = "openai/gpt-4o-mini-2024-07-18-with-a-very-long-suffix-preview";

/** Measures the framed report once its charts are drawn. */
const MEASURE = `function measure(doc, win) {
  const rect = (el) => el.getBoundingClientRect();
  const bar = doc.getElementById("answer-filters");
  const barRight = rect(bar).right;
  const controls = Array.prototype.map.call(bar.querySelectorAll("label"), function (label) {
    const range = doc.createRange();
    range.selectNodeContents(label.firstChild);
    const control = label.querySelector("select, input");
    return { text: label.firstChild.textContent.trim(), lines: range.getClientRects().length, right: rect(control).right, barRight: barRight };
  });
  const words = Array.prototype.map.call(doc.querySelectorAll("#worst article.row table")[0].querySelectorAll("th, tbody td:nth-child(-n+2)"), function (cell) {
    const range = doc.createRange();
    range.selectNodeContents(cell);
    const tops = new Set(Array.prototype.map.call(range.getClientRects(), function (r) { return Math.round(r.top); }));
    return { text: cell.textContent, lines: tops.size };
  });
  const pairCells = Array.prototype.map.call(doc.querySelectorAll("#comparison table.compact tbody tr td:first-child"), function (td) { return { text: td.textContent, width: rect(td).width }; });
  const charts = Array.prototype.map.call(doc.querySelectorAll("#charts figure"), function (f) {
    const svg = f.querySelector(".chart svg");
    return { id: f.querySelector(".chart").id, figureRight: rect(f).right, svgRight: svg ? rect(svg).right : null, svgWidth: svg ? rect(svg).width : 0 };
  });
  return { viewport: win.innerWidth, page: doc.documentElement.scrollWidth, pairCells: pairCells, charts: charts, controls: controls, words: words };
}`;

function framed(html: string, width: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{width:${width}px;height:900px;border:0;display:block}</style></head><body>
<iframe id="report" sandbox="allow-scripts allow-same-origin" srcdoc="${escapeHtml(html)}"></iframe>
<pre id="result"></pre>
<script>
${MEASURE}
const frame = document.getElementById("report");
function wait() {
  const doc = frame.contentDocument;
  const status = doc && doc.readyState === "complete" ? doc.getElementById("evalframe-status") : null;
  if (status && status.getAttribute("data-done") === "true") {
    try { document.getElementById("result").textContent = JSON.stringify(measure(doc, frame.contentWindow)); }
    catch (e) { document.getElementById("result").textContent = JSON.stringify({ failure: String(e && e.stack || e) }); }
  } else setTimeout(wait, 50);
}
wait();
</script></body></html>`;
}

interface Measured {
  failure?: string;
  viewport: number;
  page: number;
  pairCells: { text: string; width: number }[];
  charts: { id: string; figureRight: number; svgRight: number | null; svgWidth: number }[];
  controls: { text: string; lines: number; right: number; barRight: number }[];
  words: { text: string; lines: number }[];
}

describe("report on a 375 px screen", () => {
  it("keeps the model pairs readable and every chart inside its box", async () => {
    const dir = tempDir();
    // One model with a long name: the filter bar's model list is as wide as its longest option.
    const rows = sampleHeadRows(8).map((r) => (r["model"] === "chatter-xl" ? { ...r, model: LONG } : r));
    const scored = await scoreAnswerCorrectness(await loadDataset(writeText(dir, "sample.csv", formatCsv(rows))), { judge: createJudge({ judge: "offline" }), progress: false, quiet: true });
    const html = buildReport(scored, { generatedAt: null });
    const page = writeText(dir, "narrow.html", framed(html, 375));
    const result = pageResult<Measured>(dumpDom(page, 30_000, { windowSize: "500,1000" }));
    assert.equal(result.failure, undefined, "the measuring script ran");
    assert.equal(result.viewport, 375, "the report's window is 375 px wide");
    assert.ok(result.page <= 375, `the page is ${result.page} px wide in a 375 px window`);
    assert.equal(result.pairCells.length, 3, "three model pairs in the comparison table");
    for (const cell of result.pairCells) {
      // "atlas-pro − chatter-xl" one letter to a line was about 10 px wide.
      assert.ok(cell.width >= 80, `the pair "${cell.text}" is ${cell.width} px wide: too narrow to read`);
    }
    assert.deepEqual(result.controls.map((c) => c.text), ["Model", "Show", "Search"], "the filter bar's labels");
    for (const c of result.controls) {
      assert.equal(c.lines, 1, `the filter label "${c.text}" is broken over ${c.lines} lines`);
      assert.ok(c.right <= c.barRight + 0.5, `the "${c.text}" control runs past the filter bar (${c.right} > ${c.barRight})`);
    }
    assert.ok(result.words.some((w) => w.text === "verdict"), `the statements table's headers: ${JSON.stringify(result.words)}`);
    for (const w of result.words) assert.ok(w.lines <= 1, `"${w.text}" in a statements table is broken over ${w.lines} lines`);
    assert.ok(result.charts.length >= 5, `charts measured: ${result.charts.length}`);
    for (const chart of result.charts) {
      assert.notEqual(chart.svgRight, null, `${chart.id} was drawn`);
      assert.ok(chart.svgRight! <= chart.figureRight + 0.5, `${chart.id} runs past its box (${chart.svgRight} > ${chart.figureRight}): its right side is cut off`);
      assert.ok(chart.svgWidth >= 250, `${chart.id} is ${chart.svgWidth} px wide: scaled too small`);
    }
  });
});
