/**
 * The fixed parts of the report page: its stylesheet, its Content Security
 * Policy (nothing may be fetched; only the page's own scripts may run), the
 * small script that draws the charts with vega-embed and records the outcome
 * in a hidden element, and the script behind the answers' filter bar.
 */
import { createHash } from "node:crypto";

/**
 * The page's Content Security Policy. Nothing is loaded from anywhere: no
 * network (`connect-src 'none'`), styles inline, images only from data:/blob:
 * URIs. Scripts run only when they are one of `inlineScripts` (each allowed
 * by the SHA-256 of its exact text), so a script or event handler that found
 * its way into the data could not run even if escaping failed. Vega
 * compiles its expressions with `Function`, hence 'unsafe-eval'.
 *
 * @example
 * contentSecurityPolicy([CLIENT_SCRIPT]);   // "default-src 'none'; script-src 'sha256-…' 'unsafe-eval'; …"
 */
export function contentSecurityPolicy(inlineScripts: readonly string[]): string {
  const hashes = [...new Set(inlineScripts.map(scriptHash))];
  const scripts = hashes.length > 0 ? `${hashes.join(" ")} 'unsafe-eval'` : "'none'";
  return `default-src 'none'; script-src ${scripts}; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** The CSP source that allows one inline script: `'sha256-<base64 of its text's SHA-256>'`. */
export function scriptHash(code: string): string {
  return `'sha256-${createHash("sha256").update(code, "utf8").digest("base64")}'`;
}

/** The report's stylesheet: readable without JavaScript, no table wider than the page, printable. */
export const REPORT_CSS = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --soft: #f6f8fa; --accent: #4e79a7; --pass: #1b7f3b; --fail: #b35c00; --err: #b3261e; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: #eef1f4; color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 32px 64px; background: #fff; min-height: 100vh; overflow-wrap: anywhere; }
h1 { font-size: 1.8em; margin: 0 0 0.3em; line-height: 1.2; }
h2 { font-size: 1.35em; margin: 2em 0 0.6em; padding-bottom: 0.25em; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.1em; margin: 1.4em 0 0.4em; }
p { margin: 0.4em 0 0.8em; }
.meta, .note, figcaption, footer { color: var(--muted); }
.meta { font-size: 0.9em; margin: 0.2em 0; }
.note { font-size: 0.92em; }
#headline { margin: 0.4em 0 0.9em; padding: 0.7em 1em; border-left: 6px solid var(--accent); background: #f2f6fa; font-size: 1.08em; }
#headline p { margin: 0.15em 0; }
.judges { margin: 0.3em 0; }
.judge { display: inline-block; padding: 1px 8px; margin: 0 4px 2px 0; border: 1px solid var(--line); border-radius: 10px; background: var(--soft); font-size: 0.92em; }
.banner { margin: 0.6em 0; padding: 0.6em 1em; border-left: 6px solid #b35c00; background: #fff4e5; font-size: 0.92em; }
.banner strong { color: #8a4600; }
.usage { margin: 0.4em 0; padding: 0.4em 0.8em; background: var(--soft); border-radius: 4px; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 0.85em; white-space: pre-wrap; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.4em; columns: 3; font-size: 0.95em; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: 0.4em 0 1em; }
table { border-collapse: collapse; font-size: 13px; max-width: 100%; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; text-align: left; overflow-wrap: anywhere; }
th { background: var(--soft); font-weight: 600; }
th.num, td.num, td.ef-num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }
td.missing { color: var(--muted); }
table.full th { font-size: 12px; }
details.more { margin: 0.2em 0 1em; }
details.more > summary, details.group > summary, .answer details > summary { cursor: pointer; color: var(--accent); }
details.more > summary { font-size: 0.92em; }
.charts { display: grid; grid-template-columns: minmax(0, 1fr); gap: 20px; }
figure { margin: 0; padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; background: #fff; }
figure h3 { margin: 0 0 0.4em; font-size: 1em; }
figcaption { font-size: 0.88em; margin-top: 0.5em; }
.chart { min-height: 60px; }
.chart-failed { color: #b3261e; font-size: 0.9em; }
article.row { margin: 16px 0; padding: 10px 16px 12px; border: 1px solid var(--line); border-radius: 6px; }
article.row table { margin: 0.2em 0 0.6em; }
article.row th, article.row td:nth-child(-n+2) { overflow-wrap: normal; white-space: nowrap; }
article.row pre { background: var(--soft); padding: 0.5em 0.8em; border-radius: 4px; white-space: pre-wrap; font-size: 0.85em; }
.contexts { margin: 0.3em 0 0.6em 1.2em; padding: 0; font-size: 0.92em; }
.error { color: var(--err); }
details.group { margin: 0.5em 0; padding: 0.4em 0.8em; border: 1px solid var(--line); border-radius: 6px; }
details.group > summary .count { font-weight: 600; }
.filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 0.6em 0 1em; padding: 8px 12px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; font-size: 0.92em; }
.filters label { display: flex; gap: 6px; align-items: center; max-width: 100%; min-width: 0; white-space: nowrap; }
.filters input[type="search"] { width: 22em; max-width: 100%; }
.filters select, .filters input { font: inherit; padding: 2px 4px; min-width: 0; max-width: 100%; flex: 0 1 auto; }
#filter-count { color: var(--muted); margin-left: auto; }
.question { margin: 0 0 18px; padding: 10px 14px 12px; border: 1px solid var(--line); border-radius: 6px; }
.question h3 { margin: 0 0 0.3em; font-size: 1em; }
.question .qid { color: var(--muted); font-weight: normal; margin-right: 0.4em; }
.question .reference, .question .qmeta { margin: 0.2em 0; font-size: 0.9em; color: var(--muted); }
.disagree { color: #8a4600; font-weight: 600; }
.answers { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 10px; margin-top: 8px; }
.answer { padding: 8px 10px; border: 1px solid var(--line); border-radius: 5px; background: #fff; font-size: 0.92em; min-width: 0; }
.answer[data-status="passed"] { border-top: 3px solid var(--pass); }
.answer[data-status="failed"] { border-top: 3px solid var(--fail); }
.answer[data-status="error"] { border-top: 3px solid var(--err); }
.answer-head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.answer-head .model { font-weight: 600; }
.answer-head .score { margin-left: auto; font-variant-numeric: tabular-nums; font-weight: 600; }
.badge { font-size: 0.8em; padding: 0 6px; border-radius: 8px; color: #fff; }
.badge.passed { background: var(--pass); }
.badge.failed { background: var(--fail); }
.badge.error { background: var(--err); }
.answer p { margin: 0.3em 0; }
.statements { margin: 0.2em 0 0.4em; padding-left: 1.1em; }
.statements li { margin: 0.15em 0; }
.v { font-weight: 600; font-size: 0.85em; margin-right: 0.3em; }
.v-TP, .v-covered { color: var(--pass); }
.v-FP { color: var(--fail); }
.v-FN { color: var(--err); }
.why { color: var(--muted); font-size: 0.92em; }
footer { margin-top: 3em; padding-top: 1em; border-top: 1px solid var(--line); font-size: 0.88em; }
.ci { white-space: nowrap; }
@media (max-width: 700px) { main { padding: 16px; } nav.toc ol { columns: 1; } }
@media (max-width: 700px), print {
  th.num, td.num:has(> .ci) { white-space: normal; }
  table.compact td:not(.num), table.compact th:not(.num) { min-width: 7em; }
  figure { overflow-x: visible; }
  .chart .vega-embed, .chart svg { max-width: 100%; }
  .chart svg { height: auto; }
}
@media print { body { background: #fff; } main { padding: 0; } .filters { display: none; } .table-wrap { overflow-x: visible; } table { font-size: 11px; } figure, article.row, .question { break-inside: avoid; } }
`;

/**
 * Draws every chart listed in `#evalframe-charts` with vega-embed (SVG, no
 * action menu: it would link to the online editor), marks each drawn
 * container `data-rendered="true"`, writes a visible message into a chart it
 * could not draw, and leaves `{ drawn, failed }` as JSON in the hidden
 * `#evalframe-status` element (with `data-done="true"`) for checks.
 */
export const CLIENT_SCRIPT = `(function () {
  "use strict";
  var status = document.getElementById("evalframe-status");
  var result = { drawn: [], failed: [] };
  function finish() {
    status.textContent = JSON.stringify(result);
    status.setAttribute("data-done", "true");
  }
  var charts;
  try {
    charts = JSON.parse(document.getElementById("evalframe-charts").textContent);
  } catch (error) {
    result.failed.push("chart data: " + error.message);
    finish();
    return;
  }
  if (typeof vegaEmbed !== "function") {
    result.failed.push("vega-embed did not load");
    finish();
    return;
  }
  Promise.all(charts.map(function (chart) {
    var el = document.getElementById(chart.id);
    return vegaEmbed(el, chart.spec, { mode: "vega-lite", renderer: "svg", actions: false }).then(function () {
      el.setAttribute("data-rendered", "true");
      result.drawn.push(chart.id);
    }, function (error) {
      var message = error && error.message ? error.message : String(error);
      el.className += " chart-failed";
      el.textContent = "This chart could not be drawn: " + message;
      result.failed.push(chart.id + ": " + message);
    });
  })).then(finish, function (error) {
    result.failed.push(String(error));
    finish();
  });
})();`;

/**
 * The answers' filter bar: shows the bar (it is `hidden` in the HTML, so a
 * page without JavaScript lists every answer and no dead controls), and on
 * every change hides the answer cards that do not match all of: the model
 * chosen, the status chosen (passed, failed, error, or "models disagree"),
 * and every word typed (case-insensitive, anywhere in the card or its
 * question's heading and reference). A question with no card left is hidden;
 * `#filter-count` says how many answers and questions are shown.
 */
export const FILTER_SCRIPT = `(function () {
  "use strict";
  var bar = document.getElementById("answer-filters");
  if (!bar) return;
  var model = document.getElementById("filter-model");
  var status = document.getElementById("filter-status");
  var search = document.getElementById("filter-text");
  var count = document.getElementById("filter-count");
  var empty = document.getElementById("filter-empty");
  var questions = Array.prototype.slice.call(document.querySelectorAll("#answers .question"));
  var items = [];
  questions.forEach(function (q) {
    var head = q.querySelector(".question-head");
    var headText = head ? head.textContent : "";
    Array.prototype.forEach.call(q.querySelectorAll(".answer"), function (el) {
      items.push({
        el: el,
        model: el.getAttribute("data-model"),
        status: el.getAttribute("data-status"),
        disagree: el.getAttribute("data-disagree") === "true",
        text: (headText + " " + el.textContent).toLowerCase()
      });
    });
  });
  var total = items.length;
  function plural(n, word) { return n.toLocaleString("en-US") + " " + word + (n === 1 ? "" : "s"); }
  function apply() {
    var m = model.value;
    var s = status.value;
    var words = search.value.toLowerCase().split(/\\s+/).filter(function (w) { return w !== ""; });
    var shown = 0;
    items.forEach(function (it) {
      var ok = (m === "" || it.model === m) &&
        (s === "" || (s === "disagree" ? it.disagree : it.status === s)) &&
        words.every(function (w) { return it.text.indexOf(w) >= 0; });
      it.el.hidden = !ok;
      if (ok) shown++;
    });
    var shownQuestions = 0;
    questions.forEach(function (q) {
      var any = q.querySelector(".answer:not([hidden])") !== null;
      q.hidden = !any;
      if (any) shownQuestions++;
    });
    count.textContent = shown === total ? "all " + plural(total, "answer") + ", " + plural(questions.length, "question")
      : plural(shown, "answer") + " of " + total.toLocaleString("en-US") + ", in " + plural(shownQuestions, "question");
    count.setAttribute("data-shown", String(shown));
    empty.hidden = shown > 0;
  }
  model.addEventListener("change", apply);
  status.addEventListener("change", apply);
  search.addEventListener("input", apply);
  bar.hidden = false;
  apply();
})();`;
