/**
 * A model named in Arabic letters, in the report's headline: the mean and
 * interval written after it read left to right in the browser ("0.64
 * (0.58–0.69)"), as the other models' do, rather than being pulled into the
 * name's right-to-left run ("(0.69–0.58) 0.64").
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildReport } from "../src/index";
import { isolatingEscaper } from "../src/report/bidi";
import { escapeHtml } from "../src/display/html";
import { dumpDom, pageResult } from "./support/browser";
import { tempDir, writeText } from "./support/files";

const ARABIC = "نموذج-عربي-كبير";
const HEBREW = "מודל";

/** Three models over 12 questions: the Arabic one ranked in the middle, so that numbers follow its name in the ranking. */
function rows(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 12; q++) {
    for (const [model, base] of [["atlas-pro", 0.75], [ARABIC, 0.55], ["swift-mini", 0.3]] as const) {
      out.push({ id: `q${q}`, model, user_input: `question ${q}`, response: "an answer", reference: "the reference", answer_correctness: base + ((q * 7) % 5) / 25 });
    }
  }
  return out;
}

/** Every "mean (low–high)" in the headline's text nodes, with the left edges of the three numbers as drawn. */
const PROBE = `function probe(doc) {
  const found = [];
  const walker = doc.createTreeWalker(doc.getElementById("headline"), NodeFilter.SHOW_TEXT);
  const re = /(\\d\\.\\d\\d) \\((\\d\\.\\d\\d)–(\\d\\.\\d\\d)\\)/g;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let m;
    while ((m = re.exec(node.data)) !== null) {
      const left = (text, from) => { const i = node.data.indexOf(text, from); const r = doc.createRange(); r.setStart(node, i); r.setEnd(node, i + text.length); return r.getBoundingClientRect().left; };
      const at = m.index;
      found.push({ text: m[0], mean: left(m[1], at), low: left(m[2], at + m[1].length), high: left(m[3], at + m[1].length + m[2].length + 2) });
    }
  }
  return found;
}`;

describe("right-to-left model names in the report", () => {
  it("the escaper isolates right-to-left names only, longest first, and still escapes markup", () => {
    const text = isolatingEscaper([ARABIC, "نموذج", HEBREW, "<b>atlas</b>"]);
    assert.equal(text(`${ARABIC} 0.64 (0.58–0.69), نموذج 0.5, ${HEBREW} & <b>atlas</b>`), `<bdi>${ARABIC}</bdi> 0.64 (0.58–0.69), <bdi>نموذج</bdi> 0.5, <bdi>${HEBREW}</bdi> &amp; &lt;b&gt;atlas&lt;/b&gt;`);
    assert.equal(isolatingEscaper(["atlas", "swift"])("atlas <x>"), escapeHtml("atlas <x>"), "left-to-right names: plain escaping");
  });

  it("the headline's numbers after an Arabic name read left to right in Chromium", () => {
    const html = buildReport(rows(), { generatedAt: null });
    assert.ok(html.includes(`<bdi>${ARABIC}</bdi>`), "the name is isolated in the page");
    const dir = tempDir();
    const page = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<iframe id="report" sandbox="allow-same-origin" style="width:1000px;height:600px;border:0" srcdoc="${escapeHtml(html)}"></iframe>
<pre id="result"></pre>
<script>
${PROBE}
const frame = document.getElementById("report");
(function wait() {
  const doc = frame.contentDocument;
  if (doc && doc.readyState === "complete" && doc.getElementById("headline")) document.getElementById("result").textContent = JSON.stringify(probe(doc));
  else setTimeout(wait, 50);
})();
</script></body></html>`;
    const found = pageResult<{ text: string; mean: number; low: number; high: number }[]>(dumpDom(writeText(dir, "bidi.html", page), 20_000, { windowSize: "1100,800" }));
    assert.ok(found.length >= 2, `intervals found in the headline: ${JSON.stringify(found)}`);
    for (const f of found) {
      assert.ok(f.mean < f.low && f.low < f.high, `"${f.text}" is drawn out of order (mean at ${f.mean}, low at ${f.low}, high at ${f.high} px)`);
    }
  });
});
