import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { changeWithCI, compareRuns, createJudge, loadDataset, pairedDifferences, scoreAnswerCorrectness, scoreMultimodalRelevance } from "../src/index";
import { dumpDom, ERROR_PROBE, pageResult, screenshot } from "./support/browser";
import { tempDir } from "./support/files";
import { chartGallery } from "./support/gallery";

const ROOT = path.join(__dirname, "..");
const script = (rel: string) => `<script src="${path.join(ROOT, "node_modules", rel)}"></script>`;

describe("charts in a real browser (vega-embed in headless Chromium)", () => {
  it("renders every chart with no console error, and takes a screenshot", async () => {
    const judge = createJudge({ judge: "offline" });
    const scored = await scoreAnswerCorrectness(await loadDataset(path.join(ROOT, "data", "qa-models.csv")), { judge, progress: false, quiet: true });
    const judged = await scoreMultimodalRelevance(await loadDataset(path.join(ROOT, "data", "multimodal.csv")), { judge, imageRoot: path.join(ROOT, "data"), progress: false, quiet: true });
    const gallery = {
      ...chartGallery(scored, judged),
      pairedOnePair: pairedDifferences(scored, { a: "atlas-pro", b: "swift-mini" }),
      changeWithCI: changeWithCI(compareRuns(scored, scored, { bootstrap: 100 }), { judgeLabel: "offline (approximate)" }),
    };
    const names = Object.keys(gallery);
    const html = `<!doctype html><html><head><meta charset="utf-8">${ERROR_PROBE}
${script("vega/build/vega.min.js")}${script("vega-lite/build/vega-lite.min.js")}${script("vega-embed/build/vega-embed.min.js")}
</head><body>
${names.map((n) => `<h3>${n}</h3><div id="${n}"></div>`).join("\n")}
<pre id="result"></pre>
<script>
const specs = ${JSON.stringify(gallery)};
Promise.allSettled(Object.entries(specs).map(([name, spec]) => vegaEmbed("#" + name, spec, { renderer: "svg", actions: false })))
  .then((results) => {
    const failed = results.flatMap((r, i) => r.status === "rejected" ? [Object.keys(specs)[i] + ": " + r.reason] : []);
    const drawn = Object.keys(specs).filter((name) => document.querySelector("#" + name + " svg .mark-group, #" + name + " svg .role-mark"));
    document.getElementById("result").textContent = JSON.stringify({ errors: window.__errors.concat(failed), drawn });
  });
</script></body></html>`;
    const dir = tempDir();
    const page = path.join(dir, "charts.html");
    writeFileSync(page, html);
    const result = pageResult<{ errors: string[]; drawn: string[] }>(dumpDom(page));
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.drawn.sort(), [...names].sort(), "every chart drew its marks");
    const shot = path.join(dir, "charts.png");
    screenshot(page, shot);
    assert.ok(existsSync(shot) && statSync(shot).size > 50_000, "a screenshot with content");
    const png = readFileSync(shot);
    assert.equal(png.readUInt32BE(16), 1280);
  });
});
