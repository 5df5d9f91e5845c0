/**
 * The fixed parts of the report page: its stylesheet, its Content Security
 * Policy (nothing may be fetched), and the small script that draws the
 * charts with vega-embed and records the outcome in a hidden element.
 */

/**
 * Nothing is loaded from anywhere: scripts and styles are inline, images only
 * from data:/blob: URIs. Vega compiles its expressions with `Function`, hence
 * 'unsafe-eval'.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'";

/** The report's stylesheet: readable without JavaScript, printable. */
export const REPORT_CSS = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --soft: #f6f8fa; --accent: #4e79a7; }
* { box-sizing: border-box; }
body { margin: 0; background: #eef1f4; color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 28px 32px 64px; background: #fff; min-height: 100vh; }
h1 { font-size: 1.9em; margin: 0 0 0.1em; line-height: 1.2; }
h2 { font-size: 1.35em; margin: 2.2em 0 0.6em; padding-bottom: 0.25em; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.1em; margin: 1.4em 0 0.4em; }
p { margin: 0.4em 0 0.8em; }
.meta, .note, figcaption, footer { color: var(--muted); }
.note { font-size: 0.92em; }
.judges { margin: 0.6em 0; }
.judge { display: inline-block; padding: 1px 8px; margin: 0 4px 4px 0; border: 1px solid var(--line); border-radius: 10px; background: var(--soft); font-size: 0.92em; }
.banner { margin: 1em 0; padding: 0.8em 1em; border-left: 6px solid #b35c00; background: #fff4e5; }
.banner strong { color: #8a4600; }
.usage { margin: 0.6em 0; padding: 0.5em 0.8em; background: var(--soft); border-radius: 4px; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 0.88em; overflow-x: auto; white-space: pre; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.4em; columns: 2; }
.table-wrap { overflow-x: auto; margin: 0.4em 0 1em; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
td.ef-num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap td { white-space: nowrap; }
.table-wrap td.error { white-space: normal; min-width: 24em; }
.charts { display: grid; grid-template-columns: minmax(0, 1fr); gap: 20px; }
figure { margin: 0; padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; background: #fff; }
figure h3 { margin: 0 0 0.4em; font-size: 1em; }
figcaption { font-size: 0.88em; margin-top: 0.5em; }
.chart { min-height: 60px; }
.chart-failed { color: #b3261e; font-size: 0.9em; }
article.row { margin: 16px 0; padding: 10px 16px 12px; border: 1px solid var(--line); border-radius: 6px; }
article.row table { margin: 0.2em 0 0.6em; }
article.row pre { background: var(--soft); padding: 0.5em 0.8em; border-radius: 4px; overflow-x: auto; font-size: 0.85em; }
.contexts { margin: 0.3em 0 0.6em 1.2em; padding: 0; font-size: 0.92em; }
.error { color: #b3261e; }
footer { margin-top: 3em; padding-top: 1em; border-top: 1px solid var(--line); font-size: 0.88em; }
@media (max-width: 700px) { main { padding: 16px; } nav.toc ol { columns: 1; } }
@media print { body { background: #fff; } main { padding: 0; } figure, article.row { break-inside: avoid; } }
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
